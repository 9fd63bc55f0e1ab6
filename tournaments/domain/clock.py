"""The round clock: the time left in a round computed from stored facts, never ticked.

A round has a length (minutes), a start instant, the seconds it spent paused (closed pauses),
the start of a pause still running, and extensions: one for the whole round and one per table
(a judge call or a deck check; docs/rules.md §16 (Deck checks, penalties and result
reporting)). Instants are timezone-aware ``datetime`` values; durations are whole seconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = ["ClockFacts", "ClockReading", "read_clock"]


@dataclass(frozen=True, slots=True)
class ClockFacts:
    """What is stored about one round's clock (and optionally one table of it).

    Attributes:
        minutes: the round's length in minutes (>= 0).
        started_at: when the clock was started, ``None`` before.
        paused_seconds: seconds spent in closed pauses.
        paused_at: start of the pause still running, ``None`` while running.
        extension_seconds: time added to the whole round.
        table_extension_seconds: time added to one table only (0 for the round itself).
    """

    minutes: int
    started_at: datetime | None = None
    paused_seconds: int = 0
    paused_at: datetime | None = None
    extension_seconds: int = 0
    table_extension_seconds: int = 0


@dataclass(frozen=True, slots=True)
class ClockReading:
    """The clock at one instant.

    ``state``: ``"not_started"``, ``"running"``, ``"paused"`` or ``"over"``;
    ``seconds_left``: never negative (the full time before the start); ``ends_at``: the
    instant the time runs out if nobody pauses (``None`` unless running);
    ``total_seconds``: length plus extensions.
    """

    state: str
    seconds_left: int
    ends_at: datetime | None
    total_seconds: int


def read_clock(facts: ClockFacts, now: datetime) -> ClockReading:
    """The clock described by ``facts`` at ``now``.

    ``seconds_left = total - (now - started_at - paused_seconds - running pause)``, clamped to
    ``0 … total``. Raises ``ValueError`` for negative minutes, pauses or extensions.
    """
    if (
        min(
            facts.minutes,
            facts.paused_seconds,
            facts.extension_seconds,
            facts.table_extension_seconds,
        )
        < 0
    ):
        raise ValueError("clock facts must not be negative")
    total = facts.minutes * 60 + facts.extension_seconds + facts.table_extension_seconds
    if facts.started_at is None:
        return ClockReading("not_started", total, None, total)
    paused = facts.paused_seconds
    if facts.paused_at is not None:
        paused += max(0, int((now - facts.paused_at).total_seconds()))
    elapsed = int((now - facts.started_at).total_seconds()) - paused
    left = max(0, min(total, total - elapsed))
    if facts.paused_at is not None:
        return ClockReading("paused", left, None, total)
    if left == 0:
        return ClockReading("over", 0, None, total)
    return ClockReading("running", left, now + timedelta(seconds=left), total)
