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
  soha!" continue in lower case and stay whole. docs/rules.md §1, §17.
- **Editions as data** (:func:`parse_edition_releases`): ``editions.json`` names plus
  ``edition-releases.csv`` dates (``released`` partial ISO date, ``released_after`` /
  ``released_before`` bounds) as :class:`~decks.domain.editions.Edition` rows, for format
  legality (Retró: ``decks.domain.editions.HKK_RETRO``). docs/rules.md §4.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from decks.domain.editions import Edition, parse_partial_date
from decks.domain.normalize import normalize_name
from decks.domain.types import (
    FACTS_UNKNOWN,
    FOLLOWER_KINDS,
    POSSIBLE_KINDS,
    Card,
    CardKind,
    Coverage,
)
from decks.loaders.base import DATA_DIR, CatalogueFormatError

GAME = "hkk"
SAMPLE_CSV = DATA_DIR / "hkk" / "cards-sample.csv"
EDITIONS_JSON = DATA_DIR / "hkk" / "editions.json"
EDITION_RELEASES_CSV = DATA_DIR / "hkk" / "edition-releases.csv"
META_DIR = DATA_DIR / "hkk" / "meta"
#: The tournament usage statistics, in the order their names are read.
META_FILES: tuple[Path, ...] = tuple(
    META_DIR / name
    for name in ("topcards-classic.csv", "topcards-tm.csv", "orange-classic.csv", "orange-tm.csv")
)
#: Coverage of a catalogue built from the bundled data (sample + name-only entries).
BUNDLED_COVERAGE = Coverage.PARTIAL
#: The facts a name-only entry lacks.
NAME_ONLY_UNKNOWN: tuple[str, ...] = ("types", "colours", "editions", "rarity")
EPIC_SUFFIX = "(epikus)"

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


def parse_editions(path: Path = EDITIONS_JSON) -> dict[str, str]:
    """Parse editions.json (``{"1": "Alappakli, 1. kiadás", ...}``) into ``{code: name}``."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise CatalogueFormatError(f"{path}: expected an object of edition id -> name")
    return {str(k).strip(): v.strip() for k, v in data.items()}


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


def parse_edition_releases(
    path: Path = EDITION_RELEASES_CSV, *, names: dict[str, str] | None = None
) -> list[Edition]:
    """Every HKK edition as an :class:`~decks.domain.editions.Edition` with what is known of
    its release (``edition-releases.csv``: id, name, released, released_after,
    released_before, source; see ``decks/data/README.md`` for each row's source).

    Args:
        path: the release table.
        names: edition id → name (default: :func:`parse_editions`); editions missing from the
            table get no date.

    Returns:
        One edition per id of ``names`` and of the table, sorted by numeric id.

    Raises:
        CatalogueFormatError: missing columns, a bad date or an unknown id format.
    """
    table = parse_editions() if names is None else dict(names)
    known: dict[str, dict[str, str]] = {}
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        needed = {"id", "released", "released_after", "released_before"}
        missing = needed - set(reader.fieldnames or ())
        if missing:
            raise CatalogueFormatError(f"{path}: missing columns {sorted(missing)}")
        for line, row in enumerate(reader, start=2):
            if not row["id"].strip().isdigit():
                raise CatalogueFormatError(f"{path}:{line}: bad edition id {row['id']!r}")
            known[row["id"].strip()] = row
            table.setdefault(row["id"].strip(), (row.get("name") or "").strip())
    editions: list[Edition] = []
    for code in sorted(table, key=lambda c: (not c.isdigit(), int(c) if c.isdigit() else 0, c)):
        row = known.get(code, {})
        try:
            released = (row.get("released") or "").strip()
            parse_partial_date(released)
            after = (row.get("released_after") or "").strip()
            before = (row.get("released_before") or "").strip()
            editions.append(
                Edition(
                    code=code,
                    name=table[code],
                    released=released,
                    released_after=date.fromisoformat(after) if after else None,
                    released_before=date.fromisoformat(before) if before else None,
                )
            )
        except ValueError as exc:
            raise CatalogueFormatError(f"{path}: edition {code}: {exc}") from exc
    return editions


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


def parse_bundled() -> list[Card]:
    """The bundled HKK catalogue: the sample (:func:`parse_sample_csv`) plus a name-only entry
    for every usage-statistics name the sample lacks. Its coverage is
    :data:`BUNDLED_COVERAGE` (partial).

    Raises:
        CatalogueFormatError: a malformed bundled file.
    """
    sample = parse_sample_csv()
    return [*sample, *name_only_cards(parse_meta_names(), sample)]
