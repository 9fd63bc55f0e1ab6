"""Fan-made WoW TCG editions (the revival community's own sets), imported by an organiser with
``manage.py import_cards wow FILE``. Pure Python. docs/rules.md §17 (Card data sources and
coverage) documents the file shapes; in short:

JSON: ``{"edition": "Set name", "source": "who made it, where, licence", "cards": [card, …]}``
CSV: one card a row with the columns ``edition`` and ``source`` on every row plus the card
columns below (lists joined with ``|``).

Card keys (``name`` and ``type`` required, the rest optional): ``name``; ``type`` (Hero, Ally,
Ability, Equipment, Quest, Event, Location); ``number`` (collector number in the edition);
``classes`` (class icons; a hero's or ally's own class); ``race``; ``faction`` (Horde /
Alliance; empty = neutral; a hero or ally without it takes the faction of its race, as the
Tracker cards do); ``talent``, ``professions`` (heroes); ``hero_required`` ("… Hero Required"
values: class, race, faction, talent, profession, Scourge, Monster); ``unlimited`` (true /
false, ``1`` / ``0``); ``cost``; ``rarity``.

Each card gets id ``fan-`` + 12 hex digits of SHA-1(edition + name), its edition, the
edition's ``source`` as ``attributes["provenance"]`` and ``attributes["set_group"] =
"Fan-made"``. A fan-made edition has no block and no release date: it is legal in Classic and
Constructed and makes a Core or Block list unverified until an organiser gives the edition a
block in the admin.
"""

from __future__ import annotations

import csv
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from decks.domain.normalize import normalize_name
from decks.domain.types import Card, CardKind
from decks.loaders.base import CatalogueFormatError
from decks.loaders.wowtcg_tracker import derive_faction, races_of, requires_from_tokens

__all__ = ["FAN_GROUP", "parse_fan_file"]

FAN_GROUP = "Fan-made"
_TYPES = frozenset({"Hero", "Ally", "Ability", "Equipment", "Quest", "Event", "Location"})
_FACTIONS = frozenset({"Horde", "Alliance"})


def _list(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, list | tuple):
        return tuple(str(v).strip() for v in value if str(v).strip())
    return tuple(part.strip() for part in str(value).split("|") if part.strip())


def _flag(value: object, where: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value or "").strip().lower()
    if text in ("", "0", "false", "no"):
        return False
    if text in ("1", "true", "yes"):
        return True
    raise CatalogueFormatError(f"{where}: 'unlimited' must be true or false")


def _card(record: Mapping[str, Any], edition: str, source: str, where: str) -> Card:
    name = str(record.get("name") or "").strip()
    card_type = str(record.get("type") or "").strip()
    if not name or card_type not in _TYPES:
        raise CatalogueFormatError(
            f"{where}: a card needs a 'name' and a 'type' of {sorted(_TYPES)}"
        )
    faction = str(record.get("faction") or "").strip()
    if faction and faction not in _FACTIONS:
        raise CatalogueFormatError(f"{where}: 'faction' must be Horde, Alliance or empty")
    classes = frozenset(_list(record.get("classes")))
    races = frozenset(races_of(_list(record.get("race"))))
    if not faction and card_type in ("Hero", "Ally"):
        faction = derive_faction(races) or ""
    attributes: dict[str, object] = {
        "editions": (edition,),
        "series": edition,
        "card_num": str(record.get("number") or "").strip(),
        "provenance": source,
        "set_group": FAN_GROUP,
    }
    if str(record.get("cost") or "").strip():
        attributes["cost"] = str(record["cost"]).strip()
    traits: dict[str, frozenset[str]] = {}
    if card_type == "Hero":
        traits = {
            "class": classes,
            "race": races,
            "faction": frozenset({faction}) if faction else frozenset(),
        }
        for key, column in (("talent", "talent"), ("profession", "professions")):
            if record.get(column) not in (None, ""):
                traits[key] = frozenset(_list(record.get(column)))
    elif card_type == "Ally":
        attributes["ally_class"] = sorted(classes)
    requires = (
        {} if card_type == "Hero" else requires_from_tokens(_list(record.get("hero_required")))
    )
    digest = hashlib.sha1(f"{edition}\n{normalize_name(name)}".encode()).hexdigest()
    return Card(
        id="fan-" + digest[:12],
        game="wow",
        name=name,
        kind=CardKind.HERO if card_type == "Hero" else CardKind.CARD,
        types=(card_type,),
        colours=(),
        class_icons=classes if card_type not in ("Hero", "Ally") else frozenset(),
        faction=(faction or None) if card_type != "Hero" else None,
        hero_traits=traits,
        requires=requires,
        unlimited=_flag(record.get("unlimited"), where),
        rarity=str(record.get("rarity") or "").strip(),
        copy_group=normalize_name(name),
        attributes=attributes,
    )


def _edition_and_source(edition: object, source: object, where: str) -> tuple[str, str]:
    edition_name, source_text = str(edition or "").strip(), str(source or "").strip()
    if not edition_name or not source_text:
        raise CatalogueFormatError(f"{where}: 'edition' and 'source' are required")
    return edition_name, source_text


def _from_json(path: Path) -> list[Card]:
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CatalogueFormatError(f"{path.name}: not JSON: {exc}") from exc
    if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
        raise CatalogueFormatError(f"{path.name}: expected an object with 'cards' [...]")
    edition, source = _edition_and_source(data.get("edition"), data.get("source"), path.name)
    cards = []
    for number, record in enumerate(data["cards"], 1):
        if not isinstance(record, Mapping):
            raise CatalogueFormatError(f"{path.name}: card {number} is not an object")
        cards.append(_card(record, edition, source, f"{path.name}: card {number}"))
    return cards


def _from_csv(path: Path) -> list[Card]:
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.DictReader(handle))
    except UnicodeDecodeError as exc:
        raise CatalogueFormatError(f"{path.name}: not UTF-8 text") from exc
    cards = []
    for line, row in enumerate(rows, 2):
        where = f"{path.name}:{line}"
        edition, source = _edition_and_source(row.get("edition"), row.get("source"), where)
        cards.append(_card(row, edition, source, where))
    return cards


def parse_fan_file(path: Path) -> list[Card]:
    """Read an organiser's fan-made edition file (``.json``, else CSV; shapes in the module
    docstring) into cards.

    Raises:
        CatalogueFormatError: not JSON / UTF-8 CSV, a missing edition, source, name or type, a
            bad faction or unlimited flag, or two cards of one edition with the same name.
    """
    cards = _from_json(path) if path.suffix.lower() == ".json" else _from_csv(path)
    seen: set[str] = set()
    for card in cards:
        if card.id in seen:
            raise CatalogueFormatError(f"{path.name}: {card.name!r} appears twice in its edition")
        seen.add(card.id)
    return cards
