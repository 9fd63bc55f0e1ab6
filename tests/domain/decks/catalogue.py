"""Test helper: read the bundled real card data (``decks/data``) into domain ``Card`` objects.

The domain tests run without the database and without the product's loaders, so the mapping
here is a simple, independent stand-in for them (provenance of the files:
``decks/data/README.md`` and ``tests/fixtures/PROVENANCE.md``): HKK types ``Szabálylap`` /
``Követő`` (+ ``epikus`` / ``hordaparancsnok``) become the kinds; WoW ``class`` is a class icon
only on abilities and items (an ally's class is not an icon), ``faction`` Horde/Alliance is an
icon, the ``*_restrictions`` columns are "Hero Required" (the raid-only values
Traitor/Loyal/Scourge/Monster are skipped).
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

from decks.domain.types import Card, CardKind

#: The bundled data files (a missing file fails the tests that use them).
DATA_DIR = Path(__file__).resolve().parents[3] / "decks" / "data"
HKK_CSV = DATA_DIR / "hkk" / "cards-sample.csv"
WOW_CSV = DATA_DIR / "wowtcg" / "wow_tcg.csv"

WOW_CLASS_CODES = {
    "Dk": "Death Knight",
    "Dr": "Druid",
    "Hu": "Hunter",
    "Mg": "Mage",
    "Pa": "Paladin",
    "Pr": "Priest",
    "Ro": "Rogue",
    "Sh": "Shaman",
    "Wk": "Warlock",
    "Wr": "Warrior",
}
WOW_ICON_TYPES = {"Ability", "Weapon", "Armor", "Item"}
RAID_ONLY = {"Traitor", "Loyal", "Scourge", "Monster"}


def hkk_card(row: dict[str, str]) -> Card:
    types = tuple(t for t in row["types"].split("|") if t)
    kind = CardKind.CARD
    if types and types[0] == "Szabálylap":
        kind = CardKind.RULE_CARD
    elif types and types[0] == "Követő":
        kind = CardKind.FOLLOWER
        if "epikus" in types:
            kind = CardKind.EPIC_FOLLOWER
        elif "hordaparancsnok" in types:
            kind = CardKind.HORDE_COMMANDER
    colours = tuple(c for c in row["colours"].split("|") if c and c != "Nincs")
    return Card(
        id=row["id"],
        game="hkk",
        name=row["name"].strip(),
        kind=kind,
        types=types,
        colours=colours,
        rarity=row["rarity"],
    )


@cache
def hkk_cards() -> tuple[Card, ...]:
    """All 624 rows of the HKK sample catalogue."""
    with HKK_CSV.open(encoding="utf-8") as fh:
        return tuple(hkk_card(row) for row in csv.DictReader(fh))


def _split(value: str) -> frozenset[str]:
    return frozenset(v.strip() for v in value.split(",") if v.strip())


def wow_classes(value: str) -> frozenset[str]:
    value = value.strip()
    if not value or value == "Any":
        return frozenset()
    parts = [value[i : i + 2] for i in range(0, len(value), 2)]
    if all(part in WOW_CLASS_CODES for part in parts):
        return frozenset(WOW_CLASS_CODES[part] for part in parts)
    return frozenset({value})


def wow_card(row: dict[str, str]) -> Card:
    card_type = row["type"]
    faction = row["faction"].strip()
    requires = {}
    for key, column in (
        ("talent", "talent_restrictions"),
        ("race", "race_restrictions"),
        ("profession", "profession_restrictions"),
    ):
        values = _split(row[column]) - RAID_ONLY
        if values:
            requires[key] = values
    if card_type == "Hero":
        return Card(
            id=row["id"],
            game="wow",
            name=row["name"].strip(),
            kind=CardKind.HERO,
            types=(card_type,),
            hero_traits={
                "class": wow_classes(row["class"]),
                "race": _split(row["race"]),
                "faction": frozenset({faction}),
                "talent": _split(row["talent"]),
                "profession": _split(row["professions"]),
            },
            rarity=row["rarity"],
        )
    return Card(
        id=row["id"],
        game="wow",
        name=row["name"].strip(),
        types=(card_type,),
        class_icons=wow_classes(row["class"]) if card_type in WOW_ICON_TYPES else frozenset(),
        faction=faction if faction in {"Horde", "Alliance"} else None,
        requires=requires,
        unlimited="Unlimited" in row["type_tags"],
        rarity=row["rarity"],
    )


@cache
def wow_cards() -> tuple[Card, ...]:
    """All 3,186 rows of the mikechambers WoW TCG CSV."""
    with WOW_CSV.open(encoding="utf-8") as fh:
        return tuple(wow_card(row) for row in csv.DictReader(fh))


def by_name(cards: tuple[Card, ...], name: str) -> Card:
    """The lowest-id card called exactly ``name``."""
    found = sorted((c for c in cards if c.name == name), key=lambda c: int(c.id))
    if not found:
        raise LookupError(name)
    return found[0]
