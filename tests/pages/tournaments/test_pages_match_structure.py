"""The judge screen and the slips show the format's first-player policy (name, one-line rule,
source), the judge screen refuses a game-3 re-roll agreement made after the game-1 die roll,
and a WoW TCG table offers the choice of who starts (docs/rules.md §6 (HKK first-player
rights), §11 (WoW TCG matches and first player), §13 (Blue Moon matches))."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import Game
from tournaments.pages.player_forms import ResultReportForm
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


def test_judge_screen_shows_the_policy_and_refuses_the_late_agreement(world):
    m = world.match
    c = world.client("judge")
    url = reverse("tournaments:match", args=[world.tournament.pk, 1, m.table])
    page = c.get(url).content.decode()
    assert 'data-testid="policy"' in page and 'data-policy="hkk"' in page
    # The world's clients read English pages.
    assert "HKK first-player right" in page and "HKK FAQ, rules section 6" in page
    assert 'href="/rules/#s6"' in page and "docs/rules" not in page
    assert 'data-testid="reroll-agreement-form"' in page

    c.post(url, {"roll-winner": str(m.entry_a_id)})
    r = c.post(url, {"reroll-agree": "1"}, follow=True)
    messages = [str(x) for x in r.context["messages"]]
    assert "A new roll for game 3 must be agreed before the game-1 die roll." in messages
    m.refresh_from_db()
    assert not m.reroll_game3_agreed and m.die_roll_winner_id == m.entry_a_id


def test_judge_screen_accepts_the_agreement_before_the_roll(world):
    m = world.match
    c = world.client("judge")
    url = reverse("tournaments:match", args=[world.tournament.pk, 1, m.table])
    r = c.post(url, {"reroll-agree": "1"}, follow=True)
    assert 'data-testid="reroll-agreed"' in r.content.decode()
    m.refresh_from_db()
    assert m.reroll_game3_agreed


def test_wow_table_offers_the_choice_and_ends_at_two_nil():
    judge = UserFactory(username="wow-judge")
    t, _ = make_tournament(entries=2, decks=False, owner=judge, format_slug="wow-constructed")
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    )
    m = rnd.matches.get()
    c = Client()
    c.force_login(judge)
    url = reverse("tournaments:match", args=[t.pk, 1, m.table])
    page = c.get(url).content.decode()
    assert 'data-policy="wow"' in page and 'href="/rules/#s11"' in page
    assert "kockadobás nyertese (ő választja meg, ki kezd)" in page

    c.post(url, {"roll-winner": str(m.entry_b_id)})
    page = c.get(url).content.decode()
    assert "Ő választja meg, ki kezd" in page
    # B chooses that A starts; A wins. Then B (the loser) starts itself and loses: 2–0.
    c.post(url, {"quick-number": 1, "quick-result": "a", "quick-waived": "on"})
    g1 = Game.objects.get(match=m, number=1)
    assert (g1.chosen_by_id, g1.waived, g1.first_id) == (m.entry_b_id, True, m.entry_a_id)
    c.post(url, {"quick-number": 2, "quick-result": "a"})
    assert Game.objects.get(match=m, number=2).chosen_by_id == m.entry_b_id
    page = c.get(url).content.decode()
    assert 'data-testid="quick-form"' not in page
    assert Game.objects.filter(match=m).count() == 2


def test_bluemoon_table_asks_for_the_crystals():
    judge = UserFactory(username="bm-judge")
    t, _ = make_tournament(entries=2, decks=False, owner=judge, format_slug="bluemoon-advanced")
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    )
    m = rnd.matches.get()
    c = Client()
    c.force_login(judge)
    url = reverse("tournaments:match", args=[t.pk, 1, m.table])
    c.post(url, {"roll-winner": str(m.entry_a_id)})
    page = c.get(url).content.decode()
    assert 'data-testid="quick-score"' in page and 'data-testid="quick-draw"' not in page
    # Inquisitors are used in this format: up to 7 crystals (Blue Moon FAQ, "End of Game").
    assert 'max="7"' in page and "(kristály, 1–7)" in page
    c.post(url, {"quick-number": 1, "quick-result": "b", "quick-score": "5"})
    g = Game.objects.get(match=m, number=1)
    assert (g.winner_id, g.score, g.chosen_by_id) == (m.entry_b_id, 5, m.entry_a_id)


def test_result_slips_name_the_policy(world):
    c = world.client("judge")
    r = c.get(reverse("tournaments:print-slips", args=[world.tournament.pk, 1]))
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"


@pytest.mark.parametrize("top", [7, 4])
def test_players_report_form_shows_the_formats_crystal_range(top):
    # 7 with Emissaries and Inquisitors, 4 in the base game (Blue Moon FAQ, "End of Game").
    with translation.override("hu"):
        form = ResultReportForm(
            games=1,
            mine=(1, "A"),
            theirs=(2, "B"),
            chooses=True,
            draws=False,
            score_label="kristály",
            score_max=top,
        )
        field = form.fields["g1_score"]
        assert str(field.label) == f"1. játszma: a győztes kristály (1–{top})"
    assert (field.widget.attrs["min"], field.widget.attrs["max"]) == (1, top)
