"""The one implementation of background jobs (Celery tasks) for every app's services.

``tournaments.services.jobs`` and ``decks.services.jobs`` name their tasks and call
:func:`enqueue` (or :func:`open_batch` for a job with a claim or a delay); nothing else in the
services touches Celery, and no service imports a ``tasks`` module: the task is looked up by
its registered name in the project's Celery app (``hkk_tournament.celery.app.tasks``). Each
app's ``tasks`` module registers its tasks when it is imported (by the app config's
``ready()`` in every process, and by the worker's autodiscovery).

When jobs run:

- A job is sent once the caller's transaction commits (``transaction.on_commit``); a rolled-back
  transaction or savepoint sends nothing. Outside a transaction it is sent at once.
- Without ``CELERY_BROKER_URL`` the settings make Celery eager, so ``apply_async`` runs the task
  in-process, synchronously, right after the commit; with a broker a worker picks it up.
- The same job (same task name and keyword arguments) enqueued several times in one transaction
  runs once: recording three games in one transaction recomputes the standings once.

When the broker is down (design): a job is enqueued only after its data is committed, so the
request must still succeed. :func:`send` publishes without retrying, with a short connection
timeout (``HKK_BROKER_PUBLISH_TIMEOUT``, two attempts 0.2 s apart); when the broker refuses or
times out it logs the error (logger ``hkk_tournament.jobs``, with the request id) and runs the
task in-process through ``Task.apply``. Every job is idempotent (standings recompute; pairing
keyed on the event and round number; a catalogue sync run claims its ``pending`` row), so
running one in the request is always correct, and nothing is left to retry later. A job that
fails in-process is logged, never raised. ``/readyz/`` reports such a node as ``degraded``.

Surviving a worker that dies: the settings acknowledge a message only after the task returned
(``task_acks_late``, ``task_reject_on_worker_lost``); Redis hands a message nobody acknowledged
to another worker after ``HKK_BROKER_VISIBILITY_TIMEOUT`` seconds. The tasks are idempotent, so
the redelivered job either does the work or finds it done.

How the de-duplication works (public API only): every :func:`enqueue` registers its own
``on_commit`` callback, so Django alone decides which callbacks survive rollbacks of savepoints
(e.g. a dry run inside ``transaction.atomic()`` that is rolled back). All callbacks registered
while a transaction is open share one :class:`Batch`; when the first of them runs (the commit),
the batch is closed, and each callback sends its job only if no earlier callback of the batch
sent the same one. A later transaction, or a task running inside the commit hooks, starts a new
batch. A batch left open by a rolled-back transaction never ran anything, so reusing it is safe.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from django.db import transaction
from kombu.exceptions import OperationalError as KombuOperationalError
from redis.exceptions import RedisError

from hkk_tournament.celery import app
from hkk_tournament.request_log import current_request_id

__all__ = ["Batch", "JobArg", "JobKey", "enqueue", "open_batch", "send"]

logger = logging.getLogger(__name__)

#: What a publish raises when the broker (or the Redis result backend) is down or unreachable.
_BROKER_ERRORS: tuple[type[BaseException], ...] = (KombuOperationalError, RedisError, OSError)

#: A job's arguments: ids and flags only (tasks load what they need themselves).
JobArg = int | str | bool | None
JobKey = tuple[str, tuple[tuple[str, JobArg], ...]]


class Batch:
    """The jobs enqueued while one transaction was open; ``sent`` fills in at commit."""

    def __init__(self) -> None:
        self.closed = False
        self.sent: set[JobKey] = set()

    def run(
        self,
        key: JobKey,
        claim: Callable[[], bool] | None = None,
        countdown: float | None = None,
    ) -> None:
        """Send the job ``key`` unless an earlier callback of this batch already sent it, or
        ``claim()`` says one is already queued; ``countdown`` delays it (seconds)."""
        self.closed = True
        if key in self.sent:
            return
        self.sent.add(key)
        if claim is not None and not claim():
            return
        name, kwargs = key
        send(name, dict(kwargs), countdown=countdown)


def send(task_name: str, kwargs: dict[str, JobArg], countdown: float | None = None) -> str:
    """Publish the job now; when the broker cannot be reached, run it in-process instead.

    ``countdown``: seconds the worker waits before running it (a debounce), ``None`` at once.

    Returns ``"sent"`` (published, or run by Celery's eager mode when no broker is configured)
    or ``"in_process"`` (the broker refused or timed out: the job ran here, synchronously).

    The publish does not retry (``retry=False``), the connection gives up after
    ``HKK_BROKER_PUBLISH_TIMEOUT`` seconds and nothing waits on the result store
    (``ignore_result``: jobs are fire-and-forget), so a request whose data is already committed
    still answers quickly. The broker's error is logged (logger ``hkk_tournament.jobs``, with the
    request id) and the task's own code runs through ``Task.apply``; its failure is logged,
    never raised, because the caller's transaction has already committed.
    """
    task = app.tasks[task_name]
    try:
        if countdown is None:
            task.apply_async(kwargs=kwargs, retry=False, ignore_result=True)
        else:
            task.apply_async(kwargs=kwargs, retry=False, ignore_result=True, countdown=countdown)
    except _BROKER_ERRORS as exc:
        logger.error(
            "broker unavailable, running %s in-process: %s",
            task_name,
            exc,
            extra={"job": task_name, "job_kwargs": kwargs, "request_id": current_request_id()},
        )
        result = task.apply(kwargs=kwargs, throw=False)
        if result.failed():
            logger.error(
                "in-process job %s failed: %r",
                task_name,
                result.result,
                extra={"job": task_name, "request_id": current_request_id()},
            )
        return "in_process"
    return "sent"


# One open batch per thread: Django's database connections (and their transactions) are
# per thread too.
_local = threading.local()


def open_batch() -> Batch:
    """The batch of the transaction open in this thread (a new one after a commit)."""
    batch: Batch | None = getattr(_local, "batch", None)
    if batch is None or batch.closed:
        batch = _local.batch = Batch()
    return batch


def enqueue(task_name: str, **kwargs: JobArg) -> None:
    """Run the Celery task ``task_name`` with ``kwargs`` after the current transaction commits.

    ``task_name`` is the task's registered name (e.g. ``tournaments.standings_recompute``,
    ``decks.catalogue_sync_run``); ``kwargs`` are ids and flags only. The same job enqueued
    twice in one transaction runs once (see the module docstring). Outside a transaction the
    job is sent at once.

    Raises:
        TypeError: an argument that is not an id or a flag (at once).
        KeyError: when no task of that name is registered (at send time, i.e. on commit).
        In eager mode (no broker configured) the task's own error propagates from the commit
        like any ``on_commit`` callback's; an unreachable broker raises nothing (see
        :func:`send`).
    """
    key: JobKey = (task_name, tuple(sorted(_check_args(kwargs).items())))
    batch = open_batch()
    transaction.on_commit(lambda: batch.run(key))


def _check_args(kwargs: Mapping[str, Any]) -> dict[str, JobArg]:
    for name, value in kwargs.items():
        if value is not None and not isinstance(value, int | str | bool):
            raise TypeError(f"job argument {name}={value!r}: pass ids and flags only")
    return dict(kwargs)
