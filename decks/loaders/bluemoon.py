"""Blue Moon card data: a CSV an organiser fills in, and the bundled partial list.

Pure Python (no Django). No public Blue Moon card list exists (docs/rules.md §17 (Card data
sources and coverage)), so ``decks/data/bluemoon/cards.csv`` ships only the cards the Blue Moon
short FAQ (C. Dearlove, 14 January 2021) names with their ``[People number]`` bracket, the two
inquisitors it quotes, the two emissaries docs/rules.md §12 (Blue Moon decks) names and one
placeholder leader per people. The columns are documented in ``decks/data/bluemoon/README.md``.

Importing this module registers :func:`read_bluemoon_csv` as the ``"bluemoon"`` importer in
:data:`decks.loaders.IMPORTERS` (used by ``manage.py import_cards bluemoon FILE``).
"""

from __future__ import annotations

import csv
from pathlib import Path

from decks.domain.types import Card, CardKind
from decks.loaders.base import DATA_DIR, CatalogueFormatError

#: The nine peoples (Blue Moon FAQ; docs/rules.md §12). A card with an empty ``people``
#: belongs to none (mutants, interference and influence cards).
PEOPLES: tuple[str, ...] = (
    "Vulca",
    "Hoax",
    "Mimix",
    "Flit",
    "Khind",
    "Terrah",
    "Aqua",
    "Pillar",
    "Buka",
)

#: Column names, in file order. ``deck`` (where the card is physically shipped) is optional.
COLUMNS: tuple[str, ...] = (
    "id",
    "name",
    "kind",
    "people",
    "number",
    "moons",
    "chosen_one",
    "mutant",
    "plus_cards",
    "plus_moons",
    "emissary_cards",
    "deck",
    "source",
    "confidence",
)
REQUIRED_COLUMNS = frozenset(COLUMNS) - {"deck"}

_KINDS = {
    "card": CardKind.CARD,
    "leader": CardKind.LEADER,
    "inquisitor": CardKind.INQUISITOR,
    "emissary": CardKind.EMISSARY,
}
_CONFIDENCE = frozenset({"confirmed", "unknown"})

#: The bundled file.
BUNDLED_CSV: Path = DATA_DIR / "bluemoon" / "cards.csv"


def _int(value: str, column: str, row: int, *, minimum: int = 0) -> int | None:
    if value == "":
        return None
    try:
        number = int(value)
    except ValueError:
        raise CatalogueFormatError(
            f"row {row}: column {column!r} must be a whole number or empty, got {value!r}"
        ) from None
    if number < minimum:
        raise CatalogueFormatError(f"row {row}: column {column!r} must be >= {minimum}")
    return number


def _flag(value: str, column: str, row: int) -> bool | None:
    if value == "":
        return None
    if value in ("1", "0"):
        return value == "1"
    raise CatalogueFormatError(f"row {row}: column {column!r} must be 1, 0 or empty, got {value!r}")


def _people(value: str, row: int) -> str:
    if value == "":
        return ""
    for people in PEOPLES:
        if value.casefold() == people.casefold():
            return people
    raise CatalogueFormatError(
        f"row {row}: unknown people {value!r}; expected one of {', '.join(PEOPLES)} or empty"
    )


