"""The background jobs (Celery tasks) of the decks services: their names.

Services call :func:`enqueue` with a registered task name, so they never import
``decks.tasks``; ``DecksConfig.ready()`` imports ``decks.tasks`` so the tasks are registered in
every process. How and when jobs are sent (after the caller's transaction commits, once per
transaction) and run in-process when the broker is down is the project's one implementation,
:mod:`hkk_tournament.jobs` (shared with ``tournaments.services.jobs``): an admin-started
catalogue sync with the broker down runs in the admin's request instead of failing after its
run row was committed.
"""

from __future__ import annotations

from hkk_tournament.jobs import JobArg, enqueue

__all__ = ["CATALOGUE_SYNC_RUN", "JobArg", "enqueue"]

#: Registered name of the publisher-sync task (``decks.tasks`` uses the same constant).
CATALOGUE_SYNC_RUN = "decks.catalogue_sync_run"
