"""Recording a round's results for ``bench/event.py`` the way event staff do at scale: from
several worker processes at once, each with its own database connection (as Gunicorn workers
are), never threads of one process (the GIL would serialise all their Python work).

Two paths, both through the services:

* ``slip``: the judge's result-slip entry, ``match_result_record`` (one call per match, e.g.
  ``"2-1-0"``; the die-roll winner named on the slip);
* ``game``: the judge's per-game sequence, ``match_set_die_roll`` then, before each game,
  ``match_next_right`` and one ``game_record``.

:class:`Recorders` forks ``workers`` processes once (Linux ``fork``: they inherit the set-up
Django and the stand-in worker of :func:`stand_in_worker`) and keeps them for every phase, as
Gunicorn keeps its workers. For each phase they load the matches, wait at a barrier, then take
the matches one at a time from a shared counter. Closed loop (``rate`` infinite): as fast as they
go. Open loop: match ``i`` is due at ``start + i × interval`` (``1 / rate`` for slips, the
games of a match ``/ rate`` for games) whether or not earlier ones are done. A latency is the
timed call's duration (``match_result_record``, or each ``game_record``), plus for the first
timed call of a match the time the match waited past its due time (a backlog shows).
SQL statements are counted per worker as ``CaptureQueriesContext`` counts them (``BEGIN`` and
``COMMIT`` included, and the standings claim after each commit).
"""

from __future__ import annotations

import functools
import math
import multiprocessing as mp
import random
import time
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, connections

from hkk_tournament.celery import app
from tournaments import services
from tournaments.models import Game, Match
from tournaments.permissions import SYSTEM
from tournaments.services import jobs

#: Standings recomputes queued (tournament ids) in this process, run by :func:`run_recomputes`.
QUEUED: list[int] = []

#: Seconds the workers may take to connect, and to record one phase.
CONNECT_TIMEOUT = 60.0
PHASE_TIMEOUT = 3600.0


def stand_in_worker() -> None:
    """Queue standings recomputes instead of running them in the request (no broker here)."""
    task = app.tasks[jobs.STANDINGS_RECOMPUTE]

    def queue(*args: Any, kwargs: dict[str, Any] | None = None, **options: Any) -> None:
        assert kwargs is not None
        QUEUED.append(kwargs["tournament_id"])

    setattr(task, "apply_async", queue)  # noqa: B010 (replaces the bound method)


def run_recomputes() -> int:
    """Run the queued recomputes as the Celery worker would; the number run."""
    done = 0
    while QUEUED:
        services.standings_refresh(tournament_id=QUEUED.pop(0))
        done += 1
    return done


@dataclass
class Phase:
    """What recording a list of matches through one ``path`` measured: ``seconds`` from the
    start to the last worker's end, the SQL ``queries`` of all workers, the timed calls'
    ``latencies`` (seconds) and the recomputes the workers ``queued``."""

    path: str
    matches: int
    seconds: float = 0.0
    queries: int = 0
    latencies: list[float] = field(default_factory=list)
    queued: list[int] = field(default_factory=list)

    @property
    def queries_per_match(self) -> float:
        return self.queries / self.matches if self.matches else math.nan

    @property
    def rate(self) -> float:
        """Timed calls per second (slip results or game results)."""
        return len(self.latencies) / self.seconds if self.seconds else math.nan

    def percentile(self, q: float) -> float:
        """The ``q`` quantile (0…1) of the latencies, in milliseconds."""
        ordered = sorted(self.latencies)
        if not ordered:
            return math.nan
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def _slip_result(rng: random.Random, games: int, stops: bool) -> str:
    """A slip's result (``"a-b-d"``): each game won by A or B 47 % of the time, else drawn;
    a best-of match (``stops``) ends at a majority."""
    need = games // 2 + 1
    a = b = d = 0
    for _ in range(games):
        x = rng.random()
        a, b, d = (a + 1, b, d) if x < 0.47 else (a, b + 1, d) if x < 0.94 else (a, b, d + 1)
        if stops and max(a, b) >= need:
            break
    return f"{a}-{b}-{d}"


