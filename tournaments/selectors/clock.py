"""Reading the round clock: the stored facts of a round (and one table) and the time left now
(``tournaments.domain.clock``; docs/rules.md §16 (Deck checks, penalties and result
reporting))."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse
from django.utils import timezone

from tournaments.domain.clock import ClockFacts, ClockReading, read_clock
from tournaments.models import Match, Round


def clock_facts(rnd: Round, match: Match | None = None) -> ClockFacts:
    """The stored facts of ``rnd``'s clock (plus ``match``'s table extension)."""
    return ClockFacts(
        minutes=rnd.clock_minutes,
        started_at=rnd.clock_started_at,
        paused_seconds=rnd.clock_paused_seconds,
        paused_at=rnd.clock_paused_at,
        extension_seconds=rnd.clock_extension_seconds,
        table_extension_seconds=match.extension_seconds if match is not None else 0,
    )


def clock_read(*, round: Round, match: Match | None = None) -> ClockReading:
    """The clock of ``round`` (of one table when ``match`` is given) now."""
    return read_clock(clock_facts(round, match), timezone.now())


@dataclass(frozen=True, slots=True)
class ClockView:
    """The clock for a page: the reading, ``ends_at`` in local time, ``display`` ("42:05"),
    and ``api_url`` the static script polls to stay in step; ``extension_seconds`` the table's
    own extension (added to a pushed round-wide reading)."""

    state: str
    seconds_left: int
    total_seconds: int
    ends_at: datetime | None
    display: str
    api_url: str
    table: int | None
    extension_seconds: int = 0


def clock_view(*, round: Round, match: Match | None = None) -> ClockView:
    """The round clock (one table's when ``match`` is given) as :class:`ClockView`."""
    reading = clock_read(round=round, match=match)
    minutes, seconds = divmod(reading.seconds_left, 60)
    url = reverse("tournaments-round-clock", args=[round.tournament_id, round.number]) + (
        f"?table={match.table}" if match is not None else ""
    )
    ends = timezone.localtime(reading.ends_at) if reading.ends_at is not None else None
    return ClockView(
        state=reading.state,
        seconds_left=reading.seconds_left,
        total_seconds=reading.total_seconds,
        ends_at=ends,
        display=f"{minutes:02d}:{seconds:02d}",
        api_url=url,
        table=match.table if match is not None else None,
        extension_seconds=match.extension_seconds if match is not None else 0,
    )
