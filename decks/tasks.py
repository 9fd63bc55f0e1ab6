"""Celery tasks of the decks app: thin wrappers around its services.

Services never import this module; they enqueue by name through ``decks.services.jobs``.
``DecksConfig.ready()`` imports it so the tasks are registered in every process.
"""

from __future__ import annotations

from celery import shared_task

from decks.services.jobs import CATALOGUE_SYNC_RUN
from decks.services.publisher_sync import catalogue_sync_run_execute


@shared_task(name=CATALOGUE_SYNC_RUN, acks_late=True)
def catalogue_sync_run_task(run_id: int) -> str:
    """Run the recorded publisher sync ``run_id`` (``CatalogueSyncRun``); returns its status.
    Re-running is safe: a run that is no longer waiting is left alone."""
    return str(catalogue_sync_run_execute(run_id=run_id).status)
