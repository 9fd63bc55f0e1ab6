"""Every row of the game-start effects table names exactly one HKK catalogue card.

The rows come from the HKK FAQ on rule cards and first-player rights (docs/rules.md §5 (HKK
game start: opening hand and life points)); the catalogue is the bundled one that
``manage.py load_catalogue`` loads (docs/rules.md §17 (Card data sources and coverage)). A row
is resolved the way the deck validator resolves a name: ``CardIndex.candidates`` of the index
``decks.selectors.get_card_index`` builds from the database.
"""

from __future__ import annotations

import pytest

from decks.domain.index import CardIndex
from decks.domain.types import Card, CardKind
from decks.loaders import hkk_faq
from decks.models import GameStartEffect
from decks.selectors.cache import clear_caches
from decks.selectors.cards import get_card_index

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


def not_exactly_one(index: CardIndex, names: list[str]) -> dict[str, list[str]]:
    """``{row name: names of the cards it resolves to}`` for every name that resolves to none
    or to more than one HKK card."""
    found = {name: [card.name for card in index.candidates(name, "hkk")] for name in names}
    return {name: cards for name, cards in found.items() if len(cards) != 1}


def _row_names() -> list[str]:
    return list(GameStartEffect.objects.order_by("name").values_list("name", flat=True))


def test_every_game_start_effect_row_resolves_to_exactly_one_catalogue_card():
    clear_caches()
    names = _row_names()
    assert len(names) == 9
    assert not_exactly_one(get_card_index(), names) == {}


def test_rows_resolve_to_the_cards_the_faq_names():
    clear_caches()
    index = get_card_index()
    resolved = {name: index.candidates(name, "hkk")[0] for name in _row_names()}
    assert resolved["Lépéselőny"].id == "4605"  # in the sample, a rule card
    assert resolved["Arochos"].name == "Arochos"  # the FAQ's card, not the 2020 horde commander
    assert resolved["Arochos"].id == hkk_faq.faq_card_id("Arochos")
    assert index.lookup("Arochos (2020)", "hkk").kind == CardKind.HORDE_COMMANDER
    for name in ("Terrgath", "Együgyű", "A fájdalom szépsége", "A bőség zavara"):
        assert resolved[name].id.startswith("faq-"), name
    for card in resolved.values():
        assert card.kind in (CardKind.RULE_CARD, CardKind.FOLLOWER)


def test_a_row_naming_no_card_or_two_cards_is_reported():
    GameStartEffect.objects.create(name="Nincs ilyen szabálylap", kind="rule_card", scope="user")
    clear_caches()
    names = _row_names()
    assert not_exactly_one(get_card_index(), names) == {"Nincs ilyen szabálylap": []}
    twice = [
        Card(id=card_id, game="hkk", name="Terrgath", kind=CardKind.FOLLOWER)
        for card_id in ("1", "2")
    ]
    assert not_exactly_one(CardIndex(twice), ["Terrgath"]) == {"Terrgath": ["Terrgath"] * 2}
