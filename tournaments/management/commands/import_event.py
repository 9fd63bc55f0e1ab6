"""``manage.py import_event FILE``: restore an event written by ``export_event`` (or ``-`` for
standard input) into this database, all or nothing (``tournaments.services.backup``).

The whole file is checked before anything is written: a damaged or altered file (a reference
to another event or to an account not in the file, an unknown choice, a number out of range, a
missing key, a wrong type, a repeated id) is refused with every problem listed by row and key,
and nothing is written. The database must not hold rows of that event already (restore into an
empty database, after ``migrate`` and ``load_catalogue``). Users are matched by username;
missing ones are created with an unusable password."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from hkk_tournament.errors import ApplicationError
from tournaments.services.backup import event_restore


class Command(BaseCommand):
    help = _(
        "Restore an event from an export_event backup into this database. The file is checked "
        "fully first; a damaged or altered file is refused and nothing is written. Accounts "
        "are matched by user name: an account of the same name here gets the file's roles."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help=_("backup file, or - for standard input"))

    def handle(self, *args: object, **options: object) -> None:
        name = str(options["file"])
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
            document = json.loads(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CommandError(
                _("Cannot read %(file)s: %(error)s") % {"file": name, "error": exc}
            ) from exc
        try:
            restored = event_restore(document=document)
        except ApplicationError as exc:
            problems = exc.params.get("problems") if exc.params else None
            lines = [f"{exc.code}: {exc.message}"]
            if isinstance(problems, list):
                lines += [f"  - {problem}" for problem in problems]
                more = int(exc.params.get("count", 0)) - len(problems)
                if more > 0:
                    lines.append("  " + _("… and %(count)s more") % {"count": more})
            elif exc.params:
                lines[0] += f" {exc.params}"
            raise CommandError("\n".join(lines)) from exc
        t = restored.tournament
        self.stdout.write(_("Event %(id)s (%(name)s) restored.") % {"id": t.pk, "name": t.name})
        if restored.users_matched:
            self.stdout.write(
                _("Accounts already here, given the file's roles: %(names)s")
                % {"names": ", ".join(restored.users_matched)}
            )
        if restored.users_created:
            self.stdout.write(
                _("Accounts created without a password: %(names)s")
                % {"names": ", ".join(restored.users_created)}
            )
