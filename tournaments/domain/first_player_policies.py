"""The first-player policies and their registry (``POLICIES``, ``get_policy``).

A policy decides who holds the right to go first, or chooses who starts, in the next game of a
match; the rules of each policy, the reason codes and the explanation parameters are described
in :mod:`tournaments.domain.first_player`, which re-exports every name of this module:

* ``hkk``: docs/rules.md §6 (HKK first-player rights); HKK FAQ on rule cards, followers, pair
  tournaments and first-player rights; HKK Kódex part II §3.6–3.7.
* ``wow`` and ``loser_chooses``: docs/rules.md §11 (WoW TCG matches and first player); WoW TCG
  starter rulebook; Magic Tournament Rules 2.2 (inferred for WoW TCG).
* ``blue_moon``: docs/rules.md §13 (Blue Moon matches); as ``wow`` (inferred).

Pure Python (stdlib only).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from tournaments.domain.match import InconsistentGame, MatchState
from tournaments.domain.match_structure import (
    HKK_GAMES_PER_MATCH,
    LaterGames,
    MatchStructure,
    PolicyCode,
)
from tournaments.domain.types import EntryId

__all__ = [
    "POLICIES",
    "FirstPlayerPolicy",
    "RightDecision",
    "RightMode",
    "UnknownPolicy",
    "get_policy",
]


class UnknownPolicy(LookupError):  # noqa: N818 (public name kept)
    """Raised by ``get_policy`` for a code that is not in ``POLICIES``."""


class RightMode(StrEnum):
    """How the decided entry uses its right.

    ``holds_right``: HKK wording: the entry holds the right to start and may waive it.
    ``chooses``: WoW TCG / Magic Tournament Rules wording: the entry chooses who starts.
    Both are recorded the same way (``GameRecord.right_holder`` and ``waived`` / ``choice``).
    """

    HOLDS_RIGHT = "holds_right"
    CHOOSES = "chooses"


@dataclass(frozen=True, slots=True)
class RightDecision:
    """Who holds the right to go first (or chooses who starts) in game ``game_number``, and why.

    ``holder is None`` together with ``needs_roll=True`` means "a die roll decides".
    ``reason`` and ``params`` are described in the module docstring; ``mode`` tells whether the
    holder holds a waivable right (HKK) or chooses (WoW TCG, Blue Moon).
    """

    game_number: int
    holder: EntryId | None
    needs_roll: bool
    reason: str
    params: Mapping[str, object] = field(default_factory=dict)
    mode: RightMode = RightMode.HOLDS_RIGHT

    @property
    def chooser(self) -> EntryId | None:
        """The entry that decides who starts (same as ``holder``)."""
        return self.holder


@dataclass(frozen=True, slots=True)
class FirstPlayerPolicy:
    """A registered policy: stable ``code``, a pure ``decide(state, structure)``, the most
    games its own rule names (``None`` = no limit) and its ``mode``."""

    code: str
    decide: Callable[[MatchState, MatchStructure], RightDecision]
    max_games: int | None = None
    mode: RightMode = RightMode.HOLDS_RIGHT


def _player_one(state: MatchState) -> EntryId | None:
    if state.roll_winner is not None:
        state.other(state.roll_winner)  # validates membership
        return state.roll_winner
    if state.games:
        return state.games[0].right_holder
    return None


def _roll(game: int, reason: str, mode: RightMode) -> RightDecision:
    return RightDecision(game, None, True, reason, {"game": game}, mode)


def _decide_hkk(state: MatchState, structure: MatchStructure) -> RightDecision:
    mode = RightMode.HOLDS_RIGHT
    game = len(state.games) + 1
    if game > HKK_GAMES_PER_MATCH:
        raise InconsistentGame("too_many_games", {"max_games": HKK_GAMES_PER_MATCH})
    p1 = _player_one(state)
    if p1 is None:
        return _roll(1, "die_roll", mode)
    if game == 1:
        return RightDecision(1, p1, False, "die_roll", {"game": 1, "player": 1}, mode)
    if game == 2:
        return RightDecision(
            2, state.other(p1), False, "player_2_game_2", {"game": 2, "player": 2}, mode
        )
    if state.reroll_game3:
        if state.game3_roll_winner is None:
            return _roll(3, "reroll_game_3", mode)
        state.other(state.game3_roll_winner)
        player = 1 if state.game3_roll_winner == p1 else 2
        return RightDecision(
            3, state.game3_roll_winner, False, "reroll_game_3", {"game": 3, "player": player}, mode
        )
    return RightDecision(3, p1, False, "player_1_game_3", {"game": 3, "player": 1}, mode)


def _decide_chooser(state: MatchState, structure: MatchStructure) -> RightDecision:
    mode = RightMode.CHOOSES
    game = len(state.games) + 1
    p1 = _player_one(state)
    if p1 is None:
        return _roll(1, "die_roll", mode)
    if game == 1:
        return RightDecision(1, p1, False, "die_roll", {"game": 1, "player": 1}, mode)
    previous = state.games[-1]
    if previous.right_holder is None:
        raise InconsistentGame("wrong_right_holder", {"game": previous.number})
    if structure.effective_later_games == LaterGames.ALTERNATE:
        holder = state.other(previous.right_holder)
        reason = "alternate"
    elif previous.winner is None:
        holder = previous.right_holder
        reason = "same_after_draw"
    else:
        holder = state.other(previous.winner)
        reason = "loser_of_previous"
    player = 1 if holder == p1 else 2
    return RightDecision(
        game, holder, False, reason, {"game": game, "player": player, "previous": game - 1}, mode
    )


POLICIES: dict[str, FirstPlayerPolicy] = {
    PolicyCode.HKK.value: FirstPlayerPolicy(
        "hkk", _decide_hkk, max_games=HKK_GAMES_PER_MATCH, mode=RightMode.HOLDS_RIGHT
    ),
    PolicyCode.WOW.value: FirstPlayerPolicy("wow", _decide_chooser, mode=RightMode.CHOOSES),
    PolicyCode.BLUE_MOON.value: FirstPlayerPolicy(
        "blue_moon", _decide_chooser, mode=RightMode.CHOOSES
    ),
    PolicyCode.LOSER_CHOOSES.value: FirstPlayerPolicy(
        "loser_chooses", _decide_chooser, mode=RightMode.CHOOSES
    ),
}


def get_policy(code: str) -> FirstPlayerPolicy:
    """The policy registered under ``code``; raises ``UnknownPolicy``."""
    try:
        return POLICIES[code]
    except KeyError:
        raise UnknownPolicy(code) from None
