"""HKK editions as data: ``editions.json`` names and ``edition-releases.csv`` release dates.
Pure Python.

The decisions are in :mod:`decks.loaders.hkk` ("Editions as data"), which re-exports every
public name of this module. docs/rules.md §1 (HKK card identity, colours and editions), §4 (HKK
formats and ban lists).
"""

from __future__ import annotations

import csv
import json
from datetime import date
from pathlib import Path

from decks.domain.editions import Edition, parse_partial_date
from decks.loaders.base import DATA_DIR, CatalogueFormatError

__all__ = ["EDITIONS_JSON", "EDITION_RELEASES_CSV", "parse_edition_releases", "parse_editions"]

EDITIONS_JSON = DATA_DIR / "hkk" / "editions.json"
EDITION_RELEASES_CSV = DATA_DIR / "hkk" / "edition-releases.csv"


def parse_editions(path: Path = EDITIONS_JSON) -> dict[str, str]:
    """Parse editions.json (``{"1": "Alappakli, 1. kiadás", ...}``) into ``{code: name}``."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise CatalogueFormatError(f"{path}: expected an object of edition id -> name")
    return {str(k).strip(): v.strip() for k, v in data.items()}


def parse_edition_releases(
    path: Path = EDITION_RELEASES_CSV, *, names: dict[str, str] | None = None
) -> list[Edition]:
    """Every HKK edition as an :class:`~decks.domain.editions.Edition` with what is known of
    its release (``edition-releases.csv``: id, name, released, released_after,
    released_before, source; see ``decks/data/README.md`` for each row's source).

    Args:
        path: the release table.
        names: edition id → name (default: :func:`parse_editions`); editions missing from the
            table get no date.

    Returns:
        One edition per id of ``names`` and of the table, sorted by numeric id.

    Raises:
        CatalogueFormatError: missing columns, a bad date or an unknown id format.
    """
    table = parse_editions() if names is None else dict(names)
    known: dict[str, dict[str, str]] = {}
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        needed = {"id", "released", "released_after", "released_before"}
        missing = needed - set(reader.fieldnames or ())
        if missing:
            raise CatalogueFormatError(f"{path}: missing columns {sorted(missing)}")
        for line, row in enumerate(reader, start=2):
            if not row["id"].strip().isdigit():
                raise CatalogueFormatError(f"{path}:{line}: bad edition id {row['id']!r}")
            known[row["id"].strip()] = row
            table.setdefault(row["id"].strip(), (row.get("name") or "").strip())
    editions: list[Edition] = []
    for code in sorted(table, key=lambda c: (not c.isdigit(), int(c) if c.isdigit() else 0, c)):
        row = known.get(code, {})
        try:
            released = (row.get("released") or "").strip()
            parse_partial_date(released)
            after = (row.get("released_after") or "").strip()
            before = (row.get("released_before") or "").strip()
            editions.append(
                Edition(
                    code=code,
                    name=table[code],
                    released=released,
                    released_after=date.fromisoformat(after) if after else None,
                    released_before=date.fromisoformat(before) if before else None,
                )
            )
        except ValueError as exc:
            raise CatalogueFormatError(f"{path}: edition {code}: {exc}") from exc
    return editions
