"""``manage.py import_event FILE``: restore an event written by ``export_event`` (or ``-`` for
standard input) into this database, all or nothing (``tournaments.services.backup``).

The database must not hold rows of that event already (restore into an empty database, after
``migrate`` and ``load_catalogue``). Users are matched by username; missing ones are created
with an unusable password."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from hkk_tournament.errors import ApplicationError
from tournaments.services.backup import event_restore


class Command(BaseCommand):
    help = "Restore an event from an export_event backup into this database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="backup file, or - for standard input")

    def handle(self, *args: object, **options: object) -> None:
        name = str(options["file"])
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
            document = json.loads(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CommandError(f"cannot read {name}: {exc}") from exc
        try:
            tournament = event_restore(document=document)
        except ApplicationError as exc:
            raise CommandError(f"{exc.code}: {exc.message} {exc.params or ''}") from exc
        self.stdout.write(f"event {tournament.pk} ({tournament.name}) restored")
