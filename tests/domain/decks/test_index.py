from __future__ import annotations

from decks.domain.index import CardIndex
from decks.domain.types import Card
from tests.domain.decks.catalogue import by_name, wow_cards


def test_lookup_any_spelling(real_index):
    card = real_index.lookup("  ŐSI   RÚNA ", "hkk")
    assert card is not None and card.id == "1033" and card.name == "Ősi rúna"


def test_lookup_is_per_game(real_index):
    assert real_index.lookup("Ősi rúna", "wow") is None
    assert real_index.other_games("Ősi rúna", "wow") == ("hkk",)
    assert real_index.other_games("Ősi rúna", "hkk") == ()
    assert real_index.other_games("No such card", "hkk") == ()


def test_reprints_resolve_to_lowest_id_and_stay_reachable(real_index):
    printings = [c for c in wow_cards() if c.name == "Death Coil"]
    assert len(printings) == 2
    lowest = min(printings, key=lambda c: int(c.id))
    assert real_index.lookup("death coil", "wow") == lowest
    assert {c.id for c in real_index.all_named("Death Coil", "wow")} == {c.id for c in printings}
    for card in printings:
        assert real_index.by_id("wow", card.id) == card


def test_lowest_id_is_numeric_not_textual():
    index = CardIndex([Card(id="10", game="g", name="A"), Card(id="9", game="g", name="a")])
    assert index.lookup("A", "g").id == "9"
    assert len(index) == 2 and index.games == frozenset({"g"})


def test_suggest_finds_typos(real_index):
    assert real_index.suggest("Hysterya", "wow")[0] == "Hysteria"
    assert "Corpse Explosion" in real_index.suggest("corpse explosoin", "wow")
    assert real_index.suggest("Gigaokol", "hkk")[0] == "Gigaököl"


def test_suggest_limit_and_cutoff(real_index):
    assert len(real_index.suggest("Saeryn", "wow", limit=2)) <= 2
    assert real_index.suggest("qqqqqqqqqqqqqqqqqqqqq", "wow") == []
    assert real_index.suggest("", "wow") == []
    assert real_index.suggest("Hysteria", "no-such-game") == []


def test_saeryn_is_in_csv():
    hero = by_name(wow_cards(), "Saeryn Dusksorrow")
    assert hero.hero_traits["talent"] == frozenset({"Blood"})
