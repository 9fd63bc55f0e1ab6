"""Pure parsers that turn card-data files into :class:`decks.domain.types.Card` objects.

Nothing in this package imports Django: the loaders read files and return value objects;
``decks.services.catalogue_sync`` writes them to the database. Facts only: rules text is never kept.

Edition membership travels in ``Card.attributes["editions"]`` (a tuple of edition codes in
source order); the database layer moves it into the ``Card.editions`` relation and drops it
from the stored attributes.

Registry: :data:`IMPORTERS` maps a game slug to ``callable(path) -> list[Card]`` and is what
``manage.py import_cards GAME FILE`` uses (``wow``: an organiser's fan-made edition,
``decks.loaders.wowtcg_fan``). Blue Moon registers itself from
``decks.loaders.bluemoon`` (written separately); :func:`get_importer` imports that module
lazily, so the registry works whether or not it exists.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from decks.domain.types import Card
from decks.loaders import hkk, wowtcg
from decks.loaders.base import DATA_DIR, CatalogueFormatError
from decks.loaders.hkk import parse_publisher_json
from decks.loaders.wowtcg_fan import parse_fan_file

__all__ = [
    "DATA_DIR",
    "IMPORTERS",
    "CatalogueFormatError",
    "get_importer",
    "hkk",
    "importer_names",
    "optional_module",
    "wowtcg",
]

Importer = Callable[[Path], list[Card]]

IMPORTERS: dict[str, Importer] = {"hkk": parse_publisher_json, "wow": parse_fan_file}

# Game modules that may add entries to IMPORTERS when imported (optional, written by others).
_OPTIONAL_MODULES = ("decks.loaders.bluemoon",)


def optional_module(name: str):
    """Import an optional loader module; ``None`` if the module itself does not exist.

    An ImportError raised *inside* an existing module is not swallowed.
    """
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise


def get_importer(game: str) -> Importer | None:
    """Return the importer registered for ``game`` (after loading optional modules), or None."""
    for module_name in _OPTIONAL_MODULES:
        optional_module(module_name)
    return IMPORTERS.get(game)


def importer_names() -> list[str]:
    """Sorted game slugs that have an importer (optional modules loaded first)."""
    for module_name in _OPTIONAL_MODULES:
        optional_module(module_name)
    return sorted(IMPORTERS)
