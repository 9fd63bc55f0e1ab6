"""The roles, event stages and matrix rows shared by the permission tests of the tournaments
API: ``build(stage)`` makes an event with one user per role, ``Case`` is one row of the matrix
in ``test_api_permissions``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

from django.test import Client

from tests.api.tournaments.helpers import BASE
from tests.factories import UserFactory, hkk_deck, make_tournament
from tournaments import services
from tournaments.models import Entry, Match, Player, Round, Tournament
from tournaments.permissions import SYSTEM

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
    """The event of one stage; ``entry``, ``other_entry`` and ``match`` exist from the stage
    that makes them (reading one earlier is a bug in the test: it fails loudly)."""

    t: Tournament
    users: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)
    _entry: Entry | None = None
    _other_entry: Entry | None = None
    _match: Match | None = None

    @property
    def entry(self) -> Entry:
        """The player's entry."""
        assert self._entry is not None, "no entry at this stage"
        return self._entry

    @entry.setter
    def entry(self, value: Entry) -> None:
        self._entry = value

    @property
    def other_entry(self) -> Entry:
        """The other player's entry."""
        assert self._other_entry is not None, "no entry at this stage"
        return self._other_entry

    @other_entry.setter
    def other_entry(self, value: Entry) -> None:
        self._other_entry = value

    @property
    def match(self) -> Match:
        """The player's match in round 1 (never a bye)."""
        assert self._match is not None, "no round at this stage"
        return self._match

    @match.setter
    def match(self, value: Match) -> None:
        self._match = value

    @property
    def a(self) -> int:
        return self.match.entry_a_id

    @property
    def b(self) -> int:
        assert self.match.entry_b_id is not None
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
                actor=SYSTEM,
                match=m,
                number=g["number"],
                winner_entry=g["winner"],
                first_entry=g["first"],
                right_holder_entry=g["first"],
            )


def build(stage: str, *, public: bool = True) -> World:
    users: dict[str, Any] = {role: UserFactory(username=role) for role in ROLES if role != ANON}
    users[ANON] = None
    other, _ = make_tournament(owner=users[OTHER_ORGANISER])
    services.staff_appoint(
        tournament=other, user=users[OTHER_JUDGE], role="judge", actor=users[OTHER_ORGANISER]
    )
    if stage == DRAFT:
        t = services.tournament_create(owner=users[OWNER], name="Draft", format_slug="hkk")
    else:
        t, _ = make_tournament(entries=4, decks=False, owner=users[OWNER])
    if not public:
        Tournament.objects.filter(pk=t.pk).update(is_public=False)
        t.refresh_from_db()
    services.staff_appoint(
        tournament=t, user=users[CO_ORGANISER], role="organiser", actor=users[OWNER]
    )
    services.staff_appoint(tournament=t, user=users[JUDGE], role="judge", actor=users[OWNER])
    world = World(t=t, users=users)
    if stage == DRAFT:
        return world
    entries = list(t.entries.order_by("id"))
    if stage == REG:
        world.entry, world.other_entry = entries[0], entries[1]
        link(world.entry, users[PLAYER])
        link(world.other_entry, users[OTHER_PLAYER])
        return world
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t, seed=7)
    m = rnd.matches.order_by("table").first()
    other_match = rnd.matches.order_by("table").last()
    assert m is not None and other_match is not None
    world.t, world.match = t, m
    world.entry = Entry.objects.get(pk=m.entry_a_id)
    world.other_entry = Entry.objects.get(pk=other_match.entry_a_id)
    link(world.entry, users[PLAYER])
    link(world.other_entry, users[OTHER_PLAYER])
    if stage == DRAFT_ROUND:
        return world
    rnd = services.round_publish(actor=SYSTEM, round=rnd)
    if stage == RUN:
        return world
    play_all(rnd)
    if stage == ROUND_DONE:
        services.round_finish(actor=SYSTEM, round=rnd)
    return world


@dataclass(frozen=True)
class Case:
    """One endpoint: ``allowed`` roles get ``ok``; ``hidden`` roles 404; anonymous 401/403
    when ``auth_first`` (anything needing a role) else 404 if hidden; the rest 403.
    ``special`` overrides single roles (e.g. already registered → 409)."""

    name: str  # URL name in tournaments.api.urls
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
        match=w.match, entry=w.a, actor=w.users[PLAYER], games=hkk_games(w.match)
    )


def add_deck_check(w: World) -> None:
    w.extra["check"] = services.deck_check_add(actor=SYSTEM, round=w.match.round, entry=w.entry)


def prepare_game3(w: World) -> None:
    services.match_set_die_roll(
        actor=SYSTEM, match=w.match, winner_entry=w.a, reroll_game3_agreed=True
    )
    for g in hkk_games(w.match)[:2]:
        services.game_record(
            actor=SYSTEM,
            match=w.match,
            number=g["number"],
            winner_entry=g["winner"],
            first_entry=g["first"],
        )


def create_newbie(w: World) -> None:
    w.extra["newbie"] = UserFactory(username="newbie")


def game_one(w: World) -> dict[str, Any]:
    return {"number": 1, "winner": w.a, "first": w.a, "right_holder": w.a}


class _Read(TypedDict):
    auth_first: bool


READ: _Read = {"auth_first": False}


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def submit_unverified(world: World) -> None:
    """A current list of the player's entry naming a card the partial catalogue lacks."""
    member = world.entry.members.select_related("player").order_by("seat")[0]
    services.deck_submit(
        actor=SYSTEM,
        tournament=world.t,
        entry=world.entry,
        player=member.player,
        text=hkk_deck() + "\n1 Nincs ilyen lap a mintában\n",
    )
