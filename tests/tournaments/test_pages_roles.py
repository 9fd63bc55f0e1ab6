"""Issue-4 pages: the permission matrix (every page × anonymous, outsider, player, other player,
judge, judge of another event, organiser), the negative cases of the issue (another organiser's
event, a player changing someone else's list, a judge of a different event, a locked list,
private events, draft rounds), and the player, judge and organiser flows through the pages."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ILLEGAL_DECK, UserFactory, hkk_catalogue, hkk_deck, make_tournament
from tournaments import services
from tournaments.models import (
    DeckCheck,
    DeckSubmission,
    Entry,
    Game,
    Match,
    ResultReport,
    Round,
    StaffRole,
    Tournament,
)
from tournaments.views_selectors import next_action

pytestmark = pytest.mark.django_db

__all__ = ["hkk_catalogue"]

UNKNOWN_CARD_DECK = "Pakli:\n3 Gigaököl\n3 Nincsilyenlap\n"

ROLES = ("anonymous", "outsider", "player", "other_player", "judge", "other_judge", "organiser")


@dataclass
class World:
    tournament: Tournament
    round: Round
    users: dict[str, Any]
    player_entry: Entry
    other_entry: Entry
    match: Match

    def client(self, role: str, lang: str = "en") -> Client:
        c = Client()
        c.cookies["django_language"] = lang
        if role != "anonymous":
            c.force_login(self.users[role])
        return c


def build_world(*, public: bool = True) -> World:
    """A running event with round 1 published: two anonymous entries (P1, P2) and two entries
    of signed-in players; a judge; a judge of another event."""
    users = {
        name: UserFactory(username=name)
        for name in ("organiser", "outsider", "player", "other_player", "judge", "other_judge")
    }
    t, _ = make_tournament(entries=2, decks=False, owner=users["organiser"])
    mine = services.entry_self_register(tournament=t, user=users["player"])
    other = services.entry_self_register(tournament=t, user=users["other_player"])
    for e in (mine, other):
        services.entry_override_deck(entry=e, reason="test without decks")
    services.staff_appoint(tournament=t, user=users["judge"], role="judge", by=users["organiser"])
    elsewhere, _ = make_tournament(entries=0, decks=False, owner=UserFactory(username="org2"))
    services.staff_appoint(
        tournament=elsewhere, user=users["other_judge"], role="judge", by=elsewhere.owner
    )
    if not public:
        t.is_public = False
        t.save(update_fields=["is_public"])
    t = services.tournament_start(tournament=t)
    rnd = services.round_publish(round=services.round_pair_next(tournament=t, seed=7))
    match = rnd.matches.filter(entry_b__isnull=False).order_by("table").first()
    return World(t, rnd, users, mine, other, match)


@pytest.fixture
def world() -> World:
    return build_world()


def page_urls(w: World) -> dict[str, str]:
    t, n = w.tournament.pk, w.round.number
    return {
        "dashboard": reverse("tournaments:dashboard"),
        "my-events": reverse("tournaments:my-events"),
        "detail": reverse("tournaments:detail", args=[t]),
        "live": reverse("tournaments:live", args=[t]),
        "standings": reverse("tournaments:standings", args=[t]),
        "round": reverse("tournaments:round", args=[t, n]),
        "staff": reverse("tournaments:staff", args=[t]),
        "judge": reverse("tournaments:judge", args=[t]),
        "match": reverse("tournaments:match", args=[t, n, w.match.table]),
        "deck-checks": reverse("tournaments:deck-checks", args=[t, n]),
        "print-pairings": reverse("tournaments:print-pairings", args=[t, n]),
        "print-slips": reverse("tournaments:print-slips", args=[t, n]),
        "print-standings": reverse("tournaments:print-standings", args=[t]),
        "my-deck": reverse("tournaments:my-deck", args=[t]),
        "my-match": reverse("tournaments:my-match", args=[t]),
        "entry-lists": reverse("tournaments:entry-lists", args=[t, w.player_entry.pk]),
        "entry-deck": reverse("tournaments:entry-deck", args=[t, w.player_entry.pk]),
        "register": reverse("tournaments:register", args=[t]),
    }


LOGIN = 302
#: Expected status per page for the roles in ``ROLES`` order.
MATRIX: dict[str, tuple[int, ...]] = {
    #                anon  outs  play  othr  judge ojdg  org
    "dashboard": (LOGIN, 200, 200, 200, 200, 200, 200),
    "my-events": (LOGIN, 200, 200, 200, 200, 200, 200),
    "detail": (200, 200, 200, 200, 200, 200, 200),
    "live": (200, 200, 200, 200, 200, 200, 200),
    "standings": (200, 200, 200, 200, 200, 200, 200),
    "round": (200, 200, 200, 200, 200, 200, 200),
    "staff": (LOGIN, 403, 403, 403, 403, 403, 200),
    "judge": (LOGIN, 403, 403, 403, 200, 403, 200),
    "match": (LOGIN, 403, 403, 403, 200, 403, 200),
    "deck-checks": (LOGIN, 403, 403, 403, 200, 403, 200),
    "print-pairings": (LOGIN, 403, 403, 403, 200, 403, 200),
    "print-slips": (LOGIN, 403, 403, 403, 200, 403, 200),
    "print-standings": (LOGIN, 403, 403, 403, 200, 403, 200),
    "my-deck": (LOGIN, 404, 200, 200, 404, 404, 404),
    "my-match": (LOGIN, 404, 200, 200, 404, 404, 404),
    "entry-lists": (LOGIN, 403, 200, 403, 200, 403, 200),
    "entry-deck": (LOGIN, 403, 403, 403, 403, 403, 200),
    "register": (LOGIN, 200, 200, 200, 200, 200, 200),
}


def test_permission_matrix_of_every_page(world):
    urls = page_urls(world)
    assert set(urls) == set(MATRIX)
    failures = []
    for page, expected in MATRIX.items():
        for role, status in zip(ROLES, expected, strict=True):
            response = world.client(role).get(urls[page])
            if response.status_code != status:
                failures.append((page, role, status, response.status_code))
            if status == LOGIN:
                assert reverse("login") in response["Location"]
    assert failures == []


PRIVATE: dict[str, tuple[int, ...]] = {
    #           anon  outs  play  othr  judge ojdg  org
    "detail": (404, 404, 200, 200, 200, 404, 200),
    "live": (404, 404, 200, 200, 200, 404, 200),
    "standings": (404, 404, 200, 200, 200, 404, 200),
    "round": (404, 404, 200, 200, 200, 404, 200),
    "judge": (LOGIN, 404, 403, 403, 200, 404, 200),
    "my-deck": (LOGIN, 404, 200, 200, 404, 404, 404),
}


def test_private_event_is_hidden_from_outsiders_and_other_judges():
    w = build_world(public=False)
    urls = page_urls(w)
    for page, expected in PRIVATE.items():
        got = tuple(w.client(role).get(urls[page]).status_code for role in ROLES)
        assert got == expected, page
    listing = w.client("outsider").get(reverse("tournaments:list"))
    assert w.tournament.pk not in [x.pk for x in listing.context["tournaments"]]
    mine = w.client("player").get(reverse("tournaments:list"))
    assert w.tournament.pk in [x.pk for x in mine.context["tournaments"]]


def test_draft_round_is_shown_to_organisers_only(world):
    t = world.tournament
    for m in world.round.matches.all():
        if m.entry_b_id is None:
            continue
        services.match_set_die_roll(match=m, winner_entry=m.entry_a_id)
        for number, first in ((1, m.entry_a_id), (2, m.entry_b_id), (3, m.entry_a_id)):
            services.game_record(
                match=m, number=number, winner_entry=m.entry_a_id, first_entry=first
            )
    services.round_finish(round=world.round)
    services.round_pair_next(tournament=t, seed=3)
    draft = reverse("tournaments:round", args=[t.pk, 2])
    for role in ROLES:
        status = world.client(role).get(draft).status_code
        assert status == (200 if role == "organiser" else 404), role
    # Not on the live page either, not even for the organiser, and not in "my pairing".
    live = world.client("organiser").get(reverse("tournaments:live", args=[t.pk]))
    assert live.context["round"].number == 1
    mine = world.client("player").get(reverse("tournaments:my-match", args=[t.pk]))
    assert mine.context["round"].number == 1
    pdf = world.client("judge").get(reverse("tournaments:print-pairings", args=[t.pk, 2]))
    assert pdf.status_code == 404


# --- negative cases of the issue ----------------------------------------------------------


def test_another_organisers_event_cannot_be_changed(world):
    other_org = Client()
    other_org.force_login(UserFactory(username="org2"))
    t = world.tournament
    assert other_org.post(reverse("tournaments:round-finish", args=[t.pk, 1])).status_code == 403
    assert other_org.get(reverse("tournaments:staff", args=[t.pk])).status_code == 403
    r = other_org.post(
        reverse("tournaments:options", args=[t.pk]),
        {"is_public": "", "deck_check_percent": 50},
    )
    assert r.status_code == 403
    t.refresh_from_db()
    assert t.is_public and t.deck_check_percent == 10
    assert Round.objects.get(pk=world.round.pk).status == "published"


def test_a_player_cannot_change_someone_elses_list(world):
    c = world.client("player")
    url = reverse("tournaments:entry-deck", args=[world.tournament.pk, world.other_entry.pk])
    r = c.post(url, {"seat": "A", "text": "Pakli:\n3 Gigaököl\n"})
    assert r.status_code == 403
    assert not DeckSubmission.objects.filter(member__entry=world.other_entry).exists()


def test_judge_of_another_event_cannot_record_results(world):
    m = world.match
    url = reverse("tournaments:match", args=[world.tournament.pk, 1, m.table])
    c = world.client("other_judge")
    assert c.post(url, {"roll-winner": str(m.entry_a_id)}).status_code == 403
    assert c.post(url, {"quick-number": 1, "quick-result": "a"}).status_code == 403
    m.refresh_from_db()
    assert m.die_roll_winner_id is None and not Game.objects.filter(match=m).exists()
    picks = reverse("tournaments:deck-checks-pick", args=[world.tournament.pk, 1])
    assert c.post(picks).status_code == 403
    assert not DeckCheck.objects.exists()


def test_only_the_owner_appoints_staff(world):
    t = world.tournament
    services.staff_appoint(
        tournament=t, user=world.users["outsider"], role="organiser", by=world.users["organiser"]
    )
    co = world.client("outsider")  # now a co-organiser: may look, may not appoint
    assert co.get(reverse("tournaments:staff", args=[t.pk])).status_code == 200
    r = co.post(
        reverse("tournaments:staff-appoint", args=[t.pk]), {"username": "player", "role": "judge"}
    )
    assert r.status_code == 403
    r = co.post(reverse("tournaments:staff-remove", args=[t.pk]), {"username": "judge"})
    assert r.status_code == 403
    assert StaffRole.objects.filter(tournament=t, user=world.users["judge"]).exists()
    assert not StaffRole.objects.filter(tournament=t, user=world.users["player"]).exists()


def test_judge_and_players_cannot_report_for_others(world):
    """A judge with no entry has no "my pairing"; a player's report is always for their own
    entry (the form has no entry field)."""
    url = reverse("tournaments:my-match", args=[world.tournament.pk])
    assert world.client("judge").post(url, {"g1_result": "mine"}).status_code == 404
    assert not ResultReport.objects.exists()


def test_other_players_see_lists_once_published(world, hkk_catalogue):
    t = world.tournament
    url = reverse("tournaments:entry-lists", args=[t.pk, world.player_entry.pk])
    assert world.client("other_player").get(url).status_code == 403
    owner = world.client("organiser")
    owner.post(
        reverse("tournaments:options", args=[t.pk]),
        {"is_public": "on", "decklists_published": "on", "deck_check_percent": 10},
    )
    t.refresh_from_db()
    assert t.decklists_published
    assert world.client("other_player").get(url).status_code == 200
    assert world.client("outsider").get(url).status_code == 403  # not a player of the event


# --- organiser flow -----------------------------------------------------------------------


def test_create_event_with_every_option(world):
    c = world.client("organiser")
    r = c.post(
        reverse("tournaments:create"),
        {
            "name": "Tavaszi kupa",
            "format": "hkk",
            "kind": "individual",
            "games_per_match": 3,
            "stop_at_two_wins": "on",
            "tiebreaker_1": "game_points",
            "tiebreaker_2": "buchholz",
            "tiebreaker_3": "",
            "tiebreaker_4": "",
            "first_player_policy": "loser_chooses",
            "decklists_published": "on",
            "deck_check_percent": 25,
            "late_entry_cutoff_round": 3,
        },
    )
    t = Tournament.objects.get(name="Tavaszi kupa")
    assert t.late_entry_cutoff_round == 3
    assert r.status_code == 302
    assert t.tiebreakers == ["game_points", "buchholz"]
    assert t.first_player_policy == "loser_chooses" and t.stop_at_two_wins
    assert not t.is_public and t.decklists_published and t.deck_check_percent == 25


def test_create_refuses_a_repeated_tiebreaker(world):
    c = world.client("organiser")
    r = c.post(
        reverse("tournaments:create"),
        {
            "name": "Rossz",
            "format": "hkk",
            "kind": "individual",
            "tiebreaker_1": "buchholz",
            "tiebreaker_2": "buchholz",
            "deck_check_percent": 10,
        },
    )
    assert r.status_code == 200 and r.context["form"].errors
    assert not Tournament.objects.filter(name="Rossz").exists()


def test_dashboard_lists_owned_and_coorganised_events_with_next_step(world):
    t = world.tournament
    html = world.client("organiser").get(reverse("tournaments:dashboard")).content.decode()
    assert f'data-testid="dashboard-event-{t.pk}"' in html
    assert 'data-action="results"' in html
    co_owned = services.tournament_create(
        owner=UserFactory(username="someone"), name="Közös", format_slug="hkk"
    )
    services.staff_appoint(
        tournament=co_owned, user=world.users["organiser"], role="organiser", by=co_owned.owner
    )
    r = world.client("organiser").get(reverse("tournaments:dashboard"))
    rows = {row["tournament"].pk: row for row in r.context["rows"]}
    assert rows[co_owned.pk]["action"].code == "open_registration"
    assert not rows[co_owned.pk]["owner"]
    judged = world.client("judge").get(reverse("tournaments:dashboard"))
    assert [x.pk for x in judged.context["judged"]] == [t.pk]


def test_staff_page_appoints_and_removes_by_username(world):
    t = world.tournament
    c = world.client("organiser")
    r = c.post(
        reverse("tournaments:staff-appoint", args=[t.pk]),
        {"username": "OUTSIDER", "role": "judge"},
        follow=True,
    )
    assert StaffRole.objects.get(tournament=t, user=world.users["outsider"]).role == "judge"
    assert 'data-testid="staff-outsider"' in r.content.decode()
    r = c.post(
        reverse("tournaments:staff-appoint", args=[t.pk]),
        {"username": "nobody", "role": "judge"},
        follow=True,
    )
    assert any("nobody" in str(m) for m in r.context["messages"])
    c.post(reverse("tournaments:staff-remove", args=[t.pk]), {"username": "outsider"})
    assert not StaffRole.objects.filter(tournament=t, user=world.users["outsider"]).exists()


# --- player flow --------------------------------------------------------------------------


def _csrf(client: Client, url: str) -> str:
    html = client.get(url).content.decode()
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def test_player_registers_submits_an_illegal_then_a_legal_list(hkk_catalogue):
    owner = UserFactory(username="organiser")
    t = services.tournament_open_registration(
        tournament=services.tournament_create(owner=owner, name="Kupa", format_slug="hkk")
    )
    user = UserFactory(username="gyozo", first_name="Győző", last_name="Őrös")
    c = Client(enforce_csrf_checks=True)
    c.cookies["django_language"] = "en"
    c.force_login(user)

    events = c.get(reverse("tournaments:my-events"))
    assert [x.pk for x in events.context["open"]] == [t.pk]
    register = reverse("tournaments:register", args=[t.pk])
    r = c.post(register, {"csrfmiddlewaretoken": _csrf(c, register)})
    assert r.status_code == 302 and r["Location"] == reverse("tournaments:my-deck", args=[t.pk])
    entry = Entry.objects.get(tournament=t)
    assert entry.members.get().player.user == user

    deck_url = reverse("tournaments:my-deck", args=[t.pk])
    page = c.get(deck_url).content.decode()
    assert "data-live-validate" in page and 'data-format="hkk"' in page
    assert reverse("decks-validate") in page and "deck_live.js" in page

    # The live check the page's script makes: JSON, CSRF header, errors with line numbers.
    token = _csrf(c, deck_url)
    api = c.post(
        reverse("decks-validate"),
        data=json.dumps({"format": "hkk", "text": UNKNOWN_CARD_DECK}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert api.status_code == 200 and api.json()["legal"] is False
    assert any(e.get("line") == 3 for e in api.json()["errors"])

    r = c.post(deck_url, {"csrfmiddlewaretoken": token, "text": UNKNOWN_CARD_DECK}, follow=True)
    html = r.content.decode()
    assert "Your list is stored but it is not legal" in html
    assert 'data-code="deck_too_small"' in html
    assert re.search(
        r'data-code="unknown_card" data-line="3"><span class="lineno">Line 3</span>', html
    )
    assert DeckSubmission.objects.get().legal is False

    r = c.post(deck_url, {"csrfmiddlewaretoken": token, "text": hkk_deck(seed=3)}, follow=True)
    assert "Your list is stored and legal." in r.content.decode()
    assert DeckSubmission.objects.get(is_current=True).legal

    # After the start the list is locked: shown read-only, and a POST changes nothing.
    services.entry_override_deck(
        entry=services.entry_register_player(tournament=t, player_name="Ádám"), reason="test"
    )
    services.tournament_start(tournament=t)
    locked = c.get(deck_url)
    assert 'data-testid="deck-locked"' in locked.content.decode()
    assert locked.context["form"] is None
    c.post(deck_url, {"csrfmiddlewaretoken": token, "text": ILLEGAL_DECK})
    assert DeckSubmission.objects.count() == 2


def test_registering_when_closed_or_twice_is_refused(world):
    c = world.client("outsider")
    url = reverse("tournaments:register", args=[world.tournament.pk])
    page = c.get(url).content.decode()
    assert 'data-testid="registration-closed"' in page  # running, no late entries
    r = c.post(url, {"name": "x"})
    assert r.context["form"].non_field_errors()
    assert not Entry.objects.filter(members__player__user=world.users["outsider"]).exists()
    mine = world.client("player").post(url, {"name": "again"})
    assert 'data-testid="already-registered"' in mine.content.decode()
    assert Entry.objects.filter(members__player__user=world.users["player"]).count() == 1


def _report(client: Client, url: str, games: list[tuple[str, str, bool]]):
    data: dict[str, str] = {}
    for n, (result, first, waived) in enumerate(games, start=1):
        data[f"g{n}_result"] = result
        data[f"g{n}_first"] = first
        if waived:
            data[f"g{n}_waived"] = "on"
    return client.post(url, data, follow=True)


@pytest.fixture
def face_to_face() -> World:
    """Round 1 with the two signed-in players at the same table (seed chosen by search)."""
    users = {
        name: UserFactory(username=name)
        for name in ("organiser", "outsider", "player", "other_player", "judge", "other_judge")
    }
    for seed in range(1, 60):
        t, _ = make_tournament(entries=2, decks=False, owner=users["organiser"])
        mine = services.entry_self_register(tournament=t, user=users["player"])
        other = services.entry_self_register(tournament=t, user=users["other_player"])
        for e in (mine, other):
            services.entry_override_deck(entry=e, reason="test")
        services.staff_appoint(
            tournament=t, user=users["judge"], role="judge", by=users["organiser"]
        )
        t = services.tournament_start(tournament=t)
        rnd = services.round_pair_next(tournament=t, seed=seed)
        match = rnd.matches.filter(entry_a__in=[mine, other], entry_b__in=[mine, other]).first()
        if match is not None:
            rnd = services.round_publish(round=rnd)
            return World(t, rnd, users, mine, other, match)
    raise AssertionError("no seed pairs the two players")  # pragma: no cover


def test_players_report_the_same_result_and_it_counts(face_to_face):
    w = face_to_face
    m = w.match
    url = reverse("tournaments:my-match", args=[w.tournament.pk])
    me, them = w.client("player"), w.client("other_player")
    page = me.get(url)
    html = page.content.decode()
    assert f'data-testid="my-table">{m.table}<' in html
    assert w.other_entry.name in html
    assert "game 1: a die roll decides" in html

    mine = "mine"
    # Game 1: I won and went first; game 2: the opponent held the right, waived it, I went first
    # and won again.
    # Game 3: I hold the right again (player 1), go first and lose.
    theirs = "theirs"
    r = _report(me, url, [(mine, mine, False), (mine, mine, True), (theirs, mine, False)])
    assert 'data-testid="report-waiting"' in r.content.decode()
    assert ResultReport.objects.get().status == "pending"
    assert not Game.objects.filter(match=m).exists()
    seen = them.get(url).content.decode()
    assert 'data-testid="their-report" data-status="pending"' in seen

    r = _report(them, url, [(theirs, theirs, False), (theirs, theirs, True), (mine, theirs, False)])
    assert 'data-testid="report-agreed"' in r.content.decode()
    games = list(Game.objects.filter(match=m).order_by("number"))
    assert [g.winner_id for g in games] == [w.player_entry.pk] * 2 + [w.other_entry.pk]
    assert games[1].waived and games[1].first_id == w.player_entry.pk
    assert games[1].right_holder_id == w.other_entry.pk
    again = me.get(url)
    assert again.context["form"] is None  # the match is complete


def test_different_reports_go_to_the_judge_who_confirms_one(face_to_face):
    w = face_to_face
    m = w.match
    url = reverse("tournaments:my-match", args=[w.tournament.pk])
    _report(w.client("player"), url, [("mine", "mine", False), ("mine", "theirs", False)])
    r = _report(w.client("other_player"), url, [("mine", "theirs", False), ("mine", "mine", False)])
    assert 'data-testid="report-disputed"' in r.content.decode()

    judge = w.client("judge")
    home = judge.get(reverse("tournaments:judge", args=[w.tournament.pk]))
    html = home.content.decode()
    assert f'data-testid="dispute-1-{m.table}"' in html
    report = ResultReport.objects.get(entry=w.player_entry, status="disputed")
    assert f'data-testid="confirm-report-{report.pk}"' in html
    judge.post(reverse("tournaments:report-confirm", args=[w.tournament.pk, report.pk]))
    report.refresh_from_db()
    assert report.status == "accepted"
    assert ResultReport.objects.get(entry=w.other_entry).status == "superseded"
    assert Game.objects.filter(match=m, winner=w.player_entry).count() == 2
    # A player cannot confirm.
    other = ResultReport.objects.get(entry=w.other_entry)
    r = w.client("player").post(
        reverse("tournaments:report-confirm", args=[w.tournament.pk, other.pk])
    )
    assert r.status_code == 403


# --- judge flow ---------------------------------------------------------------------------


def test_judge_enters_a_match_with_a_waiver_in_one_tap_each(world):
    m = world.match
    c = world.client("judge")
    url = reverse("tournaments:match", args=[world.tournament.pk, 1, m.table])
    page = c.get(url).content.decode()
    assert 'data-testid="roll-a"' in page and 'data-testid="quick-form"' not in page

    r = c.post(url, {"roll-winner": str(m.entry_a_id)}, follow=True)
    html = r.content.decode()
    assert 'data-testid="quick-form"' in html
    assert "game 1: player 1 (A) won the die roll" in html
    holder = r.context["m"].holder_name
    assert f'data-holder="{holder}"' in html

    c.post(url, {"quick-number": 1, "quick-result": "a"})
    r = c.get(url)
    assert "game 2: player 2 (B) per rule" in r.content.decode()
    # B holds the right in game 2 and waives it: A goes first; B wins.
    c.post(url, {"quick-number": 2, "quick-result": "b", "quick-waived": "on"})
    g2 = Game.objects.get(match=m, number=2)
    assert g2.waived and g2.first_id == m.entry_a_id and g2.right_holder_id == m.entry_b_id
    assert g2.winner_id == m.entry_b_id and g2.recorded_by == world.users["judge"]
    # A stale tap (game 2 again) is refused and changes nothing.
    r = c.post(url, {"quick-number": 2, "quick-result": "a"}, follow=True)
    assert any("meanwhile" in str(x) for x in r.context["messages"])
    assert Game.objects.filter(match=m).count() == 2
    c.post(url, {"quick-number": 3, "quick-result": "draw"})
    g3 = Game.objects.get(match=m, number=3)
    assert g3.is_draw and g3.first_id == m.entry_a_id and not g3.waived


def test_judge_deck_checks_pick_view_and_record(world):
    t = world.tournament
    c = world.client("judge")
    url = reverse("tournaments:deck-checks", args=[t.pk, 1])
    assert 'data-testid="no-deck-checks"' in c.get(url).content.decode()
    c.post(reverse("tournaments:deck-checks-pick", args=[t.pk, 1]))
    checks = list(DeckCheck.objects.filter(round=world.round))
    assert len(checks) == 1 and checks[0].random_pick  # 10 % of 4 → at least one
    c.post(reverse("tournaments:deck-checks-pick", args=[t.pk, 1]))
    assert DeckCheck.objects.count() == 1  # idempotent

    chosen = next(e for e in (world.player_entry, world.other_entry) if e.pk != checks[0].entry_id)
    c.post(reverse("tournaments:deck-check-add", args=[t.pk, 1]), {"entry": chosen.pk})
    added = DeckCheck.objects.get(entry=chosen)
    assert not added.random_pick
    html = c.get(url).content.decode()
    assert f'data-testid="deck-check-{chosen.pk}"' in html

    c.post(
        reverse("tournaments:deck-check-record", args=[t.pk, 1, added.pk]),
        {
            f"c{added.pk}-outcome": "problem",
            f"c{added.pk}-penalty": "warning",
            f"c{added.pk}-notes": "2 extra cards",
        },
    )
    added.refresh_from_db()
    assert (added.outcome, added.penalty, added.notes) == ("problem", "warning", "2 extra cards")
    assert added.checked_by == world.users["judge"]


def test_live_page_refreshes_itself_and_serves_a_fragment(world):
    url = reverse("tournaments:live", args=[world.tournament.pk])
    c = world.client("anonymous", lang="hu")
    html = c.get(url).content.decode()
    assert 'data-live-url="' in html and "live.js" in html and 'http-equiv="refresh"' in html
    assert '<html lang="hu">' in html
    part = c.get(url + "?partial=1").content.decode()
    assert "<html" not in part and 'data-testid="live-pairings"' in part
    assert 'data-testid="live-standings"' in part


# --- next step, options, labels -----------------------------------------------------------


def test_next_step_follows_the_event_and_its_last_round(world):
    t = world.tournament
    assert next_action(t, world.round).code == "results"
    draft = Round(tournament=t, number=2, status=Round.Status.DRAFT)
    assert next_action(t, draft).code == "publish"
    done = Round(tournament=t, number=2, status=Round.Status.FINISHED)
    assert next_action(t, done).code == "pair"
    t.planned_rounds = 2
    assert next_action(t, done).code == "finish"
    assert next_action(t, None).code == "pair"
    for status, code in (("draft", "open_registration"), ("registration", "start")):
        t.status = status
        assert next_action(t, None).code == code
    t.status = "finished"
    assert next_action(t, done).code == "none"


def test_options_form_refuses_a_bad_share_and_changes_nothing(world):
    t = world.tournament
    r = world.client("organiser").post(
        reverse("tournaments:options", args=[t.pk]),
        {"is_public": "on", "deck_check_percent": 150},
        follow=True,
    )
    assert any("0–100" in str(m) for m in r.context["messages"])
    t.refresh_from_db()
    assert t.deck_check_percent == 10


class _Controls(HTMLParser):
    """Collects form controls and the ids that labels point at (or wrap)."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: list[dict[str, str]] = []
        self.label_for: set[str] = set()
        self.in_label = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "label":
            self.in_label += 1
            if a.get("for"):
                self.label_for.add(a["for"])
        elif tag in ("input", "select", "textarea"):
            if a.get("type") in ("hidden", "submit", "button"):
                return
            self.controls.append({**a, "_wrapped": "1" if self.in_label else ""})

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.in_label -= 1


