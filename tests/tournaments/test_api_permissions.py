"""The permission matrix (issue 4 §2): every endpoint of the tournaments API against every role,
checked on the object.

Roles: anonymous, a signed-in outsider, the player the request is about, a player of another
entry of the same event, a judge and a co-organiser of this event, its owner, and a judge and
the owner of *another* event. Each case builds its event in the stage the endpoint needs,
sends one request as that role and asserts the status: the allowed roles get the success
status; the others 403 (anonymous: 401/403), or 404 where the object is hidden from them
(drafts, draft rounds, private events). ``test_matrix_covers_every_endpoint`` fails when an
endpoint is added without a row here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern

from tests.factories import ILLEGAL_DECK, UserFactory, make_tournament
from tournaments import api_urls, services
from tournaments.models import (
    DeckSubmission,
    Entry,
    Match,
    Player,
    ResultReport,
    Round,
    StaffRole,
    Tournament,
)

pytestmark = pytest.mark.django_db

BASE = "/api/tournaments/"

ANON = "anonymous"
OUTSIDER = "outsider"
PLAYER = "player"
OTHER_PLAYER = "other_player"
JUDGE = "judge"
OTHER_JUDGE = "other_judge"
CO_ORGANISER = "co_organiser"
OWNER = "owner"
OTHER_ORGANISER = "other_organiser"

ROLES = [
    ANON,
    OUTSIDER,
    PLAYER,
    OTHER_PLAYER,
    JUDGE,
    OTHER_JUDGE,
    CO_ORGANISER,
    OWNER,
    OTHER_ORGANISER,
]
EVERYONE = frozenset(ROLES)
SIGNED_IN = EVERYONE - {ANON}
MANAGERS = frozenset({CO_ORGANISER, OWNER})
JUDGES = MANAGERS | {JUDGE}
STAFF = JUDGES
OUTSIDERS = frozenset({OUTSIDER, OTHER_JUDGE, OTHER_ORGANISER})
PLAYERS = frozenset({PLAYER, OTHER_PLAYER})

# Stages of the event a request needs.
DRAFT = "draft"  # tournament in draft, staff appointed, no entries
REG = "registration"  # registration open, 4 entries (player → entry 1, other player → entry 2)
RUN = "running"  # round 1 published; player plays `match`, other player another table
DRAFT_ROUND = "draft_round"  # round 1 paired but not published
PLAYED = "played"  # round 1 published, every match complete
ROUND_DONE = "round_done"  # round 1 finished


@dataclass
class World:
    t: Tournament
    users: dict[str, Any]
    entry: Entry | None = None  # the player's entry
    other_entry: Entry | None = None  # the other player's entry
    match: Match | None = None  # the player's match in round 1
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def a(self) -> int:
        return self.match.entry_a_id

    @property
    def b(self) -> int:
        return self.match.entry_b_id


def link(entry: Entry, user) -> None:
    Player.objects.filter(memberships__entry=entry).update(user=user)


def hkk_games(m: Match) -> list[dict[str, Any]]:
    """A 2–1 for entry A following the HKK rule (A goes first in games 1 and 3, B in 2)."""
    a, b = m.entry_a_id, m.entry_b_id
    return [
        {"number": 1, "winner": a, "first": a},
        {"number": 2, "winner": b, "first": b},
        {"number": 3, "winner": a, "first": a},
    ]


def play_all(rnd: Round) -> None:
    for m in rnd.matches.filter(entry_b__isnull=False):
        for g in hkk_games(m):
            services.game_record(
                match=m,
                number=g["number"],
                winner_entry=g["winner"],
                first_entry=g["first"],
                right_holder_entry=g["first"],
            )


def build(stage: str, *, public: bool = True) -> World:
    users = {role: UserFactory(username=role) for role in ROLES if role != ANON}
    users[ANON] = None
    other, _ = make_tournament(owner=users[OTHER_ORGANISER])
    services.staff_appoint(
        tournament=other, user=users[OTHER_JUDGE], role="judge", by=users[OTHER_ORGANISER]
    )
    if stage == DRAFT:
        t = services.tournament_create(owner=users[OWNER], name="Draft", format_slug="hkk")
    else:
        t, _ = make_tournament(entries=4, decks=False, owner=users[OWNER])
    if not public:
        Tournament.objects.filter(pk=t.pk).update(is_public=False)
        t.refresh_from_db()
    services.staff_appoint(
        tournament=t, user=users[CO_ORGANISER], role="organiser", by=users[OWNER]
    )
    services.staff_appoint(tournament=t, user=users[JUDGE], role="judge", by=users[OWNER])
    world = World(t=t, users=users)
    if stage == DRAFT:
        return world
    entries = list(t.entries.order_by("id"))
    if stage == REG:
        world.entry, world.other_entry = entries[0], entries[1]
        link(world.entry, users[PLAYER])
        link(world.other_entry, users[OTHER_PLAYER])
        return world
    t = services.tournament_start(tournament=t)
    rnd = services.round_pair_next(tournament=t, seed=7)
    m = rnd.matches.order_by("table").first()
    other_match = rnd.matches.order_by("table").last()
    world.t, world.match = t, m
    world.entry = Entry.objects.get(pk=m.entry_a_id)
    world.other_entry = Entry.objects.get(pk=other_match.entry_a_id)
    link(world.entry, users[PLAYER])
    link(world.other_entry, users[OTHER_PLAYER])
    if stage == DRAFT_ROUND:
        return world
    rnd = services.round_publish(round=rnd)
    if stage == RUN:
        return world
    play_all(rnd)
    if stage == ROUND_DONE:
        services.round_finish(round=rnd)
    return world


@dataclass(frozen=True)
class Case:
    """One endpoint: ``allowed`` roles get ``ok``; ``hidden`` roles 404; anonymous 401/403
    when ``auth_first`` (anything needing a role) else 404 if hidden; the rest 403.
    ``special`` overrides single roles (e.g. already registered → 409)."""

    name: str  # URL name in tournaments.api_urls
    method: str
    stage: str
    path: Callable[[World], str]
    allowed: frozenset[str]
    ok: int
    body: Callable[[World], Any] | None = None
    hidden: frozenset[str] = frozenset()
    auth_first: bool = True
    special: dict[str, int] = field(default_factory=dict)
    prepare: Callable[[World], None] | None = None
    label: str = ""

    @property
    def id(self) -> str:
        return f"{self.method} {self.name}{'[' + self.label + ']' if self.label else ''}"

    def expected(self, role: str) -> tuple[int, ...]:
        if role in self.special:
            return (self.special[role],)
        if role in self.allowed:
            return (self.ok,)
        if role == ANON and self.auth_first:
            return (401, 403)
        if role in self.hidden:
            return (404,)
        return (401, 403) if role == ANON else (403,)


def t_url(suffix: str = "") -> Callable[[World], str]:
    return lambda w: f"{BASE}{w.t.pk}/{suffix}"


def record_report(w: World) -> None:
    w.extra["report"] = services.result_report_submit(
        match=w.match, entry=w.a, user=w.users[PLAYER], games=hkk_games(w.match)
    )


def add_deck_check(w: World) -> None:
    w.extra["check"] = services.deck_check_add(round=w.match.round, entry=w.entry)


def prepare_game3(w: World) -> None:
    services.match_set_die_roll(match=w.match, winner_entry=w.a, reroll_game3_agreed=True)
    for g in hkk_games(w.match)[:2]:
        services.game_record(
            match=w.match, number=g["number"], winner_entry=g["winner"], first_entry=g["first"]
        )


def create_newbie(w: World) -> None:
    w.extra["newbie"] = UserFactory(username="newbie")


def game_one(w: World) -> dict[str, Any]:
    return {"number": 1, "winner": w.a, "first": w.a, "right_holder": w.a}


READ = {"auth_first": False}
DRAFT_HIDDEN = PLAYERS | OUTSIDERS  # a draft is visible to its staff only

CASES = [
    # tournaments
    Case("tournaments-list", "get", REG, lambda w: BASE, EVERYONE, 200, **READ),
    Case(
        "tournaments-list",
        "post",
        REG,
        lambda w: BASE,
        SIGNED_IN,
        201,
        body=lambda w: {"name": "Mine", "format": "hkk"},
    ),
    Case("tournaments-detail", "get", REG, t_url(), EVERYONE, 200, **READ),
    Case(
        "tournaments-detail",
        "get",
        DRAFT,
        t_url(),
        STAFF,
        200,
        hidden=DRAFT_HIDDEN | {ANON},
        label="draft",
        **READ,
    ),
    Case(
        "tournaments-open-registration",
        "post",
        DRAFT,
        t_url("open-registration/"),
        MANAGERS,
        200,
        hidden=DRAFT_HIDDEN,
    ),
    Case("tournaments-start", "post", REG, t_url("start/"), MANAGERS, 200),
    Case("tournaments-finish", "post", ROUND_DONE, t_url("finish/"), MANAGERS, 200),
    # entries, self-registration and deck lists
    Case("tournaments-entries", "get", REG, t_url("entries/"), EVERYONE, 200, **READ),
    Case(
        "tournaments-entries",
        "post",
        REG,
        t_url("entries/"),
        MANAGERS,
        201,
        body=lambda w: {"players": ["Newcomer"]},
    ),
    Case(
        "tournaments-register",
        "post",
        REG,
        t_url("register/"),
        SIGNED_IN,
        201,
        body=lambda w: {},
        special={PLAYER: 409, OTHER_PLAYER: 409},  # already registered
    ),
    Case(
        "tournaments-entry-decks",
        "post",
        REG,
        lambda w: f"{BASE}{w.t.pk}/entries/{w.entry.pk}/decks/",
        MANAGERS | {PLAYER},
        201,
        body=lambda w: {"text": ILLEGAL_DECK},
    ),
    Case(
        "tournaments-entry-decks",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/entries/{w.entry.pk}/decks/",
        frozenset(),
        201,
        body=lambda w: {"text": ILLEGAL_DECK},
        special={PLAYER: 409, CO_ORGANISER: 409, OWNER: 409},  # lists_locked
        label="locked",
    ),
    Case(
        "tournaments-entry-decks",
        "get",
        REG,
        lambda w: f"{BASE}{w.t.pk}/entries/{w.entry.pk}/decks/",
        JUDGES | {PLAYER},
        200,
    ),
    Case(
        "tournaments-entry-override",
        "post",
        REG,
        lambda w: f"{BASE}{w.t.pk}/entries/{w.entry.pk}/override/",
        MANAGERS,
        200,
        body=lambda w: {"reason": "lost list"},
    ),
    Case(
        "tournaments-entry-drop",
        "post",
        REG,
        lambda w: f"{BASE}{w.t.pk}/entries/{w.entry.pk}/drop/",
        MANAGERS,
        200,
        body=lambda w: {},
    ),
    # rounds
    Case("tournaments-rounds", "get", RUN, t_url("rounds/"), EVERYONE, 200, **READ),
    Case("tournaments-rounds", "post", ROUND_DONE, t_url("rounds/"), MANAGERS, 201),
    Case("tournaments-round", "get", RUN, t_url("rounds/1/"), EVERYONE, 200, **READ),
    Case(
        "tournaments-round",
        "get",
        DRAFT_ROUND,
        t_url("rounds/1/"),
        MANAGERS,
        200,
        hidden=EVERYONE - MANAGERS,
        label="draft",
        **READ,
    ),
    Case(
        "tournaments-round-swap",
        "post",
        DRAFT_ROUND,
        t_url("rounds/1/swap/"),
        MANAGERS,
        200,
        body=lambda w: {"table_x": 1, "table_y": 2, "swap": "b"},
    ),
    Case(
        "tournaments-round-publish", "post", DRAFT_ROUND, t_url("rounds/1/publish/"), MANAGERS, 200
    ),
    Case("tournaments-round-finish", "post", PLAYED, t_url("rounds/1/finish/"), MANAGERS, 200),
    Case(
        "tournaments-round-pairings-csv",
        "get",
        RUN,
        t_url("rounds/1/pairings.csv"),
        EVERYONE,
        200,
        **READ,
    ),
    # matches and games
    Case(
        "tournaments-table-games",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/rounds/1/tables/{w.match.table}/games/",
        JUDGES,
        201,
        body=game_one,
    ),
    Case(
        "tournaments-match",
        "get",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/",
        EVERYONE,
        200,
        **READ,
    ),
    Case(
        "tournaments-match-die-roll",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/die-roll/",
        JUDGES,
        200,
        body=lambda w: {"winner": w.a},
    ),
    Case(
        "tournaments-match-game3-roll",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/game3-roll/",
        JUDGES,
        200,
        body=lambda w: {"winner": w.b},
        prepare=prepare_game3,
    ),
    Case(
        "tournaments-match-games",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/games/",
        JUDGES,
        201,
        body=game_one,
    ),
    # result reports and disputes
    Case(
        "tournaments-match-reports",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/reports/",
        frozenset({PLAYER}),
        201,
        body=lambda w: {"games": hkk_games(w.match)},
    ),
    Case(
        "tournaments-match-reports",
        "get",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/reports/",
        JUDGES | {PLAYER},
        200,
        prepare=record_report,
    ),
    Case(
        "tournaments-report-confirm",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/reports/{w.extra['report'].pk}/confirm/",
        JUDGES,
        200,
        prepare=record_report,
    ),
    Case("tournaments-disputes", "get", RUN, t_url("disputes/"), JUDGES, 200),
    # deck checks
    Case("tournaments-round-deck-checks", "get", RUN, t_url("rounds/1/deck-checks/"), JUDGES, 200),
    Case(
        "tournaments-round-deck-checks",
        "post",
        RUN,
        t_url("rounds/1/deck-checks/"),
        JUDGES,
        201,
        body=lambda w: {"entry": w.other_entry.pk},
    ),
    Case(
        "tournaments-round-deck-checks-pick",
        "post",
        RUN,
        t_url("rounds/1/deck-checks/pick/"),
        JUDGES,
        200,
        body=lambda w: {"seed": 3},
    ),
    Case(
        "tournaments-deck-check-record",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/deck-checks/{w.extra['check'].pk}/record/",
        JUDGES,
        200,
        body=lambda w: {"outcome": "problem", "penalty": "warning", "notes": "sleeves"},
        prepare=add_deck_check,
    ),
    # staff
    Case("tournaments-staff", "get", REG, t_url("staff/"), MANAGERS, 200),
    Case(
        "tournaments-staff",
        "post",
        REG,
        t_url("staff/"),
        frozenset({OWNER}),
        201,
        body=lambda w: {"username": "newbie", "role": "judge"},
        prepare=create_newbie,
    ),
    Case(
        "tournaments-staff-remove",
        "delete",
        REG,
        lambda w: f"{BASE}{w.t.pk}/staff/{w.users[JUDGE].pk}/",
        frozenset({OWNER}),
        204,
    ),
    # the caller's view, standings and export
    Case("tournaments-me", "get", RUN, t_url("me/"), SIGNED_IN, 200),
    Case("tournaments-standings", "get", RUN, t_url("standings/"), EVERYONE, 200, **READ),
    Case("tournaments-standings-csv", "get", RUN, t_url("standings.csv"), EVERYONE, 200, **READ),
    Case("tournaments-export", "get", RUN, t_url("export/"), EVERYONE, 200, **READ),
]


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def send(case: Case, world: World, role: str):
    client = client_for(world.users[role])
    body = case.body(world) if case.body else None
    call = getattr(client, case.method)
    if case.method == "get":
        return call(case.path(world))
    return call(case.path(world), body, content_type="application/json")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_permission_matrix(case: Case, role: str):
    world = build(case.stage)
    if case.prepare is not None:
        case.prepare(world)
    response = send(case, world, role)
    expected = case.expected(role)
    detail = response.content[:300]
    assert response.status_code in expected, f"{case.id} as {role}: {detail!r}"


def test_matrix_covers_every_endpoint():
    """Every (URL name, method) of the tournaments API has a row in the matrix."""
    routes = set()
    for pattern in api_urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        view = pattern.callback.view_class
        for method in ("get", "post", "put", "patch", "delete"):
            if hasattr(view, method):
                routes.add((pattern.name, method))
    covered = {(c.name, c.method) for c in CASES}
    assert routes - covered == set()
    assert covered - routes == set()


# --- private events -----------------------------------------------------------------------

PRIVATE_READS = [
    ("detail", t_url()),
    ("entries", t_url("entries/")),
    ("rounds", t_url("rounds/")),
    ("round", t_url("rounds/1/")),
    ("pairings.csv", t_url("rounds/1/pairings.csv")),
    ("match", lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/"),
    ("standings", t_url("standings/")),
    ("standings.csv", t_url("standings.csv")),
    ("export", t_url("export/")),
    ("me", t_url("me/")),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "path"), PRIVATE_READS, ids=[n for n, _ in PRIVATE_READS])
def test_private_event_is_404_for_outsiders(name, path, role):
    world = build(RUN, public=False)
    response = client_for(world.users[role]).get(path(world))
    if role in STAFF | PLAYERS:
        assert response.status_code == 200, (name, role)
    elif role == ANON and name == "me":
        assert response.status_code in (401, 403)
    else:
        assert response.status_code == 404, (name, role)


@pytest.mark.parametrize("role", ROLES)
def test_private_event_is_listed_only_for_its_people(role):
    world = build(RUN, public=False)
    ids = {t["id"] for t in client_for(world.users[role]).get(BASE).json()}
    assert (world.t.pk in ids) == (role in STAFF | PLAYERS)


def test_draft_is_listed_for_its_staff_only():
    world = build(DRAFT)
    for role in ROLES:
        ids = {t["id"] for t in client_for(world.users[role]).get(BASE).json()}
        assert (world.t.pk in ids) == (role in STAFF), role


# --- deck lists ---------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_published_lists_are_open_to_the_event_players(role):
    world = build(REG)
    Tournament.objects.filter(pk=world.t.pk).update(decklists_published=True)
    url = f"{BASE}{world.t.pk}/entries/{world.entry.pk}/decks/"
    response = client_for(world.users[role]).get(url)
    if role in STAFF | PLAYERS:
        assert response.status_code == 200
    else:
        assert response.status_code in (401, 403)


def submit_own(world: World, role: str, body: dict[str, Any]):
    url = f"{BASE}{world.t.pk}/entries/{world.entry.pk}/decks/"
    return client_for(world.users[role]).post(url, body, content_type="application/json")


def test_player_cannot_change_someone_elses_list():
    world = build(REG)
    other_url = f"{BASE}{world.t.pk}/entries/{world.other_entry.pk}/decks/"
    r = client_for(world.users[PLAYER]).post(
        other_url, {"text": ILLEGAL_DECK}, content_type="application/json"
    )
    assert r.status_code == 403
    assert not DeckSubmission.objects.exists()
    own = submit_own(world, PLAYER, {"text": ILLEGAL_DECK})
    assert own.status_code == 201
    sub = DeckSubmission.objects.get()
    assert sub.member.entry_id == world.entry.pk and sub.submitted_by == world.users[PLAYER]


def test_player_cannot_submit_for_the_partner_seat():
    world = build(REG)
    team, _ = make_tournament(owner=world.users[OWNER], kind="pair", format_slug="hkk-paros")
    entry = services.entry_register_pair(tournament=team, player_a="Anna", player_b="Béla")
    link_seat = Player.objects.get(memberships__entry=entry, memberships__seat="A")
    Player.objects.filter(pk=link_seat.pk).update(user=world.users[PLAYER])
    url = f"{BASE}{team.pk}/entries/{entry.pk}/decks/"
    client = client_for(world.users[PLAYER])
    partner = client.post(url, {"text": ILLEGAL_DECK, "seat": "B"}, content_type="application/json")
    assert partner.status_code == 403
    own = client.post(url, {"text": ILLEGAL_DECK}, content_type="application/json")
    assert own.status_code == 201 and own.json()["seat"] == "A"


def test_locked_list_is_a_clear_error_for_the_player():
    world = build(RUN)
    r = submit_own(world, PLAYER, {"text": ILLEGAL_DECK})
    assert r.status_code == 409
    assert r.json()["code"] == "lists_locked"
    assert r.json()["message"]
    assert not DeckSubmission.objects.exists()


def test_rule_cards_of_others_are_hidden_in_the_entry_list():
    world = build(REG)
    services.deck_submit(
        tournament=world.t,
        entry=world.entry,
        player=Player.objects.get(memberships__entry=world.entry),
        text=ILLEGAL_DECK,
    )
    DeckSubmission.objects.update(rule_card="Ősi rúna")

    def rule_card(role: str) -> str:
        rows = client_for(world.users[role]).get(f"{BASE}{world.t.pk}/entries/").json()
        row = next(r for r in rows if r["id"] == world.entry.pk)
        return row["members"][0]["deck"]["rule_card"]

    for role in ROLES:
        visible = role in STAFF | {PLAYER}
        assert rule_card(role) == ("Ősi rúna" if visible else ""), role
    Tournament.objects.filter(pk=world.t.pk).update(decklists_published=True)
    assert rule_card(OTHER_PLAYER) == "Ősi rúna"
    assert rule_card(OUTSIDER) == ""


# --- denied writes change nothing ---------------------------------------------------------


def test_judge_of_another_event_cannot_record_or_confirm():
    world = build(RUN)
    record_report(world)
    client = client_for(world.users[OTHER_JUDGE])
    r1 = client.post(
        f"{BASE}{world.t.pk}/matches/{world.match.pk}/games/",
        game_one(world),
        content_type="application/json",
    )
    r2 = client.post(f"{BASE}{world.t.pk}/reports/{world.extra['report'].pk}/confirm/")
    assert (r1.status_code, r2.status_code) == (403, 403)
    assert not world.match.games.exists()
    assert ResultReport.objects.get().status == "pending"


def test_another_organiser_cannot_change_the_event():
    world = build(REG)
    client = client_for(world.users[OTHER_ORGANISER])
    for path, body in [
        ("start/", {}),
        ("entries/", {"players": ["X"]}),
        (f"entries/{world.entry.pk}/drop/", {}),
        ("staff/", {"username": OTHER_ORGANISER, "role": "organiser"}),
    ]:
        r = client.post(f"{BASE}{world.t.pk}/{path}", body, content_type="application/json")
        assert r.status_code == 403, path
    world.t.refresh_from_db()
    assert world.t.status == "registration"
    assert world.t.entries.count() == 4
    assert not StaffRole.objects.filter(tournament=world.t, user=world.users[OTHER_ORGANISER])


def test_co_organiser_cannot_appoint_staff():
    world = build(REG)
    r = client_for(world.users[CO_ORGANISER]).post(
        f"{BASE}{world.t.pk}/staff/",
        {"username": OUTSIDER, "role": "organiser"},
        content_type="application/json",
    )
    assert r.status_code == 403
    assert StaffRole.objects.filter(tournament=world.t).count() == 2


# --- the role flows through the API -------------------------------------------------------


def test_players_agree_through_the_api_and_the_match_counts():
    world = build(RUN)
    url = f"{BASE}{world.t.pk}/matches/{world.match.pk}/reports/"
    opponent = UserFactory(username="opponent")
    link(Entry.objects.get(pk=world.b), opponent)
    body = {"games": hkk_games(world.match)}
    first = client_for(world.users[PLAYER]).post(url, body, content_type="application/json")
    assert first.status_code == 201 and first.json()["status"] == "pending"
    assert first.json()["entry"] == world.a and first.json()["reported_by"] == PLAYER
    second = client_for(opponent).post(url, body, content_type="application/json")
    assert second.status_code == 201 and second.json()["status"] == "accepted"
    match = client_for(None).get(f"{BASE}{world.t.pk}/matches/{world.match.pk}/").json()
    assert match["complete"] is True and (match["a_wins"], match["b_wins"]) == (2, 1)
    listed = client_for(world.users[JUDGE]).get(url).json()
    assert [r["status"] for r in listed] == ["accepted", "accepted"]


def test_dispute_is_listed_for_judges_and_confirmed(django_assert_max_num_queries):
    world = build(RUN)
    url = f"{BASE}{world.t.pk}/matches/{world.match.pk}/reports/"
    opponent = UserFactory(username="opponent")
    link(Entry.objects.get(pk=world.b), opponent)
    games = hkk_games(world.match)
    client_for(world.users[PLAYER]).post(url, {"games": games}, content_type="application/json")
    other = [{**g, "winner": world.b} for g in games]
    r = client_for(opponent).post(url, {"games": other}, content_type="application/json")
    assert r.json()["status"] == "disputed"
    judge = client_for(world.users[JUDGE])
    with django_assert_max_num_queries(8):
        disputes = judge.get(f"{BASE}{world.t.pk}/disputes/").json()
    assert [(d["match"], len(d["reports"])) for d in disputes] == [(world.match.pk, 2)]
    chosen = disputes[0]["reports"][1]["id"]
    done = judge.post(f"{BASE}{world.t.pk}/reports/{chosen}/confirm/")
    assert done.status_code == 200 and done.json()["status"] == "accepted"
    assert done.json()["resolved_by"] == JUDGE
    assert judge.get(f"{BASE}{world.t.pk}/disputes/").json() == []
    again = judge.post(f"{BASE}{world.t.pk}/reports/{chosen}/confirm/")
    assert again.status_code == 409 and again.json()["code"] == "report_closed"


def test_report_with_a_wrong_first_player_is_a_400_with_the_code():
    world = build(RUN)
    games = hkk_games(world.match)
    games[1]["first"] = world.a
    r = client_for(world.users[PLAYER]).post(
        f"{BASE}{world.t.pk}/matches/{world.match.pk}/reports/",
        {"games": games},
        content_type="application/json",
    )
    assert r.status_code == 400 and r.json()["code"] == "first_player_mismatch"
    assert not ResultReport.objects.exists()


def test_deck_checks_through_the_api(django_assert_max_num_queries):
    world = build(RUN)
    judge = client_for(world.users[JUDGE])
    base = f"{BASE}{world.t.pk}/rounds/1/deck-checks/"
    picked = judge.post(base + "pick/", {"seed": 9}, content_type="application/json")
    assert picked.status_code == 200
    assert len(picked.json()) == 1 and picked.json()[0]["seed"] == 9
    again = judge.post(base + "pick/", {"seed": 10}, content_type="application/json").json()
    assert again == picked.json()
    chosen = {picked.json()[0]["entry"]}
    extra = next(e for e in world.t.entries.order_by("id") if e.pk not in chosen)
    added = judge.post(base, {"entry": extra.pk}, content_type="application/json")
    assert added.status_code == 201 and added.json()["random_pick"] is False
    dup = judge.post(base, {"entry": extra.pk}, content_type="application/json")
    assert dup.status_code == 409 and dup.json()["code"] == "deck_check_exists"
    record = f"{BASE}{world.t.pk}/deck-checks/{added.json()['id']}/record/"
    bad = judge.post(
        record, {"outcome": "ok", "penalty": "warning"}, content_type="application/json"
    )
    assert bad.status_code == 400 and bad.json()["code"] == "penalty_without_problem"
    ok = judge.post(
        record, {"outcome": "problem", "penalty": "game_loss"}, content_type="application/json"
    )
    assert ok.status_code == 200 and ok.json()["checked_by"] == JUDGE
    with django_assert_max_num_queries(8):
        listed = judge.get(base).json()
    assert {c["entry"] for c in listed} == chosen | {extra.pk}


def test_staff_appointed_through_the_api_gain_the_role():
    world = build(RUN)
    owner = client_for(world.users[OWNER])
    url = f"{BASE}{world.t.pk}/staff/"
    r = owner.post(url, {"username": OUTSIDER, "role": "judge"}, content_type="application/json")
    assert r.status_code == 201 and r.json()["role"] == "judge"
    roll = f"{BASE}{world.t.pk}/matches/{world.match.pk}/die-roll/"
    outsider = client_for(world.users[OUTSIDER])
    assert (
        outsider.post(roll, {"winner": world.a}, content_type="application/json").status_code == 200
    )
    unknown = owner.post(
        url, {"username": "nobody", "role": "judge"}, content_type="application/json"
    )
    assert unknown.status_code == 404 and unknown.json()["code"] == "user_not_found"
    self_appoint = owner.post(
        url, {"username": OWNER, "role": "judge"}, content_type="application/json"
    )
    assert self_appoint.status_code == 400 and self_appoint.json()["code"] == "owner_is_organiser"
    names = {s["username"] for s in owner.get(url).json()}
    assert names == {CO_ORGANISER, JUDGE, OUTSIDER}
    gone = owner.delete(f"{url}{world.users[OUTSIDER].pk}/")
    assert gone.status_code == 204
    assert (
        outsider.post(roll, {"winner": world.b}, content_type="application/json").status_code == 403
    )


def test_self_registration_through_the_api():
    world = build(REG)
    client = client_for(world.users[OUTSIDER])
    r = client.post(f"{BASE}{world.t.pk}/register/", {}, content_type="application/json")
    assert r.status_code == 201 and r.json()["name"] == OUTSIDER
    again = client.post(f"{BASE}{world.t.pk}/register/", {}, content_type="application/json")
    assert again.status_code == 409 and again.json()["code"] == "already_registered"
    me = client.get(f"{BASE}{world.t.pk}/me/").json()
    assert me["roles"] == ["player"] and me["entries"] == [r.json()["id"]]
    draft = services.tournament_create(owner=world.users[OWNER], name="D", format_slug="hkk")
    closed = client.post(f"{BASE}{draft.pk}/register/", {}, content_type="application/json")
    assert closed.status_code == 404  # a draft is not visible to outsiders


def test_me_lists_roles_and_own_matches():
    world = build(RUN)
    me = client_for(world.users[PLAYER]).get(f"{BASE}{world.t.pk}/me/").json()
    assert me["roles"] == ["player"] and me["entries"] == [world.entry.pk]
    assert [m["id"] for m in me["matches"]] == [world.match.pk]
    owner = client_for(world.users[OWNER]).get(f"{BASE}{world.t.pk}/me/").json()
    assert owner["roles"] == ["owner", "organiser", "judge"] and owner["matches"] == []
    judge = client_for(world.users[JUDGE]).get(f"{BASE}{world.t.pk}/me/").json()
    assert judge["roles"] == ["judge"]


def test_schema_lists_the_role_endpoints():
    paths = Client().get("/api/schema/?format=json").json()["paths"]
    t = "/api/tournaments/{tournament_id}/"
    expected = {
        t + "register/": "post",
        t + "entries/{entry_id}/decks/": "get",
        t + "staff/": "post",
        t + "staff/{user_id}/": "delete",
        t + "matches/{match_id}/reports/": "post",
        t + "reports/{report_id}/confirm/": "post",
        t + "disputes/": "get",
        t + "rounds/{number}/deck-checks/": "post",
        t + "rounds/{number}/deck-checks/pick/": "post",
        t + "deck-checks/{check_id}/record/": "post",
        t + "me/": "get",
    }
    for path, method in expected.items():
        assert path in paths and method in paths[path], path
        assert "403" in paths[path][method]["responses"], path
