"""``manage.py sync_catalogue hkk [--url BASE] [--cache DIR] [--delay SECONDS] [--dry-run]``.

Fetches the full HKK catalogue from the publisher's card-search API
(``decks.loaders.hkk_api``; one request at a time, ``--delay`` apart, retries with backoff,
answers cached in ``--cache`` so a rerun fetches nothing it has) and writes editions and cards
in one transaction (``decks.services.publisher_sync``). ``--dry-run`` prints the diff
(created / updated / unchanged / missing) and writes nothing. A progress bar goes to stderr.

Exit status 0 on success; 2 when the host is unreachable, an answer is not JSON or a record
misses a field (the message names the URL or record; nothing is written).
docs/rules.md §17 (Card data sources and coverage).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from tqdm import tqdm

from decks.loaders.hkk_api import SourceError
from decks.services.publisher_sync import SYNCABLE_GAMES, default_client, hkk_publisher_sync

ERROR_STATUS = 2
#: How many external ids of each kind the dry run lists.
LISTED = 20


class Command(BaseCommand):
    """``sync_catalogue GAME``: sync a game's card catalogue from its publisher (HKK only)."""

    help = _("Sync the full card catalogue of a game from its publisher's card search (hkk).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", choices=SYNCABLE_GAMES, help=_("Game slug: hkk."))
        parser.add_argument("--url", default=None, help=_("API base URL (default: settings)."))
        parser.add_argument(
            "--cache", default=None, help=_("Directory of cached answers (default: settings).")
        )
        parser.add_argument(
            "--delay", type=float, default=None, help=_("Seconds between two requests (1).")
        )
        parser.add_argument(
            "--dry-run", action="store_true", help=_("Print the changes, write nothing.")
        )

    def handle(self, *args: Any, **options: Any) -> None:
        client = default_client(
            base=options["url"],
            cache_dir=Path(options["cache"]) if options["cache"] else None,
            delay=options["delay"],
        )
        bar = tqdm(
            total=1,
            unit=_("request"),
            file=sys.stderr,
            disable=options["verbosity"] < 1,
            leave=False,
        )

        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.n = done
            bar.refresh()

        try:
            report = hkk_publisher_sync(
                client=client, dry_run=options["dry_run"], progress=progress
            )
        except SourceError as exc:
            raise CommandError(
                _("Nothing was written: %(error)s") % {"error": exc}, returncode=ERROR_STATUS
            ) from exc
        finally:
            bar.close()
            client.close()
        if options["dry_run"]:
            self.stdout.write(_("Dry run, nothing written."))
            for label, ids in (
                (_("created"), report.diff.created),
                (_("updated"), report.diff.updated),
                (_("missing from the source"), report.diff.missing),
            ):
                if ids:
                    shown = ", ".join(ids[:LISTED]) + (" …" if len(ids) > LISTED else "")
                    self.stdout.write(f"  {label} ({len(ids)}): {shown}")
        self.stdout.write(self.style.SUCCESS(report.summary()))
