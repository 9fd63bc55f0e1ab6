"""The one place that enqueues background jobs (Celery tasks) for the tournament services.

Services call :func:`enqueue` (or a named helper such as :func:`enqueue_standings`); nothing
else in ``tournaments.services`` touches Celery, and no service imports ``tournaments.tasks``:
the task is looked up by its registered name in the project's Celery app
(``hkk_tournament.celery.app.tasks``). ``tournaments.tasks`` registers its tasks when it is
imported: by ``TournamentsConfig.ready()`` in every process, and by the worker's autodiscovery.
The dependency therefore runs one way only: tasks → services.

When jobs run:

- A job is sent once the caller's transaction commits (``transaction.on_commit``); a rolled-back
  transaction or savepoint sends nothing. Outside a transaction it is sent at once.
- Without ``CELERY_BROKER_URL`` the settings make Celery eager, so ``apply_async`` runs the task
  in-process, synchronously, right after the commit; with a broker a worker picks it up.
- The same job (same task name and keyword arguments) enqueued several times in one transaction
  runs once: recording three games in one transaction recomputes the standings once.

How the de-duplication works (public API only): every :func:`enqueue` registers its own
``on_commit`` callback, so Django alone decides which callbacks survive rollbacks of savepoints
(e.g. a dry run inside ``transaction.atomic()`` that is rolled back). All callbacks registered
while a transaction is open share one :class:`_Batch`; when the first of them runs (the commit),
the batch is closed, and each callback sends its job only if no earlier callback of the batch
sent the same one. A later transaction, or a task running inside the commit hooks, starts a new
batch. A batch left open by a rolled-back transaction never ran anything, so reusing it is safe.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from hkk_tournament.celery import app

#: Registered names of the tournament tasks (``tournaments.tasks`` uses the same constants).
ROUND_PAIR_NEXT = "tournaments.round_pair_next"
STANDINGS_RECOMPUTE = "tournaments.standings_recompute"

#: A job's arguments: ids and flags only (tasks load what they need themselves).
JobArg = int | str | bool | None
JobKey = tuple[str, tuple[tuple[str, JobArg], ...]]


class _Batch:
    """The jobs enqueued while one transaction was open; ``sent`` fills in at commit."""

    def __init__(self) -> None:
        self.closed = False
        self.sent: set[JobKey] = set()

    def run(self, key: JobKey) -> None:
        """Send the job ``key`` unless an earlier callback of this batch already sent it."""
        self.closed = True
        if key in self.sent:
            return
        self.sent.add(key)
        name, kwargs = key
        app.tasks[name].apply_async(kwargs=dict(kwargs))


# One open batch per thread: Django's database connections (and their transactions) are
# per thread too.
_local = threading.local()


def _open_batch() -> _Batch:
    batch: _Batch | None = getattr(_local, "batch", None)
    if batch is None or batch.closed:
        batch = _local.batch = _Batch()
    return batch


def enqueue(task_name: str, **kwargs: JobArg) -> None:
    """Run the Celery task ``task_name`` with ``kwargs`` after the current transaction commits.

    ``task_name`` is the task's registered name (``ROUND_PAIR_NEXT``, ``STANDINGS_RECOMPUTE``);
    ``kwargs`` are ids and flags only. The same job enqueued twice in one transaction runs once
    (see the module docstring). Outside a transaction the job is sent at once.

    Raises:
        KeyError: when no task of that name is registered (at send time, i.e. on commit).
        Any error of the broker (or, in eager mode, of the task) when the job is sent: it
        propagates from the commit like any ``on_commit`` callback's.
    """
    key: JobKey = (task_name, tuple(sorted(_check_args(kwargs).items())))
    batch = _open_batch()
    transaction.on_commit(lambda: batch.run(key))


def _check_args(kwargs: Mapping[str, Any]) -> dict[str, JobArg]:
    for name, value in kwargs.items():
        if value is not None and not isinstance(value, int | str | bool):
            raise TypeError(f"job argument {name}={value!r}: pass ids and flags only")
    return dict(kwargs)


def enqueue_standings(tournament_id: int) -> None:
    """Recompute the cached standings of ``tournament_id`` (``StandingsSnapshot``) after the
    current transaction commits; once per transaction, however many results it records."""
    enqueue(STANDINGS_RECOMPUTE, tournament_id=tournament_id)


def enqueue_round_pair_next(tournament_id: int, requested_by_id: int | None = None) -> None:
    """Pair the next round of ``tournament_id`` in a worker after the current transaction
    commits (in-process when no broker is configured)."""
    enqueue(ROUND_PAIR_NEXT, tournament_id=tournament_id, requested_by_id=requested_by_id)
