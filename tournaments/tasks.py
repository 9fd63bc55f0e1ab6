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
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from hkk_tournament.errors import ApplicationError
from hkk_tournament.web.warmup import EventSize, later_pages, warm_pages
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.permissions import on_behalf_of
from tournaments.services import round_pair_next, standings_refresh
from tournaments.services.circuits import circuit_ratings_refresh
from tournaments.services.jobs import (
    CIRCUIT_RATINGS_REFRESH,
    META_RECOMPUTE,
    PAGES_REFRESH,
    PAGES_WARM,
    ROUND_PAIR_NEXT,
    STANDINGS_RECOMPUTE,
)
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
            actor=on_behalf_of(user),  # checked when it was enqueued
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
    selectors.snapshot_rows_share(snapshot, snapshot.rows)
    # In-process (eager, no broker) the recompute runs inside a request: no warm-up there.
    pages = 0 if settings.CELERY_TASK_ALWAYS_EAGER else pages_warm(tournament_id)
    return {"ok": True, "tournament": tournament_id, "rows": len(snapshot.rows), "pages": pages}


#: The search the warm-up asks for so that the "find my table" search parts of the live page,
#: its fragment and the standings page are built (``tournaments.pages.find_table``); any
#: search builds them, and this one matches no name, so nothing else is rendered for it.
WARM_SEARCH = "?q=%E2%81%A3"  # U+2063, an invisible separator no name contains


#: The later pages' warm-up sleeps this many times each page's CPU after it (``warm_pages``):
#: at most half a core, over about twice its 11 s of CPU at 4,096 entries, because it runs
#: while the whole field looks for its table (at full speed it took a core from the burst:
#: p99 328 ms on one run of six, against 8–68 ms).
LATER_PAGES_PAUSE = 1.0


def pages_warm(tournament_id: int, *, searches: bool = False, every_page: bool = False) -> int:
    """Build the name index of the round the live page shows and render the event's hot public
    pages (standings, live page and its fragment, the round's first page) into the shared
    cache, in every language (``hkk_tournament.web.warmup.warm_pages``); with ``searches``
    (after a publish, when the whole field looks for its table) also the "find my table"
    search parts of the live page, its fragment and the standings (one search each,
    :data:`WARM_SEARCH`; about 0.6 s of CPU per page and language at 4,096 entries, so not
    after every recompute: a search builds them then); with ``every_page`` then every later
    page of those lists and of the round API (``warmup.later_pages``: the lists' pages cut
    from those parts, 10–12 ms each, the round's 35–50 ms; about 11 s of CPU at 4,096
    entries; after a recompute the stored older renderings answer while a worker renders the
    pages visitors ask for). Private events are left alone (only signed-in visitors see them).
    Returns the pages rendered (200)."""
    tournament = Tournament.objects.filter(pk=tournament_id, is_public=True).first()
    if tournament is None:
        return 0
    standings = reverse("tournaments:standings", args=[tournament_id])
    live = reverse("tournaments:live", args=[tournament_id])
    paths = [standings, live, live + "?partial=1"]
    done = 0
    if searches:
        # What the field asks for first after a publish comes first, in every language: the
        # live page and its fragment (the fast path answers a search only with the page
        # stored: the view's answer costs about 30 ms), their search parts ("find my table": a
        # search finding none builds them in its request and the searches behind it wait);
        # then the standings and their parts.
        first = [live, live + "?partial=1", live + WARM_SEARCH, live + WARM_SEARCH + "&partial=1"]
        done += sum(warm_pages([path]) for path in first)
        paths = [standings, standings + WARM_SEARCH]
    rnd = selectors.current_round(tournament=tournament)
    if rnd is not None:
        paths.append(reverse("tournaments:round", args=[tournament_id, rnd.number]))
    done += warm_pages(paths)
    if rnd is not None:  # the round page's and the round API's name index
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                selectors.round_name_index(round=rnd, rebuild=True)
    if every_page:  # then every later page of every list, cut from the parts built above
        tables = selectors.round_table_count(round=rnd) if rnd is not None else 0
        number = rnd.number if rnd is not None else None
        size = EventSize(tournament_id, tournament.entries.count(), number, tables)
        done += warm_pages(later_pages(size), pause=LATER_PAGES_PAUSE)
    return done


@shared_task(bind=True, name=PAGES_WARM, acks_late=True)
def pages_warm_task(self: Any, tournament_id: int) -> dict[str, Any]:
    """Warm ``tournament_id``'s public pages and search parts (:func:`pages_warm`) after a
    publish, in a worker every later page too (not when run in the publishing request because
    the broker was down: ``hkk_tournament.jobs.send``); idempotent.

    Returns ``{"ok": True, "tournament": id, "pages": pages rendered}``.
    """
    pages = pages_warm(tournament_id, searches=True, every_page=not self.request.is_eager)
    return {"ok": True, "tournament": tournament_id, "pages": pages}


@shared_task(bind=True, name=PAGES_REFRESH, acks_late=True)
def page_refresh_task(self: Any, path: str, language: str) -> dict[str, Any]:
    """Render the shared rendering at ``path`` in ``language`` again (a stale key a visitor
    found, ``hkk_tournament.web.page_cache``); idempotent: a current or locked key is left
    alone. Returns ``{"ok": True, "path": path, "pages": 1 if it answered 200 else 0}``."""
    return {"ok": True, "path": path, "pages": warm_pages([path], languages=[language])}


@shared_task(bind=True, name=CIRCUIT_RATINGS_REFRESH, acks_late=True)
def circuit_ratings_refresh_task(self: Any, circuit_id: int) -> dict[str, Any]:
    """Recompute the OpenSkill ratings of ``circuit_id`` (``services.circuits.
    circuit_ratings_refresh``); idempotent. Returns ``{"ok": True, "circuit": id, "rated": n}``.
    """
    rated = circuit_ratings_refresh(circuit_id=circuit_id)
    return {"ok": True, "circuit": circuit_id, "rated": rated}


@shared_task(bind=True, name=META_RECOMPUTE, acks_late=True)
def meta_recompute_task(self: Any, tournament_id: int) -> dict[str, Any]:
    """Recompute the stored meta statistics of ``tournament_id`` and its format's month;
    idempotent (``services.meta.meta_recompute``).

    Returns ``{"ok": True, "tournament": id, "lists": lists counted}``."""
    snapshot = meta_recompute(tournament_id=tournament_id)
    return {"ok": True, "tournament": tournament_id, "lists": snapshot.lists if snapshot else 0}
