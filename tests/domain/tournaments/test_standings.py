"""Standings and tiebreakers (tournaments.domain.standings); exact Fractions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.domain.standings import (
    HKK_TIEBREAKERS,
    MTR_TIEBREAKERS,
    TIEBREAKERS,
    UnknownTiebreaker,
    compute_standings,
    get_tiebreaker,
    suggested_rounds,
)
from tournaments.domain.types import GameRecord, MatchRecord, Scoring

HKK = Scoring()
MTR = Scoring(game_win=3)


def match(rnd, a, b, *winners):
    games = tuple(GameRecord(i + 1, a, False, a, w) for i, w in enumerate(winners))
    return MatchRecord(rnd, a, b, games)


def rows_by_entry(rows):
    return {r.entry: r for r in rows}


def test_registry_and_unknown_code():
    assert {"buchholz", "median_buchholz", "omw", "gw", "ogw", "game_points", "head_to_head"} == (
        set(TIEBREAKERS)
    )
    with pytest.raises(UnknownTiebreaker):
        get_tiebreaker("sonneborn")
    with pytest.raises(UnknownTiebreaker):
        compute_standings([1], [], scoring=HKK, tiebreakers=["nope"])


def test_bye_is_a_two_nil_match_win_and_unplayed_match_not_counted():
    rows = rows_by_entry(
        compute_standings(
            [1, 2, 3],
            [MatchRecord(1, 1, None), MatchRecord(1, 2, 3)],
            scoring=HKK,
            tiebreakers=HKK_TIEBREAKERS,
        )
    )
    assert (rows[1].match_points, rows[1].game_points, rows[1].matches_played) == (3, 4, 1)
    assert rows[2].matches_played == 0 and rows[3].match_points == 0


def test_match_result_follows_from_games_and_game_points_are_2_1_0():
    # 2 beats 3 by 1-0 with two drawn games: a match win, game points 2+1+1
    rows = rows_by_entry(
        compute_standings(
            [2, 3], [match(1, 2, 3, 2, None, None)], scoring=HKK, tiebreakers=["game_points"]
        )
    )
    assert (rows[2].match_points, rows[2].game_points) == (3, 4)
    assert (rows[3].match_points, rows[3].game_points) == (0, 2)
    drawn = rows_by_entry(
        compute_standings([2, 3], [match(1, 2, 3, 2, 3, None)], scoring=HKK, tiebreakers=[])
    )
    assert drawn[2].match_points == drawn[3].match_points == 1


def test_shared_ranks_one_two_two_four_listed_by_id():
    matches = [
        match(1, 1, 2, 1, 1),
        match(1, 3, 4, 3, 3),
        match(2, 1, 3, 1, 1),
        match(2, 4, 2, 4, 4),
    ]
    rows = compute_standings([4, 3, 2, 1], matches, scoring=HKK, tiebreakers=[])
    assert [(r.rank, r.entry) for r in rows] == [(1, 1), (2, 3), (2, 4), (4, 2)]


def test_buchholz_sums_opponents_match_points_bye_adds_nothing():
    matches = [
        MatchRecord(1, 5, None),
        match(1, 1, 2, 1, 1),
        match(1, 3, 4, 3, 3),
        match(2, 1, 3, 1, 1),
        match(2, 5, 2, 2, 2),
    ]
    rows = rows_by_entry(
        compute_standings([1, 2, 3, 4, 5], matches, scoring=HKK, tiebreakers=HKK_TIEBREAKERS)
    )
    # 1 met 2 (3 points) and 3 (3 points)
    assert rows[1].tiebreakers["buchholz"] == Fraction(6)
    # 5 had a bye and met 2: only 2's 3 points count
    assert rows[5].tiebreakers["buchholz"] == Fraction(3)
    assert rows[5].tiebreakers["game_points"] == Fraction(4)
    assert all(isinstance(v, Fraction) for r in rows.values() for v in r.tiebreakers.values())


def test_hkk_order_match_points_then_buchholz_then_game_points():
    matches = [
        match(1, 1, 2, 1, 1, 1),
        match(1, 3, 4, 3, 3),
        match(2, 1, 3, 3, 3),
        match(2, 2, 4, 2, 2),
    ]
    rows = compute_standings([1, 2, 3, 4], matches, scoring=HKK, tiebreakers=HKK_TIEBREAKERS)
    # 3: 6 points; 1 and 2: 3 points each, Buchholz 1 -> 3+6=9, 2 -> 3+0=3
    assert [r.entry for r in rows] == [3, 1, 2, 4]
    assert rows[1].tiebreakers["buchholz"] == 9


def test_mtr_floor_on_opponents_match_win_percentage():
    # MTR Appendix C style: an opponent who went 0-3 counts as 1/3, not 0.
    matches = [
        match(1, 1, 2, 1, 1),
        match(2, 1, 3, 1, 1),
        match(3, 1, 4, 1, 1),
        match(2, 2, 4, 2, 2),
        match(3, 2, 3, 2, 2),
        match(1, 3, 4, 3, 3),
    ]
    rows = rows_by_entry(
        compute_standings([1, 2, 3, 4], matches, scoring=MTR, tiebreakers=MTR_TIEBREAKERS)
    )
    # MW%: 1 = 1, 2 = 6/9 = 2/3, 3 = 3/9 = 1/3, 4 = 0 -> floored to 1/3
    assert rows[1].tiebreakers["omw"] == (Fraction(2, 3) + Fraction(1, 3) + Fraction(1, 3)) / 3
    assert rows[1].tiebreakers["omw"] == Fraction(4, 9)
    assert rows[4].tiebreakers["gw"] == Fraction(1, 3)  # own GW% 0 floored (documented choice)
    assert rows[1].tiebreakers["gw"] == Fraction(1)
    assert rows[1].tiebreakers["ogw"] == Fraction(4, 9)


def test_bye_excluded_from_omw_but_counted_in_own_match_win_percentage():
    # 1: bye, then beats 2. 2: beats 3 in round 1. 3: lost both.
    matches = [
        MatchRecord(1, 1, None),
        match(1, 2, 3, 2, 2),
        match(2, 1, 2, 1, 1),
        match(2, 3, 4, 3, 3),
        match(1, 4, 5, 4, 4),
    ]
    rows = rows_by_entry(
        compute_standings([1, 2, 3, 4, 5], matches, scoring=MTR, tiebreakers=["omw"])
    )
    # 1's only opponent is 2 (3 of 6 points = 1/2); the bye is ignored
    assert rows[1].tiebreakers["omw"] == Fraction(1, 2)
    # 2's opponents: 3 (3/6 = 1/2) and 1 (6/6 = 1, the bye counts as a win for 1)
    assert rows[2].tiebreakers["omw"] == Fraction(3, 4)


def test_median_buchholz_drops_extremes_and_keeps_all_below_three():
    matches = [
        match(1, 1, 2, 1, 1),
        match(2, 1, 3, 1, 1),
        match(3, 1, 4, 1, 1),
        match(1, 3, 4, 3, 3),
        match(2, 2, 4, 2, 2),
        match(3, 2, 3, 2, 2),
    ]
    rows = rows_by_entry(
        compute_standings(
            [1, 2, 3, 4], matches, scoring=HKK, tiebreakers=["buchholz", "median_buchholz"]
        )
    )
    # opponents of 1: 2 (6), 3 (3), 4 (0) -> Buchholz 9, median 3
    assert rows[1].tiebreakers["buchholz"] == 9
    assert rows[1].tiebreakers["median_buchholz"] == 3
    two = rows_by_entry(
        compute_standings(
            [1, 2], [match(1, 1, 2, 1, 1)], scoring=HKK, tiebreakers=["median_buchholz"]
        )
    )
    assert two[1].tiebreakers["median_buchholz"] == 0 and two[2].tiebreakers["median_buchholz"] == 3


def test_head_to_head_splits_a_tie_only_when_all_tied_entries_met():
    matches = [
        match(1, 1, 2, 2, 2),  # 2 beats 1
        match(1, 3, 4, 3, 3),
        match(2, 1, 4, 1, 1),
        match(2, 2, 3, 3, 3),
    ]
    rows = compute_standings([1, 2, 3, 4], matches, scoring=HKK, tiebreakers=["head_to_head"])
    # 1 and 2 both on 3 points, and they met: 2 beat 1
    by = rows_by_entry(rows)
    assert by[2].rank < by[1].rank
    assert by[2].tiebreakers["head_to_head"] == 3 and by[1].tiebreakers["head_to_head"] == 0
    # without the meeting the tie stays shared
    shared = compute_standings(
        [1, 2, 3],
        [match(1, 1, 3, 1, 1), match(2, 2, 3, 2, 2)],
        scoring=HKK,
        tiebreakers=["head_to_head"],
    )
    assert [r.rank for r in shared] == [1, 1, 3]


def test_dropped_entries_stay_in_the_standings_marked():
    rows = compute_standings(
        [1, 2], [match(1, 1, 2, 1, 1)], scoring=HKK, tiebreakers=[], dropped={2}
    )
    assert [(r.entry, r.dropped) for r in rows] == [(1, False), (2, True)]


def test_more_games_than_allowed_is_rejected():
    with pytest.raises(ValueError):
        compute_standings([1, 2], [match(1, 1, 2, 1, 1, 1, 1)], scoring=HKK, tiebreakers=[])


@pytest.mark.parametrize(
    ("count", "rounds"), [(0, 0), (1, 0), (2, 1), (3, 3), (4, 3), (8, 3), (16, 4), (32, 5), (33, 6)]
)
def test_suggested_rounds(count, rounds):
    assert suggested_rounds(count) == rounds
