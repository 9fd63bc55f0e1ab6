"""``manage.py export_event ID FILE``: write event ``ID`` as a versioned, lossless JSON backup
(``tournaments.services.backup``; ``-`` writes to standard output). Restore it with
``manage.py import_event FILE``; the format is described in docs/production.md (Backups).

The file is sensitive: it holds e-mail addresses and the players' live claim codes. With
``--without-emails-and-codes`` both are left out (names, lists and results stay)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournaments.models import Tournament
from tournaments.services.backup import event_backup_json


class Command(BaseCommand):
    help = _(
        "Write one event as a lossless JSON backup (restore with import_event). The file is "
        "sensitive: it holds e-mail addresses and live claim codes; keep it like a password, "
        "or leave both out with --without-emails-and-codes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("file", help=_("output file, or - for standard output"))
        parser.add_argument(
            "--without-emails-and-codes",
            action="store_true",
            help=_(
                "leave out every e-mail address and claim code (names, lists and results stay; "
                "the restored players get new claim codes when asked)"
            ),
        )

    def handle(self, *args: object, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=options["tournament_id"]).first()
        if tournament is None:
            raise CommandError(
                _("No tournament with id %(id)s.") % {"id": options["tournament_id"]}
            )
        text = event_backup_json(
            tournament=tournament, emails_and_codes=not options["without_emails_and_codes"]
        )
        if options["file"] == "-":
            sys.stdout.write(text + "\n")
        else:
            Path(str(options["file"])).write_text(text + "\n", encoding="utf-8")
            self.stdout.write(
                _("Event %(id)s written to %(file)s.")
                % {"id": tournament.pk, "file": options["file"]}
            )
