"""The database side of ``bench/load.py``'s venue scenarios (churn, publish burst).

Imported by ``bench/load.py`` only when a scenario needs it (``DATABASE_URL`` must name the
served event's database): it appoints a benchmark organiser with an API token (the judge who
posts the result slips and publishes the round, through the server like a real one), lists the
entry names and the open matches of the event's published round, and pairs the next round
(a draft, through ``round_pair_next`` as the organiser's button would, in this process: the
burst measures what follows the publish, not the pairing).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hkk_tournament.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from tournaments import services  # noqa: E402
from tournaments.models import Match, Round, StaffRole, Tournament  # noqa: E402
from tournaments.permissions import SYSTEM  # noqa: E402

#: Username of the benchmark's organiser (created on first use, never a real account).
BENCH_USER = "bench-organiser"


def organiser_token(event: int) -> str:
    """The API token of :data:`BENCH_USER`, appointed organiser of ``event`` (idempotent)."""
    tournament = Tournament.objects.get(pk=event)
    user, _created = get_user_model().objects.get_or_create(username=BENCH_USER)
    if not StaffRole.objects.filter(tournament=tournament, user=user).exists():
        services.staff_appoint(
            actor=SYSTEM, tournament=tournament, user=user, role=StaffRole.Role.ORGANISER
        )
    return Token.objects.get_or_create(user=user)[0].key


def entries(event: int) -> list[tuple[int, str]]:
    """``(entry id, name)`` of every entry (registration order)."""
    tournament = Tournament.objects.get(pk=event)
    return list(tournament.entries.order_by("pk").values_list("pk", "name"))


def shown_round(event: int) -> int:
    """The number of the latest published or finished round (what the live page shows)."""
    rnd = Round.objects.filter(tournament_id=event).exclude(status=Round.Status.DRAFT).last()
    if rnd is None:
        raise SystemExit(f"event {event}: no published round")
    return int(rnd.number)


def open_matches(event: int) -> list[tuple[int, int, int]]:
    """``(match id, entry A, entry B)`` of the published round's matches without a result."""
    rnd = Round.objects.filter(tournament_id=event, status=Round.Status.PUBLISHED).last()
    if rnd is None:
        return []
    rows = (
        Match.objects.filter(round=rnd, entry_b__isnull=False, games__isnull=True)
        .order_by("table")
        .values_list("pk", "entry_a_id", "entry_b_id")
    )
    return list(rows)


def pair_next(event: int) -> int:
    """Pair the next round of ``event`` as a draft; returns its number. A draft left by an
    earlier run is reused; a published round must be finished first (its results recorded).

    Raises:
        SystemExit: the event has a published round.
    """
    tournament = Tournament.objects.get(pk=event)
    draft = tournament.rounds.filter(status=Round.Status.DRAFT).first()
    if draft is not None:
        return int(draft.number)
    if tournament.rounds.filter(status=Round.Status.PUBLISHED).exists():
        raise SystemExit(f"event {event}: a round is published; finish it before a burst")
    rnd: Any = services.round_pair_next(actor=SYSTEM, tournament=tournament)
    return int(rnd.number)
