"""Shared bits of the pure loaders: the data directory and the format error."""

from __future__ import annotations

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


class CatalogueFormatError(ValueError):
    """A card-data file is malformed. ``str(error)`` says where and why (English text for logs
    and for the command's message; the command translates its own wrapper text)."""
