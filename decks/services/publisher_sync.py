"""Sync the HKK card catalogue from the publisher's card-search API, from the command line
(``manage.py sync_catalogue hkk``) or from the admin (a background job with stored progress).

Everything is fetched first (:func:`decks.loaders.hkk_api.fetch_catalogue`); only then are the
editions (names, kinds, release dates) and cards written, in one transaction, through
:func:`decks.services.catalogue_sync.catalogue_sync`. Afterwards the game's catalogue is
complete (``Game.coverage``), with the source and the time of the sync. Facts only: rules text
is never stored. docs/rules.md §17 (Card data sources and coverage).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from decks import models
from decks.loaders.hkk_api import (
    DEFAULT_BASE,
    RESULT_CAP,
    HkkApiClient,
    Progress,
    SourceError,
    fetch_catalogue,
)
from decks.selectors.cache import clear_caches
from decks.services import jobs
from decks.services.catalogue_sync import CatalogueDiff, catalogue_diff, catalogue_sync
from hkk_tournament.errors import Conflict, ValidationFailed

__all__ = [
    "PublisherSyncReport",
    "catalogue_sync_run_execute",
    "catalogue_sync_run_start",
    "default_client",
    "hkk_publisher_sync",
]

#: Games that have a publisher API to sync from.
SYNCABLE_GAMES = ("hkk",)


@dataclass(frozen=True, slots=True)
class PublisherSyncReport:
    """One sync: the diff against the stored catalogue, whether it was written, the editions
    read, requests sent to the server / answered from the cache, and the seconds taken."""

    diff: CatalogueDiff
    written: bool
    editions: int
    fetched: int
    cached: int
    seconds: float

    def summary(self) -> str:
        """One translated line of counts."""
        return gettext(
            "%(game)s: %(created)d created, %(updated)d updated, %(unchanged)d unchanged, "
            "%(missing)d missing from the source; %(editions)d editions; %(fetched)d requests, "
            "%(cached)d from the cache, %(seconds).1f s."
        ) % {
            "game": self.diff.game,
            "created": len(self.diff.created),
            "updated": len(self.diff.updated),
            "unchanged": len(self.diff.unchanged),
            "missing": len(self.diff.missing),
            "editions": self.editions,
            "fetched": self.fetched,
            "cached": self.cached,
            "seconds": self.seconds,
        }


def default_client(
    *, base: str | None = None, cache_dir: Path | None = None, delay: float | None = None
) -> HkkApiClient:
    """A client with the defaults, each overridable in the settings: ``HKK_CARD_API_URL``
    (:data:`~decks.loaders.hkk_api.DEFAULT_BASE`), ``HKK_CARD_API_CACHE`` (directory,
    ``VAR_DIR/cache/hkk-api``), ``HKK_CARD_API_DELAY`` (seconds, 1) and ``HKK_CARD_API_CAP``
    (cards a query, :data:`~decks.loaders.hkk_api.RESULT_CAP`)."""
    default_cache = Path(settings.VAR_DIR) / "cache" / "hkk-api"
    return HkkApiClient(
        base=base or str(getattr(settings, "HKK_CARD_API_URL", DEFAULT_BASE)),
        cache_dir=cache_dir or Path(getattr(settings, "HKK_CARD_API_CACHE", default_cache)),
        delay=float(getattr(settings, "HKK_CARD_API_DELAY", 1.0)) if delay is None else delay,
        cap=int(getattr(settings, "HKK_CARD_API_CAP", RESULT_CAP)),
    )


def hkk_publisher_sync(
    *, client: HkkApiClient, dry_run: bool = False, progress: Progress | None = None
) -> PublisherSyncReport:
    """Fetch the HKK catalogue through ``client`` and, unless ``dry_run``, write it.

    Args:
        client: the API client (base URL, cache, delay).
        dry_run: compute the diff (created / updated / unchanged / missing) and write nothing.
        progress: ``progress(done, total)`` after each request.

    Returns:
        The :class:`PublisherSyncReport`. A rerun against the same cache fetches nothing and
        reports every card unchanged.

    Raises:
        SourceError: unreachable host, an answer that is not JSON, a record missing a field
            (the message names the URL or record); nothing is written then.
    """
    started = time.perf_counter()
    fetched = fetch_catalogue(client, progress=progress)
    diff = catalogue_diff(game_slug="hkk", cards=fetched.cards)
    if not dry_run:
        with transaction.atomic():
            catalogue_sync(game_slug="hkk", cards=fetched.cards, editions=fetched.editions)
            models.Game.objects.filter(slug="hkk").update(
                coverage=models.CoverageChoices.COMPLETE,
                catalogue_source=client.base[:300],
                last_synced_at=timezone.now(),
            )
            models.CatalogueVersion.bump()
        clear_caches()
    return PublisherSyncReport(
        diff=diff,
        written=not dry_run,
        editions=len(fetched.editions),
        fetched=fetched.fetched,
        cached=fetched.cached,
        seconds=time.perf_counter() - started,
    )


@transaction.atomic
def catalogue_sync_run_start(*, game: models.Game, requested_by: Any) -> models.CatalogueSyncRun:
    """Record a sync of ``game`` from the publisher and run it as a background job once this
    transaction commits (``decks.services.jobs``).

    Raises:
        ValidationFailed: ``game_not_syncable`` (no publisher API for this game).
        Conflict: ``sync_already_running`` (a sync of this game is waiting or running).
    """
    game = models.Game.objects.select_for_update().get(pk=game.pk)
    if game.slug not in SYNCABLE_GAMES:
        raise ValidationFailed(
            "game_not_syncable",
            _("%(game)s has no publisher card search to sync from.") % {"game": game.name},
            {"game": game.slug},
        )
    busy = models.CatalogueSyncRun.objects.filter(
        game=game,
        status__in=[models.CatalogueSyncStatus.PENDING, models.CatalogueSyncStatus.RUNNING],
    ).first()
    if busy is not None:
        raise Conflict(
            "sync_already_running",
            _("A sync of %(game)s is already waiting or running.") % {"game": game.name},
            {"game": game.slug, "run": busy.pk},
        )
    run = models.CatalogueSyncRun.objects.create(game=game, requested_by=requested_by)
    jobs.enqueue(jobs.CATALOGUE_SYNC_RUN, run_id=run.pk)
    return run


def catalogue_sync_run_execute(
    *, run_id: int, client: HkkApiClient | None = None
) -> models.CatalogueSyncRun:
    """Run the recorded sync ``run_id``: store the progress as it goes (requests done / total),
    then ``done`` with the counts or ``failed`` with the error. Safe to re-run: a run that is
    not waiting is left alone."""
    claimed = models.CatalogueSyncRun.objects.filter(
        pk=run_id, status=models.CatalogueSyncStatus.PENDING
    ).update(status=models.CatalogueSyncStatus.RUNNING)
    run = models.CatalogueSyncRun.objects.get(pk=run_id)
    if not claimed:
        return run

    def progress(done: int, total: int) -> None:
        models.CatalogueSyncRun.objects.filter(pk=run_id).update(
            requests_done=done, requests_total=total
        )

    try:
        report = hkk_publisher_sync(client=client or default_client(), progress=progress)
    except SourceError as exc:
        status, message = models.CatalogueSyncStatus.FAILED, str(exc)
    else:
        status, message = models.CatalogueSyncStatus.DONE, report.summary()
    models.CatalogueSyncRun.objects.filter(pk=run_id).update(
        status=status, message=message, finished_at=timezone.now()
    )
    run.refresh_from_db()
    return run
