"""Fixtures for the pure deck-domain tests: real-card indexes and format specs (no database)."""

from __future__ import annotations

import pytest

from decks.domain.index import CardIndex
from decks.domain.normalize import normalize_name
from decks.domain.types import Card, CardKind, FormatSpec, SideboardMode
from tests.domain.decks.catalogue import hkk_cards, wow_cards

HAGYOMANYOS = FormatSpec(
    slug="hkk-hagyomanyos",
    game="hkk",
    rule_set="hkk",
    min_main=50,
    sideboard_mode=SideboardMode.EXACT,
    sideboard_size=30,
    copy_limit=3,
    colour_limit=3,
    colours_not_counted=frozenset({"Színtelen", "Bufa"}),
    banned=frozenset(normalize_name(n) for n in ("Lépéselőny", "Spóra")),
)

WOW_CONSTRUCTED = FormatSpec(
    slug="wow-constructed",
    game="wow",
    rule_set="wow-constructed",
    min_main=60,
    sideboard_mode=SideboardMode.EXACT,
    sideboard_size=10,
    copy_limit=4,
)


@pytest.fixture(scope="session")
def real_index() -> CardIndex:
    """Both real catalogues (HKK sample 624 cards + WoW CSV 3,186 cards) in one index."""
    return CardIndex((*hkk_cards(), *wow_cards()))


@pytest.fixture(scope="session")
def hkk_legal_text() -> str:
    """A legal Hagyományos list from real cards: 17 Tharr/Leah/Dornodon/Színtelen names x 3
    (51 cards), a 30-card sideboard, rule card 1033 "Ősi rúna", follower 4596."""
    cards = [c for c in hkk_cards() if c.kind is CardKind.CARD]
    wanted = {"Tharr", "Leah", "Dornodon", "Színtelen"}
    pool: list[Card] = []
    seen: set[str] = set()
    for card in cards:
        key = normalize_name(card.name)
        if (
            card.colours
            and set(card.colours) <= wanted
            and key not in seen
            and key not in HAGYOMANYOS.banned
        ):
            pool.append(card)
            seen.add(key)
    main, side = pool[:17], pool[17:27]
    lines = ["Pakli:"] + [f"3 {c.name}" for c in main]
    lines += ["Kiegészítő pakli:"] + [f"3x {c.name}" for c in side]
    lines += ["Szabálylap: Ősi rúna", "Követő: A legfőbb követő"]
    return "\n".join(lines) + "\n"


def legal_for_saeryn(card: Card) -> bool:
    return (
        card.kind is CardKind.CARD
        and (not card.class_icons or "Death Knight" in card.class_icons)
        and card.faction in (None, "Horde")
        and all(k == "talent" and "Blood" in v for k, v in card.requires.items())
    )


@pytest.fixture(scope="session")
def wow_legal_text() -> str:
    """A legal Constructed list for Saeryn Dusksorrow (DK, Blood Elf, Horde, Blood): 15 names
    x 4 (60 cards) chosen from the real CSV, plus a 10-card side deck."""
    pool: list[Card] = []
    seen: set[str] = set()
    for card in wow_cards():
        key = normalize_name(card.name)
        if legal_for_saeryn(card) and key not in seen:
            pool.append(card)
            seen.add(key)
    # prefer the Death Knight cards so the class check is exercised
    pool.sort(key=lambda c: "Death Knight" not in c.class_icons)
    main, side = pool[:15], pool[15:20]
    lines = ["Hero: Saeryn Dusksorrow", "Deck:"] + [f"4 {c.name}" for c in main]
    lines += ["Sideboard:"] + [f"2 {c.name}" for c in side]
    return "\n".join(lines)
