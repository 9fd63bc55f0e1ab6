"""World of Warcraft TCG card data: ``decks/data/wowtcg/wow_tcg.csv`` (mikechambers/
WoWTCGUtility @ c84076b, MIT; see ``decks/data/README.md``). Pure Python.

Decisions, taken after counting the values of every column (3,186 rows):

- **Identity**: ``id`` is the stable external id. Names are stripped (18 carry trailing
  spaces). Three names occur twice (Death Coil 763/2897, Surge of Life 463/3044, Paladin
  Training 988/3168): they are different cards (other class, type or text), so both rows stay,
  each with its own id; ``copy_group`` is the normalised name, because the 4-copy limit counts
  cards "with the same name" (WoW TCG Comprehensive Rules §100; docs/rules.md §9).
- **kind**: ``type == "Hero"`` → hero, except the two "Master Hero" cards (Spirit of
  Redemption is typed Hero but tagged ``Master Hero`` and is played from the deck): those are
  ordinary cards with ``attributes["master_hero"] = True``. ``types`` is ``(type,)``; the
  type line tags (Instant, Talent, Pet (1), Weapon Dagger Melee (1) …) go to
  ``attributes["type_tags"]`` with whitespace collapsed.
- **class column**: full names (``Warrior``, ``Death Knight`` …, one ``"Hunter "`` with a
  trailing space), ``Any`` (= no class icon), ``Demon`` (only demon heroes and allies), or
  concatenated two-letter codes (``MgPrWk`` = Mage, Priest, Warlock; ``DkPaWr``; even
  ``Hu`` alone and repeated codes such as ``DkHuPaWrWr``): Dk Death Knight, Dr Druid,
  Hu Hunter, Mg Mage, Pa Paladin, Pr Priest, Ro Rogue, Sh Shaman, Wk Warlock, Wr Warrior.
  Anything else raises :class:`CatalogueFormatError`.
  - Abilities, equipment (Weapon/Armor/Item), quests and locations: the decoded classes are
    the card's **class icons**.
  - **Allies**: the column is the ally's *own* class (Warrior ally, Priest ally), not an icon;
    allies restrict only by faction. It is kept as ``attributes["ally_class"]`` (sorted list)
    with ``attributes["pet"]`` for ``Pet`` allies, whose class restriction is not encoded in
    the data (not enforced; docs/rules.md §9).
  - **Heroes**: the class is the hero's trait.
- **faction**: Horde / Alliance is a faction icon; Neutral = no icon (``None``). Abilities and
  equipment are almost all Neutral (22 racial abilities carry Horde/Alliance). For heroes the
  faction is a trait (Neutral → no faction trait; the six demon / special heroes).
- **hero_traits** (heroes only): ``class``, ``race``, ``faction``, ``talent`` and
  ``profession`` sets; ``professions`` and ``talent`` are comma-separated lists.
- **requires** ("[Trait] Hero Required"): from ``talent_restrictions``,
  ``race_restrictions`` and ``profession_restrictions`` (one value each; the typo ``Arns`` in
  3058 is read as ``Arms``), merged with the bold "… Hero Required" line of the rules text,
  which covers 11 more cards the columns miss (``Horde``/``Alliance`` → faction, ``Undead`` →
  race, ``Blacksmithing`` → profession, ``[Druid], [Paladin], [Priest], or [Shaman]`` → class).
  Tokens that name no known trait are ignored. Real heroes get no ``requires``.
  ``Traitor`` and ``Loyal`` are talents in this data.
- **unlimited**: the word ``Unlimited`` in ``type_tags`` (10 cards, e.g. Orgrimmar Grunts).
- **rarity**: C / U / R / E as in the source.
- **attributes**: ``series`` (= edition), ``block``, ``card_num``, ``formats`` (["Classic",
  "Core"] or ["Classic"]), ``series_type`` (Core / Raid / Promo / Crafting; Raid loot is not
  constructed-legal, docs/rules.md §10), ``reputation`` (Aldor / Scryer / Argent Crusade /
  Nerubian, from ``reputation_restrictions`` or ``ally_faction``; the rule was not
  found, so it is only recorded, docs/rules.md §9), ``talent`` for non-hero cards (the
  talent tree an ability belongs to, not a restriction), ``race`` for allies.
- **Printed names** (``aliases.csv``): 55 rows of the CSV misspell the printed name (Kulan
  Earthgaurd, Beastial Wrath, Samuel Gray …) and 9 differ only in case. The card takes the
  printed name (WoWTCG-Tracker ``prints.json``, same set and collector number) and keeps the
  source spelling in ``attributes["aliases"]``, so both spellings resolve and the printed one
  is shown; ``variant`` rows add a spelling players use ("Galahandra Keeper of the Silent
  Grove" without the comma). docs/rules.md §9 (WoW TCG constructed decks), §17.
- **Sets** (``sets.csv``): ``attributes["set_code"]`` (hoa, tdp, sw …), ``["set_group"]``
  (Basic / Raid / Dungeon / Starter / Special / Promotional) and ``["set_kind"]`` (Main,
  Treasure, Raid, Token, Crafted, Badges, Promo, Starter, Event): raid, dungeon and
  treasure cards are flagged by their set. :func:`parse_sets` gives the set table as
  :class:`decks.domain.editions.Edition` rows (block, block order, release date) for format
  legality.
- **Reprints** (the Tracker's ``tracker/prints.csv``): sets other than the row's own in which
  a card of the same printed name was printed (only names that occur once in the CSV) go to
  ``attributes["reprint_editions"]``; ``attributes["editions"]`` stays the source series.
  docs/rules.md §10 (WoW TCG formats and ban lists).
- **Legality tags** (``tracker/cards.csv``): ``attributes["legalities"]`` (Classic,
  Contemporary, Core, Block) of the same printed name.
- **Every other set**: :func:`parse_bundled` adds the Tracker names this CSV lacks
  (:mod:`decks.loaders.wowtcg_tracker`).

The aliases and sets tables are read and applied here too ("The bundled tables" below).
"""

