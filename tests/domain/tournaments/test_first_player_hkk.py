"""HKK first-player rights and match structure (docs/rules.md §6 HKK first-player rights, §8 HKK
tournament structure and scoring; HKK FAQ on rule cards, followers, pair tournaments and
first-player rights)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.domain.tournaments.match_helpers import A, B, play
from tournaments.domain.first_player import (
    InconsistentGame,
    RightMode,
    agree_reroll_game3,
    make_game,
    next_right,
    record_die_roll,
    validate_game,
    validate_games,
)
from tournaments.domain.match import (
    MatchState,
    games_remaining,
    is_match_decided,
    match_result,
)
from tournaments.domain.match_structure import MatchStructure, get_preset
from tournaments.domain.types import GameRecord, StartChoice

HKK = get_preset("hkk")
HKK_BEST_OF = replace(HKK, ends_when_decided=True)
OPP = StartChoice.OPPONENT


def rolled(winner: int = B, structure: MatchStructure = HKK, **agreement: bool) -> MatchState:
    return record_die_roll(MatchState(A, B), structure, winner, **agreement)


def code_of(call, *args, **kwargs) -> str:
    with pytest.raises(InconsistentGame) as err:
        call(*args, **kwargs)
    return err.value.code


def test_game_one_needs_a_die_roll_and_its_winner_is_player_one():
    decision = next_right(MatchState(A, B), HKK)
    assert (decision.game_number, decision.holder, decision.needs_roll) == (1, None, True)
    assert (decision.reason, decision.mode) == ("die_roll", RightMode.HOLDS_RIGHT)
    state = rolled(B)
    assert state.roll_winner == B and not state.reroll_game3
    decision = next_right(state, HKK)
    assert (decision.holder, decision.reason, decision.params) == (
        B,
        "die_roll",
        {"game": 1, "player": 1},
    )
    assert (
        code_of(
            validate_game,
            next_right(MatchState(A, B), HKK),
            make_game(MatchState(A, B), holder=A, winner=A),
            MatchState(A, B),
            HKK,
        )
        == "roll_not_recorded"
    )


def test_player_one_waives_game_one_and_still_player_two_holds_game_two_then_player_one():
    state = rolled(B)
    state = play(state, HKK, A, choice=OPP)  # B waives: A starts game 1 and wins
    assert (state.games[0].right_holder, state.games[0].first) == (B, A)
    assert state.games[0].choice == StartChoice.OPPONENT and state.games[0].chosen_by == B
    d2 = next_right(state, HKK)
    assert (d2.holder, d2.reason, d2.params) == (A, "player_2_game_2", {"game": 2, "player": 2})
    state = play(state, HKK, A, choice=OPP)  # player 2 may waive as well
    assert state.games[1].first == B
    d3 = next_right(state, HKK)
    assert (d3.holder, d3.reason, d3.params) == (B, "player_1_game_3", {"game": 3, "player": 1})
    state = play(state, HKK, B)
    validate_games(state, HKK)
    assert code_of(next_right, state, HKK) == "too_many_games"


def test_all_three_games_are_played_at_two_nil_by_default():
    state = play(play(rolled(A), HKK, A), HKK, A)
    assert not is_match_decided(state, HKK) and games_remaining(state, HKK) == 1
    assert next_right(state, HKK).holder == A
    state = play(state, HKK, B)
    result = match_result(state, HKK)
    assert (result.a_wins, result.b_wins, result.draws, result.decided, result.winner) == (
        2,
        1,
        0,
        True,
        A,
    )
    assert games_remaining(state, HKK) == 0


def test_game_three_is_skipped_at_two_nil_when_the_format_says_so():
    state = play(play(rolled(A), HKK_BEST_OF, A), HKK_BEST_OF, A)
    assert is_match_decided(state, HKK_BEST_OF) and games_remaining(state, HKK_BEST_OF) == 0
    assert code_of(next_right, state, HKK_BEST_OF) == "match_already_decided"
    late = make_game(state, holder=A, winner=A)
    decision = next_right(state, HKK)  # the all-games structure would still allow it
    assert code_of(validate_game, decision, late, state, HKK_BEST_OF) == "match_already_decided"
    assert match_result(state, HKK_BEST_OF).winner == A
    # a win and a draw: the third game is still played
    state = play(play(rolled(A), HKK_BEST_OF, A), HKK_BEST_OF, None)
    assert not is_match_decided(state, HKK_BEST_OF)
    assert next_right(state, HKK_BEST_OF).holder == A


def test_drawn_games_do_not_move_the_right_and_a_drawn_match_has_no_winner():
    state = play(play(rolled(B), HKK, None), HKK, None)
    assert next_right(state, HKK).holder == B
    state = play(state, HKK, None)
    result = match_result(state, HKK)
    assert (result.draws, result.decided, result.winner, result.is_draw) == (3, True, None, True)


def test_reroll_agreed_before_the_roll_decides_game_three_by_a_new_roll():
    state = agree_reroll_game3(MatchState(A, B), HKK)
    state = record_die_roll(state, HKK, A)
    assert state.reroll_game3 and state.roll_winner == A
    state = play(play(state, HKK, A), HKK, B)
    d3 = next_right(state, HKK)
    assert (d3.holder, d3.needs_roll, d3.reason) == (None, True, "reroll_game_3")
    bad = make_game(state, holder=A, winner=A)
    assert code_of(validate_game, d3, bad, state, HKK) == "roll_not_recorded"
    state = record_die_roll(state, HKK, B)
    assert state.game3_roll_winner == B
    d3 = next_right(state, HKK)
    assert (d3.holder, d3.reason, d3.params) == (B, "reroll_game_3", {"game": 3, "player": 2})
    state = record_die_roll(state, HKK, A)  # a correction before game 3 is recorded
    assert next_right(state, HKK).params == {"game": 3, "player": 1}
    state = play(state, HKK, A)
    validate_games(state, HKK)


def test_the_agreement_may_come_with_the_game_one_roll():
    state = rolled(B, reroll_game3_agreed=True)
    assert state.reroll_game3 and state.roll_winner == B
    # and may be withdrawn before the roll
    state = agree_reroll_game3(MatchState(A, B), HKK)
    state = record_die_roll(state, HKK, A, reroll_game3_agreed=False)
    assert not state.reroll_game3


def test_an_agreement_after_the_game_one_roll_is_refused():
    state = rolled(B)
    assert code_of(agree_reroll_game3, state, HKK) == "reroll_agreement_too_late"
    assert (
        code_of(record_die_roll, state, HKK, B, reroll_game3_agreed=True)
        == "reroll_agreement_too_late"
    )
    agreed = rolled(B, reroll_game3_agreed=True)
    assert (
        code_of(record_die_roll, agreed, HKK, A, reroll_game3_agreed=False)
        == "reroll_agreement_too_late"
    )
    after_game = play(state, HKK, A)
    assert code_of(agree_reroll_game3, after_game, HKK) == "reroll_agreement_too_late"
    # older data without a recorded roll but with games: also too late
    legacy = replace(after_game, roll_winner=None)
    assert code_of(agree_reroll_game3, legacy, HKK) == "reroll_agreement_too_late"


def test_rolls_only_where_a_roll_decides():
    state = rolled(B)
    assert record_die_roll(state, HKK, A).roll_winner == A  # corrected before game 1
    state = play(state, HKK, A)
    assert code_of(record_die_roll, state, HKK, A) == "roll_not_expected"  # game 2
    state = play(state, HKK, A)
    assert code_of(record_die_roll, state, HKK, A) == "roll_not_expected"  # game 3, no agreement
    assert code_of(record_die_roll, MatchState(A, B), HKK, 99) == "unknown_entry"
    done = play(state, HKK, B)
    assert code_of(record_die_roll, done, HKK, A) == "too_many_games"


def test_reroll_needs_a_three_game_hkk_structure():
    one_game = get_preset("hkk_one_game")
    assert code_of(agree_reroll_game3, MatchState(A, B), one_game) == "reroll_not_available"
    assert (
        code_of(record_die_roll, MatchState(A, B), one_game, A, reroll_game3_agreed=True)
        == "reroll_not_available"
    )
    state = MatchState(A, B, roll_winner=A, reroll_game3=True)
    assert code_of(validate_games, state, one_game) == "reroll_not_available"
    assert code_of(validate_games, MatchState(A, B, A, game3_roll_winner=B), HKK) == (
        "roll_not_expected"
    )


def test_one_game_hkk_format():
    one_game = get_preset("hkk_one_game")
    state = play(record_die_roll(MatchState(A, B), one_game, A), one_game, B, choice=OPP)
    assert match_result(state, one_game).winner == B
    assert code_of(next_right, state, one_game) == "too_many_games"


def test_invalid_games_are_refused_with_their_codes():
    state = rolled(A)
    decision = next_right(state, HKK)
    assert code_of(validate_game, decision, GameRecord(1, B, False, B, A), state, HKK) == (
        "wrong_right_holder"
    )
    assert code_of(validate_game, decision, GameRecord(1, A, True, A, A), state, HKK) == (
        "wrong_first_player"
    )
    assert code_of(validate_game, decision, GameRecord(2, A, False, A, A), state, HKK) == (
        "wrong_game_number"
    )
    assert code_of(validate_game, decision, GameRecord(1, A, False, A, 77), state, HKK) == (
        "wrong_winner"
    )
    assert code_of(validate_game, decision, GameRecord(1, A, False, A, A, 2), state, HKK) == (
        "score_not_allowed"
    )
    # game 2 claimed by player 1 again
    g1 = make_game(state, holder=A, choice=OPP, winner=B)
    bad = replace(state, games=(g1, GameRecord(2, A, False, A, A)))
    assert code_of(validate_games, bad, HKK) == "wrong_right_holder"


@given(
    roll_winner=st.sampled_from([A, B]),
    waivers=st.lists(st.booleans(), min_size=2, max_size=2),
    winners=st.lists(st.sampled_from([A, B, None]), min_size=2, max_size=2),
    best_of=st.booleans(),
)
def test_without_agreement_game_three_belongs_to_player_one(roll_winner, waivers, winners, best_of):
    structure = HKK_BEST_OF if best_of else HKK
    state = record_die_roll(MatchState(A, B), structure, roll_winner)
    for waived, winner in zip(waivers, winners, strict=True):
        state = play(state, structure, winner, choice=OPP if waived else StartChoice.SELF)
    assert next_right(state, HKK).holder == roll_winner
    assert [g.right_holder for g in state.games] == [roll_winner, state.other(roll_winner)]
    if is_match_decided(state, structure):
        assert best_of and winners[0] == winners[1] is not None
    else:
        decision = next_right(state, structure)
        assert (decision.holder, decision.reason) == (roll_winner, "player_1_game_3")
        state = play(state, structure, winners[0])
        validate_games(state, structure)


@given(
    roll_winner=st.sampled_from([A, B]),
    reroll_winner=st.sampled_from([A, B]),
    winners=st.lists(st.sampled_from([A, B, None]), min_size=2, max_size=2),
)
def test_with_agreement_game_three_belongs_to_the_new_roll(roll_winner, reroll_winner, winners):
    state = record_die_roll(MatchState(A, B), HKK, roll_winner, reroll_game3_agreed=True)
    for winner in winners:
        state = play(state, HKK, winner)
    assert next_right(state, HKK).needs_roll
    state = record_die_roll(state, HKK, reroll_winner)
    assert next_right(state, HKK).holder == reroll_winner
