"""Benchmark: a big event built through the services, on PostgreSQL.

Usage::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hkk_bench \\
        .venv/bin/python bench/event.py [--entries 4096] [--rounds 13] [--seed 1] [--rate 200]
        [--workers 4] [--sample 64]

The database is migrated, then one event is built through the services exactly as an organiser
and the judges would: ``entries`` players register (the first ``--lists`` submit a legal HKK
list, the others get the organiser's override), the event starts, and every round is paired
(``round_pair_next``), published, all its matches recorded and the round finished.

Results are recorded by ``--workers`` worker processes (``bench/recording.py``), each with its
own database connection, like Gunicorn workers (threads of one process would share the GIL),
through two paths:

* the slip path: ``match_result_record``, one call per match (one result), e.g. ``"2-1-0"``;
* the per-game judge path: ``match_set_die_roll``, then before each game ``match_next_right``
  and one ``game_record``.

Every round but the last: the first ``--sample`` matches go through the per-game path (then
their games are removed again), then the whole round, every match, through the slip path.
Last round: half of its matches through the slip path at ``--rate`` slip results per second,
the other half through the per-game path at ``--rate`` game results per second, open loop.
Standings recomputes are queued as in production; the benchmark stands in for the Celery
worker: it counts the queued recomputes and runs each one (``standings_refresh``) after each
recording phase.

Printed (seconds, wall clock):

1. Pairing the next round (load, legal-list check, pair, write): min / median / max over the
   rounds and the SQL queries of one call (min / max: it must not grow with the field).
2. Recording results, each figure naming its path, with SQL queries per match (``BEGIN`` and
   ``COMMIT`` and the standings claim after the commit included): the slip path, seconds for a
   whole round; the per-game path, matches per second on the sample (and the whole round at
   that rate); the last round's open loop per path: rate asked and done, p50 / p99 / max
   latency of one ``match_result_record`` / ``game_record`` call (from its due time when a
   worker falls behind) and the recomputes each burst queued.
3. Standings: ``standings_compute`` (service, from the database), ``standings_refresh``
   (compute and store the snapshot), and the standings API through Django's test client
   (first read of a version, a later read, a conditional GET answered 304).

After the event starts and after each round the event's tables are analysed (``ANALYZE``, as
PostgreSQL's autovacuum does on a production server), outside every timed step.

The event is left in the database (its id is printed) for ``bench/load.py``.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hkk_tournament.settings")

import django

django.setup()

import recording  # noqa: E402  (bench/recording.py, beside this script)
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from decks.models import Card, Format  # noqa: E402
from decks.selectors.cache import clear_caches  # noqa: E402
from decks.selectors.cards import cards_for_game  # noqa: E402
from tournaments import services  # noqa: E402
from tournaments.management.commands.simulate_tournament import build_legal_deck  # noqa: E402
from tournaments.models import Entry, Game, Match, Round, RoundSeat, Tournament  # noqa: E402
from tournaments.permissions import SYSTEM  # noqa: E402


def _register(tournament: Tournament, count: int, lists: int, rng: random.Random) -> None:
    """``count`` players; the first ``lists`` submit a legal list, the others are let through
    by the organiser's override (``entry_override_deck``; validating 4,096 lists takes long)."""
    cards = cards_for_game(tournament.format.game.slug)
    width = len(str(count))
    for i in range(1, count + 1):
        entry = services.entry_register_player(
            tournament=tournament, player_name=f"Player {i:0{width}d}"
        )
        if i > lists:
            services.entry_override_deck(actor=SYSTEM, entry=entry, reason="benchmark")
            continue
        member = entry.members.select_related("player").get()
        text, _rule_card = build_legal_deck(format_slug="hkk", rng=rng, rule_card=None, cards=cards)
        services.deck_submit(
            actor=SYSTEM, tournament=tournament, entry=entry, player=member.player, text=text
        )
        if i % 512 == 0:
            print(f"  registered {i}/{count}", flush=True)


def _phase(
    recorders: recording.Recorders,
    path: str,
    matches: list[Match],
    rng: random.Random,
    rate: float = math.inf,
) -> recording.Phase:
    """Record ``matches`` through ``path`` from the worker processes, then run the standings
    recomputes they queued (as the Celery worker would, a couple of seconds later)."""
    phase = recorders.record(path, matches, rng=rng, rate=rate)
    recording.QUEUED.extend(phase.queued)
    recording.run_recomputes()
    return phase


def _round_line(phase: recording.Phase, burst: bool) -> str:
    what = "slips" if phase.path == "slip" else "per-game"
    line = (
        f"{what} {phase.matches} matches in {phase.seconds:.1f} s "
        f"({phase.queries_per_match:.1f} queries/match"
    )
    if burst:
        line += f", p99 {phase.percentile(0.99):.0f} ms"
    return line + f", recomputes queued {len(phase.queued)})"


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else math.nan


def _print_recording(
    args: argparse.Namespace,
    slips: list[recording.Phase],
    samples: list[recording.Phase],
    bursts: list[recording.Phase],
) -> None:
    """Figures 2: both recording paths, each named, and the last round's open loop."""
    size = args.entries // 2
    print(f"2. record results from {args.workers} worker processes (one connection each):")
    full = [p.seconds for p in slips]
    print(
        f"   slip path (match_result_record, one call per match): a whole round of "
        f"{size} matches median {_median(full):.1f} s, max {max(full, default=math.nan):.1f} s; "
        f"{_median([p.queries_per_match for p in slips]):.1f} queries/match"
    )
    per_s = _median([p.matches / p.seconds for p in samples if p.seconds])
    print(
        f"   per-game judge path (match_set_die_roll, match_next_right + game_record per game), "
        f"{args.sample} matches per round: median {per_s:.1f} matches/s (a whole round at that "
        f"rate: {size / per_s:.1f} s); "
        f"{_median([p.queries_per_match for p in samples]):.1f} queries/match"
    )
    for p in bursts:
        unit = p.path
        call = "match_result_record" if unit == "slip" else "game_record"
        print(
            f"   open loop, last round, {unit} path: {args.rate:.0f} {unit} results/s asked, "
            f"{p.rate:.0f}/s done ({len(p.latencies)} results): {call} p50 "
            f"{p.percentile(0.5):.1f} ms, p99 {p.percentile(0.99):.1f} ms, max "
            f"{p.percentile(1.0):.1f} ms; standings recomputes queued: {len(p.queued)}"
        )


