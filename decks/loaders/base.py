"""Shared bits of the pure loaders: the data directory and the format error."""

from __future__ import annotations

import csv
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


class CatalogueFormatError(ValueError):
    """A card-data file is malformed. ``str(error)`` says where and why (English text for logs
    and for the command's message; the command translates its own wrapper text)."""


def read_csv_rows(path: Path, columns: tuple[str, ...]) -> list[dict[str, str]]:
    """The rows of the UTF-8 CSV file at ``path`` as dicts keyed by its header.

    Raises:
        CatalogueFormatError: the header lacks one of ``columns``.
    """
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = set(columns) - set(reader.fieldnames or ())
        if missing:
            raise CatalogueFormatError(f"{path}: missing columns {sorted(missing)}")
        return list(reader)
