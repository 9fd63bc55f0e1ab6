"""Tournament persistence: players, entries (single players or pair teams), deck submissions,
rounds, matches, games and their history, one module per concern.

- :mod:`~tournaments.models.tournament`: :class:`Tournament`;
- :mod:`~tournaments.models.entries`: :class:`Player`, :class:`Entry`, :class:`EntryMember`;
- :mod:`~tournaments.models.decks`: :class:`DeckSubmission`;
- :mod:`~tournaments.models.rounds`: :class:`Round`, :class:`Match`, :class:`RoundSeat`,
  :class:`MissedRound`, :class:`Game`, :class:`GameCorrection`, :class:`PairingChange` and
  :data:`PAIRING_ENGINE_VERSION`;
- :mod:`~tournaments.models.reports`: :class:`ResultReport`;
- :mod:`~tournaments.models.deck_checks`: :class:`DeckCheck`;
- :mod:`~tournaments.models.penalties`: :class:`Penalty` (the penalty log);
- :mod:`~tournaments.models.staff`: :class:`StaffRole`;
- :mod:`~tournaments.models.standings`: :class:`StandingsSnapshot`;
- :mod:`~tournaments.models.history`: :class:`TournamentAction` (the organiser's action log);
- :mod:`~tournaments.models.circuits`: :class:`Circuit`, :class:`League`, :class:`CircuitEvent`,
  :class:`CircuitRating`, :class:`PlayerProfile` (seasons, leagues, ratings, profiles).
- :mod:`~tournaments.models.push`: :class:`PushEvent` (the log of pushed live events).
- :mod:`~tournaments.models.meta`: :class:`MetaSnapshot` (stored meta statistics),
  :class:`ListConsent` (a player's consent to them).

Writes go through ``tournaments.services`` only; reads through ``tournaments.selectors``.
Sources: docs/rules.md §6 (HKK first-player rights: per-game ``right_holder``/``waived``/
``first``, per-match ``reroll_game3_agreed``), §7 (HKK pair tournaments: pair teams, same rule
card), §8 (HKK tournament structure and scoring), §14 (Swiss pairing and byes: round seed and
relaxations, one seat per entry per round) and §16 (Deck checks, penalties and result
reporting: versioned deck lists locked at the deadline, audited corrections).

Every model is imported here, so Django, the migrations and ``from tournaments.models import X``
see them all.
"""

from tournaments.models.circuits import (
    Circuit,
    CircuitEvent,
    CircuitRating,
    League,
    PlayerProfile,
)
from tournaments.models.deck_checks import DeckCheck
from tournaments.models.decks import DeckSubmission
from tournaments.models.entries import Entry, EntryMember, Player
from tournaments.models.history import TournamentAction
from tournaments.models.meta import ListConsent, MetaSnapshot
from tournaments.models.penalties import Penalty
from tournaments.models.push import PushEvent
from tournaments.models.reports import ResultReport
from tournaments.models.rounds import (
    PAIRING_ENGINE_VERSION,
    Game,
    GameCorrection,
    Match,
    MissedRound,
    PairingChange,
    Round,
    RoundSeat,
)
from tournaments.models.staff import StaffRole
from tournaments.models.standings import StandingsSnapshot
from tournaments.models.tournament import Tournament

__all__ = [
    "Circuit",
    "CircuitEvent",
    "CircuitRating",
    "League",
    "PlayerProfile",
    "DeckCheck",
    "DeckSubmission",
    "Entry",
    "EntryMember",
    "Game",
    "GameCorrection",
    "ListConsent",
    "Match",
    "MetaSnapshot",
    "MissedRound",
    "PAIRING_ENGINE_VERSION",
    "PairingChange",
    "Penalty",
    "Player",
    "PushEvent",
    "ResultReport",
    "Round",
    "RoundSeat",
    "StaffRole",
    "StandingsSnapshot",
    "Tournament",
    "TournamentAction",
]
