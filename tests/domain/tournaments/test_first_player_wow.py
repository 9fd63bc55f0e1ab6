"""WoW TCG first player and match structure (docs/rules.md §11 WoW TCG matches and first player;
WoW TCG starter rulebook; Magic Tournament Rules 2.2 for later games and drawn games)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.domain.tournaments.match_helpers import A, B, play
from tournaments.domain.first_player import (
    InconsistentGame,
    RightMode,
    make_game,
    next_right,
    record_die_roll,
    validate_game,
    validate_games,
)
from tournaments.domain.match import MatchState, games_remaining, is_match_decided, match_result
from tournaments.domain.match_structure import LaterGames, MatchStructure, get_preset
from tournaments.domain.types import StartChoice

BO3 = get_preset("wow_best_of_three")
BO1 = get_preset("wow_best_of_one")
OPP = StartChoice.OPPONENT


def rolled(winner: int = A, structure=BO3) -> MatchState:
    return record_die_roll(MatchState(A, B), structure, winner)


def code_of(call, *args, **kwargs) -> str:
    with pytest.raises(InconsistentGame) as err:
        call(*args, **kwargs)
    return err.value.code


def test_the_roll_winner_chooses_who_starts_game_one():
    decision = next_right(MatchState(A, B), BO3)
    assert (decision.needs_roll, decision.reason, decision.mode) == (
        True,
        "die_roll",
        RightMode.CHOOSES,
    )
    state = rolled(B)
    decision = next_right(state, BO3)
    assert (decision.chooser, decision.reason, decision.mode) == (B, "die_roll", RightMode.CHOOSES)
    state = play(state, BO3, A, choice=OPP)  # B lets A start
    game = state.games[0]
    assert (game.chosen_by, game.choice, game.first) == (B, StartChoice.OPPONENT, A)


def test_best_of_three_ends_at_two_nil_and_the_loser_chooses():
    state = play(rolled(A), BO3, A)
    d2 = next_right(state, BO3)
    assert (d2.chooser, d2.reason, d2.params) == (
        B,
        "loser_of_previous",
        {"game": 2, "player": 2, "previous": 1},
    )
    state = play(state, BO3, A)
    assert is_match_decided(state, BO3) and games_remaining(state, BO3) == 0
    assert code_of(next_right, state, BO3) == "match_already_decided"
    game3 = make_game(state, holder=B, winner=B)
    assert code_of(validate_game, d2, game3, state, BO3) == "match_already_decided"
    full = replace(state, games=(*state.games, game3))
    assert code_of(validate_games, full, BO3) == "match_already_decided"
    result = match_result(state, BO3)
    assert (result.winner, result.loser, result.a_wins, result.b_wins) == (A, B, 2, 0)


def test_one_all_goes_to_game_three_chosen_by_the_loser_of_game_two():
    state = play(play(rolled(A), BO3, A), BO3, B)
    assert games_remaining(state, BO3) == 1
    assert next_right(state, BO3).chooser == A
    state = play(state, BO3, B)
    assert match_result(state, BO3).winner == B
    assert code_of(next_right, state, BO3) == "too_many_games"


def test_after_a_drawn_game_the_same_player_chooses_again():
    # drawn game 1: the roll winner chose, so it chooses again
    state = play(rolled(B), BO3, None, choice=OPP)
    d2 = next_right(state, BO3)
    assert (d2.chooser, d2.reason) == (B, "same_after_draw")
    state = play(state, BO3, B)  # B wins game 2: A chooses game 3
    assert next_right(state, BO3).chooser == A
    # drawn game 2: the loser of game 1 chose game 2 and chooses game 3
    state = play(play(rolled(A), BO3, A), BO3, None)
    d3 = next_right(state, BO3)
    assert (d3.chooser, d3.reason, d3.params["player"]) == (B, "same_after_draw", 2)


def test_a_win_and_a_draw_do_not_decide_a_best_of_three():
    state = play(play(rolled(A), BO3, A), BO3, None)
    assert not is_match_decided(state, BO3)
    state = play(state, BO3, B)
    result = match_result(state, BO3)
    assert (result.a_wins, result.b_wins, result.draws) == (1, 1, 1)
    assert result.decided and result.is_draw and result.winner is None


def test_best_of_one():
    state = play(rolled(B, BO1), BO1, B)
    assert match_result(state, BO1).winner == B
    assert code_of(next_right, state, BO1) == "too_many_games"
    drawn = play(rolled(B, BO1), BO1, None)
    assert match_result(drawn, BO1).is_draw


def test_alternate_later_games_setting():
    alternate = replace(BO3, later_games=LaterGames.ALTERNATE)
    state = play(rolled(A, alternate), alternate, B)
    d2 = next_right(state, alternate)
    assert (d2.chooser, d2.reason) == (B, "alternate")
    state = play(state, alternate, None)
    assert next_right(state, alternate).chooser == A


def test_rolls_and_reroll_agreements_do_not_apply_after_game_one():
    state = play(rolled(A), BO3, A)
    assert code_of(record_die_roll, state, BO3, B) == "roll_not_expected"
    assert (
        code_of(record_die_roll, MatchState(A, B), BO3, A, reroll_game3_agreed=True)
        == "reroll_not_available"
    )


def test_wrong_chooser_is_refused():
    state = play(rolled(A), BO3, A)
    decision = next_right(state, BO3)
    wrong = make_game(state, holder=A, winner=A)
    assert code_of(validate_game, decision, wrong, state, BO3) == "wrong_right_holder"


@given(
    roll_winner=st.sampled_from([A, B]),
    games=st.lists(st.tuples(st.sampled_from([A, B, None]), st.booleans()), min_size=1, max_size=3),
)
def test_wow_matches_the_older_loser_chooses_policy(roll_winner, games):
    older = MatchStructure("loser_chooses", games_per_match=3, ends_when_decided=True)
    state = record_die_roll(MatchState(A, B), BO3, roll_winner)
    for winner, waived in games:
        if is_match_decided(state, BO3):
            break
        assert next_right(state, BO3).chooser == next_right(state, older).chooser
        state = play(state, BO3, winner, choice=OPP if waived else StartChoice.SELF)
    validate_games(state, BO3)
    validate_games(state, older)
