"""Celery tasks: thin wrappers around the tournament services.

Tasks take ids only, load what they need and call one service; the service owns the transaction
and the row locks, so re-running a task is safe. Services never import this module: they enqueue
by task name through ``tournaments.services.jobs`` (the names below are its constants), so the
dependency runs one way, tasks → services. ``TournamentsConfig.ready()`` imports this module so
the tasks are registered in every process; the worker also finds it by autodiscovery.
Without ``CELERY_BROKER_URL`` the settings make Celery eager, so these run in-process.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.contrib.auth import get_user_model

from hkk_tournament.errors import ApplicationError
from tournaments.models import Tournament
from tournaments.services import round_pair_next, standings_refresh
from tournaments.services.jobs import META_RECOMPUTE, ROUND_PAIR_NEXT, STANDINGS_RECOMPUTE
from tournaments.services.meta import meta_recompute


@shared_task(bind=True, name=ROUND_PAIR_NEXT, acks_late=True)
def round_pair_next_task(
    self: Any, tournament_id: int, requested_by_id: int | None = None, number: int | None = None
) -> dict[str, Any]:
    """Pair round ``number`` (default: the next round) of ``tournament_id`` as the user
    ``requested_by_id``, if any.

    Returns ``{"ok": True, "round": id, "number": n}`` or, when the service refused (e.g. the
    round is in progress), ``{"ok": False, "code", "message", "fields", "params"}``. Idempotent:
    with ``number`` a redelivered task that finds that round paired returns it unchanged; the
    service checks the state under the tournament's row lock.
    """
    user = None
    if requested_by_id is not None:
        user = get_user_model().objects.filter(pk=requested_by_id).first()
    try:
        rnd = round_pair_next(
            tournament=Tournament.objects.get(pk=tournament_id),
            requested_by=user,
            number=number,
        )
    except ApplicationError as exc:
        return {"ok": False, **exc.as_dict()}
    return {"ok": True, "round": rnd.pk, "number": rnd.number}


@shared_task(bind=True, name=STANDINGS_RECOMPUTE, acks_late=True)
def standings_recompute_task(self: Any, tournament_id: int) -> dict[str, Any]:
    """Recompute the cached standings (``StandingsSnapshot``) of ``tournament_id``; idempotent.

    Returns ``{"ok": True, "tournament": id, "rows": number of standings rows}``.
    """
    snapshot = standings_refresh(tournament_id=tournament_id)
    return {"ok": True, "tournament": tournament_id, "rows": len(snapshot.rows)}


@shared_task(bind=True, name=META_RECOMPUTE, acks_late=True)
def meta_recompute_task(self: Any, tournament_id: int) -> dict[str, Any]:
    """Recompute the stored meta statistics of ``tournament_id`` and its format's month;
    idempotent (``services.meta.meta_recompute``).

    Returns ``{"ok": True, "tournament": id, "lists": lists counted}``."""
    snapshot = meta_recompute(tournament_id=tournament_id)
    return {"ok": True, "tournament": tournament_id, "lists": snapshot.lists if snapshot else 0}
