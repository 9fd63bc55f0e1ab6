"""``manage.py import_cards GAME FILE``: load an organiser's full card file for one game.

A file written by ``manage.py export_cards`` (any game) is read back losslessly
(``decks.loaders.export``). Otherwise the importer comes from the registry
``decks.loaders.IMPORTERS`` (``hkk``: the publisher's card-search JSON; ``bluemoon``:
registered by ``decks.loaders.bluemoon``). The whole import
is one transaction: a malformed file writes nothing and exits with status 2 (CommandError
``returncode``), via the error message naming the bad record.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from decks.loaders import CatalogueFormatError, get_importer, importer_names
from decks.loaders.export import is_export, parse_export, read_json
from decks.selectors.cache import clear_caches
from decks.services.catalogue_sync import catalogue_import_export, catalogue_sync

ERROR_STATUS = 2


class Command(BaseCommand):
    """``import_cards GAME FILE``: parse ``FILE`` with the game's importer (``decks.loaders``) and
    sync the catalogue (``catalogue_sync``) in one transaction, then print the created / updated /
    unchanged counts. Exit status 2 (``CommandError``) for an unknown game, a missing, malformed or
    empty file; nothing is written then.
    """

    help = _("Import a full card catalogue file for one game (e.g. HKK publisher JSON).")

    def add_arguments(self, parser):
        parser.add_argument("game", help=_("Game slug, e.g. hkk."))
        parser.add_argument("file", help=_("Path of the card file."))

    def handle(self, *args, game: str, file: str, **options):
        path = Path(file)
        if path.suffix.lower() == ".json" and path.is_file():
            with _not_card_data():
                data = read_json(path)
            if is_export(data):
                with _not_card_data():
                    export = parse_export(data, game=game, source=path.name)
                    result = catalogue_import_export(export=export)
                self._summary(game, len(export.cards), result)
                return
        cards = self._read(game, path)
        with _not_card_data():
            result = catalogue_sync(game_slug=game, cards=cards)
        self._summary(game, len(cards), result)

    def _read(self, game: str, path: Path) -> list:
        """The cards of ``path`` read by ``game``'s importer (``CommandError`` for an unknown
        game, a missing, malformed or empty file)."""
        importer = get_importer(game)
        if importer is None:
            raise CommandError(
                _("No importer for game %(game)s. Available: %(games)s")
                % {"game": game, "games": ", ".join(importer_names())},
                returncode=ERROR_STATUS,
            )
        if not path.is_file():
            raise CommandError(
                _("File not found: %(path)s") % {"path": path}, returncode=ERROR_STATUS
            )
        with _not_card_data():
            cards = importer(path)
        if not cards:
            raise CommandError(
                _("The file contains no cards, nothing was imported."), returncode=ERROR_STATUS
            )
        return list(cards)

    def _summary(self, game: str, total: int, result: Any) -> None:
        clear_caches()
        self.stdout.write(
            self.style.SUCCESS(
                _(
                    "%(game)s: %(total)d cards read; %(created)d created, %(updated)d updated, "
                    "%(unchanged)d unchanged, %(editions)d new editions."
                )
                % {
                    "game": game,
                    "total": total,
                    "created": result.created,
                    "updated": result.updated,
                    "unchanged": result.unchanged,
                    "editions": result.editions_created,
                }
            )
        )


@contextmanager
def _not_card_data() -> Iterator[None]:
    """Turn a malformed file (``CatalogueFormatError``, or ``ValueError`` from the sync) into
    the command's error, exit status 2; nothing was written (one transaction)."""
    try:
        yield
    except (CatalogueFormatError, ValueError) as exc:
        raise CommandError(
            _("The file is not valid card data, nothing was imported: %(error)s") % {"error": exc},
            returncode=ERROR_STATUS,
        ) from exc