from __future__ import annotations

import csv
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from decks.domain.editions import Edition, parse_partial_date
from decks.domain.normalize import normalize_name
from decks.domain.types import ALIASES, REPRINT_EDITIONS, Card, CardKind
from decks.loaders.base import DATA_DIR, CatalogueFormatError, read_csv_rows
from decks.loaders.wowtcg_tracker import (
    TRACKER_CARDS_CSV,
    TRACKER_PRINTS_CSV,
    parse_tracker_cards,
    parse_tracker_prints,
    printings_by_name,
    tracker_only_cards,
)

__all__ = [
    "ALIASES_CSV",
    "BUNDLED_CSV",
    "CLASS_CODES",
    "CLASS_NAMES",
    "FACTIONS",
    "GAME",
    "SETS_CSV",
    "TRACKER_CARDS_CSV",
    "TRACKER_PRINTS_CSV",
    "apply_card_facts",
    "decode_classes",
    "editions",
    "parse_aliases",
    "parse_bundled",
    "parse_csv",
    "parse_set_codes",
    "parse_sets",
]

GAME = "wow"
BUNDLED_CSV = DATA_DIR / "wowtcg" / "wow_tcg.csv"
ALIASES_CSV = DATA_DIR / "wowtcg" / "aliases.csv"
SETS_CSV = DATA_DIR / "wowtcg" / "sets.csv"

