"""The CONTRIBUTING recipes "A new first-player policy" and "A new tiebreaker", run: a toy
entry added through the registries alone (no other file touched) is offered by the create
form, decides the games, prints correct result slips, ranks the standings, heads the
standings page's column and passes the start-up system check."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import UserFactory, make_tournament
from tests.pages.tournaments.test_printouts import pdf_text
from tournaments import services
from tournaments.checks import registry_drift
from tournaments.domain.first_player_policies import (
    POLICIES,
    FirstPlayerPolicy,
    RightDecision,
    RightMode,
    register_policy,
)
from tournaments.domain.match import MatchState
from tournaments.domain.match_structure import MatchStructure
from tournaments.domain.standings import (
    TIEBREAKERS,
    EntryStats,
    Stats,
    Tiebreaker,
    register_tiebreaker,
)
from tournaments.domain.types import Scoring
from tournaments.pages import printouts
from tournaments.pages.organiser_forms import TournamentCreateForm
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


def _decide_winner_keeps(state: MatchState, structure: MatchStructure) -> RightDecision:
    """Toy rule: the die roll winner holds the right in game 1, then the winner of the previous
    game (after a draw, the same holder)."""
    mode = RightMode.HOLDS_RIGHT
    game = len(state.games) + 1
    p1 = state.roll_winner
    if p1 is None:
        return RightDecision(1, None, True, "die_roll", {"game": 1}, mode)
    if game == 1:
        return RightDecision(1, p1, False, "die_roll", {"game": 1, "player": 1}, mode)
    previous = state.games[-1]
    holder = previous.right_holder if previous.winner is None else previous.winner
    assert holder is not None
    player = 1 if holder == p1 else 2
    return RightDecision(
        game, holder, False, "winner_keeps", {"game": game, "player": player}, mode
    )


def _opponents_beaten(s: EntryStats, stats: Stats, scoring: Scoring) -> Fraction:
    """Toy tiebreaker: the matches won against an opponent (byes left out)."""
    return Fraction(sum(1 for _opponent, points in s.results if points == scoring.match_win))


@pytest.fixture
def toys() -> Iterator[None]:
    """The toy policy and tiebreaker registered as the recipes say; the registries restored."""
    policies, tiebreakers = dict(POLICIES), dict(TIEBREAKERS)
    register_policy(
        FirstPlayerPolicy(
            "winner_keeps",
            _decide_winner_keeps,
            label="Toy: the winner keeps the right",
            rule="The winner of a game holds the right in the next.",
            source="Toy house rules",
            section=6,
            slip_text="winner of game %(previous)s",
            max_games=3,
        )
    )
    register_tiebreaker(Tiebreaker("beaten", "Opponents beaten", "Beaten", _opponents_beaten))
    yield
    POLICIES.clear()
    POLICIES.update(policies)
    TIEBREAKERS.clear()
    TIEBREAKERS.update(tiebreakers)


def test_a_toy_policy_and_tiebreaker_through_the_registries_alone(toys):
    with translation.override("en"):
        form = TournamentCreateForm(format_choices=[("hkk", "HKK")])
        assert ("winner_keeps", "Toy: the winner keeps the right") in form.fields[
            "first_player_policy"
        ].choices
        assert ("beaten", "Opponents beaten") in form.fields["tiebreaker_1"].choices
    owner = UserFactory(username="owner")
    t, (e1, e2) = make_tournament(
        entries=2,
        decks=False,
        owner=owner,
        first_player_policy="winner_keeps",
        tiebreakers=["beaten", "buchholz"],
    )
    assert t.structure.policy == "winner_keeps" and t.structure.games_per_match == 3
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    )
    m = rnd.matches.get()
    a, b = m.entry_a_id, m.entry_b_id
    services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=a)
    m.refresh_from_db()

    # The slip: game 1 names player 1, games 2 and 3 print the toy's slip text.
    names = {e1.pk: e1.name, e2.pk: e2.name}
    with translation.override("en"):
        texts = printouts._holder_texts(m, t, names)
        assert texts[1:] == ["winner of game 1", "winner of game 2"]
        assert f"{names[a]} (A)" in texts[0]
        slips = pdf_text(printouts.result_slips_pdf(round=rnd))
    assert "winner of game 1" in slips and "Toy: the winner keeps the right" in slips

    # The games follow the toy rule: B wins game 1 and so holds the right in game 2.
    services.game_record(actor=SYSTEM, match=m, number=1, winner_entry=b, first_entry=a)
    assert services.match_next_right(match=m).holder == b
    services.game_record(actor=SYSTEM, match=m, number=2, winner_entry=b, first_entry=b)
    services.game_record(actor=SYSTEM, match=m, number=3, winner_entry=a, first_entry=b)

    # The standings rank by the toy tiebreaker; the page heads its column with its label.
    rows = {r.entry: r for r in services.standings_compute(tournament=t)}
    assert rows[b].tiebreakers["beaten"] == 1 and rows[a].tiebreakers["beaten"] == 0
    client = Client()
    client.force_login(owner)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("tournaments:standings", args=[t.pk])).content.decode()
    assert "Beaten" in page
    assert registry_drift() == []


def test_without_its_entry_the_stored_toy_fails_the_check(toys):
    t, _ = make_tournament(decks=False, first_player_policy="winner_keeps")
    assert registry_drift() == []
    del POLICIES["winner_keeps"]
    assert {e.id for e in registry_drift()} == {"tournaments.E002"}  # code and structure
