"""HKK cards named by the HKK FAQ on rule cards and first-player rights
(``decks/data/hkk/faq-named-cards.csv``).

Pure Python (no Django). The FAQ names cards that act at game start (docs/rules.md §5 (HKK
game start: opening hand and life points)) which neither the bundled sample nor the tournament
usage statistics hold. Each becomes a name-known catalogue entry with only the facts the FAQ
states: its name and its kind (rule card or follower, docs/rules.md §2 (HKK rule cards,
followers and guilds)); types, colours, editions and rarity stay unknown. Columns:
``name, kinds, source`` (UTF-8, header row); ``kinds`` is one or more ``CardKind`` values
joined by ``|``, the first being the entry's kind; ``source`` names the FAQ passage.
Source of the data: docs/rules.md §17 (Card data sources and coverage).
"""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Iterable
from pathlib import Path

from decks.domain.normalize import normalize_name
from decks.domain.types import FACTS_UNKNOWN, POSSIBLE_KINDS, Card, CardKind
from decks.loaders.base import DATA_DIR, CatalogueFormatError

GAME = "hkk"
#: The bundled table.
FAQ_NAMED_CSV: Path = DATA_DIR / "hkk" / "faq-named-cards.csv"
COLUMNS: tuple[str, ...] = ("name", "kinds", "source")
#: Facts the FAQ does not give for any of its cards.
FAQ_UNKNOWN: tuple[str, ...] = ("types", "colours", "editions", "rarity")
#: ``Card.attributes`` key: the FAQ passage that names the card.
FAQ_SOURCE = "faq_source"
_KINDS = {CardKind.RULE_CARD, CardKind.FOLLOWER, CardKind.EPIC_FOLLOWER, CardKind.HORDE_COMMANDER}


def faq_card_id(name: str) -> str:
    """The stable id of a FAQ-named entry: ``"faq-"`` + 12 hex digits of the SHA-1 of the
    normalised name."""
    return f"faq-{hashlib.sha1(normalize_name(name).encode('utf-8')).hexdigest()[:12]}"


def _kinds(value: str, row: int) -> tuple[CardKind, ...]:
    try:
        kinds = tuple(CardKind(part.strip()) for part in value.split("|") if part.strip())
    except ValueError:
        kinds = ()
    if not kinds or any(kind not in _KINDS for kind in kinds):
        raise CatalogueFormatError(
            f"row {row}: kinds must be one or more of {', '.join(sorted(k.value for k in _KINDS))}"
        )
    return kinds


def parse_faq_named(path: str | Path = FAQ_NAMED_CSV) -> list[Card]:
    """Read the FAQ-named cards.

    Returns:
        One :class:`Card` per row (game ``"hkk"``, id :func:`faq_card_id`, ``colours=None``, no
        types, ``attributes = {"editions": (), "facts_unknown": FAQ_UNKNOWN, "faq_source": …,
        "possible_kinds": (...)}``, ``possible_kinds`` only when more than one kind).

    Raises:
        CatalogueFormatError (a ``ValueError``): missing column, empty name or source, an
            unknown kind, or a name listed twice; the message names the row (header = 1).
        OSError: the file cannot be read.
    """
    cards: list[Card] = []
    seen: set[str] = set()
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = sorted(set(COLUMNS) - {(n or "").strip() for n in reader.fieldnames or ()})
        if missing:
            raise CatalogueFormatError(f"row 1: missing column(s): {', '.join(missing)}")
        for row, raw in enumerate(reader, start=2):
            values = {(k or "").strip(): (v or "").strip() for k, v in raw.items() if k}
            if not any(values.values()):
                continue
            name, source = values["name"], values["source"]
            if not name or not source:
                raise CatalogueFormatError(f"row {row}: name and source must not be empty")
            key = normalize_name(name)
            if key in seen:
                raise CatalogueFormatError(f"row {row}: {name!r} is listed twice")
            seen.add(key)
            kinds = _kinds(values["kinds"], row)
            attributes: dict[str, object] = {
                "editions": (),
                FACTS_UNKNOWN: FAQ_UNKNOWN,
                FAQ_SOURCE: source,
            }
            if len(kinds) > 1:
                attributes[POSSIBLE_KINDS] = tuple(str(kind) for kind in kinds)
            cards.append(
                Card(
                    id=faq_card_id(name),
                    game=GAME,
                    name=name,
                    kind=kinds[0],
                    colours=None,
                    copy_group=key,
                    attributes=attributes,
                )
            )
    return cards


def with_faq_named(known: Iterable[Card], path: str | Path = FAQ_NAMED_CSV) -> list[Card]:
    """``known`` plus every FAQ-named card whose normalised name ``known`` lacks.

    Raises:
        CatalogueFormatError: a malformed FAQ table (see :func:`parse_faq_named`).
    """
    cards = list(known)
    have = {normalize_name(card.name) for card in cards if card.game == GAME}
    return [*cards, *(c for c in parse_faq_named(path) if normalize_name(c.name) not in have)]