CLASS_CODES: dict[str, str] = {
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
CLASS_NAMES = frozenset(CLASS_CODES.values())
_SPECIAL_CLASSES = frozenset({"Demon"})
_CODE_RUN = re.compile(r"^(?:" + "|".join(CLASS_CODES) + r")+$")
_CODE = re.compile("|".join(CLASS_CODES))
FACTIONS = frozenset({"Horde", "Alliance"})
# Known misspellings in the source restriction columns.
_RESTRICTION_TYPOS = {"Arns": "Arms"}
_HERO_REQUIRED = re.compile(r"^\s*(.+?)\s+Hero Required", re.MULTILINE)
_REQUIRED_COLUMNS = (
    "id",
    "series",
    "name",
    "type",
    "class",
    "race",
    "professions",
    "talent",
    "faction",
    "type_tags",
    "rarity",
    "rules",
    "series_type",
    "talent_restrictions",
    "race_restrictions",
    "profession_restrictions",
)


def decode_classes(value: str) -> frozenset[str]:
    """Decode the ``class`` column into class names.

    ``"Any"``/``""`` → empty; ``"Warrior"`` → {"Warrior"}; ``"MgPrWk"`` → {"Mage", "Priest",
    "Warlock"}; ``"Demon"`` → {"Demon"}. Raises :class:`CatalogueFormatError` otherwise.
    """
    text = value.strip()
    if text in ("", "Any"):
        return frozenset()
    if text in CLASS_NAMES or text in _SPECIAL_CLASSES:
        return frozenset({text})
    if _CODE_RUN.match(text):
        return frozenset(CLASS_CODES[code] for code in _CODE.findall(text))
    raise CatalogueFormatError(f"unknown class value {value!r}")


def _split_commas(value: str) -> frozenset[str]:
    return frozenset(part.strip() for part in value.split(",") if part.strip())


class _Vocabulary:
    """Trait values seen in the data, used to classify "… Hero Required" tokens."""

    def __init__(self, rows: list[dict[str, str]]) -> None:
        self.talent: set[str] = {"Traitor", "Loyal"}
        self.race: set[str] = set()
        self.profession: set[str] = set()
        for row in rows:
            if row["type"].strip() == "Hero":
                self.talent |= _split_commas(row["talent"])
                self.race |= _split_commas(row["race"])
                self.profession |= _split_commas(row["professions"])
            self.talent |= _split_commas(_fix(row["talent_restrictions"]))
            self.race |= _split_commas(row["race_restrictions"])
            self.profession |= _split_commas(row["profession_restrictions"])

    def classify(self, token: str) -> str | None:
        if token in CLASS_NAMES:
            return "class"
        if token in FACTIONS:
            return "faction"
        for key in ("talent", "race", "profession"):
            if token in getattr(self, key):
                return key
        return None


def _fix(value: str) -> str:
    text = value.strip()
    return _RESTRICTION_TYPOS.get(text, text)


def _requires_from_text(rules: str, vocab: _Vocabulary) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    text = rules.replace("<br>", "\n")
    for match in _HERO_REQUIRED.finditer(text):
        for raw in re.split(r",|\bor\b", match.group(1)):
            token = raw.strip().strip("[]").strip()
            key = vocab.classify(token)
            if key is not None:
                found.setdefault(key, set()).add(token)
    return found


def _base_attributes(row: dict[str, str], tags: str, master_hero: bool) -> dict[str, object]:
    """Attributes every card gets: edition, series, block, number, formats, tags, reputation."""
    attributes: dict[str, object] = {
        "editions": (row["series"].strip(),),
        "series": row["series"].strip(),
        "series_type": row["series_type"].strip(),
    }
    for column in ("block", "card_num"):
        if row.get(column, "").strip():
            attributes[column] = row[column].strip()
    if row.get("format", "").strip():
        attributes["formats"] = sorted(_split_commas(row["format"]))
    if tags:
        attributes["type_tags"] = tags
    reputation = row.get("reputation_restrictions", "").strip()
    ally_faction = row.get("ally_faction", "").strip()
    if not reputation and ally_faction and ally_faction != "Neutral":
        reputation = ally_faction
    if reputation:
        attributes["reputation"] = reputation
    if master_hero:
        attributes["master_hero"] = True
    return attributes


def _requires(row: dict[str, str], vocab: _Vocabulary) -> dict[str, frozenset[str]]:
    """ "[Trait] Hero Required" of a non-hero card: the restriction columns merged with the
    rules-text line."""
    merged = _requires_from_text(row["rules"], vocab)
    for key, column in (
        ("talent", "talent_restrictions"),
        ("race", "race_restrictions"),
        ("profession", "profession_restrictions"),
    ):
        values = _split_commas(_fix(row[column]))
        if values:
            merged.setdefault(key, set()).update(values)
    return {key: frozenset(values) for key, values in sorted(merged.items())}


def _row_to_card(row: dict[str, str], vocab: _Vocabulary) -> Card:
    card_type = row["type"].strip()
    tags = " ".join(row["type_tags"].split())
    tag_words = set(tags.split())
    master_hero = "Master Hero" in tags
    is_hero = card_type == "Hero" and not master_hero
    try:
        classes = decode_classes(row["class"])
    except CatalogueFormatError as exc:
        raise CatalogueFormatError(f"card id {row['id']}: {exc}") from exc
    faction_value = row["faction"].strip()
    faction = faction_value if faction_value in FACTIONS else None
    attributes = _base_attributes(row, tags, master_hero)

    hero_traits: dict[str, frozenset[str]] = {}
    requires: dict[str, frozenset[str]] = {}
    class_icons: frozenset[str] = frozenset()
    if is_hero:
        hero_traits = {
            "class": classes,
            "race": _split_commas(row["race"]),
            "faction": frozenset({faction}) if faction else frozenset(),
            "talent": _split_commas(row["talent"]),
            "profession": _split_commas(row["professions"]),
        }
    else:
        if card_type == "Ally":
            attributes["ally_class"] = sorted(classes)
            if row["race"].strip():
                attributes["race"] = row["race"].strip()
            if "Pet" in tag_words:
                attributes["pet"] = True
        else:
            class_icons = classes
        if row["talent"].strip():
            attributes["talent"] = sorted(_split_commas(row["talent"]))
        requires = _requires(row, vocab)

    name = row["name"].strip()
    return Card(
        id=row["id"].strip(),
        game=GAME,
        name=name,
        kind=CardKind.HERO if is_hero else CardKind.CARD,
        types=(card_type,),
        colours=(),
        class_icons=class_icons,
        faction=faction,
        hero_traits=hero_traits,
        requires=requires,
        unlimited="Unlimited" in tag_words,
        rarity=row["rarity"].strip(),
        copy_group=normalize_name(name),
        attributes=attributes,
    )


def parse_csv(
    path: Path = BUNDLED_CSV,
    *,
    aliases_path: Path | None = ALIASES_CSV,
    sets_path: Path | None = SETS_CSV,
    prints_path: Path | None = TRACKER_PRINTS_CSV,
    tracker_cards_path: Path | None = TRACKER_CARDS_CSV,
) -> list[Card]:
    """Parse the WoWTCGUtility CSV into cards (decisions in the module docstring), then apply
    the bundled printed names (``aliases.csv``), set flags (``sets.csv``), the other printings
    of each name (``tracker/prints.csv``) and the Tracker's legality tags
    (``tracker/cards.csv``); pass ``None`` for a table to skip it. Only the cards of
    ``wow_tcg.csv``: :func:`parse_bundled` adds the Tracker-only cards.

    Raises:
        CatalogueFormatError: missing columns, empty id/name, duplicate id, unknown class, a
            malformed table.
    """
    return _parse_all(path, aliases_path, sets_path, prints_path, tracker_cards_path)[0]


def parse_bundled() -> list[Card]:
    """The whole bundled WoW TCG catalogue: the cards of ``wow_tcg.csv`` (:func:`parse_csv`)
    followed by every Tracker name they do not cover
    (:func:`decks.loaders.wowtcg_tracker.tracker_only_cards`): every official set from
    Heroes of Azeroth to Reign of Fire, raid, dungeon and treasure decks, class starters and
    promos. docs/rules.md §17 (Card data sources and coverage).

    Raises:
        CatalogueFormatError: a malformed bundled table.
    """
    cards, extra = _parse_all(
        BUNDLED_CSV, ALIASES_CSV, SETS_CSV, TRACKER_PRINTS_CSV, TRACKER_CARDS_CSV
    )
    return cards + extra


def _parse_all(
    path: Path,
    aliases_path: Path | None,
    sets_path: Path | None,
    prints_path: Path | None,
    tracker_cards_path: Path | None,
) -> tuple[list[Card], list[Card]]:
    """(the CSV's cards with every table applied, the Tracker-only cards)."""
    aliases = parse_aliases(aliases_path) if aliases_path is not None else []
    sets = parse_sets(sets_path) if sets_path is not None else []
    spelling = {
        normalize_name(alias): normalize_name(printed)
        for alias, printed, kind in aliases
        if kind == "variant"
    }
    printings = (
        printings_by_name(parse_tracker_prints(prints_path), sets, spelling)
        if prints_path is not None
        else {}
    )
    cards = apply_card_facts(
        _parse_source_csv(path),
        aliases=aliases,
        sets=sets,
        reprints={key: tuple(p[0] for p in rows) for key, rows in printings.items()},
        set_codes=parse_set_codes(sets_path) if sets_path is not None else {},
    )
    if tracker_cards_path is None:
        return cards, []
    rows = parse_tracker_cards(tracker_cards_path)
    tags = {
        spelling.get(normalize_name(row.name), normalize_name(row.name)): row.legalities
        for row in rows
    }
    cards = [_with_legalities(card, tags.get(normalize_name(card.name), ())) for card in cards]
    known = {normalize_name(card.name) for card in cards}
    for card in cards:
        spellings: Any = card.attributes.get(ALIASES, ())
        known.update(normalize_name(str(a)) for a in spellings or ())
    known.update(spelling)
    extra = apply_card_facts(
        tracker_only_cards(rows, printings, known),
        aliases=[],
        sets=sets,
        reprints={},
        set_codes=parse_set_codes(sets_path) if sets_path is not None else {},
    )
    return cards, extra


def _with_legalities(card: Card, legalities: tuple[str, ...]) -> Card:
    if not legalities:
        return card
    return replace(card, attributes={**card.attributes, "legalities": list(legalities)})


def _parse_source_csv(path: Path) -> list[Card]:
    """The CSV rows as cards, before the bundled tables are applied."""
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = set(_REQUIRED_COLUMNS) - set(reader.fieldnames or ())
        if missing:
            raise CatalogueFormatError(f"{path}: missing columns {sorted(missing)}")
        rows = list(reader)
    vocab = _Vocabulary(rows)
    cards: list[Card] = []
    seen: set[str] = set()
    for line, row in enumerate(rows, start=2):
        if not row["id"].strip() or not row["name"].strip():
            raise CatalogueFormatError(f"{path}:{line}: empty id or name")
        if row["id"].strip() in seen:
            raise CatalogueFormatError(f"{path}:{line}: duplicate id {row['id']}")
        seen.add(row["id"].strip())
        cards.append(_row_to_card(row, vocab))
    return cards


def editions(cards: list[Card]) -> dict[str, str]:
    """Edition code → name for WoW (the ``series`` column; code and name are the same),
    in order of first appearance."""
    result: dict[str, str] = {}
    for card in cards:
        editions: Any = card.attributes.get("editions", ())
        for code in editions:
            result.setdefault(code, code)
    return result


# --- The bundled tables: printed names (aliases.csv), sets (sets.csv), reprints -----------


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
