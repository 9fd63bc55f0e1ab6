"""Benchmark: previewing and saving a player-list import into a big event, and what a check-in
at the desk waits meanwhile, on PostgreSQL.

Usage::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hkk_bench \\
        .venv/bin/python bench/import_preview.py [--entries 4000] [--rows 100 500]
        [--lists 0.1] [--seed 1] [--save]

The database is migrated, then one event is built through the services as an organiser would:
``--entries`` players register one by one (``entry_register_player``). The lists imported are
hostile for the duplicate check: a tenth of the rows repeat a registered name with other
capitals and without accents (a "same name" warning each), a few repeat an earlier row's name or
e-mail, half carry an e-mail, and the fraction ``--lists`` carries a legal HKK deck list (the
HKK catalogue is loaded when missing).

For each ``--rows`` count the preview (``entries_import`` with ``dry_run``) runs while a second
process (its own database connection, as another Gunicorn worker) checks entries of the same
event in and out (``entry_check_in``) every 20 ms. With ``--save`` the last list is then saved
(``dry_run`` off) the same way. Printed per step: its wall-clock seconds, the number of
check-ins done meanwhile and their median and longest duration (seconds; a check-in queued
behind the event's row lock shows as a long one). Target: 500 rows into a 4,000-entry event
previewed in under 2 s; no check-in waits longer than 1 s.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import statistics
import sys
import time
import unicodedata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hkk_tournament.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, connections  # noqa: E402

from decks.models import Card, Format  # noqa: E402
from decks.selectors.cache import clear_caches  # noqa: E402
from decks.selectors.cards import cards_for_game  # noqa: E402
from tournaments import services  # noqa: E402
from tournaments.management.commands.simulate_tournament import build_legal_deck  # noqa: E402
from tournaments.models import Entry, Tournament  # noqa: E402
from tournaments.permissions import SYSTEM  # noqa: E402

FAMILY = ["Kovács", "Nagy", "Szabó", "Tóth", "Horváth", "Kiss", "Varga", "Molnár", "Németh"]
GIVEN = ["Péter", "Anna", "Ödön", "Zsófia", "Gábor", "Éva", "Lőrinc", "Ágnes", "Űrsula"]


def _name(i: int) -> str:
    return f"{FAMILY[i % len(FAMILY)]} {GIVEN[(i // len(FAMILY)) % len(GIVEN)]} {i}"


def _plain(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).upper()


def _build(entries: int) -> Tournament:
    tournament = services.tournament_create(
        owner=None,
        name=f"Import benchmark {entries}",
        format_slug="hkk",
        kind=Tournament.Kind.INDIVIDUAL,
    )
    services.tournament_open_registration(actor=SYSTEM, tournament=tournament)
    for i in range(entries):
        services.entry_register_player(
            tournament=tournament, player_name=_name(i), email=f"p{i}@example.com"
        )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return tournament


def _csv(rows: int, entries: int, lists: float, rng: random.Random, deck: str) -> str:
    lines = ["név;e-mail;pakli"]
    for i in range(rows):
        if i % 10 == 0:
            name = _plain(_name(rng.randrange(entries)))  # already registered, other spelling
        elif i % 25 == 1 and i > 1:
            name = _name(entries + i - 1)  # same as the previous row
        else:
            name = _name(entries + i)
        email = f"new{i // 2 if i % 40 == 3 else i}@example.com" if i % 2 else ""
        cell = f'"{deck}"' if rng.random() < lists else ""
        lines.append(f"{name};{email};{cell}")
    return "\n".join(lines) + "\n"


def _checker(tournament_id: int, stop: Any, out: Any) -> None:
    """Child process: check entries in and out every 20 ms until ``stop`` is set."""
    connections.close_all()
    ids = list(Entry.objects.filter(tournament_id=tournament_id).values_list("pk", flat=True))
    rng = random.Random(7)
    took: list[float] = []
    while not stop.is_set():
        entry = Entry(pk=rng.choice(ids), tournament_id=tournament_id)
        t0 = time.perf_counter()
        services.entry_check_in(actor=SYSTEM, entry=entry, checked_in=rng.random() < 0.5)
        took.append(time.perf_counter() - t0)
        time.sleep(0.02)
    out.send(took)


def _measured(tournament: Tournament, text: str, dry_run: bool) -> tuple[float, Any, list[float]]:
    stop = mp.Event()
    here, there = mp.Pipe()
    connections.close_all()
    child = mp.get_context("fork").Process(target=_checker, args=(tournament.pk, stop, there))
    child.start()
    time.sleep(0.5)  # the checker is connected and checking in
    t0 = time.perf_counter()
    result = services.entries_import(
        actor=SYSTEM, tournament=tournament, text=text, dry_run=dry_run
    )
    seconds = time.perf_counter() - t0
    time.sleep(0.2)
    stop.set()
    took = here.recv()
    child.join()
    return seconds, result, took


def _line(label: str, seconds: float, result: Any, took: list[float]) -> str:
    warned = sum(1 for r in result.rows if r.warnings)
    failed = sum(1 for r in result.rows if r.errors)
    wait = (
        f"{len(took)} check-ins meanwhile, median {statistics.median(took):.3f} s, "
        f"longest {max(took):.3f} s"
        if took
        else "no check-in finished meanwhile"
    )
    return (
        f"{label}: {seconds:.2f} s ({len(result.rows)} rows, {warned} with warnings, "
        f"{failed} with errors, saved={result.saved}); {wait}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=4000)
    parser.add_argument("--rows", type=int, nargs="+", default=[100, 500])
    parser.add_argument("--lists", type=float, default=0.1, help="share of rows with a list")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", action="store_true", help="also save the last list")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        print("warning: DATABASE_URL is not PostgreSQL; the figures are not comparable")
    settings.DEBUG = False
    call_command("migrate", verbosity=0)
    fmt = Format.objects.select_related("game").get(slug="hkk")
    if args.lists and not Card.objects.filter(game=fmt.game).exists():
        call_command("load_catalogue", verbosity=0)
    clear_caches()
    rng = random.Random(args.seed)
    deck = ""
    if args.lists:
        cards = cards_for_game(fmt.game.slug)
        deck, _rule_card = build_legal_deck(format_slug="hkk", rng=rng, rule_card=None, cards=cards)
        deck = deck.replace('"', "'")
    t0 = time.perf_counter()
    tournament = _build(args.entries)
    print(
        f"event {tournament.pk}: {args.entries} entries built in {time.perf_counter() - t0:.0f} s"
    )
    text = ""
    for rows in args.rows:
        text = _csv(rows, args.entries, args.lists, rng, deck)
        seconds, result, took = _measured(tournament, text, dry_run=True)
        print(_line(f"preview {rows} rows", seconds, result, took))
    if args.save:
        seconds, result, took = _measured(tournament, text, dry_run=False)
        print(_line(f"save {args.rows[-1]} rows", seconds, result, took))


if __name__ == "__main__":
    main()
