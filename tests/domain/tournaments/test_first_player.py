"""First-player rights (tournaments.domain.first_player) under plain structures: the HKK
preset and a loser-chooses match of up to nine games, all played: docs/rules.md §6 HKK
first-player rights and Magic Tournament Rules 2.2."""

from __future__ import annotations

import pytest

from tournaments.domain.first_player import (
    POLICIES,
    InconsistentGame,
    MatchState,
    UnknownPolicy,
    first_player,
    get_policy,
    next_right,
    validate_game,
    validate_games,
)
from tournaments.domain.match_structure import MatchStructure, get_preset
from tournaments.domain.types import GameRecord

A, B = 10, 20
HKK = get_preset("hkk")
LOSER_CHOOSES = MatchStructure("loser_chooses", games_per_match=9, ends_when_decided=False)


def game(number, holder, waived, winner):
    return GameRecord(number, holder, waived, first_player(holder, waived, A, B), winner)


def test_registry_and_unknown_code():
    assert set(POLICIES) == {"hkk", "wow", "blue_moon", "loser_chooses"}
    assert get_policy("hkk").code == "hkk"
    with pytest.raises(UnknownPolicy):
        get_policy("coin_flip")


def test_first_player_helper():
    assert first_player(A, False, A, B) == A
    assert first_player(A, True, A, B) == B
    assert first_player(B, True, A, B) == A
    with pytest.raises(InconsistentGame) as err:
        first_player(99, False, A, B)
    assert err.value.code == "unknown_entry"


def test_hkk_game_one_needs_a_die_roll():
    decision = next_right(MatchState(A, B), HKK)
    assert (decision.game_number, decision.holder, decision.needs_roll) == (1, None, True)
    assert decision.reason == "die_roll"


def test_hkk_faq_sequence_with_waiver_in_game_one():
    # B wins the die roll (player 1) and waives: A goes first in game 1.
    state = MatchState(A, B, roll_winner=B)
    d1 = next_right(state, HKK)
    assert (d1.holder, d1.reason, d1.params) == (B, "die_roll", {"game": 1, "player": 1})
    g1 = game(1, B, True, A)
    assert g1.first == A
    validate_game(d1, g1, state, HKK)
    # game 2: the right goes to player 2 (A) even though player 1 waived in game 1
    state = MatchState(A, B, roll_winner=B, games=(g1,))
    d2 = next_right(state, HKK)
    assert (d2.holder, d2.reason, d2.params) == (A, "player_2_game_2", {"game": 2, "player": 2})
    g2 = game(2, A, False, B)
    validate_game(d2, g2, state, HKK)
    # game 3: back to player 1
    state = MatchState(A, B, roll_winner=B, games=(g1, g2))
    d3 = next_right(state, HKK)
    assert (d3.holder, d3.reason, d3.params) == (B, "player_1_game_3", {"game": 3, "player": 1})
    g3 = game(3, B, False, B)
    validate_games(MatchState(A, B, roll_winner=B, games=(g1, g2, g3)), HKK)
    with pytest.raises(InconsistentGame) as err:
        next_right(MatchState(A, B, roll_winner=B, games=(g1, g2, g3)), HKK)
    assert err.value.code == "too_many_games"


def test_hkk_game_three_reroll_when_agreed_before_game_one():
    g1, g2 = game(1, A, False, A), game(2, B, False, B)
    state = MatchState(A, B, roll_winner=A, reroll_game3=True, games=(g1, g2))
    d3 = next_right(state, HKK)
    assert (d3.holder, d3.needs_roll, d3.reason) == (None, True, "reroll_game_3")
    rolled = MatchState(A, B, A, True, game3_roll_winner=B, games=(g1, g2))
    d3 = next_right(rolled, HKK)
    assert (d3.holder, d3.needs_roll, d3.reason) == (B, False, "reroll_game_3")
    assert d3.params == {"game": 3, "player": 2}
    with pytest.raises(InconsistentGame) as err:
        validate_game(next_right(state, HKK), game(3, A, False, A), state, HKK)
    assert err.value.code == "roll_not_recorded"


def test_validate_game_rejects_wrong_holder_and_wrong_first_player():
    state = MatchState(A, B, roll_winner=A)
    decision = next_right(state, HKK)
    with pytest.raises(InconsistentGame) as err:
        validate_game(decision, game(1, B, False, A), state, HKK)
    assert err.value.code == "wrong_right_holder"
    assert err.value.params["expected"] == A
    with pytest.raises(InconsistentGame) as err:
        validate_game(decision, GameRecord(1, A, True, A, A), state, HKK)
    assert err.value.code == "wrong_first_player"
    with pytest.raises(InconsistentGame) as err:
        validate_game(decision, GameRecord(2, A, False, A, A), state, HKK)
    assert err.value.code == "wrong_game_number"
    with pytest.raises(InconsistentGame) as err:
        validate_game(decision, GameRecord(1, A, False, A, 77), state, HKK)
    assert err.value.code == "wrong_winner"
    # game 2 must be held by player 2 even if a client claims player 1 again
    with pytest.raises(InconsistentGame) as err:
        validate_games(MatchState(A, B, A, games=(game(1, A, True, B), game(2, A, False, A))), HKK)
    assert err.value.code == "wrong_right_holder"


def test_loser_chooses_including_a_drawn_game():
    state = MatchState(A, B, roll_winner=A)
    d1 = next_right(state, LOSER_CHOOSES)
    assert (d1.holder, d1.reason) == (A, "die_roll")
    g1 = game(1, A, False, A)  # A wins: loser B chooses game 2
    d2 = next_right(MatchState(A, B, A, games=(g1,)), LOSER_CHOOSES)
    assert (d2.holder, d2.reason) == (B, "loser_of_previous")
    g2 = game(2, B, True, None)  # drawn game 2: B chose, B chooses again
    d3 = next_right(MatchState(A, B, A, games=(g1, g2)), LOSER_CHOOSES)
    assert (d3.holder, d3.reason) == (B, "same_after_draw")
    assert d3.params == {"game": 3, "player": 2, "previous": 2}
    g3 = game(3, B, False, B)  # B wins: A chooses game 4
    d4 = next_right(MatchState(A, B, A, games=(g1, g2, g3)), LOSER_CHOOSES)
    assert (d4.holder, d4.reason) == (A, "loser_of_previous")
    validate_games(MatchState(A, B, A, games=(g1, g2, g3)), LOSER_CHOOSES)
    with pytest.raises(InconsistentGame):
        validate_games(MatchState(A, B, A, games=(g1, game(2, A, False, A))), LOSER_CHOOSES)


def test_roll_winner_must_be_in_the_match():
    with pytest.raises(InconsistentGame) as err:
        next_right(MatchState(A, B, roll_winner=5), HKK)
    assert err.value.code == "unknown_entry"
