"""Benchmark: our Swiss pairing (tournaments.domain.swiss) against the swisspair C++ engine.

Usage::

    .venv/bin/python bench/pairing.py [--sizes 64,256,1024,4096] [--seed N]

For each size N it simulates a whole event of about log2(N) + 1 rounds with random results
(HKK scoring, ranks from ``compute_standings`` with the HKK tiebreakers). Every round is paired by
our engine (whose pairing is then played) and, on the very same history, by ``swisspair``
(``Player(id, points, rank, can_get_bye, cannot_be_paired_against_ids)``, ranks 1..n, points
non-increasing; it raises ``RuntimeError`` on dead ends, which are counted).

Printed per size: median and worst seconds per round for both engines and their ratio,
rematches and repeat byes (must be 0 for us), pair-downs (ours, swisspair's, and the lower bound
= sum over rounds of floor(odd-sized score groups / 2)), and peak memory (tracemalloc peak of one
``pair_round`` call on the last round, Python objects only; process max RSS).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import random
import resource
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from swisspair import Player, create_matches

from tournaments.domain.standings import HKK_TIEBREAKERS, compute_standings
from tournaments.domain.swiss import pair_round
from tournaments.domain.types import (
    GameRecord,
    MatchRecord,
    PairingCandidate,
    PairingResult,
    Scoring,
)


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


@dataclass
class _Event:
    """The simulated event's history (what we played) and the counters of both engines."""

    entries: list[int]
    matches: list[MatchRecord] = field(default_factory=list)
    opponents: dict[int, set[int]] = field(default_factory=dict)
    byes: dict[int, int] = field(default_factory=dict)
    stats: Counter[str] = field(default_factory=Counter)

    @classmethod
    def of_size(cls, n: int) -> _Event:
        entries = list(range(1, n + 1))
        return cls(
            entries=entries,
            opponents={e: set() for e in entries},
            byes=dict.fromkeys(entries, 0),
        )

    def candidates(self, scoring: Scoring) -> list[PairingCandidate]:
        """The entries ranked by ``compute_standings`` (HKK tiebreakers), rank 1 first."""
        rows = compute_standings(
            self.entries, self.matches, scoring=scoring, tiebreakers=HKK_TIEBREAKERS
        )
        return [
            PairingCandidate(
                r.entry, r.match_points, frozenset(self.opponents[r.entry]), self.byes[r.entry], i
            )
            for i, r in enumerate(rows, start=1)
        ]

    def play(self, result: PairingResult, rnd: int, rng: random.Random) -> None:
        """Play our pairing of round ``rnd`` (a ``pair_round`` result), counting repeats."""
        for p in result.pairings:
            if p.b is None:
                self.stats["ours_repeat_byes"] += self.byes[p.a] > 0
                self.byes[p.a] += 1
                self.matches.append(MatchRecord(rnd, p.a, None))
                continue
            self.stats["ours_rematches"] += p.b in self.opponents[p.a]
            self.opponents[p.a].add(p.b)
            self.opponents[p.b].add(p.a)
            self.matches.append(_play(rnd, p.a, p.b, rng))


def _swisspair_players(cands: list[PairingCandidate]) -> list[Player]:
    """The same candidates as ``swisspair`` players."""
    return [
        Player(
            id=str(c.id),
            points=c.match_points,
            rank=c.rank,
            can_get_bye=c.byes == 0,
            cannot_be_paired_against_ids={str(o) for o in c.opponents},
        )
        for c in cands
    ]


def _pair_ours(cands: list[PairingCandidate], seed: int, rnd: int) -> PairingResult:
    """One call of our engine with a fresh RNG from ``seed``."""
    return pair_round(cands, rng=random.Random(seed), round_number=rnd)


def _try_swisspair(players: list[Player]) -> None:
    """One ``swisspair`` call for timing; a dead end is counted elsewhere."""
    with contextlib.suppress(RuntimeError):
        create_matches(players)


def _swisspair_round(event: _Event, cands: list[PairingCandidate], rnd: int) -> float:
    """Pair the same history with ``swisspair``, count its rematches, repeat byes, pair-downs
    and dead ends in ``event.stats``; return its time in seconds (the pairing is not played)."""
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
    start = time.perf_counter()
    try:
        sp = create_matches(players)
    except RuntimeError:
        event.stats["sp_dead_ends"] += 1
        sp = []
    seconds = time.perf_counter() - start
    for m in sp:
        if m.p2 is None:
            event.stats["sp_repeat_byes"] += event.byes[int(m.p1.id)] > 0
            continue
        a, b = int(m.p1.id), int(m.p2.id)
        event.stats["sp_rematches"] += b in event.opponents[a]
        if rnd > 1:
            event.stats["sp_pair_downs"] += points[a] != points[b]
    return seconds


def _median_time(repeat: int, call: Any) -> float:
    """Median wall time in seconds of ``repeat`` calls of ``call()`` (less noise on a busy
    machine)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _run_size(n: int, seed: int, repeat: int = 3) -> dict[str, Any]:
    """Simulate one event of ``n`` entries; both engines' times (median of ``repeat`` calls) and
    counters per round."""
    rng = random.Random(seed * 100_003 + n)
    scoring = Scoring()
    event = _Event.of_size(n)
    rounds = int(math.log2(n)) + 1
    ours: list[float] = []
    theirs: list[float] = []
    tracemalloc_peak = 0
    for rnd in range(1, rounds + 1):
        cands = event.candidates(scoring)
        seed_round = rng.randrange(2**32)
        result = pair_round(cands, rng=random.Random(seed_round), round_number=rnd)
        ours.append(
            _median_time(
                repeat,
                partial(_pair_ours, cands, seed_round, rnd),
            )
        )
        if rnd == rounds:
            tracemalloc.start()
            pair_round(cands, rng=random.Random(seed_round), round_number=rnd)
            tracemalloc_peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        if rnd > 1:
            event.stats["lower_bound"] += _lower_bound([c.match_points for c in cands])
        event.stats["ours_pair_downs"] += result.pair_downs
        event.stats["ours_relaxations"] += len(result.relaxations)
        sp_first = _swisspair_round(event, cands, rnd)
        if repeat > 1:
            sp_first = _median_time(repeat, partial(_try_swisspair, _swisspair_players(cands)))
        theirs.append(sp_first)
        event.play(result, rnd, rng)
    return {
        "n": n,
        "rounds": rounds,
        "ours_median": statistics.median(ours),
        "ours_worst": max(ours),
        "sp_median": statistics.median(theirs),
        "sp_worst": max(theirs),
        "tracemalloc_peak": tracemalloc_peak,
        "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        **event.stats,
    }


def main(argv: list[str] | None = None) -> None:
    """Parse the options, run every size and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="64,256,1024,4096")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="timed calls per round (median)")
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
