"""Benchmark: claim codes and invitation e-mails for every player of a venue-size event in one
action (``player_invite_all``), and the name-ordered reads (pairings by name, standings with
ties sorted by family name), on PostgreSQL.

Usage::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hkk_bench \\
        .venv/bin/python bench/invitations.py [--players 64] [--repeat 5]

The database is migrated; one event is built through the services with ``--players`` players
(half with an e-mail address), round 1 paired and published. Mail goes to Django's in-memory
backend, so the figure is the app's own work (codes under the event's lock, messages built and
handed to one connection); a real SMTP server adds its own round trips per message. Printed:
median and longest seconds of ``player_invite_all`` (the first run makes the codes, later runs
keep them), of ``pairings_by_name`` over round 1 and of ``standings_rows``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hkk_tournament.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import translation  # noqa: E402

from decks.models import Format  # noqa: E402
from tournaments import selectors, services  # noqa: E402
from tournaments.models import Player  # noqa: E402
from tournaments.permissions import SYSTEM  # noqa: E402

FAMILY = ["Kovács", "Nagy", "Szabó", "Tóth", "Horváth", "Kiss", "Varga", "Molnár", "Németh"]
GIVEN = ["Péter", "Anna", "Ödön", "Zsófia", "Gábor", "Éva", "Lőrinc", "Ágnes", "Űrsula"]


def _timed(call, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    call_command("migrate", verbosity=0)
    owner, _ = get_user_model().objects.get_or_create(username="bench-invitations")
    slug = Format.objects.filter(slug__startswith="hkk").values_list("slug", flat=True).first()
    assert slug is not None, "no HKK format: migrate seeds them"
    t = services.tournament_create(owner=owner, name="Bench invitations", format_slug=slug)
    t = services.tournament_open_registration(actor=SYSTEM, tournament=t)
    with translation.override("hu"):
        for i in range(args.players):
            name = f"{FAMILY[i % 9]}{i} {GIVEN[(i * 7) % 9]}"
            e = services.entry_register(tournament=t, players=[name])
            services.entry_override_deck(actor=SYSTEM, entry=e, reason="bench")
            if i % 2 == 0:
                Player.objects.filter(memberships__entry=e).update(email=f"p{i}@example.org")
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    )

    def invite() -> None:
        services.player_invite_all(actor=owner, tournament=t, claim_url="https://x.example/c/")

    for label, call in (
        ("player_invite_all", invite),
        (
            "pairings_by_name",
            lambda: selectors.pairings_by_name(selectors.round_match_views(round=rnd)),
        ),
        ("standings_rows", lambda: services.standings_rows(tournament=t)),
    ):
        median, worst = _timed(call, args.repeat)
        print(f"{label}: {args.players} players, median {median:.3f} s, longest {worst:.3f} s")


if __name__ == "__main__":
    main()
