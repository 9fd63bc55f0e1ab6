"""HKK name-only entries: every card name of the tournament usage statistics
(``decks/data/hkk/meta/*.csv``) that the bundled sample lacks. Pure Python.

The decisions are in :mod:`decks.loaders.hkk` ("Name-only entries"), which re-exports every
public name of this module. docs/rules.md §1 (HKK card identity, colours and editions), §17
(Card data sources and coverage).
"""

from __future__ import annotations

import csv
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from decks.domain.normalize import normalize_name
from decks.domain.types import FACTS_UNKNOWN, POSSIBLE_KINDS, Card, CardKind
from decks.loaders.base import DATA_DIR, CatalogueFormatError

__all__ = [
    "EPIC_SUFFIX",
    "GAME",
    "META_DIR",
    "META_FILES",
    "NAME_ONLY_UNKNOWN",
    "MetaName",
    "name_only_cards",
    "name_only_id",
    "parse_meta_names",
    "split_meta_cell",
]

#: The game code of every HKK card (re-exported as ``decks.loaders.hkk.GAME``).
GAME = "hkk"
META_DIR = DATA_DIR / "hkk" / "meta"
#: The tournament usage statistics, in the order their names are read.
META_FILES: tuple[Path, ...] = tuple(
    META_DIR / name
    for name in ("topcards-classic.csv", "topcards-tm.csv", "orange-classic.csv", "orange-tm.csv")
)
#: The facts a name-only entry lacks.
NAME_ONLY_UNKNOWN: tuple[str, ...] = ("types", "colours", "editions", "rarity")
EPIC_SUFFIX = "(epikus)"


@dataclass(frozen=True, slots=True)
class MetaName:
    """One card name read from the usage statistics.

    Attributes:
        name: the name as written (``"Fufuka, az álomelf (epikus)"``).
        kinds: the kinds it may have (``(CardKind.CARD,)`` from a topcards file,
            ``(EPIC_FOLLOWER,)`` for "(epikus)", ``(RULE_CARD, FOLLOWER)`` otherwise).
        source: the file name it was first read from.
    """

    name: str
    kinds: tuple[CardKind, ...]
    source: str


_TWO_NAMES = re.compile(r",\s+(?=[A-ZÁÉÍÓÖŐÚÜŰ])")


def split_meta_cell(cell: str) -> list[str]:
    """Split an orange-file cell into its names: ``"Lassan járj!, Átkozott követő (új)"`` →
    two names; ``"Fufuka, az álomelf (epikus)"`` → one (the part after the comma starts in
    lower case)."""
    return [part.strip() for part in _TWO_NAMES.split(cell.strip()) if part.strip()]


def parse_meta_names(paths: Iterable[Path] = META_FILES) -> list[MetaName]:
    """Read the distinct card names of the usage statistics (column ``Lap``).

    Topcards files list deck cards; orange files list rule cards, followers and epic cards,
    up to two names per cell (:func:`split_meta_cell`). A name seen in several files gets
    the union of their kinds. Order: first appearance.

    Raises:
        CatalogueFormatError: a file without the ``Lap`` column.
    """
    found: dict[str, MetaName] = {}
    for path in paths:
        orange = Path(path).name.startswith("orange")
        with open(path, encoding="utf-8-sig", newline="") as handle:
            reader = csv.DictReader(handle)
            if "Lap" not in (reader.fieldnames or ()):
                raise CatalogueFormatError(f"{path}: no 'Lap' column")
            for row in reader:
                cell = (row.get("Lap") or "").strip()
                for name in split_meta_cell(cell) if orange else [cell] if cell else []:
                    if name.endswith(EPIC_SUFFIX):
                        kinds: tuple[CardKind, ...] = (CardKind.EPIC_FOLLOWER,)
                    elif orange:
                        kinds = (CardKind.RULE_CARD, CardKind.FOLLOWER)
                    else:
                        kinds = (CardKind.CARD,)
                    key = normalize_name(name)
                    seen = found.get(key)
                    if seen is None:
                        found[key] = MetaName(name, kinds, Path(path).name)
                    else:
                        merged = tuple(dict.fromkeys((*seen.kinds, *kinds)))
                        found[key] = MetaName(seen.name, merged, seen.source)
    return list(found.values())


def name_only_id(name: str) -> str:
    """The stable id of a name-only entry: ``"meta-"`` + 12 hex digits of the SHA-1 of the
    normalised name."""
    digest = hashlib.sha1(normalize_name(name).encode("utf-8")).hexdigest()
    return f"meta-{digest[:12]}"


def name_only_cards(names: Iterable[MetaName], known: Iterable[Card]) -> list[Card]:
    """A name-only card for every name ``known`` lacks (compared by ``normalize_name``).

    Returns:
        Cards with ``kind`` the first possible kind, ``colours=None``, no types,
        ``attributes = {"editions": (), "facts_unknown": NAME_ONLY_UNKNOWN,
        "possible_kinds": (...)}`` (``possible_kinds`` only when more than one), and
        ``"meta_source"`` the statistics file.
    """
    have = {normalize_name(card.name) for card in known}
    cards: list[Card] = []
    for meta in names:
        key = normalize_name(meta.name)
        if key in have:
            continue
        have.add(key)
        attributes: dict[str, object] = {
            "editions": (),
            FACTS_UNKNOWN: NAME_ONLY_UNKNOWN,
            "meta_source": meta.source,
        }
        if len(meta.kinds) > 1:
            attributes[POSSIBLE_KINDS] = tuple(str(kind) for kind in meta.kinds)
        cards.append(
            Card(
                id=name_only_id(meta.name),
                game=GAME,
                name=meta.name.strip(),
                kind=meta.kinds[0],
                colours=None,
                copy_group=key,
                attributes=attributes,
            )
        )
    return cards
