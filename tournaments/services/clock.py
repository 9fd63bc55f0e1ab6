"""The round clock: the organiser starts, pauses, resumes and extends a round's time; judges
extend one table (a judge call or a deck check). Only facts are stored (start, pauses,
extensions); the time left is computed by ``tournaments.domain.clock`` (docs/rules.md §16
(Deck checks, penalties and result reporting)).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import InvalidState, ValidationFailed
from tournaments import selectors
from tournaments.models import Round
from tournaments.permissions import require_clock_change
from tournaments.selectors.clock import clock_read
from tournaments.services._common import lock_tournament
from tournaments.services.push import push_clock

__all__ = [
    "clock_read",
    "round_clock_extend",
    "round_clock_pause",
    "round_clock_resume",
    "round_clock_start",
]

#: Longest single extension, in minutes.
MAX_EXTENSION_MINUTES = 60


def _locked_round(rnd: Round) -> Round:
    lock_tournament(rnd.tournament_id)
    return Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)


def _require_published(rnd: Round) -> None:
    if rnd.status != Round.Status.PUBLISHED:
        raise InvalidState(
            "round_not_running",
            _("The clock runs only in a published round that is not finished."),
            {"round": rnd.number, "status": rnd.status},
        )


def _minutes(value: Any, *, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValidationFailed(
            "invalid_value",
            _("Give a whole number of minutes from %(low)s to %(high)s.")
            % {"low": low, "high": high},
            {"field": field, "low": low, "high": high},
            fields={field: [str(_("Out of range."))]},
        )
    return value


@transaction.atomic
def round_clock_start(*, actor: Any, round: Round, minutes: int | None = None) -> Round:
    """Start the clock of a published round, optionally setting its length (1–240 minutes).

    Raises ``InvalidState("round_not_running" | "clock_already_started")``,
    ``ValidationFailed("invalid_value")``.
    """
    require_clock_change(actor, round, None)
    rnd = _locked_round(round)
    _require_published(rnd)
    if rnd.clock_started_at is not None:
        raise InvalidState(
            "clock_already_started", _("The clock of this round is already started."), {}
        )
    if minutes is not None:
        rnd.clock_minutes = _minutes(minutes, field="minutes", low=1, high=240)
    rnd.clock_started_at = timezone.now()
    rnd.save(update_fields=["clock_minutes", "clock_started_at"])
    push_clock(rnd)
    return rnd


@transaction.atomic
def round_clock_pause(*, actor: Any, round: Round) -> Round:
    """Pause a running clock. Raises ``InvalidState("clock_not_running")``."""
    require_clock_change(actor, round, None)
    rnd = _locked_round(round)
    _require_published(rnd)
    if rnd.clock_started_at is None or rnd.clock_paused_at is not None:
        raise InvalidState("clock_not_running", _("The clock is not running."), {})
    rnd.clock_paused_at = timezone.now()
    rnd.save(update_fields=["clock_paused_at"])
    push_clock(rnd)
    return rnd


@transaction.atomic
def round_clock_resume(*, actor: Any, round: Round) -> Round:
    """Resume a paused clock (the pause is added to ``clock_paused_seconds``).
    Raises ``InvalidState("clock_not_paused")``."""
    require_clock_change(actor, round, None)
    rnd = _locked_round(round)
    _require_published(rnd)
    if rnd.clock_paused_at is None:
        raise InvalidState("clock_not_paused", _("The clock is not paused."), {})
    pause = int((timezone.now() - rnd.clock_paused_at).total_seconds())
    rnd.clock_paused_seconds += max(0, pause)
    rnd.clock_paused_at = None
    rnd.save(update_fields=["clock_paused_seconds", "clock_paused_at"])
    push_clock(rnd)
    return rnd


@transaction.atomic
def round_clock_extend(
    *, actor: Any, round: Round, minutes: int, table: int | None = None
) -> Round:
    """Add ``minutes`` (1–60) to the whole round, or to one ``table`` only (a judge call or a
    deck check). Raises ``InvalidState("round_not_running")``, ``ValidationFailed``,
    ``NotFound("table_not_in_round")``."""
    require_clock_change(
        actor, round, selectors.match_for_table(round=round, table=table) if table else None
    )
    rnd = _locked_round(round)
    _require_published(rnd)
    seconds = 60 * _minutes(minutes, field="minutes", low=1, high=MAX_EXTENSION_MINUTES)
    if table is None:
        rnd.clock_extension_seconds += seconds
        rnd.save(update_fields=["clock_extension_seconds"])
        push_clock(rnd)
        return rnd
    match = selectors.match_for_table(round=rnd, table=table)
    match.extension_seconds += seconds
    match.save(update_fields=["extension_seconds"])
    push_clock(rnd, match)
    return rnd
