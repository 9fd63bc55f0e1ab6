"""Test helper: card indexes built from the *bundled* catalogue data (``decks/data``) with the
loaders' pure parsing, and format specs for the verdict, identity and edition tests.

No database: ``decks.loaders`` only read files and return domain cards.
"""

from __future__ import annotations

from functools import cache

from decks.domain.index import CardIndex
from decks.domain.normalize import normalize_name
from decks.domain.types import Card, FormatSpec, SideboardMode
from decks.loaders import hkk, wowtcg
from tests.domain.decks.conftest import HAGYOMANYOS, WOW_CONSTRUCTED

__all__ = ["HAGYOMANYOS", "RETRO", "WOW_CONSTRUCTED"]

RETRO = FormatSpec(
    slug="hkk-retro",
    game="hkk",
    rule_set="hkk",
    min_main=45,
    sideboard_mode=SideboardMode.EXACT,
    sideboard_size=20,
    copy_limit=3,
    colour_limit=4,
    colours_not_counted=frozenset({"Színtelen", "Bufa"}),
)


@cache
def wow_cards() -> tuple[Card, ...]:
    """The bundled WoW TCG catalogue (``wow_tcg.csv`` + aliases, sets, the Tracker print list)."""
    return tuple(wowtcg.parse_bundled())


@cache
def hkk_cards() -> tuple[Card, ...]:
    """The bundled HKK catalogue: the sample plus the name-only usage-statistics entries."""
    return tuple(hkk.parse_bundled())


@cache
def bundled_index() -> CardIndex:
    """Both bundled catalogues; HKK partial (as the loader says), WoW complete."""
    return CardIndex((*hkk_cards(), *wow_cards()), coverage={"hkk": hkk.BUNDLED_COVERAGE})


def wow_card(card_id: str) -> Card:
    return next(c for c in wow_cards() if c.id == card_id)


def hkk_card(card_id: str) -> Card:
    return next(c for c in hkk_cards() if c.id == card_id)


def hkk_legal_lines() -> list[str]:
    """A legal Hagyományos list (no rule card): 17 names x 3 from Tharr/Leah/Dornodon/
    Színtelen cards of the sample, then a 30-card sideboard of 10 more names x 3."""
    wanted = {"Tharr", "Leah", "Dornodon", "Színtelen"}
    pool: list[Card] = []
    seen: set[str] = set()
    for card in hkk_cards():
        key = normalize_name(card.name)
        if (
            card.kind.value == "card"
            and card.colours
            and set(card.colours) <= wanted
            and key not in seen
            and key not in HAGYOMANYOS.banned
        ):
            pool.append(card)
            seen.add(key)
    main, side = pool[:17], pool[17:27]
    return (
        ["Pakli:"]
        + [f"3 {c.name}" for c in main]
        + ["Kiegészítő pakli:"]
        + [f"3 {c.name}" for c in side]
    )
