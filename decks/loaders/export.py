"""Read the catalogue export written by ``manage.py export_cards`` (shape in
``decks.selectors.export``) back into domain cards and editions. Pure Python.

docs/rules.md §17 (Card data sources and coverage).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from decks.domain.editions import Edition, parse_partial_date
from decks.domain.types import Card, CardKind
from decks.loaders.base import CatalogueFormatError

EXPORT_FORMAT = "hkk-tournament-cards"
EXPORT_VERSION = 1
CARD_KEYS = ("id", "name", "kind", "types", "colours", "editions")


@dataclass(frozen=True, slots=True)
class CatalogueExport:
    """One game's exported catalogue: cards (``attributes["editions"]`` = codes), the edition
    table and the game's coverage and source."""

    game: str
    cards: tuple[Card, ...]
    editions: tuple[Edition, ...]
    coverage: str
    source: str


def is_export(data: object) -> bool:
    """True when ``data`` is an export document (``"format": EXPORT_FORMAT``)."""
    return isinstance(data, Mapping) and data.get("format") == EXPORT_FORMAT


def _date(value: object, where: str) -> date | None:
    if value in (None, ""):
        return None
    try:
        return date.fromisoformat(str(value))
    except ValueError as exc:
        raise CatalogueFormatError(f"{where}: bad date {value!r}") from exc


def _edition(record: Any, where: str) -> Edition:
    if not isinstance(record, Mapping) or not str(record.get("code") or "").strip():
        raise CatalogueFormatError(f"{where}: an edition needs a 'code'")
    released = str(record.get("released") or "")
    try:
        parse_partial_date(released)
    except ValueError as exc:
        raise CatalogueFormatError(f"{where}: bad 'released' {released!r}") from exc
    order = record.get("block_order")
    return Edition(
        code=str(record["code"]),
        name=str(record.get("name") or ""),
        released=released,
        released_after=_date(record.get("released_after"), where),
        released_before=_date(record.get("released_before"), where),
        block=str(record.get("block") or ""),
        block_order=int(order) if isinstance(order, int) else None,
        group=str(record.get("group") or ""),
        kind=str(record.get("kind") or ""),
    )


def _traits(value: object) -> dict[str, frozenset[str]]:
    if not isinstance(value, Mapping):
        return {}
    return {str(k): frozenset(str(v) for v in (vals or ())) for k, vals in value.items()}


def _card(game: str, record: Any, where: str) -> Card:
    if not isinstance(record, Mapping):
        raise CatalogueFormatError(f"{where}: expected an object")
    missing = [key for key in CARD_KEYS if key not in record]
    if missing:
        raise CatalogueFormatError(f"{where}: missing field {missing[0]!r}")
    kind = str(record["kind"])
    if kind not in CardKind._value2member_map_:
        raise CatalogueFormatError(f"{where}: unknown kind {kind!r}")
    colours = record["colours"]
    attributes = dict(record.get("attributes") or {})
    attributes["editions"] = tuple(str(code) for code in record["editions"] or ())
    return Card(
        id=str(record["id"]),
        game=game,
        name=str(record["name"]),
        kind=CardKind(kind),
        types=tuple(str(t) for t in record["types"] or ()),
        colours=None if colours is None else tuple(str(c) for c in colours),
        class_icons=frozenset(str(c) for c in record.get("class_icons") or ()),
        faction=str(record.get("faction") or "") or None,
        hero_traits=_traits(record.get("hero_traits")),
        requires=_traits(record.get("requires")),
        unlimited=bool(record.get("unlimited", False)),
        rarity=str(record.get("rarity") or ""),
        copy_group=str(record.get("copy_group") or ""),
        attributes=attributes,
    )


def parse_export(data: object, *, game: str, source: str = "input") -> CatalogueExport:
    """Validate an export document for ``game``.

    Raises:
        CatalogueFormatError: not an export, another version or game, or a malformed record
            (the message names it).
    """
    if not is_export(data) or not isinstance(data, Mapping):
        raise CatalogueFormatError(f"{source}: not a card catalogue export")
    if data.get("version") != EXPORT_VERSION:
        raise CatalogueFormatError(f"{source}: unsupported version {data.get('version')!r}")
    if data.get("game") != game:
        raise CatalogueFormatError(f"{source}: the file holds {data.get('game')!r}, not {game!r}")
    editions = [
        _edition(record, f"{source}: edition #{i + 1}")
        for i, record in enumerate(data.get("editions") or [])
    ]
    cards = [
        _card(game, record, f"{source}: card #{i + 1}")
        for i, record in enumerate(data.get("cards") or [])
    ]
    return CatalogueExport(
        game=game,
        cards=tuple(cards),
        editions=tuple(editions),
        coverage=str(data.get("coverage") or ""),
        source=str(data.get("source") or ""),
    )


def read_json(path: Path) -> object:
    """The decoded JSON of ``path``.

    Raises:
        CatalogueFormatError: unreadable file or invalid JSON.
    """
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return json.load(handle)
    except OSError as exc:
        raise CatalogueFormatError(f"{path}: cannot read file ({exc.strerror})") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CatalogueFormatError(f"{path}: not valid JSON ({exc})") from exc
