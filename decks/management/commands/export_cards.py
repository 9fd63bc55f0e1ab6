"""``manage.py export_cards GAME FILE``: write one game's card catalogue (cards, editions,
coverage) as JSON that ``manage.py import_cards GAME FILE`` reads back losslessly
(shape: ``decks.selectors.export``). Exit status 2 for an unknown game or an unwritable file.
docs/rules.md §17 (Card data sources and coverage).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from decks.errors import UnknownGame
from decks.selectors.export import catalogue_export

ERROR_STATUS = 2


class Command(BaseCommand):
    """``export_cards GAME FILE``: the catalogue of ``GAME`` as one JSON document."""

    help = _("Export a game's card catalogue to a JSON file that import_cards reads back.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help=_("Game slug, e.g. hkk."))
        parser.add_argument("file", help=_("Path of the JSON file to write."))

    def handle(self, *args: Any, game: str, file: str, **options: Any) -> None:
        try:
            data = catalogue_export(game)
        except UnknownGame as exc:
            raise CommandError(str(exc.message), returncode=ERROR_STATUS) from exc
        path = Path(file)
        try:
            path.write_text(
                json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                encoding="utf-8",
            )
        except OSError as exc:
            raise CommandError(
                _("Cannot write %(path)s: %(reason)s") % {"path": path, "reason": exc.strerror},
                returncode=ERROR_STATUS,
            ) from exc
        self.stdout.write(
            self.style.SUCCESS(
                _("%(game)s: %(cards)d cards and %(editions)d editions written to %(path)s.")
                % {
                    "game": game,
                    "cards": len(data["cards"]),
                    "editions": len(data["editions"]),
                    "path": path,
                }
            )
        )
