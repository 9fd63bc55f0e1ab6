"""CPU and SQL queries of one result slip through the API, in this process (no server).

Usage (``DATABASE_URL`` names a *copy* of the benchmark event's database: the slips are
written, then removed again; ``HKK_CACHE_URL`` a Redis database of your own)::

    createdb -h 127.0.0.1 -U postgres -T hkk_bench hkk_bench_mine
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hkk_bench_mine \\
        .venv/bin/python bench/slip_path.py --event 1 --slips 200 [--profile 25]

It posts ``--slips`` result slips of the published round's open matches as ``bench/load.py``'s
churn does (``POST /api/tournaments/<id>/matches/<id>/result/`` with the organiser's token of
``bench/venue.py``, through every middleware, Django's test client), one after the other, and
prints per slip the median and p90 CPU milliseconds (``time.process_time``) and wall
milliseconds, and the SQL statements (``BEGIN``/``COMMIT`` and the after-commit standings
claim included). The first ``--warm`` slips are posted first and not counted (imports, caches).
The standings recompute is queued on the broker (``CELERY_BROKER_URL``; without one this script
queues it nowhere, as a worker would run it in another process), not run here. ``--profile N``
then prints the functions with the most cumulative time over N more slips (``cProfile``).
Afterwards every slip written is removed (games deleted, the matches' die-roll and time fields
restored), so the same copy can be measured again before and after a change.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import venue  # sets up Django
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from hkk_tournament.celery import app
from tournaments.models import Game, Match
from tournaments.services import jobs


def _queue_nowhere() -> None:
    """Without a broker, swallow the queued recompute (a worker runs it, not the request)."""
    task = app.tasks[jobs.STANDINGS_RECOMPUTE]
    setattr(task, "apply_async", lambda *a, **k: None)  # noqa: B010 (replaces the bound method)


def _post(client: Client, event: int, match: tuple[int, int, int], i: int) -> int:
    match_id, a, b = match
    result = ("2-0-0", "2-1-0", "0-2-0", "1-2-0", "1-1-1")[i % 5]
    response = client.post(
        f"/api/tournaments/{event}/matches/{match_id}/result/",
        {"result": result, "die_roll_winner": (a, b)[i % 2]},
        content_type="application/json",
    )
    return int(response.status_code)


def _measure(client: Client, event: int, matches: list[tuple[int, int, int]]) -> dict[str, Any]:
    cpu: list[float] = []
    wall: list[float] = []
    queries: list[int] = []
    for i, match in enumerate(matches):
        with CaptureQueriesContext(connection) as captured:
            c0, w0 = time.process_time(), time.perf_counter()
            status = _post(client, event, match, i)
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - w0) * 1000)
        if status != 201:
            raise SystemExit(f"match {match[0]}: status {status}")
        queries.append(len(captured.captured_queries))
    return {"cpu": sorted(cpu), "wall": sorted(wall), "queries": queries}


def _undo(matches: list[tuple[int, int, int]], before: dict[int, tuple[Any, bool]]) -> None:
    """Remove the written slips: their games, and restore each match's die roll and time flag."""
    ids = [m[0] for m in matches]
    Game.objects.filter(match_id__in=ids).delete()
    for match_id, (roll, ended) in before.items():
        Match.objects.filter(pk=match_id).update(die_roll_winner_id=roll, ended_at_time=ended)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--event", type=int, default=1)
    parser.add_argument("--slips", type=int, default=200)
    parser.add_argument("--warm", type=int, default=10)
    parser.add_argument("--profile", type=int, default=0, help="slips profiled after the run")
    parser.add_argument("--sort", default="cumulative", help="profile order (pstats key)")
    parser.add_argument("--lines", type=int, default=45, help="profile lines printed")
    args = parser.parse_args()
    if not app.conf.broker_url or app.conf.task_always_eager:
        _queue_nowhere()
    client = Client(HTTP_AUTHORIZATION=f"Token {venue.organiser_token(args.event)}")
    matches = venue.open_matches(args.event)[: args.warm + args.slips + args.profile]
    if len(matches) < args.warm + args.slips + args.profile:
        raise SystemExit(f"only {len(matches)} open matches")
    before = {
        pk: (roll, ended)
        for pk, roll, ended in Match.objects.filter(pk__in=[m[0] for m in matches]).values_list(
            "pk", "die_roll_winner_id", "ended_at_time"
        )
    }
    try:
        _measure(client, args.event, matches[: args.warm])
        timed = matches[args.warm : args.warm + args.slips]
        got = _measure(client, args.event, timed)
        cpu, wall = got["cpu"], got["wall"]
        print(
            f"{len(timed)} slips: CPU ms median {statistics.median(cpu):.2f}, "
            f"p90 {cpu[int(len(cpu) * 0.9)]:.2f}; wall ms median {statistics.median(wall):.2f}, "
            f"p90 {wall[int(len(wall) * 0.9)]:.2f}; SQL statements per slip "
            f"{min(got['queries'])}–{max(got['queries'])}"
        )
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            _measure(client, args.event, matches[args.warm + args.slips :])
            profiler.disable()
            pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.lines)
    finally:
        _undo(matches, before)


if __name__ == "__main__":
    main()
