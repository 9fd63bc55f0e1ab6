"""Benchmark: our Swiss pairing (tournaments.domain.swiss) against the swisspair C++ engine.

Usage::

    .venv/bin/python bench/pairing.py [--sizes 64,256,1024,4096] [--seed N] [--repeat K]

For each size N it simulates a whole event of about log2(N) + 1 rounds with random results
(HKK scoring, ranks from ``compute_standings`` with the HKK tiebreakers). Every round is paired by
our engine (whose pairing is then played) and, on the very same history, by ``swisspair``
(``Player(id, points, rank, can_get_bye, cannot_be_paired_against_ids)``, ranks 1..n, points
non-increasing; it raises ``RuntimeError`` on dead ends, which are counted).

Every round is timed ``--repeat`` times for each engine (same input, same seed, same output) and
the median of those runs is kept, so that other work on a shared machine blurs the figures less.
Printed per size: median and worst seconds per round for both engines and their ratio,
rematches and repeat byes (must be 0 for us), pair-downs (ours, swisspair's, and the lower bound
= sum over rounds of floor(odd-sized score groups / 2)), and peak memory (tracemalloc peak of one
``pair_round`` call on the last round, Python objects only; process max RSS).
"""

from __future__ import annotations

import argparse
import math
import random
import resource
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from swisspair import Player, create_matches  # noqa: E402

from tournaments.domain.standings import HKK_TIEBREAKERS, compute_standings  # noqa: E402
from tournaments.domain.swiss import pair_round  # noqa: E402
from tournaments.domain.types import (  # noqa: E402
    GameRecord,
    MatchRecord,
    PairingCandidate,
    PairingResult,
    Scoring,
)

T = TypeVar("T")


def _play(rnd: int, a: int, b: int, rng: random.Random) -> MatchRecord:
    roll = rng.random()
    if roll < 0.06:
        winners: tuple[int | None, ...] = (a, b, None)
    else:
        w, loser = (a, b) if roll < 0.53 else (b, a)
        winners = (w, w) if rng.random() < 0.5 else (w, loser, w)
    games = tuple(GameRecord(i + 1, a, False, a, w) for i, w in enumerate(winners))
    return MatchRecord(rnd, a, b, games)


def _lower_bound(points: list[int]) -> int:
    odd = sum(1 for count in Counter(points).values() if count % 2)
    return odd // 2


def _timed(repeat: int, call: Callable[..., T], *args: object) -> tuple[float, T]:
    """Median wall time of ``repeat`` calls of ``call(*args)`` and the result of the last one."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = call(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def _pair_ours(cands: list[PairingCandidate], seed: int, rnd: int) -> PairingResult:
    return pair_round(cands, rng=random.Random(seed), round_number=rnd)


def _run_size(n: int, seed: int, repeat: int = 1) -> dict[str, object]:
    rng = random.Random(seed * 100_003 + n)
    scoring = Scoring()
    entries = list(range(1, n + 1))
    matches: list[MatchRecord] = []
    opponents: dict[int, set[int]] = {e: set() for e in entries}
    byes: dict[int, int] = dict.fromkeys(entries, 0)
    rounds = int(math.log2(n)) + 1
    ours: list[float] = []
    theirs: list[float] = []
    stats = Counter()
    tracemalloc_peak = 0
    for rnd in range(1, rounds + 1):
        rows = compute_standings(entries, matches, scoring=scoring, tiebreakers=HKK_TIEBREAKERS)
        cands = [
            PairingCandidate(
                r.entry, r.match_points, frozenset(opponents[r.entry]), byes[r.entry], i
            )
            for i, r in enumerate(rows, start=1)
        ]
        seed_round = rng.randrange(2**32)
        seconds, result = _timed(repeat, _pair_ours, cands, seed_round, rnd)
        ours.append(seconds)
        if rnd == rounds:
            tracemalloc.start()
            pair_round(cands, rng=random.Random(seed_round), round_number=rnd)
            tracemalloc_peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        if rnd > 1:
            stats["lower_bound"] += _lower_bound([c.match_points for c in cands])
        stats["ours_pair_downs"] += result.pair_downs
        stats["ours_relaxations"] += len(result.relaxations)

        # swisspair on the same history
        players = [
            Player(
                id=str(c.id),
                points=c.match_points,
                rank=c.rank,
                can_get_bye=c.byes == 0,
                cannot_be_paired_against_ids={str(o) for o in c.opponents},
            )
            for c in cands
        ]
        points = {c.id: c.match_points for c in cands}
        try:
            seconds, sp = _timed(repeat, create_matches, players)
        except RuntimeError:
            stats["sp_dead_ends"] += 1
            seconds, sp = 0.0, []
        theirs.append(seconds)
        for m in sp:
            if m.p2 is None:
                stats["sp_repeat_byes"] += byes[int(m.p1.id)] > 0
                continue
            a, b = int(m.p1.id), int(m.p2.id)
            stats["sp_rematches"] += b in opponents[a]
            if rnd > 1:
                stats["sp_pair_downs"] += points[a] != points[b]

        for p in result.pairings:
            if p.b is None:
                stats["ours_repeat_byes"] += byes[p.a] > 0
                byes[p.a] += 1
                matches.append(MatchRecord(rnd, p.a, None))
                continue
            stats["ours_rematches"] += p.b in opponents[p.a]
            opponents[p.a].add(p.b)
            opponents[p.b].add(p.a)
            matches.append(_play(rnd, p.a, p.b, rng))
    return {
        "n": n,
        "rounds": rounds,
        "ours_median": statistics.median(ours),
        "ours_worst": max(ours),
        "sp_median": statistics.median(theirs),
        "sp_worst": max(theirs),
        "tracemalloc_peak": tracemalloc_peak,
        "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        **stats,
    }


def main(argv: list[str] | None = None) -> None:
    """Parse the options, run every size and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="64,256,1024,4096")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="timings per round (median kept)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    header = (
        f"{'N':>5} {'rnd':>3} | {'ours med':>9} {'ours max':>9} | {'sp med':>8} {'sp max':>8} |"
        f" {'ratio':>6} | {'rematch':>7} {'2nd bye':>7} | {'pd ours':>7} {'pd sp':>6} {'LB':>5} |"
        f" {'sp dead':>7} | {'trace KB':>8} {'RSS MB':>6}"
    )
    print(header)
    print("-" * len(header))
    for n in sizes:
        r = _run_size(n, args.seed, args.repeat)
        ratio = r["ours_median"] / r["sp_median"] if r["sp_median"] else float("inf")
        print(
            f"{r['n']:>5} {r['rounds']:>3} | {r['ours_median']:>9.4f} {r['ours_worst']:>9.4f} |"
            f" {r['sp_median']:>8.4f} {r['sp_worst']:>8.4f} | {ratio:>6.1f} |"
            f" {r.get('ours_rematches', 0)}/{r.get('sp_rematches', 0):<5}"
            f" {r.get('ours_repeat_byes', 0)}/{r.get('sp_repeat_byes', 0):<5} |"
            f" {r.get('ours_pair_downs', 0):>7} {r.get('sp_pair_downs', 0):>6}"
            f" {r.get('lower_bound', 0):>5} | {r.get('sp_dead_ends', 0):>7} |"
            f" {r['tracemalloc_peak'] / 1024:>8.0f} {r['maxrss_kb'] / 1024:>6.0f}"
        )
    print(
        "times in seconds per round; rematch and 2nd bye as ours/swisspair; pd = pair-downs over"
        " rounds 2+; LB = lower bound (odd score groups // 2); sp dead = swisspair RuntimeErrors"
    )


if __name__ == "__main__":
    main()
