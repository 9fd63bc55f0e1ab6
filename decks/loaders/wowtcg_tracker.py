"""WoW TCG cards of every official set from the WoWTCG-Tracker print list. Pure Python.

Bundled tables (``decks/data/wowtcg/tracker/``, facts from github.com/WoWTCG-Tracker/
wowtcg-tracker-api @ 50e7613, GPL-3.0; no card text; ``decks/data/README.md``):

- ``cards.csv``: one row per card name: ``category`` (Hero, Master_Hero, Ally, Ability,
  Equipment, Quest, Event, Location), ``cost``, ``classes`` (class icons, ``|``-joined),
  ``types`` (race, class, talent and ally-type words in source order; the source splits
  "Blood Elf" into ``Blood|Elf`` and spells Draenei ``Draenai`` seven times), ``attack_type``,
  ``legalities`` (the Tracker's tags: Classic, Contemporary, Core, Block) and ``hero_required``
  (the tokens of the bold "… Hero Required" line of the printed text).
- ``prints.csv``: one row per printing: ``name``, ``set`` (the Tracker's set name, mapped to
  the card data's set name by ``sets.csv``), collector ``number``, ``rarity``.

Decisions:

- **One home per fact.** ``wow_tcg.csv`` (MIT) stays the source of the 3,186 cards it holds
  (Heroes of Azeroth … Scourgewar, with faction, professions and restriction columns). A
  Tracker name that is a printed name or alias of one of those cards adds only its
  legality tags and its printings (``reprint_editions``); every other Tracker name becomes a
  card of its own (:func:`tracker_only_cards`), id ``trk-`` + 12 hex digits of the SHA-1 of
  the normalised name (stable across reloads).
- **kind**: ``Hero`` → hero; ``Master_Hero`` → an ordinary card typed ``Hero`` with
  ``attributes["master_hero"]`` (as in ``wow_tcg.csv``).
- **Heroes**: traits ``class`` (``classes`` plus the class words of ``types``), ``race`` (the
  playable race of ``types``), ``faction`` (derived, below) and ``allegiance`` (Scourge /
  Monster among ``types``). Talent and professions are not in the print list: those keys are
  absent, so a card that requires one makes the list unverified (``hero_traits_unknown``),
  never illegal.
- **Faction (derived)**: the print list has no faction. For heroes and allies it is the
  faction of their playable race: Human, Dwarf, Gnome, Night Elf, Draenei, Worgen → Alliance;
  Orc, Undead, Tauren, Troll, Blood Elf, Goblin → Horde; any other race (Dragonkin, Demon,
  Pandaren, Murloc …) → no faction icon. Abilities, equipment, quests, events and locations get
  no faction icon. Checked against the 3,186 cards whose faction ``wow_tcg.csv`` states (tests):
  the rule gives the stated faction for 228 of 231 heroes and 920 of 1,058 allies (the misses
  are mostly neutral reputation allies such as the Aldor's Draenei). docs/rules.md §9.
- **Allies**: ``attributes["ally_class"]`` (class words of ``types``) and ``["race"]``; no
  class icon (as in ``wow_tcg.csv``).
- **Others**: ``classes`` are the class icons; a talent word of ``types`` goes to
  ``attributes["talent"]``.
- **requires**: ``hero_required`` tokens classified as class, faction, race, talent
  (Traitor and Loyal included, as in ``wow_tcg.csv``), profession or allegiance (Scourge,
  Monster); an unknown token is ignored.
- **Printings**: ``attributes["editions"]`` every set that printed the name (card-data set
  names, print order); ``["card_num"]`` / ``["series"]`` the first printing; ``["printings"]``
  ``[[set, number, rarity], …]``; ``rarity`` C/U/R/E of the first printing.
- **Unlimited**: not in the print list; Tracker-only cards are never ``unlimited`` (a judge
  can tick it in the admin). docs/rules.md §17.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from decks.domain.editions import Edition
from decks.domain.normalize import normalize_name
from decks.domain.types import Card, CardKind
from decks.loaders.base import DATA_DIR, CatalogueFormatError, read_csv_rows

__all__ = [
    "ALLIANCE_RACES",
    "HORDE_RACES",
    "TRACKER_CARDS_CSV",
    "TRACKER_PRINTS_CSV",
    "TrackerCard",
    "TrackerPrint",
    "derive_faction",
    "parse_tracker_cards",
    "parse_tracker_prints",
    "races_of",
    "requires_from_tokens",
    "tracker_only_cards",
]

TRACKER_DIR = DATA_DIR / "wowtcg" / "tracker"
TRACKER_CARDS_CSV = TRACKER_DIR / "cards.csv"
TRACKER_PRINTS_CSV = TRACKER_DIR / "prints.csv"

ALLIANCE_RACES = frozenset({"Human", "Dwarf", "Gnome", "Night Elf", "Draenei", "Worgen"})
HORDE_RACES = frozenset({"Orc", "Undead", "Tauren", "Troll", "Blood Elf", "Goblin"})
_CLASSES = frozenset(
    {
        "Death Knight",
        "Druid",
        "Hunter",
        "Mage",
        "Paladin",
        "Priest",
        "Rogue",
        "Shaman",
        "Warlock",
        "Warrior",
    }
)
_TALENTS = frozenset(
    {
        "Holy",
        "Fire",
        "Protection",
        "Restoration",
        "Balance",
        "Frost",
        "Arms",
        "Affliction",
        "Combat",
        "Demonology",
        "Survival",
        "Marksmanship",
        "Fury",
        "Discipline",
        "Retribution",
        "Destruction",
        "Beast Mastery",
        "Assassination",
        "Elemental",
        "Feral",
        "Shadow",
        "Subtlety",
        "Enhancement",
        "Arcane",
        "Blood",
        "Unholy",
    }
)
_REQUIRED_ONLY_TALENTS = frozenset({"Traitor", "Loyal"})
_PROFESSIONS = frozenset(
    {"Engineering", "Jewelcrafting", "Alchemy", "Tailoring", "Blacksmithing", "Leatherworking"}
)
_ALLEGIANCES = frozenset({"Scourge", "Monster"})
_TYPO = {"Draenai": "Draenei"}
_RARITY = {"Common": "C", "Uncommon": "U", "Rare": "R", "Epic": "E"}
_CATEGORIES = frozenset(
    {"Hero", "Master_Hero", "Ally", "Ability", "Equipment", "Quest", "Event", "Location"}
)


@dataclass(frozen=True, slots=True)
class TrackerCard:
    """One row of ``tracker/cards.csv`` (lists split on ``|``)."""

    name: str
    category: str
    cost: str
    classes: tuple[str, ...]
    types: tuple[str, ...]
    attack_type: str
    legalities: tuple[str, ...]
    hero_required: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TrackerPrint:
    """One row of ``tracker/prints.csv``: a printing of ``name`` in the Tracker set ``set``."""

    name: str
    set: str
    number: str
    rarity: str


def _split(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split("|") if part.strip())


def parse_tracker_cards(path: Path = TRACKER_CARDS_CSV) -> list[TrackerCard]:
    """Read ``tracker/cards.csv``.

    Raises:
        CatalogueFormatError: missing columns, an empty or repeated name, an unknown category.
    """
    columns = (
        "name",
        "category",
        "cost",
        "classes",
        "types",
        "attack_type",
        "legalities",
        "hero_required",
    )
    found: list[TrackerCard] = []
    seen: set[str] = set()
    for line, row in enumerate(read_csv_rows(path, columns), 2):
        name = row["name"].strip()
        if not name or name in seen or row["category"].strip() not in _CATEGORIES:
            raise CatalogueFormatError(f"{path}:{line}: empty or repeated name, or bad category")
        seen.add(name)
        found.append(
            TrackerCard(
                name=name,
                category=row["category"].strip(),
                cost=row["cost"].strip(),
                classes=_split(row["classes"]),
                types=_split(row["types"]),
                attack_type=row["attack_type"].strip(),
                legalities=_split(row["legalities"]),
                hero_required=_split(row["hero_required"]),
            )
        )
    return found


def parse_tracker_prints(path: Path = TRACKER_PRINTS_CSV) -> list[TrackerPrint]:
    """Read ``tracker/prints.csv`` in file order.

    Raises:
        CatalogueFormatError: missing columns, an empty name or set.
    """
    found: list[TrackerPrint] = []
    for line, row in enumerate(read_csv_rows(path, ("name", "set", "number", "rarity")), 2):
        if not row["name"].strip() or not row["set"].strip():
            raise CatalogueFormatError(f"{path}:{line}: empty name or set")
        found.append(
            TrackerPrint(
                name=row["name"].strip(),
                set=row["set"].strip(),
                number=row["number"].strip(),
                rarity=row["rarity"].strip(),
            )
        )
    return found


def races_of(types: Iterable[str]) -> tuple[str, ...]:
    """The words of a ``types`` list with "Blood", "Elf" joined to "Blood Elf" and the
    Draenei typo fixed: ``("Blood", "Elf", "Mage")`` → ``("Blood Elf", "Mage")``."""
    words = [_TYPO.get(word, word) for word in types]
    out: list[str] = []
    index = 0
    while index < len(words):
        if words[index] == "Blood" and index + 1 < len(words) and words[index + 1] == "Elf":
            out.append("Blood Elf")
            index += 2
            continue
        out.append(words[index])
        index += 1
    return tuple(out)


def derive_faction(words: Iterable[str]) -> str | None:
    """The faction of a hero or ally from its race (module docstring, "Faction (derived)"):
    ``"Alliance"`` / ``"Horde"``, or ``None`` when no playable race, or races of both, are
    named. ``words`` as returned by :func:`races_of`. docs/rules.md §9."""
    found = set(words)
    alliance, horde = bool(found & ALLIANCE_RACES), bool(found & HORDE_RACES)
    if alliance == horde:
        return None
    return "Alliance" if alliance else "Horde"


def _classify(token: str) -> str | None:
    token = _TYPO.get(token, token)
    if token in _CLASSES:
        return "class"
    if token in ("Horde", "Alliance"):
        return "faction"
    if token in ALLIANCE_RACES or token in HORDE_RACES:
        return "race"
    if token in _TALENTS or token in _REQUIRED_ONLY_TALENTS:
        return "talent"
    if token in _PROFESSIONS:
        return "profession"
    if token in _ALLEGIANCES:
        return "allegiance"
    return None


def requires_from_tokens(tokens: Iterable[str]) -> dict[str, frozenset[str]]:
    """ "… Hero Required" tokens as ``Card.requires``: each token classified as class,
    faction, race, talent (Traitor, Loyal included), profession or allegiance (Scourge,
    Monster); unknown tokens are dropped. ``["Holy", "Orc"]`` → ``{"race": {"Orc"},
    "talent": {"Holy"}}``."""
    found: dict[str, set[str]] = {}
    for token in tokens:
        kind = _classify(token)
        if kind is not None:
            found.setdefault(kind, set()).add(_TYPO.get(token, token))
    return {kind: frozenset(values) for kind, values in sorted(found.items())}


def card_id(name: str) -> str:
    """The stable id of a Tracker-only card: ``trk-`` + 12 hex digits of SHA-1(normalised)."""
    digest = hashlib.sha1(normalize_name(name).encode("utf-8")).hexdigest()
    return "trk-" + digest[:12]


def _traits_and_icons(
    row: TrackerCard, words: tuple[str, ...]
) -> tuple[dict[str, frozenset[str]], frozenset[str], str | None, dict[str, object]]:
    """(hero traits, class icons, faction icon, extra attributes) of one Tracker card."""
    classes = frozenset(w for w in words if w in _CLASSES)
    races = frozenset(w for w in words if w in ALLIANCE_RACES | HORDE_RACES)
    extra: dict[str, object] = {}
    talents = sorted(w for w in words if w in _TALENTS)
    if row.category == "Hero":
        faction = derive_faction(words)
        traits = {
            "class": classes | frozenset(row.classes),
            "race": races,
            "faction": frozenset({faction}) if faction else frozenset(),
            "allegiance": frozenset(w for w in words if w in _ALLEGIANCES),
        }
        return traits, frozenset(), None, extra
    if row.category == "Ally":
        extra["ally_class"] = sorted(classes)
        if races:
            extra["race"] = ", ".join(sorted(races))
        return {}, frozenset(), derive_faction(words), extra
    if talents:
        extra["talent"] = talents
    return {}, frozenset(row.classes), None, extra


def _tracker_card(row: TrackerCard, printings: list[tuple[str, str, str]]) -> Card:
    words = races_of(row.types)
    traits, icons, faction, extra = _traits_and_icons(row, words)
    master = row.category == "Master_Hero"
    first = printings[0] if printings else ("", "", "")
    attributes: dict[str, object] = {
        "editions": tuple(dict.fromkeys(p[0] for p in printings)),
        "series": first[0],
        "card_num": first[1],
        "printings": [list(p) for p in printings],
        "source": "WoWTCG-Tracker",
        **extra,
    }
    if row.cost:
        attributes["cost"] = row.cost
    if row.attack_type:
        attributes["attack_type"] = row.attack_type
    if row.legalities:
        attributes["legalities"] = list(row.legalities)
    if master:
        attributes["master_hero"] = True
    other_words = [w for w in words if w not in _CLASSES and w not in _TALENTS]
    if other_words:
        attributes["type_tags"] = " ".join(other_words)
    card_type = "Hero" if master else row.category
    return Card(
        id=card_id(row.name),
        game="wow",
        name=row.name,
        kind=CardKind.HERO if row.category == "Hero" else CardKind.CARD,
        types=(card_type,),
        colours=(),
        class_icons=icons,
        faction=faction,
        hero_traits=traits,
        requires={} if row.category == "Hero" else requires_from_tokens(row.hero_required),
        unlimited=False,
        rarity=_RARITY.get(first[2], first[2]),
        copy_group=normalize_name(row.name),
        attributes=attributes,
    )


def set_names(sets: Iterable[Edition]) -> dict[str, str]:
    """Tracker set name → the set name the card data uses (``sets.csv``: ``tracker_set`` →
    ``set``; ``Edition.name`` holds the Tracker's name)."""
    return {edition.name: edition.code for edition in sets if edition.name}


def printings_by_name(
    prints: Iterable[TrackerPrint], sets: Iterable[Edition], spelling: dict[str, str]
) -> dict[str, list[tuple[str, str, str]]]:
    """Normalised printed name → ``[(set, number, rarity), …]`` in print order; set names as
    the card data uses them; ``spelling`` maps a normalised Tracker spelling to the printed
    name's normalised form (Tracker misspellings, ``aliases.csv`` ``variant`` rows).

    Raises:
        CatalogueFormatError: a printing in a set ``sets.csv`` does not name.
    """
    names = set_names(sets)
    found: dict[str, list[tuple[str, str, str]]] = {}
    for row in prints:
        if row.set not in names:
            raise CatalogueFormatError(f"prints.csv: set {row.set!r} is not in sets.csv")
        key = normalize_name(row.name)
        key = spelling.get(key, key)
        found.setdefault(key, []).append((names[row.set], row.number, row.rarity))
    return found


def tracker_only_cards(
    rows: Iterable[TrackerCard],
    printings: dict[str, list[tuple[str, str, str]]],
    known: set[str],
) -> list[Card]:
    """Cards for the Tracker names whose normalised form is not in ``known`` (the printed
    names and aliases of ``wow_tcg.csv``), in the order of ``cards.csv`` (module docstring)."""
    return [
        _tracker_card(row, printings.get(normalize_name(row.name), []))
        for row in rows
        if normalize_name(row.name) not in known
    ]
