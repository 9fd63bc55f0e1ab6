"""Helpers for the first-player tests: play the next game the way a service would."""

from __future__ import annotations

from dataclasses import replace

from tournaments.domain.first_player import make_game, next_right, validate_game
from tournaments.domain.match import MatchState
from tournaments.domain.match_structure import MatchStructure
from tournaments.domain.types import StartChoice

A, B = 10, 20


def play(
    state: MatchState,
    structure: MatchStructure,
    winner: int | None,
    *,
    choice: StartChoice = StartChoice.SELF,
    score: int | None = None,
) -> MatchState:
    """Ask who holds the right, record the game with ``choice`` and check it; the new state."""
    decision = next_right(state, structure)
    assert not decision.needs_roll and decision.holder is not None
    record = make_game(state, holder=decision.holder, choice=choice, winner=winner, score=score)
    validate_game(decision, record, state, structure)
    return replace(state, games=(*state.games, record))