def _row_to_card(raw: dict[str, str], row: int) -> Card:
    values = {key: (raw.get(key) or "").strip() for key in COLUMNS}
    card_id, name = values["id"], values["name"]
    if not card_id:
        raise CatalogueFormatError(f"row {row}: column 'id' is empty")
    if not name:
        raise CatalogueFormatError(f"row {row}: column 'name' is empty")
    kind = _KINDS.get(values["kind"].casefold())
    if kind is None:
        raise CatalogueFormatError(
            f"row {row}: column 'kind' must be one of {', '.join(_KINDS)}, got {values['kind']!r}"
        )
    if values["confidence"] not in _CONFIDENCE:
        raise CatalogueFormatError(
            f"row {row}: column 'confidence' must be 'confirmed' or 'unknown', "
            f"got {values['confidence']!r}"
        )
    people = _people(values["people"], row)
    if kind is CardKind.LEADER and not people:
        raise CatalogueFormatError(f"row {row}: a leader needs a people")
    mutant = _flag(values["mutant"], "mutant", row)
    if mutant and people:
        raise CatalogueFormatError(f"row {row}: a mutant belongs to no people (docs/rules.md §12)")
    plus_cards = _int(values["plus_cards"], "plus_cards", row)
    plus_moons = _int(values["plus_moons"], "plus_moons", row)
    if kind is not CardKind.INQUISITOR and (plus_cards or plus_moons):
        raise CatalogueFormatError(f"row {row}: only an inquisitor has plus_cards/plus_moons")
    emissary_cards = [part.strip() for part in values["emissary_cards"].split("|") if part.strip()]
    if emissary_cards and kind is not CardKind.EMISSARY:
        raise CatalogueFormatError(f"row {row}: only an emissary lists emissary_cards")
    if len(set(emissary_cards)) != len(emissary_cards):
        raise CatalogueFormatError(f"row {row}: emissary_cards lists an id twice")
    return Card(
        id=card_id,
        game="bluemoon",
        name=name,
        kind=kind,
        attributes={
            "people": people,
            "number": _int(values["number"], "number", row, minimum=1),
            "moons": _int(values["moons"], "moons", row),
            "chosen_one": _flag(values["chosen_one"], "chosen_one", row),
            "mutant": mutant,
            "plus_cards": plus_cards or 0,
            "plus_moons": plus_moons or 0,
            "emissary_cards": emissary_cards,
            "deck": values["deck"],
            "source": values["source"],
            "confidence": values["confidence"],
        },
    )


def _emissary_cards(card: Card) -> list[str]:
    """The card ids an emissary names (``attributes["emissary_cards"]``, a list of str)."""
    listed = card.attributes.get("emissary_cards")
    return list(listed) if isinstance(listed, list) else []


def read_bluemoon_csv(path: str | Path) -> list[Card]:
    """Read an organiser's Blue Moon CSV (UTF-8, comma separated, header row) into cards.

    Args:
        path: the CSV file; columns as in :data:`COLUMNS` (``deck`` may be missing).

    Returns:
        One :class:`Card` per data row, in file order, ``game="bluemoon"``, ``kind`` from the
        ``kind`` column and ``attributes`` ``{"people": str ("" = none), "number": int|None,
        "moons": int|None (None = unknown), "chosen_one": bool|None, "mutant": bool|None,
        "plus_cards": int, "plus_moons": int, "emissary_cards": [ids], "deck": str,
        "source": str, "confidence": "confirmed"|"unknown"}``.

    Raises:
        CatalogueFormatError (a ``ValueError``): missing columns, a bad value, a duplicate id or
            name, or an emissary naming an id not in the file; the message names the row
            (row 1 is the header, so the first card is row 2).
        OSError: the file cannot be read.
    """
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        header = {(name or "").strip() for name in reader.fieldnames or ()}
        missing = sorted(REQUIRED_COLUMNS - header)
        if missing:
            raise CatalogueFormatError(f"row 1: missing column(s): {', '.join(missing)}")
        cards: list[Card] = []
        ids: dict[str, int] = {}
        names: dict[str, int] = {}
        for row_number, raw in enumerate(reader, start=2):
            if None in raw:
                raise CatalogueFormatError(f"row {row_number}: more values than columns")
            raw = {(key or "").strip(): value for key, value in raw.items()}
            if not any((value or "").strip() for value in raw.values()):
                continue
            card = _row_to_card(raw, row_number)
            if card.id in ids:
                raise CatalogueFormatError(
                    f"row {row_number}: id {card.id!r} already used in row {ids[card.id]}"
                )
            folded = card.name.casefold()
            if folded in names:
                raise CatalogueFormatError(
                    f"row {row_number}: name {card.name!r} already used in row {names[folded]}"
                )
            ids[card.id] = names[folded] = row_number
            cards.append(card)
    for card in cards:
        for listed in _emissary_cards(card):
            if listed not in ids:
                raise CatalogueFormatError(
                    f"row {ids[card.id]}: emissary card {listed!r} is not in the file"
                )
    return cards


def load_bundled() -> list[Card]:
    """The bundled partial card list (``decks/data/bluemoon/cards.csv``); see the README."""
    return read_bluemoon_csv(BUNDLED_CSV)


def _register() -> None:
    from decks.loaders import IMPORTERS

    IMPORTERS.setdefault("bluemoon", read_bluemoon_csv)


_register()
