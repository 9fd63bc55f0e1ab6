"""The background jobs (Celery tasks) of the tournament services: their names and helpers.

Services call :func:`enqueue` (or a named helper such as :func:`enqueue_standings`); nothing
else in ``tournaments.services`` touches Celery, and no service imports ``tournaments.tasks``:
the task is looked up by its registered name. The dependency therefore runs one way only:
tasks → services. How and when jobs are sent, de-duplicated per transaction, and run in-process
when the broker is down is the project's one implementation, :mod:`hkk_tournament.jobs`
(shared with ``decks.services.jobs``).
"""

from __future__ import annotations

from django.db import transaction

from hkk_tournament.jobs import JobArg, JobKey, enqueue, open_batch, send

__all__ = [
    "PAGES_REFRESH",
    "PAGES_WARM",
    "CIRCUIT_RATINGS_REFRESH",
    "ROUND_PAIR_NEXT",
    "STANDINGS_DEBOUNCE_SECONDS",
    "STANDINGS_RECOMPUTE",
    "META_RECOMPUTE",
    "JobArg",
    "enqueue",
    "enqueue_page_refresh",
    "enqueue_pages_warm",
    "enqueue_circuit_ratings",
    "enqueue_meta",
    "enqueue_round_pair_next",
    "enqueue_standings",
    "send",
]

#: Registered names of the tournament tasks (``tournaments.tasks`` uses the same constants).
ROUND_PAIR_NEXT = "tournaments.round_pair_next"
STANDINGS_RECOMPUTE = "tournaments.standings_recompute"
PAGES_WARM = "tournaments.pages_warm"
PAGES_REFRESH = "tournaments.page_refresh"
META_RECOMPUTE = "tournaments.meta_recompute"


#: Seconds a queued standings recompute waits (with a broker), so that the results of a burst
#: are all read by the one recompute they share. The public pages refresh every 30 s and may be
#: kept 10 s, so more frequent standings would not be seen; at 4,096 entries each recompute
#: costs about 0.3 s and leaves every cached standings page to be rendered again.
STANDINGS_DEBOUNCE_SECONDS = 10.0


def enqueue_standings(
    tournament_id: int, *, match_id: int | None = None, at_once: bool = False
) -> None:
    """Recompute the cached standings of ``tournament_id`` (``StandingsSnapshot``) after the
    current transaction commits, coalesced per event: once per transaction, and after the
    commit only if no recompute is requested yet (``services.standings.
    standings_claim_recompute``: the pending recompute reads the latest results when it
    starts). The claim runs after the commit, outside the result's transaction. With a broker the
    recompute waits ``STANDINGS_DEBOUNCE_SECONDS``, so a burst of results queues one; eager mode
    (no broker) recomputes at once after the commit.

    Every caller changes what the standings are computed from, so this also records the change
    inside the current transaction (``services.standings.standings_inputs_changed``):
    ``match_id`` names the match whose result was written (its row locked by the caller);
    without it the caller holds the tournament lock.

    ``at_once``: a step people wait for (a finished round) recomputes without waiting and
    without the claim; a pending debounced recompute still runs later (it is idempotent)."""
    # Imported here: the standings service is imported by the services package, which this
    # module must not depend on at import time.
    from tournaments.services.standings import standings_claim_recompute, standings_inputs_changed

    standings_inputs_changed(tournament_id=tournament_id, match_id=match_id)
    key: JobKey = (STANDINGS_RECOMPUTE, (("tournament_id", tournament_id),))
    batch = open_batch()
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


def enqueue_pages_warm(tournament_id: int) -> None:
    """Render the event's hot public pages into the shared cache and build the shown round's
    name index and "find my table" search parts in a worker after the current transaction
    commits (after a publish; the
    standings task warms after each recompute itself). Skipped without a broker (eager mode):
    the first visitors render them instead of the request that published."""
    from django.conf import settings

    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return
    enqueue(PAGES_WARM, tournament_id=tournament_id)


def enqueue_page_refresh(path: str, language: str) -> bool:
    """Render the shared public page or API answer at ``path`` (with its query) for an
    anonymous visitor in ``language`` in a worker (``hkk_tournament.web.page_cache``: a stale
    rendering is answered meanwhile). Returns ``False`` without a broker (eager mode): the
    caller then renders in its own request. With the broker unreachable the job runs
    in-process (:mod:`hkk_tournament.jobs`). Sent at once outside a transaction, after the
    commit inside one."""
    from django.conf import settings

    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return False
    enqueue(PAGES_REFRESH, path=path, language=language)
    return True


#: Registered name of the circuit ratings task (``tournaments.tasks`` uses the same constant).
CIRCUIT_RATINGS_REFRESH = "tournaments.circuit_ratings_refresh"


def enqueue_circuit_ratings(circuit_id: int) -> None:
    """Recompute the OpenSkill ratings of ``circuit_id`` after the current transaction commits
    (``services.circuits.circuit_ratings_refresh``; idempotent, once per transaction; in-process
    when no broker is configured or reachable)."""
    enqueue(CIRCUIT_RATINGS_REFRESH, circuit_id=circuit_id)


def enqueue_meta(tournament_id: int) -> None:
    """Recompute the meta statistics of ``tournament_id`` and of its format's month
    (``services.meta.meta_recompute``) after the current transaction commits: when the event
    finishes, its lists' publication changes, or a player's consent changes. Idempotent (the
    job reads the committed state under the event's lock); in-process when no broker is
    configured or reachable (:mod:`hkk_tournament.jobs`)."""
    enqueue(META_RECOMPUTE, tournament_id=tournament_id)
