"""The bundled WoW TCG tables applied to the cards of ``wow_tcg.csv``: printed names
(``aliases.csv``), sets (``sets.csv``) and reprints (the other printings of a name, from the
Tracker's ``tracker/prints.csv``, :mod:`decks.loaders.wowtcg_tracker`). Pure Python.

The decisions are in :mod:`decks.loaders.wowtcg` ("Printed names", "Sets", "Reprints"), which
re-exports every public name of this module. docs/rules.md §9 (WoW TCG constructed decks),
§10 (WoW TCG formats and ban lists), §17 (Card data sources and coverage).
"""

from __future__ import annotations

from pathlib import Path

from decks.domain.editions import Edition, parse_partial_date
from decks.domain.normalize import normalize_name
from decks.domain.types import ALIASES, REPRINT_EDITIONS, Card
from decks.loaders.base import DATA_DIR, CatalogueFormatError, read_csv_rows

__all__ = [
    "ALIASES_CSV",
    "SETS_CSV",
    "apply_card_facts",
    "parse_aliases",
    "parse_set_codes",
    "parse_sets",
]

ALIASES_CSV = DATA_DIR / "wowtcg" / "aliases.csv"
SETS_CSV = DATA_DIR / "wowtcg" / "sets.csv"


def parse_aliases(path: Path = ALIASES_CSV) -> list[tuple[str, str, str]]:
    """Read ``aliases.csv`` (columns alias, printed_name, kind, source) into
    ``(alias, printed_name, kind)``; kind is ``source_misspelling``, ``source_casing`` (the
    source row is renamed) or ``variant`` (an extra spelling of the printed name).

    Raises:
        CatalogueFormatError: missing columns or an empty cell.
    """
    found: list[tuple[str, str, str]] = []
    for line, row in enumerate(read_csv_rows(path, ("alias", "printed_name", "kind", "source")), 2):
        alias, printed, kind = (row[k].strip() for k in ("alias", "printed_name", "kind"))
        if (
            not alias
            or not printed
            or kind not in {"source_misspelling", "source_casing", "variant"}
        ):
            raise CatalogueFormatError(f"{path}:{line}: bad alias row")
        found.append((alias, printed, kind))
    return found


def parse_sets(path: Path = SETS_CSV) -> list[Edition]:
    """The WoW TCG set table (``sets.csv``: set, tracker_set, code, block, block_order,
    group, kind, released) as editions; ``code`` of an :class:`Edition` is the set name cards
    use, ``name`` the Tracker's set name, ``released`` a partial ISO date (``"2011-04-26"``,
    ``"2010"``; ``""`` = unknown). docs/rules.md §10.

    Raises:
        CatalogueFormatError: missing columns, empty or duplicate set, bad block order, a
            release date that is not a partial ISO date.
    """
    columns = ("set", "tracker_set", "code", "block", "block_order", "group", "kind", "released")
    editions: dict[str, Edition] = {}
    for line, row in enumerate(read_csv_rows(path, columns), 2):
        name = row["set"].strip()
        order = row["block_order"].strip()
        released = row["released"].strip()
        try:
            parse_partial_date(released)
        except ValueError:
            released = "?"
        if not name or name in editions or (order and not order.isdigit()) or released == "?":
            raise CatalogueFormatError(f"{path}:{line}: empty, duplicate or bad set row")
        editions[name] = Edition(
            code=name,
            name=row["tracker_set"].strip() or name,
            block=row["block"].strip(),
            block_order=int(order) if order else None,
            group=row["group"].strip(),
            kind=row["kind"].strip(),
            released=released,
        )
    return list(editions.values())


def apply_card_facts(
    cards: list[Card],
    *,
    aliases: list[tuple[str, str, str]],
    sets: list[Edition],
    reprints: dict[str, tuple[str, ...]],
    set_codes: dict[str, str] | None = None,
) -> list[Card]:
    """Printed names and aliases, set flags and reprint editions (module docstring).

    Pure: returns new cards in the same order; cards not named by the tables are returned
    with only the set attributes added.
    """
    renames = {alias: printed for alias, printed, kind in aliases if kind != "variant"}
    extra: dict[str, list[str]] = {}
    for alias, printed, _kind in aliases:
        extra.setdefault(normalize_name(printed), []).append(alias)
    by_set = {edition.code: edition for edition in sets}
    counts: dict[str, int] = {}
    for card in cards:
        key = normalize_name(renames.get(card.name, card.name))
        counts[key] = counts.get(key, 0) + 1
    result: list[Card] = []
    for card in cards:
        name = renames.get(card.name, card.name)
        key = normalize_name(name)
        attributes = dict(card.attributes)
        spellings = [a for a in extra.get(key, []) if a != name]
        if spellings:
            attributes[ALIASES] = tuple(dict.fromkeys(spellings))
        edition = by_set.get(str(attributes.get("series", "")))
        if edition is not None:
            for attr, value in (
                ("set_code", (set_codes or {}).get(edition.code, "")),
                ("set_group", edition.group),
                ("set_kind", edition.kind),
            ):
                if value:
                    attributes[attr] = value
        if counts[key] == 1 and key in reprints:
            own_value = attributes.get("editions", ())
            own = set(own_value) if isinstance(own_value, tuple | list) else set()
            others = tuple(code for code in reprints[key] if code not in own)
            if others:
                attributes[REPRINT_EDITIONS] = others
        result.append(
            Card(
                id=card.id,
                game=card.game,
                name=name,
                kind=card.kind,
                types=card.types,
                colours=card.colours,
                class_icons=card.class_icons,
                faction=card.faction,
                hero_traits=card.hero_traits,
                requires=card.requires,
                unlimited=card.unlimited,
                rarity=card.rarity,
                copy_group=normalize_name(name),
                attributes=attributes,
            )
        )
    return result


def parse_set_codes(path: Path = SETS_CSV) -> dict[str, str]:
    """Set name → short set code (``"Heroes of Azeroth"`` → ``"hoa"``) from ``sets.csv``."""
    return {
        row["set"].strip(): row["code"].strip()
        for row in read_csv_rows(path, ("set", "code"))
        if row["code"].strip()
    }
