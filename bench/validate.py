"""Benchmark: deck validation against the full WoW TCG catalogue, three ways, plus catalogue load.

Usage::

    .venv/bin/python bench/validate.py [--lists 2000] [--seed 7]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hkk .venv/bin/python bench/validate.py

Database: never the one you work in. With a PostgreSQL ``DATABASE_URL`` the script uses a
throwaway database named ``<name>bench`` (``--db-name`` overrides) on the same server, creating
it with psycopg if needed; without one it uses ``bench.sqlite3`` under ``HKK_VAR_DIR`` (default
``var/``). It migrates that database and times ``load_catalogue`` twice: a fresh load (all cards
deleted first) and an idempotent re-run (nothing changes). Target: fresh load < 3 s.

Lists: ``--lists`` realistic WoW Constructed lists generated from the real catalogue (seeded):
a random hero, 60-70 cards of 15-25 names that its class, faction and "Hero Required" traits
allow, 1-4 copies each; about 20 % carry mistakes (an off-class or off-faction card, a misspelt
name that triggers fuzzy suggestions, a fifth copy, or too few cards).

Measured (printed as one table):

a. pure domain: ``validate_text`` with the prebuilt ``CardIndex`` and ``FormatSpec``;
b. service: ``decks.services.validation.deck_validate`` on the configured database (format and
   index caches warm, as in a running server);
c. API: Django test ``Client`` ``POST /api/decks/validate/`` (JSON), whole middleware stack,
   ``DEBUG`` off.

For each: lists per second, p50 and p99 milliseconds per list (per request for c), and peak
Python memory during a second, traced pass (tracemalloc; the timed pass runs untraced). Targets:
a >= 1,000 lists/s; c p99 < 20 ms. Last, one pasted wall of 5,000 unknown names (every line a
fuzzy look-up): target < 2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


# --- database selection (before Django is set up) -------------------------------------------


def _choose_database(db_name: str | None) -> str:
    """Point ``DATABASE_URL`` at a throwaway benchmark database; return a label for it."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        import psycopg

        parts = urlsplit(url)
        base = parts.path.lstrip("/") or "postgres"
        name = db_name or f"{base}bench"
        if not name.replace("_", "").isalnum():
            raise SystemExit(f"unsafe database name {name!r}")
        admin = urlunsplit(parts._replace(path="/postgres"))
        with psycopg.connect(admin, autocommit=True) as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
            ).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{name}"')
        os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{name}"))
        return f"PostgreSQL database {name}"
    var_dir = Path(os.environ.get("HKK_VAR_DIR", str(ROOT / "var")))
    var_dir.mkdir(parents=True, exist_ok=True)
    path = var_dir / (f"{db_name}.sqlite3" if db_name else "bench.sqlite3")
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    return f"SQLite {path}"


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hkk_tournament.settings")
    os.environ["DJANGO_DEBUG"] = "0"  # no query log, production-like middleware
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-secret")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "ERROR")
    import django

    django.setup()


# --- list generation ------------------------------------------------------------------------


def _allowed(card, hero) -> bool:
    traits = hero.hero_traits
    if card.class_icons and not (card.class_icons & traits.get("class", frozenset())):
        return False
    if card.faction is not None and card.faction not in traits.get("faction", frozenset()):
        return False
    return all(values & traits.get(trait, frozenset()) for trait, values in card.requires.items())


def _typo(name: str, rng: random.Random) -> str:
    letters = [i for i, ch in enumerate(name) if ch.isalpha()]
    if len(letters) < 4:
        return name + "x"
    i = rng.choice(letters[1:])
    return name[:i] + name[i + 1 :]


