"""HKK (Hatalom Kártyái) card data: the bundled sample CSV, editions.json and the publisher's
card-search JSON. Pure Python.

Decisions (sources: docs/rules.md §1 (HKK card identity, colours and editions), §2 (HKK rule
cards, followers and guilds), §17 (Card data sources and coverage); decks/data/README.md):

- ``kind``: main type ``Szabálylap`` → rule card; ``Követő`` → follower, or epic follower /
  horde commander when a later type is ``epikus`` / ``hordaparancsnok``; ``Céh`` → guild;
  everything else → ordinary card.
- ``types``: the source type list, main type first; the placeholder ``-`` is dropped (it is
  not a type).
- ``colours``: the pseudo-colour ``Nincs`` is dropped. Rule cards and followers always get
  ``()`` (colourless by rule: HKK FAQ on rule cards and first-player rights, Kódex §43.2, §44.3;
  docs/rules.md §2), even where newer reprints print
  ``Színtelen``. Any other card with no colour left is *unknown* (``None``); ``Színtelen`` is
  a real value ("colourless") and kept as printed.
- ``rarity``: the source ``commonness`` (common / uncommon / rare / ultraRare), unchanged.
- ``unlimited``: no source field carries it yet → ``False``; organisers can set it in the admin.
- ``attributes``: ``editions`` (edition ids in source order), ``flags`` (the publisher's
  keyword flags) when present.
- **Coverage**: the bundled sample holds 624 of several thousand cards, so a catalogue built
  from it is :attr:`~decks.domain.types.Coverage.PARTIAL` (:data:`BUNDLED_COVERAGE`): a name
  it lacks makes a list ``unverified``, not illegal. docs/rules.md §17.
- **Name-only entries** (:func:`parse_meta_names`, :func:`name_only_cards`): every card name
  of the tournament usage statistics (``decks/data/hkk/meta/*.csv``) that the sample lacks
  becomes a card whose facts are unknown: id ``meta-<12 hex digits of sha1(normalised
  name)>``, no types, colours ``None``, no editions, ``attributes["facts_unknown"] =
  ("types", "colours", "editions", "rarity")``. Kind: ``(epikus)`` → epic follower; a name
  from the topcards files → deck card; another name from the orange files (rule cards and
  followers) → ``attributes["possible_kinds"] = ("rule_card", "follower")`` (the resolver
  takes the declared section's kind). A cell of an orange file may hold a rule card and a
  follower, "Lassan járj!, Átkozott követő (új)": it is split at a comma followed by a space
  and a capital letter; names such as "Fufuka, az álomelf (epikus)" or "Jobb későn, mint
  soha!" continue in lower case and stay whole; read in :mod:`decks.loaders.hkk_meta`.
  docs/rules.md §1, §17.
- **Editions as data** (:func:`parse_edition_releases`): ``editions.json`` names plus
  ``edition-releases.csv`` dates (``released`` partial ISO date, ``released_after`` /
  ``released_before`` bounds) as :class:`~decks.domain.editions.Edition` rows, for format
  legality (Retró: ``decks.domain.editions.HKK_RETRO``); read in
  :mod:`decks.loaders.hkk_editions` and importable from here. docs/rules.md §4.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path

from decks.domain.normalize import normalize_name
from decks.domain.types import FOLLOWER_KINDS, Card, CardKind, Coverage
from decks.loaders.base import DATA_DIR, CatalogueFormatError
from decks.loaders.hkk_editions import (
    EDITION_RELEASES_CSV,
    EDITIONS_JSON,
    parse_edition_releases,
    parse_editions,
)
from decks.loaders.hkk_meta import (
    EPIC_SUFFIX,
    GAME,
    META_DIR,
    META_FILES,
    NAME_ONLY_UNKNOWN,
    MetaName,
    name_only_cards,
    name_only_id,
    parse_meta_names,
    split_meta_cell,
)

__all__ = [
    "BUNDLED_COVERAGE",
    "EDITIONS_JSON",
    "EDITION_RELEASES_CSV",
    "EPIC_SUFFIX",
    "FOLLOWER_TYPE",
    "GAME",
    "GUILD_TYPE",
    "META_DIR",
    "META_FILES",
    "NAME_ONLY_UNKNOWN",
    "PSEUDO_COLOUR",
    "RULE_CARD_TYPE",
    "SAMPLE_CSV",
    "MetaName",
    "card_kind",
    "make_card",
    "name_only_cards",
    "name_only_id",
    "parse_bundled",
    "parse_edition_releases",
    "parse_editions",
    "parse_meta_names",
    "parse_publisher_json",
    "parse_publisher_records",
    "parse_sample_csv",
    "split_meta_cell",
]

SAMPLE_CSV = DATA_DIR / "hkk" / "cards-sample.csv"
#: Coverage of a catalogue built from the bundled data (sample + name-only entries).
BUNDLED_COVERAGE = Coverage.PARTIAL

PSEUDO_COLOUR = "Nincs"
RULE_CARD_TYPE = "Szabálylap"
FOLLOWER_TYPE = "Követő"
GUILD_TYPE = "Céh"
_FOLLOWER_SUBTYPES = {"epikus": CardKind.EPIC_FOLLOWER, "hordaparancsnok": CardKind.HORDE_COMMANDER}


def card_kind(types: tuple[str, ...]) -> CardKind:
    """Return the :class:`CardKind` of an HKK card from its type list (main type first)."""
    if not types:
        return CardKind.CARD
    main = types[0].strip()
    if main == RULE_CARD_TYPE:
        return CardKind.RULE_CARD
    if main == FOLLOWER_TYPE:
        for sub in types[1:]:
            kind = _FOLLOWER_SUBTYPES.get(sub.strip().casefold())
            if kind is not None:
                return kind
        return CardKind.FOLLOWER
    if main.casefold() == GUILD_TYPE.casefold():
        return CardKind.GUILD
    return CardKind.CARD


def make_card(
    *,
    card_id: str,
    name: str,
    types: list[str],
    colours: list[str],
    rarity: str,
    editions: list[str],
    flags: Sequence[str] = (),
) -> Card:
    """Build one HKK :class:`Card` from source values, applying the module's decisions."""
    clean_types = tuple(t.strip() for t in types if t.strip() and t.strip() != "-")
    kind = card_kind(clean_types)
    real_colours = tuple(c.strip() for c in colours if c.strip() and c.strip() != PSEUDO_COLOUR)
    card_colours: tuple[str, ...] | None
    if kind == CardKind.RULE_CARD or kind in FOLLOWER_KINDS:
        card_colours = ()
    elif real_colours:
        card_colours = tuple(dict.fromkeys(real_colours))
    else:
        card_colours = None
    attributes: dict[str, object] = {"editions": tuple(str(e).strip() for e in editions)}
    clean_flags = tuple(f.strip() for f in flags if f.strip())
    if clean_flags:
        attributes["flags"] = clean_flags
    clean_name = name.strip()
    return Card(
        id=str(card_id).strip(),
        game=GAME,
        name=clean_name,
        kind=kind,
        types=clean_types,
        colours=card_colours,
        rarity=rarity.strip(),
        copy_group=normalize_name(clean_name),
        attributes=attributes,
    )


