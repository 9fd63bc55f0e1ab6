"""Value types of the tournament core: entries, matches, games, scoring, pairings, standings.

Pure Python (no Django). The services in ``tournaments.services`` turn database rows into these
objects, call the domain functions (``swiss.pair_round``, ``standings.compute_standings``,
``first_player.next_right``) and store what comes back.

Sources: docs/rules.md §6 HKK first-player rights, §8 HKK tournament structure and scoring,
§11 WoW TCG matches and first player, §13 Blue Moon matches, §15 Match points and tiebreakers
(Magic Tournament Rules 2.2 and Appendix C).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

EntryId = int


def gettext_noop(message: str) -> str:
    """``message`` unchanged: marks a registry text (label, rule, slip text) for translation
    where Django cannot be imported. The Django layer translates it with ``gettext``; the name
    is Django's own marker, so ``makemessages`` extracts the string."""
    return message


class StartChoice(StrEnum):
    """What the holder of the right (HKK) or the chooser (WoW TCG, Blue Moon) decided.

    ``self``: the holder / chooser starts. ``opponent``: the other entry starts (HKK: the holder
    waived the right; Magic Tournament Rules 2.2: chose to draw). No statement means ``self``.
    """

    SELF = "self"
    OPPONENT = "opponent"


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points per match and per game. HKK: match 3/1/0, game 2/1/0 (docs/rules.md §8 HKK
    tournament structure and scoring).

    ``bye_games_won`` is the game score credited to a bye (a 2–0 win by default).
    """

    match_win: int = 3
    match_draw: int = 1
    match_loss: int = 0
    game_win: int = 2
    game_draw: int = 1
    game_loss: int = 0
    bye_games_won: int = 2


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One played game of a match.

    Attributes:
        number: 1-based game number inside the match.
        right_holder: entry that held the right to go first (HKK "kezdés joga"), or that chose
            who starts (WoW TCG, Blue Moon: the chooser, ``chosen_by``).
        waived: the holder waived the right / the chooser let the opponent start (so the other
            entry went first); ``choice`` gives the same as a :class:`StartChoice`.
        first: entry that actually went first.
        winner: winning entry, or ``None`` for a drawn game.
        score: the winner's score for the game in the structure's unit (Blue Moon crystals),
            ``None`` where no score is kept or the game is drawn.
    """

    number: int
    right_holder: EntryId | None
    waived: bool
    first: EntryId | None
    winner: EntryId | None
    score: int | None = None

    @property
    def chosen_by(self) -> EntryId | None:
        """The entry that chose who starts (same as ``right_holder``)."""
        return self.right_holder

    @property
    def choice(self) -> StartChoice:
        """The holder's / chooser's decision: ``opponent`` when waived, else ``self``."""
        return StartChoice.OPPONENT if self.waived else StartChoice.SELF


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A finished (or partly played) match of a round; ``b is None`` means a bye for ``a``."""

    round: int
    a: EntryId
    b: EntryId | None
    games: tuple[GameRecord, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchTally:
    """A counted match by its game counts only, as the standings need it (the database sums
    the games; no game objects): ``b is None`` means a bye for ``a``.

    Attributes:
        round: the round number.
        a, b: the two entries (``b`` ``None`` for a bye).
        a_wins, b_wins: games won by ``a`` and ``b``.
        games: games played, drawn games included (``games - a_wins - b_wins`` were drawn).
        forfeit: with ``b`` ``None``: ``a`` did not play the round and the desk gave it a match
            loss with no game won (a missed round), not a bye.
    """

    round: int
    a: EntryId
    b: EntryId | None
    a_wins: int = 0
    b_wins: int = 0
    games: int = 0
    forfeit: bool = False


#: One counted match as the standings' fast path reads it (plain values, as a database row
#: gives them): ``(a, b, a_wins, b_wins, games, forfeit)`` with the meanings of
#: :class:`MatchTally` (``b`` ``None``: a bye, or with ``forfeit`` a missed round scored as a
#: loss; ``games`` 0: no game recorded yet, not counted).
TallyRow = tuple[EntryId, EntryId | None, int, int, int, bool]


@dataclass(frozen=True, slots=True)
class PairingCandidate:
    """What Swiss pairing knows about one active entry before a round.

    Attributes:
        id: entry id.
        match_points: points so far (a late entry starts at 0).
        opponents: entries already met (byes excluded).
        byes: byes received so far.
        rank: current standing, 1 = best (ties already broken by the tiebreakers); pairing
            uses it to choose who floats and who receives the bye.
    """

    id: EntryId
    match_points: int
    opponents: frozenset[EntryId]
    byes: int
    rank: int


@dataclass(frozen=True, slots=True)
class Pairing:
    """One table: ``a`` against ``b``; ``b is None`` is a bye."""

    table: int
    a: EntryId
    b: EntryId | None


@dataclass(frozen=True, slots=True)
class Relaxation:
    """A hard pairing rule given up because no pairing satisfied it, and why.

    ``code`` is stable: ``"second_bye"``, ``"rematch"``. ``entries`` are those affected.
    """

    code: str
    entries: tuple[EntryId, ...]
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PairingResult:
    """The outcome of pairing one round.

    Attributes:
        pairings: tables in order (highest score group first, the bye last).
        relaxations: rules that had to be relaxed (empty in the normal case).
        pair_downs: number of matches between different match-point groups.
        pair_down_gap: sum of the point differences over those matches.
    """

    pairings: tuple[Pairing, ...]
    relaxations: tuple[Relaxation, ...] = ()
    pair_downs: int = 0
    pair_down_gap: int = 0


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings; ``rank`` is shared on a true tie (1, 2, 2, 4 …).

    ``tiebreakers`` maps each tiebreaker code to its exact value; ``dropped`` marks an entry
    that left the event (it stays in the standings).
    """

    rank: int
    entry: EntryId
    match_points: int
    game_points: int
    matches_played: int
    tiebreakers: Mapping[str, Fraction]
    dropped: bool = False
