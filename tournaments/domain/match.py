"""The state of one match and what follows from it under its :class:`MatchStructure`: whether
the match is decided, how many games may still be played, and the match result (game wins,
losses, draws and, for scored games, the score such as Blue Moon crystals).

Match points are not computed here: ``tournaments.domain.standings`` turns results into points
and tiebreakers (docs/rules.md §15 Match points and tiebreakers).

Sources: docs/rules.md §8 HKK tournament structure and scoring (three games per opponent),
§11 WoW TCG matches and first player (best of three / best of one), §13 Blue Moon matches (one
game, scored in crystals; Blue Moon FAQ by C. Dearlove, "End of Game").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tournaments.domain.types import EntryId, GameRecord

if TYPE_CHECKING:
    from tournaments.domain.match_structure import MatchStructure

__all__ = [
    "InconsistentGame",
    "MatchResult",
    "MatchState",
    "check_can_play",
    "games_remaining",
    "is_match_decided",
    "match_result",
]


class InconsistentGame(ValueError):  # noqa: N818 (public name kept)
    """A game, die roll or agreement contradicts the match rules; ``code`` is stable.

    ``params`` holds the values for the message (``game``, ``expected``, ``got`` …).

    Codes:
        ``unknown_entry``: an entry that does not play in this match.
        ``wrong_game_number``: games must be recorded in order.
        ``roll_not_recorded``: a die roll decides this game and its winner is missing.
        ``roll_not_expected``: a die roll was recorded where no roll decides.
        ``wrong_right_holder``: the game names another holder / chooser than the rule.
        ``wrong_first_player``: the starting entry does not follow from holder and choice.
        ``wrong_winner``: the winner is neither entry.
        ``too_many_games``: all games of the match have been played.
        ``match_already_decided``: a best-of match is decided; no further game is played.
        ``draw_not_allowed``: the format has no drawn games (Blue Moon).
        ``score_missing``, ``score_out_of_range``, ``score_not_allowed``: the per-game score
            (Blue Moon crystals) is missing, outside 1 … max, or given where none is kept.
        ``reroll_agreement_too_late``: the HKK game-3 re-roll agreement is made (or withdrawn)
            after the game-1 die roll.
        ``reroll_not_available``: the structure has no game-3 re-roll (not HKK, or not three
            games).
    """

    def __init__(self, code: str, params: Mapping[str, object] | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.params = dict(params or {})


@dataclass(frozen=True, slots=True)
class MatchState:
    """What the rules need to know about a match so far.

    Attributes:
        a, b: the two entries (``a`` is the table's first seat; it has no rule meaning).
        roll_winner: winner of the game-1 die roll (HKK "player 1"; WoW TCG the player who
            chooses who starts), ``None`` before the roll.
        reroll_game3: HKK only: both entries agreed *before the game-1 roll* to roll again for
            game 3 (set it through ``first_player.record_die_roll`` or
            ``first_player.agree_reroll_game3``, which refuse a late agreement).
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
class MatchResult:
    """Counts of a match and its outcome.

    Attributes:
        a, b: the entries, as in the state.
        a_wins, b_wins, draws: games won by each entry and drawn games.
        games_played: games recorded.
        a_score, b_score: sum of the scores of the games each entry won (Blue Moon crystals;
            0 when the structure keeps no score).
        decided: no further game will be played (``is_match_decided``).
        winner: the match winner once decided; ``None`` while undecided or for a drawn match.
            Decided on game wins, or on total score when the structure has ``target_score``.
        scores: entry id → its score total (``a_score`` / ``b_score``).
    """

    a: EntryId
    b: EntryId
    a_wins: int
    b_wins: int
    draws: int
    games_played: int
    a_score: int
    b_score: int
    decided: bool
    winner: EntryId | None
    scores: Mapping[EntryId, int] = field(default_factory=dict)

    @property
    def is_draw(self) -> bool:
        """The match is decided and neither entry won it."""
        return self.decided and self.winner is None

    @property
    def loser(self) -> EntryId | None:
        """The entry that lost the decided match, ``None`` otherwise."""
        if self.winner is None:
            return None
        return self.b if self.winner == self.a else self.a


def _counts(state: MatchState) -> tuple[int, int, int, int, int]:
    a_wins = b_wins = draws = a_score = b_score = 0
    for game in state.games:
        if game.winner is None:
            draws += 1
        elif game.winner == state.a:
            a_wins += 1
            a_score += game.score or 0
        elif game.winner == state.b:
            b_wins += 1
            b_score += game.score or 0
        else:
            raise InconsistentGame("wrong_winner", {"game": game.number, "got": game.winner})
    return a_wins, b_wins, draws, a_score, b_score


def is_match_decided(state: MatchState, structure: MatchStructure) -> bool:
    """Whether the match is over: no further game may be recorded.

    A match is over when all ``games_per_match`` games are played; with ``target_score`` when
    an entry's score total reaches it; and with ``ends_when_decided`` when one entry leads by
    more game wins than games remain (a best of three ends at 2–0; after a win and a draw the
    third game is still played). A drawn game counts as played and changes no lead (Magic
    Tournament Rules 2.2 leaves further games to the round's time limit; not modelled).

    Sources: docs/rules.md §8 HKK tournament structure and scoring (three games per opponent;
    game 3 at 2–0 is a setting), §11 WoW TCG matches and first player (best of three / one),
    §13 Blue Moon matches (one game).

    Raises:
        InconsistentGame: ``wrong_winner`` for a game won by neither entry.
    """
    a_wins, b_wins, _draws, a_score, b_score = _counts(state)
    played = len(state.games)
    if played >= structure.games_per_match:
        return True
    if structure.target_score is not None:
        return max(a_score, b_score) >= structure.target_score
    if structure.ends_when_decided:
        return abs(a_wins - b_wins) > structure.games_per_match - played
    return False


def games_remaining(state: MatchState, structure: MatchStructure) -> int:
    """How many more games the match may have: 0 once decided, else ``games_per_match``
    minus the games played (an upper bound for best-of matches).

    Raises:
        InconsistentGame: ``wrong_winner`` as ``is_match_decided``.
    """
    if is_match_decided(state, structure):
        return 0
    return structure.games_per_match - len(state.games)


def check_can_play(state: MatchState, structure: MatchStructure) -> None:
    """Raise unless another game may be recorded in this match.

    Raises:
        InconsistentGame: ``too_many_games`` (params ``max_games``) when all games are played;
            ``match_already_decided`` (params ``games``, ``a_wins``, ``b_wins``) when a best-of
            match (or a score target) is decided earlier.
    """
    if len(state.games) >= structure.games_per_match:
        raise InconsistentGame("too_many_games", {"max_games": structure.games_per_match})
    if is_match_decided(state, structure):
        a_wins, b_wins, _draws, _a_score, _b_score = _counts(state)
        raise InconsistentGame(
            "match_already_decided",
            {"games": len(state.games), "a_wins": a_wins, "b_wins": b_wins},
        )


def match_result(state: MatchState, structure: MatchStructure) -> MatchResult:
    """Game wins, draws, score totals and (once decided) the match winner.

    The winner has more game wins; with ``target_score`` the higher score total wins instead.
    Equal counts give a drawn match (``winner is None``, ``is_draw``). Points for the result
    come from the standings (docs/rules.md §15 Match points and tiebreakers).

    Raises:
        InconsistentGame: ``wrong_winner`` for a game won by neither entry.
    """
    a_wins, b_wins, draws, a_score, b_score = _counts(state)
    decided = is_match_decided(state, structure)
    winner: EntryId | None = None
    if decided:
        by_score = structure.target_score is not None
        lead = a_score - b_score if by_score else a_wins - b_wins
        if lead > 0:
            winner = state.a
        elif lead < 0:
            winner = state.b
    return MatchResult(
        a=state.a,
        b=state.b,
        a_wins=a_wins,
        b_wins=b_wins,
        draws=draws,
        games_played=len(state.games),
        a_score=a_score,
        b_score=b_score,
        decided=decided,
        winner=winner,
        scores={state.a: a_score, state.b: b_score},
    )
