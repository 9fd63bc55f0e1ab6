"""Benchmark: meta statistics of 10,000 published HKK lists (target: under 5 s).

Usage::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hkk .venv/bin/python bench/meta.py \
        [--lists 10000] [--events 50] [--seed 7]

Database: never the one you work in (``<name>bench``, created if needed, as in
``bench/validate.py``). The script loads the bundled catalogue, then writes ``--events``
finished, public events with published lists (``--lists`` in all) straight into the tables
(``bulk_create``: players, entries, members, locked deck submissions of 40-card lists drawn from
the real HKK catalogue with a rule card, a follower and a sideboard, and a standings snapshot
ranking the entries). Building them is not timed.

Measured (printed as one table):

a. pure domain: ``tally_event`` of every event's lists, merged, and ``report`` (the lists
   already in memory);
b. service: ``services.meta.meta_recompute`` of every event (reads the lists, the card facts,
   the standings and the matches; stores the event's and the month's statistics);
c. read: ``selectors.meta.meta_view`` of the whole game (sums the stored statistics and reads
   them out), and the public page ``GET /meta/?game=hkk`` through the whole middleware stack.

Each step prints wall seconds and this process's CPU seconds (on a machine loaded by other
jobs the CPU figure is the fairer one; the database's own work shows in the wall time only).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from validate import _choose_database, _setup_django  # noqa: E402 (bench/validate.py, beside this script)


def _deck_data(
    cards: Sequence[Any], rules: Sequence[Any], followers: Sequence[Any], rng: random.Random
) -> dict[str, Any]:
    picked = rng.sample(list(cards), 16)
    main = [
        {"id": c.id, "name": c.name, "count": n}
        for c, n in zip(picked[:14], [3] * 12 + [2, 2], strict=True)
    ]
    side = [{"id": c.id, "name": c.name, "count": 1} for c in picked[14:]]
    data = {"main": main, "sideboard": side}
    if rules:
        rule = rng.choice(rules)
        data["rule_card"] = [{"id": rule.id, "name": rule.name, "count": 1}]
    if followers:
        f = rng.choice(followers)
        data["follower"] = [{"id": f.id, "name": f.name, "count": 1}]
    return data


def build(lists: int, events: int, seed: int) -> list[int]:
    """Write the events; return their ids."""
    from django.core.management import call_command
    from django.utils import timezone

    from decks.models import Format
    from decks.selectors.cards import cards_for_game
    from tournaments.domain.match_structure import PRESETS
    from tournaments.models import (
        DeckSubmission,
        Entry,
        EntryMember,
        MetaSnapshot,
        Player,
        StandingsSnapshot,
        Tournament,
    )

    call_command("migrate", verbosity=0)
    call_command("load_catalogue", verbosity=0)
    Tournament.objects.filter(name__startswith="Meta bench").delete()
    MetaSnapshot.objects.all().delete()
    fmt = Format.objects.filter(game__slug="hkk").order_by("pk").first()
    assert fmt is not None, "no HKK format: run the migrations"
    all_cards = cards_for_game("hkk")
    rules = [c for c in all_cards if c.kind == "rule_card"]
    followers = [c for c in all_cards if c.kind in ("follower", "epic_follower")]
    cards = [c for c in all_cards if c.kind == "card"]
    rng = random.Random(seed)
    now = timezone.now()
    ids = []
    per_event = lists // events
    for number in range(events):
        t = Tournament.objects.create(
            name=f"Meta bench {number}",
            format=fmt,
            match_structure=PRESETS["hkk"].to_dict(),
            status=Tournament.Status.FINISHED,
            decklists_published=True,
            starts_at=now - timedelta(days=number),
            finished_at=now,
        )
        ids.append(t.pk)
        players = Player.objects.bulk_create(
            [Player(display_name=f"B{number}-{i}") for i in range(per_event)]
        )
        entries = Entry.objects.bulk_create(
            [Entry(tournament=t, name=p.display_name) for p in players]
        )
        members = EntryMember.objects.bulk_create(
            [
                EntryMember(entry=e, tournament=t, player=p, seat="A")
                for e, p in zip(entries, players, strict=True)
            ]
        )
        DeckSubmission.objects.bulk_create(
            [
                DeckSubmission(
                    member=m,
                    version=1,
                    data=_deck_data(cards, rules, followers, rng),
                    format_slug=fmt.slug,
                    validated_at=now,
                    validator_legal=True,
                    legal=True,
                    locked=True,
                )
                for m in members
            ]
        )
        rows = [{"rank": i, "entry": e.pk, "name": e.name} for i, e in enumerate(entries, 1)]
        StandingsSnapshot.objects.create(tournament=t, computed_at=now, rows=rows, version=1)
    return ids


def _timed(label: str, fn: Any, results: list[tuple[str, float, float]]) -> Any:
    start, cpu = time.perf_counter(), time.process_time()
    value = fn()
    results.append((label, time.perf_counter() - start, time.process_time() - cpu))
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Build the events, time the three paths, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--db-name", default=None)
    parser.add_argument(
        "--reuse", action="store_true", help="time the events an earlier run left (no build)"
    )
    args = parser.parse_args(argv)
    label = _choose_database(args.db_name)
    _setup_django()

    from django.test import Client

    from tournaments.domain.games import GAMES
    from tournaments.domain.meta import Tally, report, tally_event
    from tournaments.models import DeckSubmission, Tournament
    from tournaments.selectors.meta import MetaQuery, meta_view
    from tournaments.services.meta import meta_lists, meta_recompute

    if args.reuse:
        ids = list(
            Tournament.objects.filter(name__startswith="Meta bench").values_list("pk", flat=True)
        )
    else:
        ids = build(args.lists, args.events, args.seed)
    results: list[tuple[str, float, float]] = []
    game = GAMES["hkk"]
    in_memory = []
    for t in Tournament.objects.filter(pk__in=ids).select_related("format__game"):
        subs = list(DeckSubmission.objects.filter(member__tournament=t).select_related("member"))
        ranks = {s.member.entry_id: i for i, s in enumerate(subs, 1)}
        in_memory.append(meta_lists(tournament=t, submissions=subs, ranks=ranks))

    def domain() -> int:
        total = Tally()
        for event in in_memory:
            total.merge(tally_event(event, dimensions=game.meta_features, win_dimension=None))
        return len(report(total, min_matches=20).cards)

    cards = _timed("a. domain: tally + merge + report", domain, results)
    _timed(
        "b. service: meta_recompute of every event",
        lambda: [meta_recompute(tournament_id=pk) for pk in ids],
        results,
    )
    view = _timed(
        "c. read: meta_view of the game", lambda: meta_view(MetaQuery(game="hkk")), results
    )
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["testserver"]  # the test client's host (DEBUG is off)
    # No collectstatic manifest needed: static URLs unhashed (the page's own work is the same).
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    client = Client()
    client.cookies["django_language"] = "hu"
    client.get("/meta/?game=hkk", secure=True)  # warm: templates, catalogue index
    page = _timed(
        "c. read: GET /meta/?game=hkk (warm)", lambda: client.get("/meta/?game=hkk"), results
    )
    print(
        f"meta statistics benchmark on {label}: {view.report.lists} lists in {len(ids)} events,"
        f" {cards} cards"
    )
    print(f"{'step':<45} {'wall s':>8} {'CPU s':>8} {'lists/s':>10}")
    for step, seconds, cpu in results:
        print(f"{step:<45} {seconds:8.3f} {cpu:8.3f} {view.report.lists / seconds:10.0f}")
    print(f"page status {page.status_code}, {len(page.content):,} bytes")
    return (
        0
        if page.status_code == 200 and view.report.lists == len(ids) * (args.lists // args.events)
        else 1
    )


if __name__ == "__main__":
    raise SystemExit(main())
