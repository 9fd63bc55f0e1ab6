"""Benchmark: the two service paths of a big event, in cold processes, while the data changes.

Usage::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hkk_bench \\
        .venv/bin/python bench/service_paths.py [--entries 4096] [--rounds 12] [--runs 5]
        [--seed 1] [--event ID]

Builds (or, with ``--event``, reuses and plays on) one event of ``entries`` players with
``rounds`` finished rounds: the players register through the services (the organiser's override
instead of a list), every round is paired with ``round_pair_next``, published, its games
written in one bulk insert (every game of every match, one game in twenty drawn) and finished
with ``round_finish``; the standings snapshot is refreshed after each round, as the worker
would.

Then ``--runs`` times, each time in a **new Python process** (nothing cached from an earlier
run: the first call pays the imports' lazy work and an empty per-process cache, as the first
request of a freshly recycled worker does):

1. ``standings_compute`` of the event (read the results, compute every tiebreaker exactly);
2. ``round_pair_next`` of the next round (load, checks, candidates, pair, bulk insert), inside
   a transaction that is rolled back, so every run pairs the same round number. It reads the
   stored standings when they are current (``services.standings_current_ranks``; each run says
   whether they were), as they are at the venue once the worker has recomputed them.

Between two runs the data changes as at the venue: the results of ``--changes`` random matches
of the last round are corrected (their game winners flipped, their matches' result versions
bumped as the result services do) and the snapshot is refreshed, so no run sees the standings
of the one before.

Printed per run and as the median: wall seconds and CPU seconds of the measuring process
(``time.process_time``: Python's share; the database's work is in the wall time only). On a
loaded machine read the CPU figures first.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hkk_tournament.settings")


def _setup() -> None:
    import django

    django.setup()
    from django.conf import settings

    settings.DEBUG = False


def _games(match: Any, per_match: int, rng: random.Random) -> list[Any]:
    """Random games of one non-bye match, all ``per_match`` of them (a complete match whether
    or not the format stops at a majority): each won by A or B, one in twenty drawn."""
    from tournaments.models import Game

    a, b = match.entry_a_id, match.entry_b_id
    games = []
    for number in range(1, per_match + 1):
        roll = rng.random()
        winner = None if roll < 0.05 else a if roll < 0.525 else b
        games.append(
            Game(
                match_id=match.pk,
                number=number,
                right_holder_id=a,
                first_id=a,
                winner_id=winner,
                is_draw=winner is None,
                details_reported=False,
            )
        )
    return games


def _build(entries: int, seed: int) -> int:
    """A new event (its id): ``entries`` players registered, the event started."""
    from django.core.management import call_command

    from decks.models import Card, Format
    from tournaments import services
    from tournaments.models import Tournament
    from tournaments.permissions import SYSTEM

    call_command("migrate", verbosity=0)
    fmt = Format.objects.select_related("game").get(slug="hkk")
    if not Card.objects.filter(game=fmt.game).exists():
        call_command("load_catalogue", verbosity=0)
    started = time.perf_counter()
    tournament = services.tournament_create(
        owner=None,
        name=f"Service paths {entries}",
        format_slug="hkk",
        kind=Tournament.Kind.INDIVIDUAL,
    )
    services.tournament_set_options(actor=SYSTEM, tournament=tournament, is_public=True)
    services.tournament_open_registration(actor=SYSTEM, tournament=tournament)
    width = len(str(entries))
    for i in range(1, entries + 1):
        entry = services.entry_register_player(
            tournament=tournament, player_name=f"Játékos {i:0{width}d}"
        )
        services.entry_override_deck(actor=SYSTEM, entry=entry, reason="benchmark")
    tournament = services.tournament_start(actor=SYSTEM, tournament=tournament)
    print(f"registered {entries} entries in {time.perf_counter() - started:.0f} s", flush=True)
    return int(tournament.pk)


def _play(event: int, rounds: int, seed: int) -> None:
    """Play the event on until ``rounds`` rounds are finished: pair, publish, write every
    match's games in one bulk insert, finish, refresh the standings snapshot."""
    from tournaments import services
    from tournaments.models import Game, Match, Round, Tournament
    from tournaments.permissions import SYSTEM

    rng = random.Random(seed)
    tournament = Tournament.objects.get(pk=event)
    started = time.perf_counter()
    while tournament.rounds.filter(status=Round.Status.FINISHED).count() < rounds:
        rnd = tournament.rounds.order_by("-number").first()
        if rnd is None or rnd.status == Round.Status.FINISHED:
            rnd = services.round_pair_next(
                actor=SYSTEM, tournament=tournament, seed=rng.getrandbits(32)
            )
        if rnd.status == Round.Status.DRAFT:
            rnd = services.round_publish(actor=SYSTEM, round=rnd)
        Game.objects.filter(match__round=rnd).delete()  # a run stopped half-way: write anew
        matches = Match.objects.filter(round=rnd, entry_b__isnull=False)
        per_match = tournament.structure.games_per_match
        Game.objects.bulk_create(
            [g for m in matches.order_by("table") for g in _games(m, per_match, rng)],
            batch_size=2048,
        )
        services.round_finish(actor=SYSTEM, round=rnd)
        services.standings_refresh(tournament_id=event)
        print(f"  round {rnd.number} played", flush=True)
    _analyze()
    print(f"played {rounds} rounds in {time.perf_counter() - started:.0f} s", flush=True)


