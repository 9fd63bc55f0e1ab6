"""Shared helpers of the tournaments REST API tests: URLs and events in a given stage."""

from __future__ import annotations

from pathlib import Path

from tests.factories import make_tournament
from tournaments import services
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.permissions import SYSTEM

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
BASE = "/api/tournaments/"


def url(t, suffix: str = "") -> str:
    return f"{BASE}{t.pk}/{suffix}"


def running(owner, entries: int = 4) -> tuple[Tournament, list[Entry]]:
    """A running tournament with ``entries`` overridden entries, no round yet."""
    t, made = make_tournament(entries=entries, decks=False, owner=owner)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    return t, made


def published_round(owner, entries: int = 4) -> tuple[Tournament, Round]:
    t, _ = running(owner, entries)
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t, seed=7)
    return t, services.round_publish(actor=SYSTEM, round=rnd)


def first_real_match(rnd: Round) -> Match:
    match = rnd.matches.filter(entry_b__isnull=False).order_by("table").first()
    assert match is not None
    return match


def play_round(api, t, rnd):
    """A wins 2–0 at every table (die roll to A; game 2 right holder B, not waived)."""
    for m in rnd.matches.filter(entry_b__isnull=False):
        a, b = m.entry_a_id, m.entry_b_id
        api.post(
            url(t, f"matches/{m.pk}/die-roll/"), {"winner": a}, content_type="application/json"
        )
        for number, first in ((1, a), (2, b), (3, a)):
            r = api.post(
                url(t, f"matches/{m.pk}/games/"),
                {"number": number, "winner": a, "first": first},
                content_type="application/json",
            )
            assert r.status_code == 201, r.json()
