"""The round clock: time left from stored facts (start, pauses, extensions)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tournaments.domain.clock import ClockFacts, read_clock

T0 = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)


def test_not_started_shows_the_full_time() -> None:
    r = read_clock(ClockFacts(minutes=50), T0)
    assert (r.state, r.seconds_left, r.ends_at) == ("not_started", 3000, None)


def test_running_counts_down_and_gives_the_end() -> None:
    r = read_clock(ClockFacts(minutes=50, started_at=T0), T0 + timedelta(minutes=10))
    assert r.state == "running"
    assert r.seconds_left == 40 * 60
    assert r.ends_at == T0 + timedelta(minutes=50)


def test_pauses_and_extensions_move_the_end() -> None:
    facts = ClockFacts(
        minutes=50,
        started_at=T0,
        paused_seconds=120,
        extension_seconds=60,
        table_extension_seconds=180,
    )
    r = read_clock(facts, T0 + timedelta(minutes=50))
    assert r.seconds_left == 120 + 60 + 180
    assert r.total_seconds == 3000 + 240


def test_a_running_pause_freezes_the_clock() -> None:
    facts = ClockFacts(minutes=50, started_at=T0, paused_at=T0 + timedelta(minutes=5))
    r = read_clock(facts, T0 + timedelta(minutes=30))
    assert (r.state, r.seconds_left, r.ends_at) == ("paused", 45 * 60, None)


def test_over_never_goes_negative() -> None:
    r = read_clock(ClockFacts(minutes=1, started_at=T0), T0 + timedelta(hours=2))
    assert (r.state, r.seconds_left) == ("over", 0)


def test_negative_facts_are_refused() -> None:
    with pytest.raises(ValueError):
        read_clock(ClockFacts(minutes=-1), T0)
