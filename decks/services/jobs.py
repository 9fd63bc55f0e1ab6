"""The one place that enqueues background jobs (Celery tasks) for the decks services.

Like ``tournaments/services/jobs.py``: a job is sent after the caller's transaction commits
(``transaction.on_commit``; a rolled-back transaction sends nothing), addressed by its
registered name in the project's Celery app, so services never import ``decks.tasks``.
``DecksConfig.ready()`` imports ``decks.tasks`` so the tasks are registered in every process.
Without ``CELERY_BROKER_URL`` Celery runs the job in-process, right after the commit.
"""

from __future__ import annotations

from django.db import transaction

from hkk_tournament.celery import app

#: Registered name of the publisher-sync task (``decks.tasks`` uses the same constant).
CATALOGUE_SYNC_RUN = "decks.catalogue_sync_run"

#: A job's arguments: ids and flags only.
JobArg = int | str | bool | None


def enqueue(task_name: str, **kwargs: JobArg) -> None:
    """Run the Celery task ``task_name`` with ``kwargs`` (ids and flags only) after the current
    transaction commits; at once outside a transaction.

    Raises:
        TypeError: an argument that is not an id or a flag.
    """
    for name, value in kwargs.items():
        if value is not None and not isinstance(value, int | str | bool):
            raise TypeError(f"job argument {name}={value!r}: pass ids and flags only")
    transaction.on_commit(lambda: app.tasks[task_name].apply_async(kwargs=dict(kwargs)))
