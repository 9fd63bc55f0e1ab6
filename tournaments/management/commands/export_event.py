"""``manage.py export_event ID FILE``: write event ``ID`` as a versioned, lossless JSON backup
(``tournaments.services.backup``; ``-`` writes to standard output). Restore it with
``manage.py import_event FILE``; the format is described in docs/production.md (Backups)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.services.backup import event_backup_json


class Command(BaseCommand):
    help = "Write one event as a lossless JSON backup (restore with import_event)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("file", help="output file, or - for standard output")

    def handle(self, *args: object, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=options["tournament_id"]).first()
        if tournament is None:
            raise CommandError(f"no tournament with id {options['tournament_id']}")
        text = event_backup_json(tournament=tournament) + "\n"
        if options["file"] == "-":
            sys.stdout.write(text)
        else:
            Path(str(options["file"])).write_text(text, encoding="utf-8")
            self.stdout.write(f"event {tournament.pk} written to {options['file']}")