def _analyze() -> None:
    """Planner statistics, as autovacuum keeps them on a production server."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _change(event: int, changes: int, rng: random.Random) -> None:
    """Correct ``changes`` random results of the event's last round (flip the winners of
    their games) and refresh the standings snapshot, as a judge's corrections would."""
    from django.db import transaction
    from django.db.models import Case, F, Value, When

    from tournaments import services
    from tournaments.models import Game, Match, Round

    last = Round.objects.filter(tournament_id=event).order_by("-number").first()
    assert last is not None
    matches = list(
        Match.objects.filter(round=last, entry_b__isnull=False).values_list(
            "pk", "entry_a_id", "entry_b_id"
        )
    )
    chosen = rng.sample(matches, min(changes, len(matches)))
    with transaction.atomic():
        for pk, a, b in chosen:
            Game.objects.filter(match_id=pk, is_draw=False).update(
                winner_id=Case(When(winner_id=a, then=Value(b)), default=Value(a)),
                version=F("version") + 1,
            )
        # What the result services do in the same transaction: the snapshot is stale now.
        Match.objects.filter(pk__in=[pk for pk, _a, _b in chosen]).update(
            result_version=F("result_version") + 1
        )
    services.standings_refresh(tournament_id=event)


def _measure(event: int) -> dict[str, float]:
    """One cold run (this process is new): wall and CPU seconds of both service paths."""
    _setup()
    from django.db import transaction

    from tournaments import services
    from tournaments.models import Round, Tournament
    from tournaments.permissions import SYSTEM

    tournament = Tournament.objects.get(pk=event)
    out: dict[str, float] = {}
    wall, cpu = time.perf_counter(), time.process_time()
    rows = services.standings_compute(tournament=tournament)
    out["standings_wall"] = time.perf_counter() - wall
    out["standings_cpu"] = time.process_time() - cpu
    out["rows"] = len(rows)
    out["snapshot_current"] = services.standings_current_ranks(tournament_id=event) is not None
    with transaction.atomic():
        wall, cpu = time.perf_counter(), time.process_time()
        rnd: Round = services.round_pair_next(actor=SYSTEM, tournament=tournament, seed=12345)
        out["pair_wall"] = time.perf_counter() - wall
        out["pair_cpu"] = time.process_time() - cpu
        out["round"] = rnd.number
        transaction.set_rollback(True)
    return out


def _cold_run(event: int, attempts: int = 60) -> dict[str, float]:
    """:func:`_measure` in a new process; retried when it fails (a shared database server may
    refuse a connection for a moment: "too many clients")."""
    for attempt in range(1, attempts + 1):
        done = subprocess.run(
            [sys.executable, __file__, "--measure", str(event)], capture_output=True, text=True
        )
        if done.returncode == 0:
            return dict(json.loads(done.stdout.strip().splitlines()[-1]))
        print(f"  measuring failed (attempt {attempt}): {done.stderr.strip().splitlines()[-1]}")
        time.sleep(10)
    raise SystemExit("measuring failed")


def _line(label: str, runs: list[dict[str, float]], key: str) -> str:
    walls = [r[f"{key}_wall"] for r in runs]
    cpus = [r[f"{key}_cpu"] for r in runs]
    return (
        f"{label}: wall median {statistics.median(walls):.3f} s (min {min(walls):.3f}, max "
        f"{max(walls):.3f}); CPU median {statistics.median(cpus):.3f} s (min {min(cpus):.3f}, "
        f"max {max(cpus):.3f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=12, help="finished rounds before timing")
    parser.add_argument("--runs", type=int, default=5, help="cold processes timed")
    parser.add_argument("--changes", type=int, default=64, help="results corrected between runs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--event", type=int, help="reuse this event (built earlier by this script)")
    parser.add_argument("--measure", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure is not None:
        print(json.dumps(_measure(args.measure)))
        return
    _setup()
    from django.db import connection

    if connection.vendor != "postgresql":
        print("warning: DATABASE_URL is not PostgreSQL; the figures are not comparable")
    event = args.event if args.event is not None else _build(args.entries, args.seed)
    _play(event, args.rounds, args.seed)
    from tournaments import services

    services.standings_refresh(tournament_id=event)  # as the worker leaves it after a round
    rng = random.Random(args.seed)
    connection.close()
    runs: list[dict[str, float]] = []
    for run in range(1, args.runs + 1):
        if run > 1:
            _change(event, args.changes, rng)
            connection.close()
        runs.append(_cold_run(event))
        r = runs[-1]
        print(
            f"run {run}: standings_compute {r['standings_wall']:.3f} s wall / "
            f"{r['standings_cpu']:.3f} s CPU ({r['rows']:.0f} rows); round_pair_next (round "
            f"{r['round']:.0f}) {r['pair_wall']:.3f} s wall / {r['pair_cpu']:.3f} s CPU "
            f"(stored standings current: {'yes' if r['snapshot_current'] else 'no'})",
            flush=True,
        )
    print(f"event {event}, {args.runs} cold processes, {args.changes} results changed between runs")
    print(_line("1. round_pair_next", runs, "pair"))
    print(_line("2. standings_compute", runs, "standings"))
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
