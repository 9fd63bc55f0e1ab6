"""Helpers of the match services (results and die rolls): the locked match, the checks that a
match may be played, and the translation of the domain's ``InconsistentGame`` into the one
error model (docs/rules.md §6 (HKK first-player rights), §11 (WoW TCG matches and first
player), §13 (Blue Moon matches)). Not part of the public API.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import (
    ApplicationError,
    Conflict,
    InvalidState,
    NotFound,
    ValidationFailed,
)
from tournaments import selectors
from tournaments.domain import first_player as fp
from tournaments.domain.match_structure import InvalidStructure, MatchStructure
from tournaments.domain.types import GameRecord
from tournaments.models import Entry, Match, Round
from tournaments.services._common import require_not_finished, share_round

R = Round.Status

#: ``InconsistentGame`` codes that are conflicts with the match's state (409), not bad input.
_CONFLICT_CODES = frozenset({"reroll_agreement_too_late"})
_STATE_CODES = frozenset({"match_already_decided", "too_many_games"})


def entry_id(value: Entry | int | None) -> int | None:
    if value is None:
        return None
    return value.pk if isinstance(value, Entry) else int(value)


def locked_match(match: Match) -> Match:
    """Re-read ``match`` locked: its round's row ``FOR SHARE`` first (``share_round``), then
    the match row ``FOR UPDATE``, then the match with its round and tournament in the same
    statement, read after both locks, so the round's and the event's status are the ones
    committed by any state change the call waited for.

    Two judges recording two different tables share the round lock and never wait for each
    other; two writes to the same match are serialised; a write waits for an unpublish,
    discard, round finish or event finish in progress and then sees the new state
    (``require_playable``), while those wait for the writes already holding the round.

    Raises ``NotFound("match_not_found")`` when the round (or the table) no longer exists,
    e.g. a draft round discarded meanwhile."""
    if not share_round(match.round_id):
        raise _match_gone(match)
    try:
        return (
            Match.objects.select_for_update(of=("self",))
            .select_related("round__tournament")
            .get(pk=match.pk)
        )
    except Match.DoesNotExist:
        raise _match_gone(match) from None


def _match_gone(match: Match) -> NotFound:
    return NotFound(
        "match_not_found",
        _("This table no longer exists: its round was paired again or discarded. Reload."),
        {"table": match.table},
    )


def require_playable(match: Match, *, correction: bool = False) -> None:
    rnd = match.round
    require_not_finished(rnd.tournament, rnd.number)
    if rnd.status == R.DRAFT:
        raise InvalidState(
            "round_not_published",
            _("Round %(round)s is not published yet.") % {"round": rnd.number},
            {"round": rnd.number},
        )
    if rnd.status == R.FINISHED and not correction:
        raise InvalidState(
            "round_finished",
            _("Round %(round)s is finished; only an explicit correction can change it.")
            % {"round": rnd.number},
            {"round": rnd.number},
        )
    if match.entry_b_id is None:
        raise InvalidState("bye_match", _("A bye has no games to record."), {"table": match.table})


def require_in_match(match: Match, entry_id: int | None, field: str) -> None:
    if entry_id is not None and entry_id not in (match.entry_a_id, match.entry_b_id):
        raise ValidationFailed(
            "not_in_match",
            _("That entry does not play at table %(table)s.") % {"table": match.table},
            {"field": field, "entry": entry_id, "table": match.table},
        )


def inconsistent(exc: fp.InconsistentGame) -> ApplicationError:
    """The application error of a domain ``InconsistentGame``: 409 ``Conflict`` for a late
    re-roll agreement, 409 ``InvalidState`` for a match that is over, else 400
    ``ValidationFailed`` (``wrong_right_holder`` / ``wrong_first_player`` as
    ``first_player_mismatch``); params carry ``reason`` (the domain code)."""
    message = selectors.game_error_message(exc.code, exc.params)
    params = {"reason": exc.code, **exc.params}
    if exc.code in _CONFLICT_CODES:
        return Conflict(exc.code, message, params)
    if exc.code in _STATE_CODES:
        return InvalidState(exc.code, message, params)
    code = (
        "first_player_mismatch"
        if exc.code in ("wrong_right_holder", "wrong_first_player")
        else exc.code
    )
    return ValidationFailed(code, message, params)


def structure_of(match: Match) -> MatchStructure:
    """The match structure of ``match``'s tournament (``invalid_match_structure`` if broken)."""
    try:
        return match.round.tournament.structure
    except InvalidStructure as exc:
        raise InvalidState(
            "invalid_match_structure",
            selectors.structure_error_message(exc),
            {"reason": exc.code, **exc.params},
        ) from None


def game_fields(record: GameRecord, decision: fp.RightDecision) -> dict[str, Any]:
    """The ``Game`` field values (keyword arguments, ``*_id`` for entries) of ``record``, a
    game already checked against ``decision``: where the format gives a choice (``mode``
    ``CHOOSES``: WoW TCG, Blue Moon) the right holder is stored as ``chosen_by``
    (docs/rules.md §11 (WoW TCG matches and first player), §13 (Blue Moon matches))."""
    chooses = decision.mode == fp.RightMode.CHOOSES
    return {
        "right_holder_id": record.right_holder,
        "waived": record.waived,
        "first_id": record.first,
        "winner_id": record.winner,
        "is_draw": record.winner is None,
        "chosen_by_id": record.right_holder if chooses else None,
        "score": record.score,
    }
