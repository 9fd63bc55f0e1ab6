"""Benchmark: a circuit's season standings and OpenSkill ratings (pure domain, no database).

Usage::

    .venv/bin/python bench/circuits.py [--events 200] [--field 64] [--people 1000] [--seed N]

Builds ``--events`` events of ``--field`` players drawn from ``--people`` (tiers ×1 or ×2),
scores the season with the HKK preset's HSZ rules (best 10) and rates every match of a
``--field``-player Swiss event of 6 rounds per event. Prints seconds for each; a real HKK
season (about 100 events of 20 players) is far smaller.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.domain.circuits import EventResult, hkk_preset, season_standings
from tournaments.domain.ratings import RatedMatch, rate_matches


def main() -> None:
    """Parse the options, run both measurements, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--field", type=int, default=64)
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    people = [f"n:player {i}" for i in range(args.people)]
    results = []
    matches = []
    for event in range(args.events):
        field = rng.sample(people, args.field)
        tier = Fraction(rng.choice([1, 2]))
        for place, person in enumerate(field, start=1):
            results.append(EventResult(event, person, place, args.field, tier, (event,)))
        for _round in range(6):
            order = rng.sample(field, len(field))
            for a, b in zip(order[::2], order[1::2], strict=False):
                matches.append(RatedMatch([a], [b], rng.choice([0, 1, 2]), rng.choice([0, 1, 2])))
    rules = hkk_preset().circuits[0].rules
    start = time.perf_counter()
    rows = season_standings(rules, results)
    season_s = time.perf_counter() - start
    start = time.perf_counter()
    ratings = rate_matches(matches)
    rating_s = time.perf_counter() - start
    print(f"season standings: {len(results)} results, {len(rows)} persons: {season_s:.2f} s")
    print(f"ratings: {len(matches)} matches, {len(ratings)} persons: {rating_s:.2f} s")


if __name__ == "__main__":
    main()
