"""Blue Moon matches: one game scored in crystals (docs/rules.md §13 Blue Moon matches; Blue Moon
FAQ by C. Dearlove, "End of Game")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.domain.tournaments.match_helpers import A, B, play
from tournaments.domain.first_player import (
    InconsistentGame,
    RightMode,
    make_game,
    next_right,
    record_die_roll,
    validate_game,
)
from tournaments.domain.match import MatchState, games_remaining, match_result
from tournaments.domain.match_structure import MatchStructure, get_preset
from tournaments.domain.types import StartChoice

BLUE_MOON = get_preset("blue_moon")
WITH_EXPANSIONS = get_preset("blue_moon_emissaries_inquisitors")


def code_of(call, *args, **kwargs) -> str:
    with pytest.raises(InconsistentGame) as err:
        call(*args, **kwargs)
    return err.value.code


def test_one_game_decided_by_a_die_roll_whose_winner_chooses():
    state = MatchState(A, B)
    first = next_right(state, BLUE_MOON)
    assert (first.needs_roll, first.mode) == (True, RightMode.CHOOSES)
    state = record_die_roll(state, BLUE_MOON, A)
    assert next_right(state, BLUE_MOON).chooser == A
    state = play(state, BLUE_MOON, B, choice=StartChoice.OPPONENT, score=3)
    result = match_result(state, BLUE_MOON)
    assert (result.decided, result.winner, result.b_score, result.a_score) == (True, B, 3, 0)
    assert result.scores == {A: 0, B: 3}
    assert games_remaining(state, BLUE_MOON) == 0
    assert code_of(next_right, state, BLUE_MOON) == "too_many_games"
    assert code_of(record_die_roll, state, BLUE_MOON, A) == "too_many_games"


@pytest.mark.parametrize(
    ("winner", "score", "code"),
    [
        (A, None, "score_missing"),
        (A, 0, "score_out_of_range"),
        (A, 5, "score_out_of_range"),
        (A, True, "score_out_of_range"),
        (None, None, "draw_not_allowed"),
    ],
)
def test_invalid_results(winner, score, code):
    state = record_die_roll(MatchState(A, B), BLUE_MOON, A)
    decision = next_right(state, BLUE_MOON)
    record = make_game(state, holder=A, winner=winner, score=score)
    assert code_of(validate_game, decision, record, state, BLUE_MOON) == code


def test_maximum_crystals_depend_on_the_expansions():
    state = record_die_roll(MatchState(A, B), WITH_EXPANSIONS, B)
    assert match_result(play(state, WITH_EXPANSIONS, A, score=7), WITH_EXPANSIONS).a_score == 7
    decision = next_right(state, WITH_EXPANSIONS)
    too_many = make_game(state, holder=B, winner=A, score=8)
    assert code_of(validate_game, decision, too_many, state, WITH_EXPANSIONS) == (
        "score_out_of_range"
    )


def test_a_draw_where_the_organiser_allows_it_carries_no_score():
    lenient = replace(BLUE_MOON, game_draws=True)
    state = record_die_roll(MatchState(A, B), lenient, A)
    assert match_result(play(state, lenient, None), lenient).is_draw
    decision = next_right(state, lenient)
    scored_draw = make_game(state, holder=A, winner=None, score=2)
    assert code_of(validate_game, decision, scored_draw, state, lenient) == "score_not_allowed"


def test_play_to_five_crystals():
    to_five = MatchStructure.from_dict(
        {**BLUE_MOON.to_dict(), "games_per_match": 9, "target_score": 5}
    )
    state = record_die_roll(MatchState(A, B), to_five, A)
    state = play(state, to_five, A, score=4)
    state = play(state, to_five, B, score=2)
    d3 = next_right(state, to_five)
    assert (d3.chooser, d3.reason) == (A, "loser_of_previous")
    state = play(state, to_five, B, score=3)
    result = match_result(state, to_five)
    assert (result.decided, result.winner, result.a_score, result.b_score) == (True, B, 4, 5)
    assert (result.a_wins, result.b_wins) == (1, 2)
    assert code_of(next_right, state, to_five) == "match_already_decided"
