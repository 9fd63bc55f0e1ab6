"""The fast standings path (``compute_standings`` / ``rank_tallies``: plain tally rows, integer
columns) gives exactly the rows of the reference path (``compute_standings_reference``: one
``Fraction`` at a time through each tiebreaker's definition), on random events: byes, missed
rounds scored as losses, draws, unfinished matches, rematches, dropped and unlisted entries,
every tiebreaker chain and several scorings (docs/rules.md §15 (Match points and
tiebreakers))."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain import standings_columns
from tournaments.domain.standings import (
    HKK_TIEBREAKERS,
    MTR_TIEBREAKERS,
    TIEBREAKERS,
    compute_standings,
    compute_standings_reference,
    rank_tallies,
    tally_rows,
)
from tournaments.domain.types import MatchTally, Scoring

SCORINGS = [
    Scoring(),  # HKK: match 3/1/0, game 2/1/0, a bye 2–0
    Scoring(game_win=3, game_draw=1, game_loss=0),  # Magic: game points 3/1/0
    Scoring(match_win=2, match_draw=1, match_loss=0, bye_games_won=1),
    Scoring(match_win=5, match_draw=2, match_loss=1, game_win=4, game_draw=1, game_loss=1),
]


def _random_event(
    rng: random.Random, entries: int, rounds: int
) -> tuple[list[int], list[MatchTally], set[int]]:
    """A Swiss-like history: random pairings each round (rematches allowed), a bye for the odd
    one out, now and then a missed round (a bye or a loss), matches of 0–3 games with draws;
    some entries dropped, a few ids only ever seen as opponents (not listed)."""
    ids = list(range(1, entries + 1))
    matches: list[MatchTally] = []
    for number in range(1, rounds + 1):
        order = ids[:]
        rng.shuffle(order)
        if rng.random() < 0.3:
            missed = order.pop()
            matches.append(MatchTally(number, missed, None, forfeit=rng.random() < 0.5))
        for i in range(0, len(order) - 1, 2):
            games = rng.choice((0, 1, 2, 2, 3, 3))
            outcomes = [rng.choice(("a", "b", "b", "a", "d")) for _ in range(games)]
            matches.append(
                MatchTally(
                    number, order[i], order[i + 1], outcomes.count("a"), outcomes.count("b"), games
                )
            )
        if len(order) % 2:
            matches.append(MatchTally(number, order[-1], None))
    listed = [e for e in ids if rng.random() > 0.05] or ids[:1]
    dropped = {e for e in listed if rng.random() < 0.1}
    return listed, matches, dropped


@pytest.mark.parametrize("seed", range(12))
def test_fast_path_ranks_a_random_event_exactly_as_the_reference(seed):
    rng = random.Random(seed)
    listed, matches, dropped = _random_event(rng, rng.randint(2, 300), rng.randint(1, 9))
    scoring = SCORINGS[seed % len(SCORINGS)]
    codes = sorted(TIEBREAKERS)
    rng.shuffle(codes)
    for chain in (HKK_TIEBREAKERS, MTR_TIEBREAKERS, codes[: rng.randint(0, len(codes))]):
        reference = compute_standings_reference(
            listed, matches, scoring=scoring, tiebreakers=chain, dropped=dropped
        )
        fast = compute_standings(
            listed, matches, scoring=scoring, tiebreakers=chain, dropped=dropped
        )
        assert fast == reference, (seed, chain)
        rows = rank_tallies(
            listed, tally_rows(matches), scoring=scoring, tiebreakers=chain, dropped=dropped
        )
        assert rows == reference, (seed, chain)
        assert all(type(v) is Fraction for r in rows for v in r.tiebreakers.values())


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    st.integers(min_value=0, max_value=2**32 - 1),
    st.integers(min_value=1, max_value=40),
    st.integers(min_value=1, max_value=7),
    st.sampled_from(SCORINGS),
    st.lists(st.sampled_from(sorted(TIEBREAKERS)), max_size=5),
)
def test_fast_path_equals_the_reference_on_small_events(seed, entries, rounds, scoring, chain):
    listed, matches, dropped = _random_event(random.Random(seed), entries, rounds)
    reference = compute_standings_reference(
        listed, matches, scoring=scoring, tiebreakers=chain, dropped=dropped
    )
    assert (
        compute_standings(listed, matches, scoring=scoring, tiebreakers=chain, dropped=dropped)
        == reference
    )


def test_a_scoring_without_win_points_falls_back_to_the_definitions():
    """No integer form without points for a win: the ``compute`` functions decide (and fail
    alike, dividing by zero)."""
    scoring = Scoring(match_win=0, game_win=0)
    matches = [MatchTally(1, 1, 2, 1, 0, 1)]
    assert standings_columns.omw_column([1, 2], {}, scoring) is None
    for chain in (["buchholz", "game_points"], ["omw"], ["gw"]):
        try:
            expected: object = compute_standings_reference(
                [1, 2], matches, scoring=scoring, tiebreakers=chain
            )
        except ZeroDivisionError as error:
            expected = type(error)
        try:
            got: object = compute_standings([1, 2], matches, scoring=scoring, tiebreakers=chain)
        except ZeroDivisionError as error:
            got = type(error)
        assert got == expected


def test_impossible_counts_raise_on_both_paths():
    for tally in (MatchTally(1, 1, 2, 2, 2, 3), MatchTally(1, 1, 2, 2, 1, 4)):
        with pytest.raises(ValueError):
            compute_standings([1, 2], [tally], scoring=Scoring(), tiebreakers=[])
        with pytest.raises(ValueError):
            rank_tallies(
                [1, 2],
                [(1, 2, tally.a_wins, tally.b_wins, tally.games, False)],
                scoring=Scoring(),
                tiebreakers=[],
            )
