"""Rows of the permission matrix for the event-day endpoints: match-level results, the round
clock, the penalty log and the top cut (``test_api_permissions`` adds them to its cases)."""

from __future__ import annotations

from tests.api.tournaments.helpers import BASE
from tests.api.tournaments.permission_world import (
    EVERYONE,
    JUDGES,
    MANAGERS,
    READ,
    ROUND_DONE,
    RUN,
    Case,
    t_url,
)

EVENT_DAY_CASES = [
    Case(
        "tournaments-match-result",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/result/",
        JUDGES,
        201,
        body=lambda w: {"result": "no_show_b"},
    ),
    Case("tournaments-round-clock", "get", RUN, t_url("rounds/1/clock/"), EVERYONE, 200, **READ),
    Case(
        "tournaments-round-clock",
        "post",
        RUN,
        t_url("rounds/1/clock/"),
        MANAGERS,
        200,
        body=lambda w: {"action": "start"},
    ),
    Case("tournaments-penalties", "get", RUN, t_url("penalties/"), JUDGES, 200),
    Case(
        "tournaments-penalties",
        "post",
        RUN,
        t_url("penalties/"),
        JUDGES,
        201,
        body=lambda w: {"entry": w.a, "category": "other", "kind": "warning"},
    ),
    Case("tournaments-penalties-csv", "get", RUN, t_url("penalties.csv"), JUDGES, 200),
    Case("tournaments-top-cut", "get", RUN, t_url("top-cut/"), EVERYONE, 200, **READ),
    Case(
        "tournaments-top-cut",
        "post",
        ROUND_DONE,
        t_url("top-cut/"),
        MANAGERS,
        201,
        body=lambda w: {"action": "start", "size": 4},
    ),
]