def _analyze() -> None:
    """Refresh PostgreSQL's planner statistics of the event's tables, as autovacuum does on a
    production server (it may be off on a benchmark machine: then every plan is a guess)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in (Entry, Round, Match, Game, RoundSeat):
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def _timed(fn: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    out = fn()
    return time.perf_counter() - started, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=13)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lists", type=int, default=256, help="entries with a submitted list")
    parser.add_argument(
        "--rate", type=float, default=200.0, help="slip or game results/s, last round"
    )
    parser.add_argument("--workers", type=int, default=4, help="recording processes")
    parser.add_argument(
        "--sample", type=int, default=64, help="matches per round through the per-game path"
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        print("warning: DATABASE_URL is not PostgreSQL; the figures are not comparable")
    settings.DEBUG = False
    call_command("migrate", verbosity=0)
    fmt = Format.objects.select_related("game").get(slug="hkk")
    if not Card.objects.filter(game=fmt.game).exists():
        call_command("load_catalogue", verbosity=0)
    clear_caches()
    recording.stand_in_worker()
    rng = random.Random(args.seed)

    t0 = time.perf_counter()
    tournament = services.tournament_create(
        owner=None,
        name=f"Benchmark {args.entries}",
        format_slug="hkk",
        kind=Tournament.Kind.INDIVIDUAL,
        settings=services.TournamentSettings(planned_rounds=args.rounds),
    )
    services.tournament_set_options(actor=SYSTEM, tournament=tournament, is_public=True)
    services.tournament_open_registration(actor=SYSTEM, tournament=tournament)
    _register(tournament, args.entries, args.lists, rng)
    tournament = services.tournament_start(actor=SYSTEM, tournament=tournament)
    _analyze()
    print(
        f"event {tournament.pk}: {args.entries} entries built in {time.perf_counter() - t0:.0f} s"
    )

    pair_s: list[float] = []
    pair_q: list[int] = []
    slips: list[recording.Phase] = []
    samples: list[recording.Phase] = []
    bursts: list[recording.Phase] = []
    with recording.Recorders(args.workers) as recorders:
        for number in range(1, args.rounds + 1):
            with CaptureQueriesContext(connection) as ctx:
                seconds, rnd = _timed(
                    lambda: services.round_pair_next(
                        actor=SYSTEM, tournament=tournament, seed=rng.getrandbits(32)
                    )
                )
            pair_s.append(seconds)
            pair_q.append(len(ctx.captured_queries))
            rnd = services.round_publish(actor=SYSTEM, round=rnd)
            matches = list(
                Match.objects.filter(round=rnd, entry_b__isnull=False)
                .select_related("round__tournament")
                .order_by("table")
            )
            if number == args.rounds:
                half = len(matches) // 2
                phases = [
                    _phase(recorders, "slip", matches[:half], rng, rate=args.rate),
                    _phase(recorders, "game", matches[half:], rng, rate=args.rate),
                ]
                bursts.extend(phases)
            else:
                sample = matches[: args.sample]
                phases = [_phase(recorders, "game", sample, rng)]
                recording.undo(sample)
                phases.append(_phase(recorders, "slip", matches, rng))
                samples.append(phases[0])
                slips.append(phases[1])
            services.round_finish(actor=SYSTEM, round=rnd)
            recording.run_recomputes()
            _analyze()
            print(
                f"round {number:2d}: pair {pair_s[-1]:6.2f} s ({pair_q[-1]} queries); "
                + "; ".join(_round_line(p, number == args.rounds) for p in phases),
                flush=True,
            )

    compute_s, _rows = _timed(lambda: services.standings_compute(tournament=tournament))
    refresh_s, _snap = _timed(lambda: services.standings_refresh(tournament_id=tournament.pk))
    client = Client()
    url = f"/api/tournaments/{tournament.pk}/standings/"
    first_s, first = _timed(lambda: client.get(url))
    again_s, _again = _timed(lambda: client.get(url))
    cond_s, cond = _timed(lambda: client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]))

    print()
    print(f"figures for {args.entries} entries x {args.rounds} rounds ({connection.vendor})")
    median_pair = statistics.median(pair_s)
    print(
        f"1. pair next round: min {min(pair_s):.2f} / median {median_pair:.2f} / "
        f"max {max(pair_s):.2f} s; queries {min(pair_q)}..{max(pair_q)}"
    )
    _print_recording(args, slips, samples, bursts)
    print(
        f"3. standings: compute {compute_s:.2f} s, refresh (compute + store) {refresh_s:.2f} s; "
        f"API {first.status_code} first {first_s * 1000:.0f} ms, again {again_s * 1000:.0f} ms, "
        f"conditional {cond.status_code} {cond_s * 1000:.0f} ms"
    )
    print(f"event id for bench/load.py: {tournament.pk}")
    assert Round.objects.filter(tournament=tournament).count() == args.rounds


if __name__ == "__main__":
    main()
