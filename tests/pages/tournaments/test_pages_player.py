"""The player flow through the tournaments pages: registering, submitting a list with the
live check, reporting a result with the opponent, disputes confirmed by a judge and the game
start on the match page."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ILLEGAL_DECK, UserFactory, hkk_catalogue, hkk_deck, make_tournament
from tests.pages.tournaments.role_world import World
from tournaments import services
from tournaments.models import DeckSubmission, Entry, Game, ResultReport
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db

__all__ = ["hkk_catalogue"]


UNKNOWN_CARD_DECK = "Pakli:\n3 Gigaököl\n3 Nincsilyenlap\n"


# --- player flow --------------------------------------------------------------------------


def _csrf(client: Client, url: str) -> str:
    html = client.get(url).content.decode()
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found is not None, "no CSRF token on the page"
    return found.group(1)


def test_player_registers_submits_an_illegal_then_a_legal_list(hkk_catalogue):
    owner = UserFactory(username="organiser")
    t = services.tournament_open_registration(
        actor=SYSTEM,
        tournament=services.tournament_create(owner=owner, name="Kupa", format_slug="hkk"),
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
    assert api.json()["status"] == "illegal"  # too small; the unknown name is only reported
    assert any(w.get("line") == 3 for w in api.json()["warnings"])

    r = c.post(deck_url, {"csrfmiddlewaretoken": token, "text": UNKNOWN_CARD_DECK}, follow=True)
    html = r.content.decode()
    assert "Your list is stored but it is not legal" in html
    assert 'data-code="deck_too_small"' in html
    assert re.search(
        r'data-code="card_not_in_catalogue" data-line="3"><span class="lineno">Line 3</span>',
        html,
    )
    assert DeckSubmission.objects.get().legal is False

    r = c.post(deck_url, {"csrfmiddlewaretoken": token, "text": hkk_deck(seed=3)}, follow=True)
    assert "Your list is stored and legal." in r.content.decode()
    assert DeckSubmission.objects.get(is_current=True).legal

    # After the start the list is locked: shown read-only, and a POST changes nothing.
    services.entry_override_deck(
        actor=SYSTEM,
        entry=services.entry_register_player(tournament=t, player_name="Ádám"),
        reason="test",
    )
    services.tournament_start(actor=SYSTEM, tournament=t)
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
            services.entry_override_deck(actor=SYSTEM, entry=e, reason="test")
        services.staff_appoint(
            tournament=t, user=users["judge"], role="judge", actor=users["organiser"]
        )
        t = services.tournament_start(actor=SYSTEM, tournament=t)
        rnd = services.round_pair_next(actor=SYSTEM, tournament=t, seed=seed)
        match = rnd.matches.filter(entry_a__in=[mine, other], entry_b__in=[mine, other]).first()
        if match is not None:
            rnd = services.round_publish(actor=SYSTEM, round=rnd)
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


def test_players_match_page_shows_the_game_start_of_both_sides(face_to_face):
    """The opening hand and ÉP are shown on the players' match page too (docs/rules.md §5 (HKK
    game start: opening hand and life points))."""
    w = face_to_face
    page = w.client("player").get(reverse("tournaments:my-match", args=[w.tournament.pk]))
    start = page.context["game_start"]
    assert start is not None and len(start["players"]) == 2
    html = page.content.decode()
    assert 'id="game-start-heading"' in html
    for player in start["players"]:
        assert player["name"] in html
