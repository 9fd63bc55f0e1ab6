"""The organiser and judge flows through the tournaments pages: creating an event, the
dashboard, appointing staff, entering a match in one tap per game and deck checks."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import DeckCheck, Game, StaffRole, Tournament

pytestmark = pytest.mark.django_db


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
            "ends_when_decided": "on",
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
    assert t.structure.policy == "loser_chooses" and t.structure.ends_when_decided
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
        tournament=co_owned, user=world.users["organiser"], role="organiser", actor=co_owned.owner
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
