"""A match's games derived from their winners alone, as a result slip records them
(``first_player.result_games``): the same holders and checks as recording the games one by one
(docs/rules.md §6 HKK first-player rights, §11 WoW TCG matches and first player, §13 Blue Moon
matches)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.domain.tournaments.match_helpers import A, B, play
from tournaments.domain.first_player import (
    InconsistentGame,
    RightMode,
    agree_reroll_game3,
    record_die_roll,
    result_games,
)
from tournaments.domain.match import MatchState
from tournaments.domain.match_structure import get_preset

HKK = get_preset("hkk")
BO3 = get_preset("wow_best_of_three")
MOON = get_preset("blue_moon")


def code_of(state, structure, winners) -> str:
    with pytest.raises(InconsistentGame) as err:
        result_games(state, structure, winners)
    return err.value.code


def test_hkk_holders_follow_the_roll_winner():
    state = MatchState(A, B, roll_winner=B)
    games = result_games(state, HKK, [B, A, A])
    records = [record for record, _decision in games]
    assert [r.number for r in records] == [1, 2, 3]
    # Game 1 the roll winner (B), game 2 player 2 (A), game 3 player 1 again (B).
    assert [r.right_holder for r in records] == [B, A, B]
    assert [r.first for r in records] == [B, A, B]
    assert [r.winner for r in records] == [B, A, A]
    assert not any(r.waived for r in records)
    assert all(decision.mode == RightMode.HOLDS_RIGHT for _record, decision in games)


def test_a_missing_die_roll_names_the_game_it_decides():
    assert code_of(MatchState(A, B), HKK, [A]) == "roll_not_recorded"
    agreed = record_die_roll(agree_reroll_game3(MatchState(A, B), HKK), HKK, A)
    with pytest.raises(InconsistentGame) as err:
        result_games(agreed, HKK, [A, B, A])
    assert (err.value.code, err.value.params) == ("roll_not_recorded", {"game": 3})
    # Two games need no re-roll.
    assert len(result_games(agreed, HKK, [A, B])) == 2


def test_wow_the_loser_chooses_and_a_decided_match_takes_no_more_games():
    state = MatchState(A, B, roll_winner=A)
    games = result_games(state, BO3, [A, B, B])
    assert [record.right_holder for record, _d in games] == [A, B, A]
    assert all(decision.mode == RightMode.CHOOSES for _r, decision in games)
    assert code_of(state, BO3, [A, A, B]) == "match_already_decided"


def test_the_structure_checks_apply_to_every_game():
    state = MatchState(A, B, roll_winner=A)
    assert code_of(state, MOON, [None]) == "draw_not_allowed"
    assert code_of(state, MOON, [A]) == "score_missing"
    assert code_of(state, HKK, [A, A, A, A]) == "too_many_games"


def test_numbering_continues_after_recorded_games():
    state = play(MatchState(A, B, roll_winner=A), HKK, B)
    (only,) = result_games(state, HKK, [A])
    assert (only[0].number, only[0].right_holder) == (2, B)


@given(
    roll=st.sampled_from([A, B]),
    winners=st.lists(st.sampled_from([A, B, None]), min_size=1, max_size=3),
    structure=st.sampled_from([HKK, BO3]),
)
def test_the_same_as_recording_the_games_one_by_one(roll, winners, structure):
    state = MatchState(A, B, roll_winner=roll)
    expected: list | str
    try:
        step = state
        for winner in winners:
            step = play(step, structure, winner)
        expected = list(step.games)
    except InconsistentGame as exc:
        expected = exc.code
    try:
        got: list | str = [record for record, _d in result_games(state, structure, winners)]
    except InconsistentGame as exc:
        got = exc.code
    assert got == expected
