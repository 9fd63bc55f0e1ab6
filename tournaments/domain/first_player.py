"""First-player rights ("kezdés joga") per game of a match: a registry of pure policies.

Interface. A policy looks at a ``MatchState`` (the two entries, the game-1 die-roll winner once
rolled, the HKK game-3 re-roll agreement and result, the games recorded so far) and the
format's ``MatchStructure``, and returns a ``RightDecision`` for the *next* game:

* ``holder``: the entry holding the right to go first (HKK) or choosing who starts (WoW TCG,
  Blue Moon; ``mode`` tells which), or ``None`` with ``needs_roll=True`` when a die roll
  decides (game 1, or HKK game 3 after an agreed re-roll). The service records the roll winner
  with ``record_die_roll`` (which returns the new state) and asks again.
* ``reason``: a stable code; ``params``: values for the explanation the Django layer renders
  (e.g. ``{"game": 2, "player": 2}`` → "game 2: player 2 (B) per rule"). ``player`` is 1 for
  the game-1 roll winner and 2 for the other entry.

The holder may always waive the right / let the opponent start (``StartChoice.OPPONENT``); the
other entry then goes first (``first_player``). ``validate_game`` checks a recorded game.

Reason codes: ``die_roll`` (game 1; ``needs_roll`` until the roll is recorded),
``player_2_game_2``, ``player_1_game_3``, ``reroll_game_3`` (HKK), ``loser_of_previous``,
``same_after_draw``, ``alternate`` (games 2+ under ``wow``, ``blue_moon``, ``loser_chooses``).

Policies (``POLICIES``, in ``first_player_policies``; codes in ``match_structure.PolicyCode``):

* ``hkk`` (docs/rules.md §6 HKK first-player rights; HKK FAQ on rule cards, followers, pair
  tournaments and first-player rights, paragraph "A játék kezdésének eldöntésére…"; the HKK
  Kódex part II §3.6–3.7 agrees): game 1 a die roll, whose winner is player 1 and holds the
  right; game 2 the right goes to player 2 even if player 1 waived in game 1; game 3 back to
  player 1, unless both agreed *before the game-1 roll* to roll again for game 3 ("Ha még az
  első játék kezdésekor a kockadobás előtt mindkét játékos beleegyezik…"). Any holder may waive.
* ``wow`` (docs/rules.md §11 WoW TCG matches and first player; WoW TCG starter rulebook: "Aki a
  legnagyobbat dobta, eldöntheti, ki kezdi a játékot"): the die roll winner chooses who starts
  game 1. Later games follow ``MatchStructure.later_games``, by default Magic Tournament Rules
  2.2 (inferred for WoW TCG): the loser of the previous game chooses; after a drawn game the
  player who chose for the drawn game chooses again (so a drawn game 1 leaves the choice with
  the roll winner).
* ``blue_moon`` (docs/rules.md §13 Blue Moon matches): who starts is not in the Blue Moon FAQ
  (unknown); as ``wow``: the die roll winner chooses (inferred).
* ``loser_chooses``: the generic Magic Tournament Rules 2.2 policy (stored tournaments use it
  for WoW TCG and Blue Moon): as ``wow`` with later games always ``loser_chooses``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from tournaments.domain.first_player_policies import (
    POLICIES,
    FirstPlayerPolicy,
    RightDecision,
    RightMode,
    UnknownPolicy,
    get_policy,
)
from tournaments.domain.match import (
    InconsistentGame,
    MatchState,
    check_can_play,
)
from tournaments.domain.match_structure import (
    MatchStructure,
)
from tournaments.domain.types import EntryId, GameRecord, StartChoice

__all__ = [
    "POLICIES",
    "FirstPlayerPolicy",
    "InconsistentGame",
    "MatchState",
    "RightDecision",
    "RightMode",
    "SlipLine",
    "StartChoice",
    "UnknownPolicy",
    "agree_reroll_game3",
    "first_player",
    "get_policy",
    "make_game",
    "next_right",
    "record_die_roll",
    "result_games",
    "right_mode",
    "slip_lines",
    "validate_game",
    "validate_games",
]


def first_player(holder: EntryId, waived: bool, a: EntryId, b: EntryId) -> EntryId:
    """The entry that actually goes first: the holder, or the other entry if the holder waived.

    Raises ``InconsistentGame('unknown_entry')`` if ``holder`` is neither ``a`` nor ``b``.
    """
    if holder not in (a, b):
        raise InconsistentGame("unknown_entry", {"entry": holder})
    if not waived:
        return holder
    return b if holder == a else a


def make_game(
    state: MatchState,
    *,
    holder: EntryId,
    choice: StartChoice | str = StartChoice.SELF,
    winner: EntryId | None,
    score: int | None = None,
) -> GameRecord:
    """The ``GameRecord`` of the next game of ``state`` from the holder's / chooser's
    ``choice`` (``"self"`` or ``"opponent"``): fills ``number``, ``waived`` and ``first``.

    ``winner`` is ``None`` for a drawn game; ``score`` is the winner's score (Blue Moon
    crystals). Nothing is checked against the rules; pass the result to ``validate_game``.

    Raises:
        InconsistentGame: ``unknown_entry`` for a holder outside the match.
        ValueError: a ``choice`` that is not a :class:`StartChoice` value.
    """
    waived = StartChoice(choice) == StartChoice.OPPONENT
    return GameRecord(
        number=len(state.games) + 1,
        right_holder=holder,
        waived=waived,
        first=first_player(holder, waived, state.a, state.b),
        winner=winner,
        score=score,
    )


def next_right(state: MatchState, structure: MatchStructure) -> RightDecision:
    """Decision for the next game of ``state`` under ``structure`` (its ``policy`` and
    ``later_games``).

    Raises:
        InconsistentGame: ``too_many_games`` / ``match_already_decided`` when no further game
            is played (``match.check_can_play``); ``unknown_entry`` for a roll winner outside
            the match; ``wrong_right_holder`` when a recorded game lacks its holder.
    """
    check_can_play(state, structure)
    return get_policy(structure.policy).decide(state, structure)


def _check_outcome(record: GameRecord, structure: MatchStructure) -> None:
    if record.winner is None:
        if not structure.game_draws:
            raise InconsistentGame("draw_not_allowed", {"game": record.number})
        if record.score is not None:
            raise InconsistentGame("score_not_allowed", {"game": record.number})
        return
    if not structure.scored:
        if record.score is not None:
            raise InconsistentGame("score_not_allowed", {"game": record.number})
        return
    top = structure.game_score_max
    if record.score is None:
        raise InconsistentGame(
            "score_missing", {"game": record.number, "unit": structure.game_score_unit}
        )
    if isinstance(record.score, bool) or top is None or not 1 <= record.score <= top:
        raise InconsistentGame(
            "score_out_of_range",
            {"game": record.number, "got": record.score, "min": 1, "max": top},
        )


def validate_game(
    decision: RightDecision,
    record: GameRecord,
    state: MatchState,
    structure: MatchStructure,
) -> None:
    """Check that ``record`` (the next game of ``state``) follows ``decision``.

    The holder must be the decided one, ``first`` must be the holder unless waived (then the
    other entry), and the winner one of the two entries or ``None`` (draw); and under
    ``structure``: the match is not over, draws are allowed, and the score (Blue Moon
    crystals) is given for a won game, 1 … ``game_score_max``, and absent otherwise.

    Raises:
        InconsistentGame: ``too_many_games``, ``match_already_decided``, ``wrong_game_number``,
            ``roll_not_recorded``, ``wrong_right_holder``, ``wrong_first_player``,
            ``wrong_winner``, ``draw_not_allowed``, ``score_missing``, ``score_out_of_range``,
            ``score_not_allowed``.
    """
    check_can_play(state, structure)
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
    _check_outcome(record, structure)


def validate_games(state: MatchState, structure: MatchStructure) -> None:
    """Replay the whole match: the recorded rolls, then every game through ``next_right`` and
    ``validate_game`` with the structure's checks.

    Raises:
        InconsistentGame: at the first roll or game that breaks the rules: ``unknown_entry``,
            ``roll_not_expected`` (a game-3 roll winner without an agreed re-roll),
            ``reroll_not_available`` (an agreement the structure does not offer), and the codes
            of ``validate_game``.
    """
    for entry in (state.roll_winner, state.game3_roll_winner):
        if entry is not None:
            state.other(entry)
    if state.reroll_game3 and not structure.reroll_game3_available:
        raise InconsistentGame("reroll_not_available", {"policy": str(structure.policy)})
    if state.game3_roll_winner is not None and not state.reroll_game3:
        raise InconsistentGame("roll_not_expected", {"game": 3})
    for i, record in enumerate(state.games):
        prefix = replace(state, games=state.games[:i])
        validate_game(next_right(prefix, structure), record, prefix, structure)


def result_games(
    state: MatchState, structure: MatchStructure, winners: Sequence[EntryId | None]
) -> tuple[tuple[GameRecord, RightDecision], ...]:
    """The next games of ``state`` from their winners alone (``None``: a drawn game), as a
    result slip records them: each game's holder from :func:`next_right` after the games
    before it, nobody waives (the holder goes first, or chooses to start), no score; every
    game checked with :func:`validate_game` against ``structure`` (docs/rules.md §6 (HKK
    first-player rights), §11 (WoW TCG matches and first player), §13 (Blue Moon matches)).

    Returns ``(record, decision)`` per game, in order, numbered after ``state.games``.

    Raises:
        InconsistentGame: ``roll_not_recorded`` (params ``game``) when a die roll decides a
            game and ``state`` has no winner for it; the codes of :func:`next_right` and
            :func:`validate_game` (``match_already_decided``, ``draw_not_allowed``,
            ``score_missing`` …).
    """
    out: list[tuple[GameRecord, RightDecision]] = []
    for winner in winners:
        decision = next_right(state, structure)
        holder = decision.holder
        if decision.needs_roll or holder is None:
            raise InconsistentGame("roll_not_recorded", {"game": decision.game_number})
        record = GameRecord(decision.game_number, holder, False, holder, winner)
        validate_game(decision, record, state, structure)
        out.append((record, decision))
        state = replace(state, games=(*state.games, record))
    return tuple(out)


def agree_reroll_game3(state: MatchState, structure: MatchStructure) -> MatchState:
    """Record that both entries agree to decide game 3 by a new die roll (HKK).

    The agreement is valid only if made before the game-1 die roll (docs/rules.md §6 HKK
    first-player rights; HKK FAQ on rule cards, followers, pair tournaments and first-player
    rights: "Ha még az első játék kezdésekor a kockadobás előtt mindkét játékos beleegyezik…").

    Returns the new state (``reroll_game3=True``).

    Raises:
        InconsistentGame: ``reroll_not_available`` (not ``hkk`` with three games),
            ``reroll_agreement_too_late`` (the game-1 roll or a game is already recorded).
    """
    if not structure.reroll_game3_available:
        raise InconsistentGame("reroll_not_available", {"policy": str(structure.policy)})
    if state.roll_winner is not None or state.games:
        raise InconsistentGame("reroll_agreement_too_late", {"game": 1})
    return replace(state, reroll_game3=True)


def record_die_roll(
    state: MatchState,
    structure: MatchStructure,
    winner: EntryId,
    *,
    reroll_game3_agreed: bool | None = None,
) -> MatchState:
    """Record the winner of the die roll the next game needs and return the new state.

    * Game 1 (every policy): sets ``roll_winner``. ``reroll_game3_agreed`` (HKK) is the
      agreement the players made before this roll; it can be set or withdrawn only while the
      game-1 roll is not yet recorded. ``None`` keeps the current agreement.
    * HKK game 3 after an agreed re-roll: sets ``game3_roll_winner``.
    * A roll already recorded may be replaced (a correction) until its game is recorded.

    Raises:
        InconsistentGame: ``unknown_entry``; ``reroll_agreement_too_late`` (changing the
            agreement once the game-1 roll or a game is recorded); ``reroll_not_available``;
            ``too_many_games`` / ``match_already_decided``; ``roll_not_expected`` when no die
            roll decides the next game (e.g. HKK game 2, WoW TCG game 2).
    """
    state.other(winner)
    if reroll_game3_agreed is not None and reroll_game3_agreed != state.reroll_game3:
        if reroll_game3_agreed and not structure.reroll_game3_available:
            raise InconsistentGame("reroll_not_available", {"policy": str(structure.policy)})
        if state.roll_winner is not None or state.games:
            raise InconsistentGame("reroll_agreement_too_late", {"game": 1})
        state = replace(state, reroll_game3=reroll_game3_agreed)
    if not state.games:
        return replace(state, roll_winner=winner)
    decision = next_right(state, structure)
    corrects_game3_roll = decision.reason == "reroll_game_3" and decision.game_number == 3
    if decision.needs_roll or corrects_game3_roll:
        if decision.game_number == 1:
            return replace(state, roll_winner=winner)
        return replace(state, game3_roll_winner=winner)
    raise InconsistentGame("roll_not_expected", {"game": decision.game_number})


def right_mode(structure: MatchStructure) -> RightMode:
    """How the decided entry uses its right under ``structure``'s policy: ``holds_right``
    (HKK: a waivable right) or ``chooses`` (who starts). Raises ``KeyError`` for an
    unregistered policy (a ``MatchStructure`` never has one)."""
    return structure.rules.mode


@dataclass(frozen=True, slots=True)
class SlipLine:
    """What a result slip prints for game ``game`` before the match is played.

    ``player`` is 1 (the game-1 die roll winner) or 2 when the policy gives the game to that
    player whatever happens before it; ``needs_roll`` when a die roll decides (HKK game 3
    after an agreed re-roll); both unset when the holder depends on the earlier results (the
    slip prints the policy's ``slip_text``). ``reasons`` are the decision reason codes seen.
    """

    game: int
    player: int | None
    needs_roll: bool
    reasons: tuple[str, ...]


_A, _B = 1, 2


def _outcomes(structure: MatchStructure) -> tuple[EntryId | None, ...]:
    return (_A, _B, None) if structure.game_draws else (_A, _B)


def _decisions_at_level(
    states: Sequence[MatchState], structure: MatchStructure
) -> list[tuple[MatchState, RightDecision]]:
    out = []
    for state in states:
        try:
            out.append((state, next_right(state, structure)))
        except InconsistentGame:
            continue  # the match is over after these results
    return out


def _played(
    state: MatchState, decision: RightDecision, structure: MatchStructure
) -> list[MatchState]:
    """Every state after the next game: each roll winner when a roll decides, then each
    outcome, the holder going first (a won game of a scored structure scores 1, the longest
    match)."""
    rolled: list[tuple[MatchState, EntryId | None]] = [(state, decision.holder)]
    if decision.needs_roll:
        rolled = []
        for roll_winner in (_A, _B):
            after_roll = record_die_roll(state, structure, roll_winner)
            rolled.append((after_roll, next_right(after_roll, structure).holder))
    nxt = []
    for st, holder in rolled:
        if holder is None:  # pragma: no cover (a recorded roll always names a holder)
            continue
        for winner in _outcomes(structure):
            score = 1 if structure.scored and winner is not None else None
            game = GameRecord(len(st.games) + 1, holder, False, holder, winner, score)
            nxt.append(replace(st, games=(*st.games, game)))
    return nxt


@lru_cache(maxsize=256)
def slip_lines(structure: MatchStructure, *, reroll_game3: bool = False) -> tuple[SlipLine, ...]:
    """Per game of ``structure``, what a result slip prints about its holder, derived from
    the policy's own ``decide`` (no rule is coded here): every sequence of earlier results
    (win A, win B, draw where allowed; the game-1 die roll won by player 1) is replayed
    through :func:`next_right`, and a game whose holder is the same player in all of them
    gets that player. ``reroll_game3``: the HKK agreement to roll again for game 3.

    Returns one :class:`SlipLine` per game that can be played, in order. Cached per
    structure (at most 3⁸ sequences for a nine-game match).
    """
    state = MatchState(a=_A, b=_B, roll_winner=_A, reroll_game3=reroll_game3)
    states: list[MatchState] = [state]
    lines: list[SlipLine] = []
    while states:
        decided = _decisions_at_level(states, structure)
        if not decided:
            break
        decisions = [d for _state, d in decided]
        players = {None if d.holder is None else (1 if d.holder == _A else 2) for d in decisions}
        needs_roll = all(d.needs_roll for d in decisions)
        player = next(iter(players)) if len(players) == 1 and not needs_roll else None
        reasons = tuple(sorted({d.reason for d in decisions}))
        lines.append(SlipLine(decisions[0].game_number, player, needs_roll, reasons))
        states = [nxt for st, d in decided for nxt in _played(st, d, structure)]
    return tuple(lines)


def replay_reported(
    state: MatchState, structure: MatchStructure, records: Sequence[GameRecord]
) -> MatchState:
    """Check ``records`` (games 1, 2, … in number order, as a player or a judge reports them)
    as the next games of ``state`` under ``structure`` and return the state with them played.

    Where a die roll decides a game and ``state`` has none recorded, the reported right holder
    is taken as the roll winner, as a judge's recording takes it (docs/rules.md §6 (HKK
    first-player rights), §11 (WoW TCG matches and first player), §13 (Blue Moon matches)).
    Pure: nothing is stored; the same checks as :func:`validate_game` for every game.

    Raises:
        InconsistentGame: ``unknown_entry`` (a holder that does not play here),
            ``roll_not_recorded``, ``too_many_games``, ``match_already_decided``,
            ``wrong_game_number`` (a gap or a repeat), and the codes of :func:`validate_game`.
    """
    for record in records:
        decision = next_right(state, structure)
        if decision.needs_roll and record.right_holder is not None:
            state = record_die_roll(state, structure, record.right_holder)
            decision = next_right(state, structure)
        validate_game(decision, record, state, structure)
        state = replace(state, games=(*state.games, record))
    return state