def _slip(match: Match, rng: random.Random, timed: list[float]) -> None:
    """One match through ``match_result_record``: a whole match in one call."""
    structure = match.round.tournament.structure
    result = _slip_result(rng, structure.games_per_match, structure.ends_when_decided)
    roll = rng.choice((match.entry_a_id, match.entry_b_id))
    started = time.monotonic()
    services.match_result_record(actor=SYSTEM, match=match, result=result, die_roll_winner=roll)
    timed.append(time.monotonic() - started)


def _games(match: Match, rng: random.Random, timed: list[float]) -> None:
    """One match through the judge's per-game sequence: the die roll, then before each game
    the next-right look-up and the game (``game_record``, the timed call)."""
    a, b = match.entry_a_id, match.entry_b_id
    assert b is not None, "a bye has no games"
    services.match_set_die_roll(actor=SYSTEM, match=match, winner_entry=rng.choice((a, b)))
    number = 0
    while True:
        nxt = services.match_next_right(match=match)
        if nxt.decision is None:
            return
        number += 1
        holder = nxt.holder if nxt.holder is not None else a
        waived = rng.random() < 0.15
        first = (b if holder == a else a) if waived else holder
        x = rng.random()
        winner = a if x < 0.47 else b if x < 0.94 else None
        started = time.monotonic()
        services.game_record(
            actor=SYSTEM,
            match=match,
            number=number,
            winner_entry=winner,
            first_entry=first,
            waived=waived,
        )
        timed.append(time.monotonic() - started)


