"""Standings from game counts (``MatchTally``, as the database sums them) equal the standings
from the games themselves (``MatchRecord``) under every tiebreaker chain."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain.standings import TIEBREAKERS, compute_standings
from tournaments.domain.types import GameRecord, MatchRecord, MatchTally, Scoring

HKK = Scoring()


def _tally_of(record: MatchRecord) -> MatchTally:
    a_wins = sum(1 for g in record.games if g.winner == record.a)
    b_wins = sum(1 for g in record.games if g.winner == record.b)
    return MatchTally(record.round, record.a, record.b, a_wins, b_wins, len(record.games))


@st.composite
def events(draw):
    """Up to 5 rounds of random pairings of up to 12 entries, byes included; each game is
    won by A (0), B (1) or drawn (2)."""
    count = draw(st.integers(min_value=2, max_value=12))
    ids = list(range(1, count + 1))
    records = []
    for rnd in range(1, draw(st.integers(min_value=1, max_value=5)) + 1):
        order = draw(st.permutations(ids))
        for i in range(0, len(order) - 1, 2):
            a, b = order[i], order[i + 1]
            outcomes = draw(st.lists(st.integers(0, 2), min_size=0, max_size=3))
            winners = [(a, b, None)[o] for o in outcomes]
            games = tuple(GameRecord(n + 1, a, False, a, w) for n, w in enumerate(winners))
            records.append(MatchRecord(rnd, a, b, games))
        if len(order) % 2:
            records.append(MatchRecord(rnd, order[-1], None))
    return ids, records


@settings(max_examples=150, deadline=None)
@given(events(), st.lists(st.sampled_from(sorted(TIEBREAKERS)), max_size=4, unique=True))
def test_tallies_rank_exactly_as_the_games(event, chain):
    ids, records = event
    tallies = [_tally_of(r) for r in records]
    from_games = compute_standings(ids, records, scoring=HKK, tiebreakers=chain)
    from_counts = compute_standings(ids, tallies, scoring=HKK, tiebreakers=chain)
    assert from_counts == from_games


@pytest.mark.parametrize(
    "tally",
    [
        MatchTally(1, 1, 2, a_wins=2, b_wins=2, games=3),
        MatchTally(1, 1, 2, a_wins=-1, b_wins=1, games=1),
        MatchTally(1, 1, 2, a_wins=2, b_wins=1, games=4),
    ],
)
def test_impossible_counts_are_rejected(tally):
    with pytest.raises(ValueError):
        compute_standings([1, 2], [tally], scoring=HKK, tiebreakers=[])


def test_a_tally_without_games_is_not_counted():
    rows = compute_standings([1, 2], [MatchTally(1, 1, 2)], scoring=HKK, tiebreakers=[])
    assert [r.matches_played for r in rows] == [0, 0]


def test_a_missed_round_loss_is_a_lost_match_without_game_wins_and_no_opponent() -> None:
    """Entry 1 beat 2 (2–0) in round 1 and missed round 2 (scored as a loss); entry 3 missed
    round 1 with a bye and lost to 2 in round 2 (0–2). MTR scoring (match 3/1/0, game 3)."""
    mtr = Scoring(game_win=3)
    matches = [
        MatchTally(1, 1, 2, 2, 0, 2),
        MatchTally(1, 3, None),
        MatchTally(2, 1, None, forfeit=True),
        MatchTally(2, 2, 3, 2, 0, 2),
    ]
    rows = {
        r.entry: r
        for r in compute_standings(
            [1, 2, 3], matches, scoring=mtr, tiebreakers=["omw", "gw", "ogw", "buchholz"]
        )
    }
    one, two, three = rows[1], rows[2], rows[3]
    assert (one.match_points, one.matches_played, one.game_points) == (3, 2, 6)
    assert one.tiebreakers["gw"] == Fraction(6, 12)  # 2 of 4 games: the 0–2 loss counts
    assert one.tiebreakers["omw"] == Fraction(1, 2)  # only entry 2 (3 of 6): no forfeit opponent
    assert one.tiebreakers["buchholz"] == 3
    assert (three.match_points, three.matches_played) == (3, 2)  # the bye
    assert two.tiebreakers["omw"] == (Fraction(1, 2) + Fraction(1, 2)) / 2
