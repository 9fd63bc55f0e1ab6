"""``manage.py validate_deck PATH --format SLUG [--json] [--date YYYY-MM-DD] [--lang hu|en]``.

Exit status: 0 the deck is legal, 1 it is illegal, 2 the input is unusable (unreadable or
empty file, unknown format, bad date), 3 unverified (nothing checked is broken, but some rule
could not be checked: a card the partial catalogue lacks, unknown facts; docs/rules.md §17
(Card data sources and coverage)). ``--json`` prints exactly one JSON object, the shape of
``decks.services.validation.validation_result_dict``; otherwise a readable report (Hungarian by
default).
"""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _

from decks.errors import DeckInputError, UnknownFormat
from decks.services.validation import deck_validate, decode_upload, validation_result_dict

EXIT_LEGAL = 0
EXIT_ILLEGAL = 1
EXIT_UNUSABLE = 2
EXIT_UNVERIFIED = 3
EXIT_STATUS = {"legal": EXIT_LEGAL, "illegal": EXIT_ILLEGAL, "unverified": EXIT_UNVERIFIED}


class Command(BaseCommand):
    """``validate_deck PATH --format SLUG [--json] [--date YYYY-MM-DD] [--lang CODE]``: validate a
    deck-list file (``decks.services.validation.deck_validate``) and print a report or one JSON
    object.

    Exit status 0 legal, 1 illegal, 3 unverified (``sys.exit``), 2 unusable input
    (``CommandError``: unreadable or non-text file, unknown format, bad date, unusable list).
    """

    help = (
        "Validate a deck list file against a format "
        "(exit 0 legal, 1 illegal, 2 bad input, 3 unverified)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="Deck list file (UTF-8 or Windows-1250 text).")
        parser.add_argument(
            "--format", dest="format_slug", required=True, help="Format slug, e.g. hkk."
        )
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")
        parser.add_argument("--date", help="Validation date YYYY-MM-DD (ban lists); default today.")
        parser.add_argument(
            "--lang",
            default=None,
            choices=[code for code, _name in settings.LANGUAGES],
            help="Language of the messages (default: the site language, Hungarian).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with translation.override(options["lang"] or settings.LANGUAGE_CODE):
            status = self._run(options)
        if status != EXIT_LEGAL:
            sys.exit(status)

    def _run(self, options: dict[str, Any]) -> int:
        on = None
        if options["date"]:
            try:
                on = date.fromisoformat(options["date"])
            except ValueError:
                raise CommandError(
                    _("Invalid date %(date)s: use YYYY-MM-DD.") % {"date": options["date"]},
                    returncode=EXIT_UNUSABLE,
                ) from None
        text = self._read(Path(options["path"]))
        slug = options["format_slug"]
        try:
            result = deck_validate(format_slug=slug, text=text, on=on)
        except UnknownFormat:
            raise CommandError(
                _("Unknown format: %(format)s.") % {"format": slug}, returncode=EXIT_UNUSABLE
            ) from None
        except DeckInputError as exc:
            raise CommandError(
                f"{options['path']}: {exc.message}", returncode=EXIT_UNUSABLE
            ) from None
        data = validation_result_dict(result)
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
        else:
            self._report(options["path"], data)
        return EXIT_STATUS[data["status"]]

    def _read(self, path: Path) -> str:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise CommandError(
                _("Cannot read %(path)s: %(reason)s")
                % {"path": path, "reason": exc.strerror or exc},
                returncode=EXIT_UNUSABLE,
            ) from None
        text = decode_upload(raw)
        if text is None:
            raise CommandError(
                _("%(path)s is not a plain text file (UTF-8 or Windows-1250).") % {"path": path},
                returncode=EXIT_UNUSABLE,
            )
        return text

    def _report(self, path: str, data: dict[str, Any]) -> None:
        out = self.stdout
        if data["status"] == "legal":
            verdict = self.style.SUCCESS(_("LEGAL"))
        elif data["status"] == "unverified":
            verdict = self.style.WARNING(_("UNVERIFIED"))
        else:
            verdict = self.style.ERROR(_("ILLEGAL"))
        out.write(
            _("%(path)s (format %(format)s): %(verdict)s")
            % {"path": path, "format": data["format"], "verdict": verdict}
        )
        out.write(
            _("Deck: %(main)s cards, sideboard: %(sideboard)s cards")
            % {"main": data["counts"]["main"], "sideboard": data["counts"]["sideboard"]}
        )
        for key, label in (
            ("rule_card", _("Rule card")),
            ("follower", _("Follower")),
            ("hero", _("Hero")),
        ):
            if data.get(key):
                out.write(f"{label}: {data[key]}")
        if data["unknown_cards"]:
            out.write(
                _("Not in the card catalogue (it is partial): %(names)s")
                % {"names": ", ".join(data["unknown_cards"])}
            )
        for key, heading in (("errors", _("Errors")), ("warnings", _("Warnings"))):
            items = data[key]
            if not items:
                continue
            out.write(f"{heading} ({len(items)}):")
            for item in items:
                where = _("line %(line)s") % {"line": item["line"]} if item["line"] else _("deck")
                out.write(f"  - [{where}] {item['message']}  ({item['code']})")
