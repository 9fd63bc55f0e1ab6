"""First-player rights ("kezdés joga") per game of a match: a registry of pure policies.

Interface. A policy looks at a ``MatchState`` (the two entries, the game-1 die-roll winner once
rolled, the game-3 re-roll agreement and result, the games recorded so far) and returns a
``RightDecision`` for the *next* game:

* ``holder``: the entry holding the right to go first, or ``None`` with ``needs_roll=True`` when a
  die roll decides (game 1, or game 3 after an agreed re-roll). The service records the roll
  winner in the state (``roll_winner`` / ``game3_roll_winner``) and asks again.
* ``reason``: a stable code; ``params``: values for the explanation the Django layer renders
  (e.g. ``{"game": 2, "player": 2}`` → "game 2: player 2 (B) per rule").

The holder may always waive the right; the other entry then goes first (``first_player``).
``validate_game`` checks a recorded game against the decision and raises ``InconsistentGame``.

Policies (``POLICIES``):

* ``hkk`` – seed 000, paragraph "A játék kezdésének eldöntésére…", RULES.md §1.4 (KODEX II
  §3.6–3.7 agrees): game 1 a die roll, the winner is player 1 (P1) and holds the right; game 2 the
  right goes to player 2 even if P1 waived in game 1; game 3 back to P1, unless both agreed
  before the game-1 roll to roll again for game 3. A match has at most 3 games (RULES.md §1.7).
* ``loser_chooses`` – MTR 2.2 (TOURNAMENT-PRACTICE.md §4.1), used for WoW TCG: game 1 the die-roll
  winner chooses; after each game its loser chooses; after a drawn game the player who chose for
  the drawn game chooses again (the XMage #7783 bug class).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from tournaments.domain.types import EntryId, GameRecord


class UnknownPolicy(LookupError):  # noqa: N818 (name fixed by the brief)
    """Raised by ``get_policy`` for a code that is not in ``POLICIES``."""


class InconsistentGame(ValueError):  # noqa: N818 (name fixed by the brief)
    """A recorded game contradicts the first-player rule; ``code`` is stable for messages.

    Codes: ``unknown_entry``, ``wrong_game_number``, ``roll_not_recorded``,
    ``wrong_right_holder``, ``wrong_first_player``, ``wrong_winner``, ``too_many_games``.
    """

    def __init__(self, code: str, params: Mapping[str, object] | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.params = dict(params or {})


@dataclass(frozen=True, slots=True)
class MatchState:
    """What a policy needs to know about a match.

    Attributes:
        a, b: the two entries (``a`` is the table's first seat; it has no rule meaning).
        roll_winner: winner of the game-1 die roll (player 1), ``None`` before the roll.
        reroll_game3: both entries agreed *before the game-1 roll* to roll again for game 3.
        game3_roll_winner: winner of that re-roll, ``None`` before it.
        games: games recorded so far, in order (``number`` 1, 2, …).
    """

    a: EntryId
    b: EntryId
    roll_winner: EntryId | None = None
    reroll_game3: bool = False
    game3_roll_winner: EntryId | None = None
    games: tuple[GameRecord, ...] = ()

    def other(self, entry: EntryId) -> EntryId:
        """The opponent of ``entry`` in this match; ``InconsistentGame('unknown_entry')``."""
        if entry == self.a:
            return self.b
        if entry == self.b:
            return self.a
        raise InconsistentGame("unknown_entry", {"entry": entry})


@dataclass(frozen=True, slots=True)
class RightDecision:
    """Who holds the right to go first in game ``game_number`` and why.

    ``holder is None`` together with ``needs_roll=True`` means "a die roll decides".
    """

    game_number: int
    holder: EntryId | None
    needs_roll: bool
    reason: str
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class FirstPlayerPolicy:
    """A registered policy: stable ``code`` and a pure ``decide(state) -> RightDecision``."""

    code: str
    decide: Callable[[MatchState], RightDecision]
    max_games: int | None = None


def first_player(holder: EntryId, waived: bool, a: EntryId, b: EntryId) -> EntryId:
    """The entry that actually goes first: the holder, or the other entry if the holder waived.

    Raises ``InconsistentGame('unknown_entry')`` if ``holder`` is neither ``a`` nor ``b``.
    """
    if holder not in (a, b):
        raise InconsistentGame("unknown_entry", {"entry": holder})
    if not waived:
        return holder
    return b if holder == a else a


def _player_one(state: MatchState) -> EntryId | None:
    if state.roll_winner is not None:
        state.other(state.roll_winner)  # validates membership
        return state.roll_winner
    if state.games:
        return state.games[0].right_holder
    return None


def _roll(game: int, reason: str) -> RightDecision:
    return RightDecision(game, None, True, reason, {"game": game})


def _decide_hkk(state: MatchState) -> RightDecision:
    game = len(state.games) + 1
    if game > 3:
        raise InconsistentGame("too_many_games", {"max_games": 3})
    p1 = _player_one(state)
    if p1 is None:
        return _roll(1, "die_roll")
    if game == 1:
        return RightDecision(1, p1, False, "die_roll", {"game": 1, "player": 1})
    if game == 2:
        return RightDecision(2, state.other(p1), False, "player_2_game_2", {"game": 2, "player": 2})
    if state.reroll_game3:
        if state.game3_roll_winner is None:
            return _roll(3, "reroll_game_3")
        state.other(state.game3_roll_winner)
        player = 1 if state.game3_roll_winner == p1 else 2
        return RightDecision(
            3, state.game3_roll_winner, False, "reroll_game_3", {"game": 3, "player": player}
        )
    return RightDecision(3, p1, False, "player_1_game_3", {"game": 3, "player": 1})


def _decide_loser_chooses(state: MatchState) -> RightDecision:
    game = len(state.games) + 1
    p1 = _player_one(state)
    if p1 is None:
        return _roll(1, "die_roll")
    if game == 1:
        return RightDecision(1, p1, False, "die_roll", {"game": 1, "player": 1})
    previous = state.games[-1]
    if previous.winner is None:
        holder = previous.right_holder
        if holder is None:
            raise InconsistentGame("wrong_right_holder", {"game": previous.number})
        reason = "same_after_draw"
    else:
        holder = state.other(previous.winner)
        reason = "loser_of_previous"
    player = 1 if holder == p1 else 2
    return RightDecision(
        game, holder, False, reason, {"game": game, "player": player, "previous": game - 1}
    )


POLICIES: dict[str, FirstPlayerPolicy] = {
    "hkk": FirstPlayerPolicy("hkk", _decide_hkk, max_games=3),
    "loser_chooses": FirstPlayerPolicy("loser_chooses", _decide_loser_chooses),
}


def get_policy(code: str) -> FirstPlayerPolicy:
    """The policy registered under ``code``; raises ``UnknownPolicy``."""
    try:
        return POLICIES[code]
    except KeyError:
        raise UnknownPolicy(code) from None


def next_right(state: MatchState, *, policy: str = "hkk") -> RightDecision:
    """Decision for the next game of ``state`` under the policy ``policy`` (a registry code)."""
    return get_policy(policy).decide(state)


def validate_game(decision: RightDecision, record: GameRecord, state: MatchState) -> None:
    """Check that ``record`` (the next game of ``state``) follows ``decision``.

    The holder must be the decided one, ``first`` must be the holder unless waived (then the
    other entry), and the winner one of the two entries or ``None`` (draw).

    Raises:
        InconsistentGame: with the codes listed on the class.
    """
    if record.number != decision.game_number:
        raise InconsistentGame(
            "wrong_game_number", {"expected": decision.game_number, "got": record.number}
        )
    if decision.needs_roll or decision.holder is None:
        raise InconsistentGame("roll_not_recorded", {"game": decision.game_number})
    if record.right_holder != decision.holder:
        raise InconsistentGame(
            "wrong_right_holder",
            {"game": record.number, "expected": decision.holder, "got": record.right_holder},
        )
    expected_first = first_player(decision.holder, record.waived, state.a, state.b)
    if record.first != expected_first:
        raise InconsistentGame(
            "wrong_first_player",
            {"game": record.number, "expected": expected_first, "got": record.first},
        )
    if record.winner is not None and record.winner not in (state.a, state.b):
        raise InconsistentGame("wrong_winner", {"game": record.number, "got": record.winner})


def validate_games(state: MatchState, *, policy: str = "hkk") -> None:
    """Replay every recorded game of ``state`` through ``policy`` and ``validate_game``.

    Raises ``InconsistentGame`` at the first game that breaks the rule.
    """
    for i, record in enumerate(state.games):
        prefix = MatchState(
            state.a,
            state.b,
            state.roll_winner,
            state.reroll_game3,
            state.game3_roll_winner,
            state.games[:i],
        )
        validate_game(next_right(prefix, policy=policy), record, prefix)