def _split(value: str) -> list[str]:
    return [part for part in (value or "").split("|") if part.strip()]


def parse_sample_csv(path: Path = SAMPLE_CSV) -> list[Card]:
    """Parse the bundled sample CSV (columns id, name, types, colours, rarity, editions, flags;
    lists joined with ``|``; see PROVENANCE.md). Raises :class:`CatalogueFormatError`."""
    cards: list[Card] = []
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = {"id", "name", "types", "colours", "rarity", "editions"} - set(
            reader.fieldnames or ()
        )
        if missing:
            raise CatalogueFormatError(f"{path}: missing columns {sorted(missing)}")
        for line, row in enumerate(reader, start=2):
            if not row["id"].strip() or not row["name"].strip():
                raise CatalogueFormatError(f"{path}:{line}: empty id or name")
            cards.append(
                make_card(
                    card_id=row["id"],
                    name=row["name"],
                    types=_split(row["types"]),
                    colours=_split(row["colours"]),
                    rarity=row["rarity"],
                    editions=_split(row["editions"]),
                    flags=_split(row.get("flags") or ""),
                )
            )
    return cards


def _str_list(value: object, field: str, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
        raise CatalogueFormatError(f"{where}: '{field}' must be a list of strings")
    return [str(v) for v in value]


def parse_publisher_records(records: object, *, source: str = "input") -> list[Card]:
    """Validate and convert the publisher's card-search records.

    Args:
        records: a list of card objects, or ``{"cards": [...]}``. Each object needs ``ID``
            (int or digit string) and ``name`` (non-empty string); ``type[]``, ``color[]``,
            ``editions[]`` are lists, ``commonness`` a string; ``text``/``link`` are ignored.
        source: file name used in error messages.

    Returns:
        The cards in input order. Duplicate IDs are an error.

    Raises:
        CatalogueFormatError: on the first malformed record (message names its position).
    """
    if isinstance(records, dict) and "cards" in records:
        records = records["cards"]
    if not isinstance(records, list):
        raise CatalogueFormatError(f"{source}: expected a list of cards or {{'cards': [...]}}")
    cards: list[Card] = []
    seen: set[str] = set()
    for index, record in enumerate(records):
        where = f"{source}: card #{index + 1}"
        if not isinstance(record, dict):
            raise CatalogueFormatError(f"{where}: expected an object")
        raw_id = record.get("ID", record.get("id"))
        if isinstance(raw_id, bool) or not isinstance(raw_id, (int, str)):
            raise CatalogueFormatError(f"{where}: missing or invalid 'ID'")
        card_id = str(raw_id).strip()
        if not card_id.isdigit():
            raise CatalogueFormatError(f"{where}: 'ID' must be a number, got {raw_id!r}")
        if card_id in seen:
            raise CatalogueFormatError(f"{where}: duplicate ID {card_id}")
        seen.add(card_id)
        name = record.get("name")
        if not isinstance(name, str) or not name.strip():
            raise CatalogueFormatError(f"{where} (ID {card_id}): missing or empty 'name'")
        rarity = record.get("commonness") or ""
        if not isinstance(rarity, str):
            raise CatalogueFormatError(f"{where} (ID {card_id}): 'commonness' must be a string")
        cards.append(
            make_card(
                card_id=card_id,
                name=name,
                types=_str_list(record.get("type"), "type", where),
                colours=_str_list(record.get("color"), "color", where),
                rarity=rarity,
                editions=_str_list(record.get("editions"), "editions", where),
                flags=_str_list(record.get("flags"), "flags", where),
            )
        )
    return cards


def parse_publisher_json(path: Path) -> list[Card]:
    """Read a publisher card-search JSON file; see :func:`parse_publisher_records`.

    Raises:
        CatalogueFormatError: unreadable file, invalid JSON or malformed records.
    """
    path = Path(path)
    try:
        with open(path, encoding="utf-8-sig") as handle:
            data = json.load(handle)
    except OSError as exc:
        raise CatalogueFormatError(f"{path}: cannot read file ({exc.strerror})") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CatalogueFormatError(f"{path}: not valid JSON ({exc})") from exc
    return parse_publisher_records(data, source=path.name)


def parse_bundled() -> list[Card]:
    """The bundled HKK catalogue: the sample (:func:`parse_sample_csv`) plus a name-only entry
    for every usage-statistics name the sample lacks. Its coverage is
    :data:`BUNDLED_COVERAGE` (partial).

    Raises:
        CatalogueFormatError: a malformed bundled file.
    """
    sample = parse_sample_csv()
    return [*sample, *name_only_cards(parse_meta_names(), sample)]
