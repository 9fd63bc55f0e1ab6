"""Benchmark: a big event built through the services, on PostgreSQL.

Usage::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hkk_bench \\
        .venv/bin/python bench/event.py [--entries 4096] [--rounds 13] [--seed 1] [--rate 200]

The database is migrated, then one event is built through the services exactly as an organiser
and the judges would: ``entries`` players register (the first ``--lists`` submit a legal HKK
list, the others get the organiser's override), the event starts, and every round is paired
(``round_pair_next``), published, all its matches played (``match_set_die_roll`` and one
``game_record`` per game) and finished. Standings recomputes are
queued as in production; the benchmark stands in for the Celery worker: it counts the queued
recomputes and runs each one (``standings_refresh``) after the round's results.

Printed (seconds, wall clock):

1. Pairing the next round (load, legal-list check, pair, write): min / median / max over the
   rounds and the SQL queries of one call (min / max: it must not grow with the field).
2. Recording results: per round the seconds for all its matches, recorded by 8 threads (8
   judges at once, each its own connection), and the SQL queries per match of the whole
   judge's sequence (die roll, next-right look-ups, games; measured on 16 matches); for the
   last round, ``--rate`` game results per second sent open-loop from 8 threads
   (each its own connection): p50 / p99 / max latency of one ``game_record`` call, and the
   recomputes the burst queued.
3. Standings: ``standings_compute`` (service, from the database), ``standings_refresh``
   (compute and store the snapshot), and the standings API through Django's test client
   (first read of a version, a later read, a conditional GET answered 304).

The event is left in the database (its id is printed) for ``bench/load.py``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hkk_tournament.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, connections  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from decks.models import Card, Format  # noqa: E402
from decks.selectors.cache import clear_caches  # noqa: E402
from decks.selectors.cards import cards_for_game  # noqa: E402
from hkk_tournament.celery import app  # noqa: E402
from tournaments import services  # noqa: E402
from tournaments.management.commands.simulate_tournament import build_legal_deck  # noqa: E402
from tournaments.models import Match, Round, Tournament  # noqa: E402
from tournaments.services import jobs  # noqa: E402

#: Standings recomputes queued (tournament ids), run by :func:`_run_recomputes`.
QUEUED: list[int] = []


def _stand_in_worker() -> None:
    """Queue standings recomputes instead of running them in the request (no broker here)."""
    task = app.tasks[jobs.STANDINGS_RECOMPUTE]

    def queue(*args: Any, kwargs: dict[str, Any] | None = None, **options: Any) -> None:
        assert kwargs is not None
        QUEUED.append(kwargs["tournament_id"])

    setattr(task, "apply_async", queue)  # noqa: B010 (replaces the bound method)


def _run_recomputes() -> int:
    """Run the queued recomputes as the worker would; the number run."""
    done = 0
    while QUEUED:
        services.standings_refresh(tournament_id=QUEUED.pop(0))
        done += 1
    return done


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
            services.entry_override_deck(entry=entry, reason="benchmark")
            continue
        member = entry.members.select_related("player").get()
        text, _rule_card = build_legal_deck(format_slug="hkk", rng=rng, rule_card=None, cards=cards)
        services.deck_submit(tournament=tournament, entry=entry, player=member.player, text=text)
        if i % 512 == 0:
            print(f"  registered {i}/{count}", flush=True)


def _play(match: Match, rng: random.Random, latencies: list[float] | None = None) -> int:
    """Die roll and games of one match through the services; the number of calls."""
    a, b = match.entry_a_id, match.entry_b_id
    assert b is not None, "a bye has no games"
    services.match_set_die_roll(match=match, winner_entry=rng.choice((a, b)))
    calls = 1
    number = 0
    while True:
        nxt = services.match_next_right(match=match)
        if nxt.decision is None:
            return calls
        number += 1
        holder = nxt.holder if nxt.holder is not None else a
        waived = rng.random() < 0.15
        first = (b if holder == a else a) if waived else holder
        x = rng.random()
        winner = a if x < 0.47 else b if x < 0.94 else None
        started = time.perf_counter()
        services.game_record(
            match=match, number=number, winner_entry=winner, first_entry=first, waived=waived
        )
        if latencies is not None:
            latencies.append(time.perf_counter() - started)
        calls += 1


def _play_open_loop(matches: list[Match], rate: float, rng: random.Random) -> dict[str, Any]:
    """Record the matches at ``rate`` game results per second (open loop: a send time per
    match, never waiting for earlier calls) from 8 threads; latencies of ``game_record``."""
    latencies: list[float] = []
    lock = threading.Lock()
    seeds = [rng.getrandbits(32) for _ in matches]
    start = time.perf_counter() + 0.2
    # about 2.5 game results per match: space the matches so that games arrive at ``rate``
    # (``inf``: closed loop, as fast as 8 judges can go).
    interval = 2.5 / rate
    slots = iter(range(len(matches)))

    def worker() -> None:
        own: list[float] = []
        try:
            while True:
                with lock:
                    i = next(slots, None)
                if i is None:
                    break
                due = start + i * interval
                delay = due - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                _play(matches[i], random.Random(seeds[i]), own)
        finally:
            with lock:
                latencies.extend(own)
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(8)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    latencies.sort()
    return {
        "results": len(latencies),
        "seconds": elapsed,
        "rate": len(latencies) / elapsed,
        "p50": latencies[len(latencies) // 2],
        "p99": latencies[int(len(latencies) * 0.99)],
        "max": latencies[-1],
    }


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
    parser.add_argument("--rate", type=float, default=200.0, help="game results/s, last round")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        print("warning: DATABASE_URL is not PostgreSQL; the figures are not comparable")
    settings.DEBUG = False
    call_command("migrate", verbosity=0)
    fmt = Format.objects.select_related("game").get(slug="hkk")
    if not Card.objects.filter(game=fmt.game).exists():
        call_command("load_catalogue", verbosity=0)
    clear_caches()
    _stand_in_worker()
    rng = random.Random(args.seed)

    t0 = time.perf_counter()
    tournament = services.tournament_create(
        owner=None,
        name=f"Benchmark {args.entries}",
        format_slug="hkk",
        kind=Tournament.Kind.INDIVIDUAL,
        planned_rounds=args.rounds,
    )
    services.tournament_set_options(tournament=tournament, is_public=True)
    services.tournament_open_registration(tournament=tournament)
    _register(tournament, args.entries, args.lists, rng)
    tournament = services.tournament_start(tournament=tournament)
    print(
        f"event {tournament.pk}: {args.entries} entries built in {time.perf_counter() - t0:.0f} s"
    )

    pair_s: list[float] = []
    pair_q: list[int] = []
    record_s: list[float] = []
    per_match_q: list[float] = []
    burst: dict[str, Any] = {}
    for number in range(1, args.rounds + 1):
        with CaptureQueriesContext(connection) as ctx:
            seconds, rnd = _timed(
                lambda: services.round_pair_next(tournament=tournament, seed=rng.getrandbits(32))
            )
        pair_s.append(seconds)
        pair_q.append(len(ctx.captured_queries))
        rnd = services.round_publish(round=rnd)
        matches = list(
            Match.objects.filter(round=rnd, entry_b__isnull=False)
            .select_related("round__tournament")
            .order_by("table")
        )
        QUEUED.clear()
        if number == args.rounds:
            burst = _play_open_loop(matches, args.rate, rng)
            burst["queued"] = len(QUEUED)
            seconds = burst["seconds"]
            queries = float("nan")
        else:
            sample = matches[:16]
            with CaptureQueriesContext(connection) as ctx:
                seconds, _calls = _timed(lambda s=sample: [_play(m, rng) for m in s])
            queries = len(ctx.captured_queries) / len(sample)
            rest = _play_open_loop(matches[16:], float("inf"), rng)
            seconds += rest["seconds"]
        record_s.append(seconds)
        per_match_q.append(queries)
        queued = len(QUEUED)
        _run_recomputes()
        services.round_finish(round=rnd)
        _run_recomputes()
        print(
            f"round {number:2d}: pair {pair_s[-1]:6.2f} s ({pair_q[-1]} queries), "
            f"{len(matches)} matches recorded in {seconds:6.1f} s "
            f"({queries:.1f} queries/match), recomputes queued: {queued}",
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
    full = [s for s, q in zip(record_s, per_match_q, strict=True) if q == q]
    print(
        "2. record a round of {} matches: median {:.1f} s, max {:.1f} s; "
        "{:.1f} queries/match".format(
            args.entries // 2,
            statistics.median(full) if full else float("nan"),
            max(full) if full else float("nan"),
            statistics.median([q for q in per_match_q if q == q]) if full else float("nan"),
        )
    )
    if burst:
        print(
            "   open loop {:.0f}/s asked, {:.0f}/s done ({} results): game_record p50 {:.1f} ms,"
            " p99 {:.1f} ms, max {:.1f} ms; standings recomputes queued: {}".format(
                args.rate,
                burst["rate"],
                burst["results"],
                burst["p50"] * 1000,
                burst["p99"] * 1000,
                burst["max"] * 1000,
                burst["queued"],
            )
        )
    print(
        f"3. standings: compute {compute_s:.2f} s, refresh (compute + store) {refresh_s:.2f} s; "
        f"API {first.status_code} first {first_s * 1000:.0f} ms, again {again_s * 1000:.0f} ms, "
        f"conditional {cond.status_code} {cond_s * 1000:.0f} ms"
    )
    print(f"event id for bench/load.py: {tournament.pk}")
    assert Round.objects.filter(tournament=tournament).count() == args.rounds


if __name__ == "__main__":
    main()