def _unlabelled(html: str) -> list[str]:
    parser = _Controls()
    parser.feed(html)
    return [
        c.get("name", "?")
        for c in parser.controls
        if not c["_wrapped"] and c.get("id") not in parser.label_for
    ]


def test_every_form_control_of_the_pages_is_labelled(world):
    t, n = world.tournament, world.round.number
    m = world.match
    pages = [
        ("organiser", reverse("tournaments:create")),
        ("organiser", reverse("tournaments:detail", args=[t.pk])),
        ("organiser", reverse("tournaments:staff", args=[t.pk])),
        ("organiser", reverse("tournaments:entry-deck", args=[t.pk, world.player_entry.pk])),
        ("judge", reverse("tournaments:match", args=[t.pk, n, m.table])),
        ("judge", reverse("tournaments:deck-checks", args=[t.pk, n])),
        ("player", reverse("tournaments:my-match", args=[t.pk])),
        ("player", reverse("tournaments:my-deck", args=[t.pk])),
        ("anonymous", reverse("tournaments:live", args=[t.pk])),
    ]
    world.client("judge").post(reverse("tournaments:deck-checks-pick", args=[t.pk, n]))
    for role, url in pages:
        html = world.client(role).get(url).content.decode()
        assert _unlabelled(html) == [], url


def test_players_match_page_shows_the_game_start_of_both_sides(face_to_face):
    """Issue 5: the opening hand and ÉP are shown on the players' match page too."""
    w = face_to_face
    page = w.client("player").get(reverse("tournaments:my-match", args=[w.tournament.pk]))
    start = page.context["game_start"]
    assert start is not None and len(start["players"]) == 2
    html = page.content.decode()
    assert 'id="game-start-heading"' in html
    for player in start["players"]:
        assert player["name"] in html