def games_per_match(match: Match) -> float:
    """Games a match of this event has on average: all of them, or about halfway between a
    majority and all of them in a best-of match (2.5 of 3)."""
    structure = match.round.tournament.structure
    if not structure.ends_when_decided:
        return float(structure.games_per_match)
    return (structure.games_per_match + structure.games_per_match // 2 + 1) / 2


@dataclass(frozen=True)
class _Job:
    path: str
    ids: list[int]
    seeds: list[int]
    interval: float


def _set_start(start_at: Any) -> None:
    start_at.value = time.monotonic() + 0.05


def _count_statements(count: list[int]) -> None:
    """Count every SQL statement of this process's connection in ``count[0]``, as
    ``CaptureQueriesContext`` does (transaction ``BEGIN`` / ``COMMIT`` / ``ROLLBACK`` too, each a
    round trip), without its debug cursor."""

    def counting(execute: Any, sql: Any, params: Any, many: Any, context: Any) -> Any:
        count[0] += 1
        return execute(sql, params, many, context)

    connection.execute_wrappers.append(counting)
    commit, rollback, set_autocommit = (
        getattr(connection, name) for name in ("_commit", "_rollback", "_set_autocommit")
    )

    def counted_commit() -> Any:
        count[0] += 1
        return commit()

    def counted_rollback() -> Any:
        count[0] += 1
        return rollback()

    def counted_set_autocommit(autocommit: bool) -> Any:
        count[0] += 0 if autocommit else 1  # BEGIN
        return set_autocommit(autocommit)

    setattr(connection, "_commit", counted_commit)  # noqa: B010 (this process only)
    setattr(connection, "_rollback", counted_rollback)  # noqa: B010
    setattr(connection, "_set_autocommit", counted_set_autocommit)  # noqa: B010


def _run(job: _Job, nxt: Any, ready: Any, start_at: Any, count: list[int]) -> dict[str, Any]:
    """Record this worker's share of ``job``: the matches it takes from the shared counter."""
    QUEUED.clear()
    by_pk = {
        m.pk: m for m in Match.objects.filter(pk__in=job.ids).select_related("round__tournament")
    }
    ready.wait(timeout=CONNECT_TIMEOUT)
    start, count[0] = start_at.value, 0
    play = _slip if job.path == "slip" else _games
    latencies: list[float] = []
    while True:
        with nxt.get_lock():
            i = nxt.value
            nxt.value += 1
        if i >= len(job.ids):
            break
        due = start + i * job.interval
        if due > time.monotonic():
            time.sleep(due - time.monotonic())
        late = max(0.0, time.monotonic() - due)
        timed: list[float] = []
        play(by_pk[job.ids[i]], random.Random(job.seeds[i]), timed)
        if timed:
            timed[0] += late
        latencies.extend(timed)
    return {"end": time.monotonic(), "queries": count[0], "lat": latencies, "q": list(QUEUED)}


def _serve(jobs: Any, nxt: Any, ready: Any, start_at: Any, out: Any) -> None:
    """A worker process: records the jobs it is given until it gets ``None``; puts its figures
    (or its error) on ``out`` after each job. It lives for the whole benchmark, like a
    Gunicorn worker, so only its first job pays the first-use costs."""
    count = [0]
    _count_statements(count)
    try:
        while (job := jobs.get()) is not None:
            try:
                out.put(_run(job, nxt, ready, start_at, count))
            except Exception as exc:  # reported to the parent, which raises it
                out.put({"error": repr(exc)})
    finally:
        connections.close_all()


class Recorders:
    """``workers`` forked recording processes (see the module docstring); a context manager
    that stops them on exit."""

    def __init__(self, workers: int) -> None:
        ctx = mp.get_context("fork")
        self.workers = workers
        self.start_at = ctx.Value("d", 0.0)
        self.ready = ctx.Barrier(workers + 1, action=functools.partial(_set_start, self.start_at))
        self.nxt = ctx.Value("i", 0)
        self.jobs, self.out = ctx.Queue(), ctx.Queue()
        connections.close_all()  # a forked child must never share the parent's connection
        args = (self.jobs, self.nxt, self.ready, self.start_at, self.out)
        self.procs = [ctx.Process(target=_serve, args=args, daemon=True) for _ in range(workers)]
        for p in self.procs:
            p.start()

    def __enter__(self) -> Recorders:
        return self

    def __exit__(self, *exc: object) -> None:
        for _ in self.procs:
            self.jobs.put(None)
        for p in self.procs:
            p.join(timeout=60)

    def record(
        self, path: str, matches: list[Match], *, rng: random.Random, rate: float = math.inf
    ) -> Phase:
        """Record ``matches`` through ``path`` (``"slip"`` or ``"game"``) from the workers;
        ``rate``: slip results or game results per second (open loop), ``inf`` closed loop.
        Returns the :class:`Phase`; raises ``RuntimeError`` when a worker failed."""
        phase = Phase(path, len(matches))
        if not matches:
            return phase
        per_match = 1.0 if path == "slip" else games_per_match(matches[0])
        interval = 0.0 if math.isinf(rate) else per_match / rate
        ids = [m.pk for m in matches]
        job = _Job(path, ids, [rng.getrandbits(32) for _ in matches], interval)
        self.nxt.value = 0
        for _ in self.procs:
            self.jobs.put(job)
        self.ready.wait(timeout=CONNECT_TIMEOUT)
        reports = [self.out.get(timeout=PHASE_TIMEOUT) for _ in self.procs]
        errors = [r["error"] for r in reports if "error" in r]
        if errors:
            raise RuntimeError(f"{path} worker failed: {errors[0]}")
        phase.seconds = max(r["end"] for r in reports) - self.start_at.value
        phase.queries = sum(r["queries"] for r in reports)
        for r in reports:
            phase.latencies.extend(r["lat"])
            phase.queued.extend(r["q"])
        return phase


def undo(matches: list[Match]) -> None:
    """Remove what the per-game path recorded for ``matches`` (games, die rolls, time called),
    so that the round can be recorded whole through the slip path afterwards."""
    ids = [m.pk for m in matches]
    Game.objects.filter(match_id__in=ids).delete()
    Match.objects.filter(pk__in=ids).update(
        die_roll_winner=None, game3_roll_winner=None, reroll_game3_agreed=False, ended_at_time=False
    )
