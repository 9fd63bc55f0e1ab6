"""A player's or a judge's report of whole games checked in memory
(``first_player.replay_reported``): the same holders and checks as recording the games one by
one, the reported holder taken as the winner of a die roll not yet recorded (docs/rules.md §6
HKK first-player rights, §11 WoW TCG matches and first player, §13 Blue Moon matches)."""

from __future__ import annotations

import pytest

from tests.domain.tournaments.match_helpers import A, B
from tournaments.domain.first_player import InconsistentGame, replay_reported
from tournaments.domain.match import MatchState
from tournaments.domain.match_structure import get_preset
from tournaments.domain.types import GameRecord

HKK = get_preset("hkk")
BO3 = get_preset("wow_best_of_three")
MOON = get_preset("blue_moon")


def g(number, holder, winner, *, waived=False, first=None, score=None) -> GameRecord:
    if first is None:
        first = holder if not waived else (B if holder == A else A)
    return GameRecord(number, holder, waived, first, winner, score)


def code_of(state, structure, records) -> str:
    with pytest.raises(InconsistentGame) as err:
        replay_reported(state, structure, records)
    return err.value.code


def test_hkk_report_takes_the_game_one_holder_as_the_roll_winner():
    state = replay_reported(MatchState(A, B), HKK, [g(1, B, B), g(2, A, A), g(3, B, A)])
    assert state.roll_winner == B
    assert [r.winner for r in state.games] == [B, A, A]


def test_a_recorded_roll_is_kept_and_a_contradicting_holder_refused():
    assert code_of(MatchState(A, B, roll_winner=A), HKK, [g(1, B, B)]) == "wrong_right_holder"


def test_a_waived_right_means_the_other_entry_went_first():
    state = replay_reported(MatchState(A, B), HKK, [g(1, A, B, waived=True)])
    assert state.games[0].first == B
    assert code_of(MatchState(A, B), HKK, [g(1, A, B, waived=True, first=A)]) == (
        "wrong_first_player"
    )


@pytest.mark.parametrize(
    ("records", "code"),
    [
        ([g(2, A, A)], "wrong_game_number"),
        ([g(1, A, A), g(1, B, B)], "wrong_game_number"),
        ([g(1, A, 99)], "wrong_winner"),
        ([g(1, 99, A)], "unknown_entry"),
        ([g(1, None, A)], "roll_not_recorded"),
        ([g(1, A, A), g(2, B, B), g(3, A, A), g(4, B, B)], "too_many_games"),
    ],
)
def test_hkk_reports_breaking_the_rules_are_refused(records, code):
    assert code_of(MatchState(A, B), HKK, records) == code


def test_a_decided_best_of_three_takes_no_third_game():
    state = MatchState(A, B, roll_winner=A)
    # WoW: the loser of the game before chooses; A won game 1, so B holds game 2.
    records = [g(1, A, A), g(2, B, A), g(3, B, A)]
    assert code_of(state, BO3, records) == "match_already_decided"
    assert len(replay_reported(state, BO3, records[:2]).games) == 2


def test_blue_moon_scores_are_checked():
    state = MatchState(A, B, roll_winner=A)
    assert code_of(state, MOON, [g(1, A, A)]) == "score_missing"
    assert code_of(state, MOON, [g(1, A, A, score=99)]) == "score_out_of_range"
    assert code_of(state, MOON, [g(1, A, None, score=3)]) in (
        "score_not_allowed",
        "draw_not_allowed",
    )
    assert replay_reported(state, MOON, [g(1, A, A, score=3)]).games[0].score == 3
