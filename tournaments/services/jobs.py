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

When the broker is down (design): a job is enqueued only after its data is committed, so the
request must still succeed. :func:`send` publishes without retrying, with a short connection
timeout (``HKK_BROKER_PUBLISH_TIMEOUT``, two attempts 0.2 s apart); when the broker refuses or
times out it logs the error (logger ``tournaments.jobs``, with the request id) and runs the task
in-process through ``Task.apply``. The jobs are short and idempotent (standings recompute;
pairing keyed on the event and round number), so running one in the request is always correct,
and nothing is left to retry later. A job that fails in-process is logged, never raised.

Surviving a worker that dies: the settings acknowledge a message only after the task returned
(``task_acks_late``, ``task_reject_on_worker_lost``); Redis hands a message nobody acknowledged
to another worker after ``HKK_BROKER_VISIBILITY_TIMEOUT`` seconds. The tasks are idempotent, so
the redelivered job either does the work or finds it done.

How the de-duplication works (public API only): every :func:`enqueue` registers its own
``on_commit`` callback, so Django alone decides which callbacks survive rollbacks of savepoints
(e.g. a dry run inside ``transaction.atomic()`` that is rolled back). All callbacks registered
while a transaction is open share one :class:`_Batch`; when the first of them runs (the commit),
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

logger = logging.getLogger("tournaments.jobs")

#: What a publish raises when the broker (or the Redis result backend) is down or unreachable.
_BROKER_ERRORS: tuple[type[BaseException], ...] = (KombuOperationalError, RedisError, OSError)

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
    still answers quickly. The broker's error is logged (logger ``tournaments.jobs``, with the
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
        In eager mode (no broker configured) the task's own error propagates from the commit
        like any ``on_commit`` callback's; an unreachable broker raises nothing (see
        :func:`send`).
    """
    key: JobKey = (task_name, tuple(sorted(_check_args(kwargs).items())))
    batch = _open_batch()
    transaction.on_commit(lambda: batch.run(key))


def _check_args(kwargs: Mapping[str, Any]) -> dict[str, JobArg]:
    for name, value in kwargs.items():
        if value is not None and not isinstance(value, int | str | bool):
            raise TypeError(f"job argument {name}={value!r}: pass ids and flags only")
    return dict(kwargs)


#: Seconds a queued standings recompute waits (with a broker), so that the results of a burst
#: are all read by the one recompute they share. The public pages refresh every 30 s and may be
#: kept 10 s, so more frequent standings would not be seen; at 4,096 entries each recompute
#: costs about 0.3 s and leaves every cached standings page to be rendered again.
STANDINGS_DEBOUNCE_SECONDS = 10.0


def enqueue_standings(tournament_id: int, *, at_once: bool = False) -> None:
    """Recompute the cached standings of ``tournament_id`` (``StandingsSnapshot``) after the
    current transaction commits, coalesced per event: once per transaction, and after the
    commit only if no recompute is requested yet (``services.standings.
    standings_claim_recompute``: the pending recompute reads the latest results when it
    starts). The claim runs after the commit, outside the result's transaction, so results of
    different matches never wait for each other on the snapshot row. With a broker the
    recompute waits ``STANDINGS_DEBOUNCE_SECONDS``, so a burst of results queues one; eager mode
    (no broker) recomputes at once after the commit.

    ``at_once``: a step people wait for (a finished round) recomputes without waiting and
    without the claim; a pending debounced recompute still runs later (it is idempotent)."""
    # Imported here: the standings service is imported by the services package, which this
    # module must not depend on at import time.
    from tournaments.services.standings import standings_claim_recompute

    key: JobKey = (STANDINGS_RECOMPUTE, (("tournament_id", tournament_id),))
    batch = _open_batch()
    if at_once:
        transaction.on_commit(lambda: batch.run(key))
        return
    transaction.on_commit(
        lambda: batch.run(
            key,
            claim=lambda: standings_claim_recompute(tournament_id=tournament_id),
            countdown=STANDINGS_DEBOUNCE_SECONDS,
        )
    )


def enqueue_round_pair_next(
    tournament_id: int, requested_by_id: int | None = None, number: int | None = None
) -> None:
    """Pair round ``number`` of ``tournament_id`` in a worker after the current transaction
    commits (in-process when no broker is configured or reachable). With ``number`` the job is
    idempotent: a redelivered job that finds that round paired returns it and does nothing."""
    enqueue(
        ROUND_PAIR_NEXT, tournament_id=tournament_id, requested_by_id=requested_by_id, number=number
    )