def generate_lists(cards: Sequence, count: int, seed: int) -> list[str]:
    """``count`` deck-list texts for WoW heroes of ``cards`` (see module docstring)."""
    from decks.domain.types import CardKind

    rng = random.Random(seed)
    heroes = [c for c in cards if c.kind is CardKind.HERO and c.hero_traits.get("class")]
    playable = [c for c in cards if c.kind is not CardKind.HERO and "Raid" not in c.types]
    names_seen: dict[str, int] = {}
    for c in playable:
        names_seen[c.name] = names_seen.get(c.name, 0) + 1
    playable = [c for c in playable if names_seen[c.name] == 1]
    pool_cache: dict[str, list] = {}
    lists: list[str] = []
    while len(lists) < count:
        hero = rng.choice(heroes)
        pool = pool_cache.get(hero.id)
        if pool is None:
            pool = pool_cache[hero.id] = [c for c in playable if _allowed(c, hero)]
        if len(pool) < 30:
            continue
        target = rng.randint(60, 70)
        chosen = rng.sample(pool, rng.randint(15, 25))
        entries: list[list] = []
        total = 0
        for card in chosen:
            copies = min(rng.randint(1, 4), max(target - total, 0))
            if copies:
                entries.append([card.name, copies])
                total += copies
        for entry in entries:  # fill up to the target with more copies
            while total < target and entry[1] < 4:
                entry[1] += 1
                total += 1
        roll = rng.random()
        if roll < 0.05:  # off-class or off-faction card
            off = [c for c in playable if not _allowed(c, hero)]
            entries.append([rng.choice(off).name, 2])
        elif roll < 0.10:  # misspelt name -> unknown_card with suggestions
            entries[0][0] = _typo(entries[0][0], rng)
        elif roll < 0.15:  # a fifth copy
            entries[0][1] = 5
        elif roll < 0.20:  # too few cards
            entries = entries[: len(entries) // 2]
        lines = [f"Hero: {hero.name}", "", "Deck:"]
        lines += [f"{n} {name}" for name, n in entries]
        lists.append("\n".join(lines) + "\n")
    return lists


# --- measuring ------------------------------------------------------------------------------


def measure(label: str, fn: Callable[[str], object], lists: Sequence[str]) -> dict[str, Any]:
    """Time ``fn`` on every list (untraced), then trace one more pass for peak memory."""
    for text in lists[:20]:  # warm caches (format spec, index, suggestion choices)
        fn(text)
    times: list[float] = []
    started = time.perf_counter()
    for text in lists:
        t0 = time.perf_counter()
        fn(text)
        times.append(time.perf_counter() - t0)
    elapsed = time.perf_counter() - started
    tracemalloc.start()
    tracemalloc.reset_peak()
    base, _peak = tracemalloc.get_traced_memory()
    for text in lists:
        fn(text)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    times.sort()
    return {
        "label": label,
        "lists_per_s": len(lists) / elapsed,
        "p50_ms": statistics.median(times) * 1000,
        "p99_ms": times[min(len(times) - 1, int(len(times) * 0.99))] * 1000,
        "max_ms": times[-1] * 1000,
        "peak_mib": (peak - base) / 2**20,
    }


def _time_catalogue_load() -> float:
    """Time ``load_catalogue`` fresh (all cards deleted first) and as an unchanged re-run; print
    both and return the fresh load's seconds."""
    from django.core.management import call_command

    from decks.models import Card, CatalogueVersion, Edition

    Card.objects.all().delete()
    Edition.objects.all().delete()
    CatalogueVersion.bump()
    with open(os.devnull, "w") as devnull:
        t0 = time.perf_counter()
        call_command("load_catalogue", verbosity=0, stdout=devnull)
        fresh = time.perf_counter() - t0
        t0 = time.perf_counter()
        call_command("load_catalogue", verbosity=0, stdout=devnull)
        rerun = time.perf_counter() - t0
    print(f"load_catalogue: fresh {fresh:.2f} s (target < 3 s), unchanged re-run {rerun:.2f} s")
    return fresh


def _api_validator() -> Callable[[str], object]:
    """``POST /api/decks/validate/`` (JSON, WoW Constructed) through the Django test client;
    raises ``RuntimeError`` on any answer but 200."""
    from django.test import Client

    client = Client()

    def api(text: str) -> object:
        response = client.post(
            "/api/decks/validate/",
            data=json.dumps({"format": "wow-constructed", "text": text}),
            content_type="application/json",
            secure=True,
            HTTP_ACCEPT_LANGUAGE="en",
        )
        if response.status_code != 200:
            raise RuntimeError(f"API answered {response.status_code}: {response.content[:200]!r}")
        return response

    return api


def _print_table(rows: list[dict[str, Any]]) -> None:
    """One line per measured path (``measure`` results), then the process's max RSS."""
    print()
    print(f"{'path':<16} {'lists/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'peak MiB':>9}")
    for row in rows:
        print(
            f"{row['label']:<16} {row['lists_per_s']:>9.0f} {row['p50_ms']:>8.2f} "
            f"{row['p99_ms']:>8.2f} {row['max_ms']:>8.2f} {row['peak_mib']:>9.2f}"
        )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\nprocess max RSS: {rss:.0f} MiB")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; exit status 0 when every target is met, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lists", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--db-name", default=None, help="Throwaway database name.")
    args = parser.parse_args(argv)

    db_label = _choose_database(args.db_name)
    _setup_django()

    from django.core.management import call_command
    from django.db import connection

    from decks.domain.validate import validate_text
    from decks.selectors.cache import clear_caches
    from decks.selectors.cards import cards_for_game, get_card_index
    from decks.selectors.formats import format_spec
    from decks.services.validation import deck_validate

    print(f"Database: {db_label} ({connection.vendor})")
    call_command("migrate", verbosity=0)
    fresh = _time_catalogue_load()

    clear_caches()
    t0 = time.perf_counter()
    index = get_card_index()
    index_s = time.perf_counter() - t0
    spec = format_spec("wow-constructed")
    cards = cards_for_game("wow")
    print(f"card index: {len(index)} cards built in {index_s * 1000:.0f} ms")

    lists = generate_lists(cards, args.lists, args.seed)
    sample = [validate_text(t, spec=spec, index=index) for t in lists]
    legal = sum(1 for r in sample if r.legal)
    print(
        f"{len(lists)} WoW lists, {legal} legal / {len(lists) - legal} illegal, "
        f"{statistics.mean(len(t.splitlines()) for t in lists):.0f} lines on average"
    )

    rows = [
        measure("a. pure domain", lambda t: validate_text(t, spec=spec, index=index), lists),
        measure(
            "b. service", lambda t: deck_validate(format_slug="wow-constructed", text=t), lists
        ),
        measure("c. API POST", _api_validator(), lists),
    ]
    _print_table(rows)
    wall = "\n".join(f"1 Nonexistent card number {i}" for i in range(5000))
    t0 = time.perf_counter()
    validate_text(wall, spec=spec, index=index)
    wall_s = time.perf_counter() - t0
    print(
        f"wall of 5,000 unknown names (fuzzy suggestions for each): {wall_s:.2f} s (target < 2 s)"
    )
    ok = rows[0]["lists_per_s"] >= 1000 and rows[2]["p99_ms"] < 20 and fresh < 3 and wall_s < 2
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
