"""Celery tasks: thin wrappers around the tournament services (../shared/STYLE.md §5.7).

Tasks take ids only, load what they need and call one service. ``tournaments.services``
imports this module to enqueue (``transaction.on_commit``), so the services are imported inside
the task bodies: the one sanctioned local import (HackSoft rule, STYLE.md §5.2).
Without ``CELERY_BROKER_URL`` the settings make Celery eager, so these run in-process.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task


@shared_task(bind=True, name="tournaments.round_pair_next", acks_late=True)
def round_pair_next_task(self: Any, tournament_id: int, requested_by_id: int | None = None) -> dict:
    """Pair the next round of ``tournament_id``.

    Returns ``{"ok": True, "round": id, "number": n}`` or, when the service refused (e.g. the
    round is already paired), ``{"ok": False, "code", "message", "params"}``; re-running is
    safe because the service checks the state under a row lock.
    """
    from django.contrib.auth import get_user_model

    from tournaments.errors import ServiceError
    from tournaments.models import Tournament
    from tournaments.services import round_pair_next

    user = None
    if requested_by_id is not None:
        user = get_user_model().objects.filter(pk=requested_by_id).first()
    try:
        rnd = round_pair_next(
            tournament=Tournament.objects.get(pk=tournament_id), requested_by=user
        )
    except ServiceError as exc:
        return {"ok": False, **exc.as_dict()}
    return {"ok": True, "round": rnd.pk, "number": rnd.number}


@shared_task(bind=True, name="tournaments.standings_recompute", acks_late=True)
def standings_recompute_task(self: Any, tournament_id: int) -> dict:
    """Recompute the cached standings (``StandingsSnapshot``) of ``tournament_id``; idempotent."""
    from tournaments.services import standings_refresh

    snapshot = standings_refresh(tournament_id=tournament_id)
    return {"ok": True, "tournament": tournament_id, "rows": len(snapshot.rows)}
