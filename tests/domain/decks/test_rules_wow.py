"""WoW TCG Constructed rules (WoW TCG starter rulebook, "Gyors pakli építés ajánló" items 1-4;
WoW TCG Comprehensive Rules §100.1; docs/rules.md §9 (WoW TCG constructed decks)) on the real
CSV."""

from __future__ import annotations

import dataclasses

import pytest

from decks.domain import codes
from decks.domain.index import CardIndex
from decks.domain.normalize import normalize_name
from decks.domain.types import Card, CardKind
from decks.domain.validate import validate_text
from tests.domain.decks.catalogue import by_name, wow_cards
from tests.domain.decks.conftest import WOW_CONSTRUCTED

# Hand-built: a hero whose traits are not all known, and a profession-restricted card.
HALF_KNOWN_HERO = Card(
    id="99001",
    game="wow",
    name="Próba hős",
    kind=CardKind.HERO,
    hero_traits={"class": frozenset({"Death Knight"}), "faction": frozenset({"Horde"})},
)


@pytest.fixture(scope="module")
def index():
    return CardIndex((*wow_cards(), HALF_KNOWN_HERO))


def check(text, index, spec=WOW_CONSTRUCTED):
    return validate_text(text, spec=spec, index=index)


def errors(result):
    return [(e.code, e.card) for e in result.errors]


def add_main(text, line):
    return text.replace("Deck:\n", f"Deck:\n{line}\n", 1)


def swap_out_first_main_line(text, new_line):
    lines = text.split("\n")
    lines[2] = new_line
    return "\n".join(lines)


def test_legal_list_passes(wow_legal_text, index):
    result = check(wow_legal_text, index)
    assert result.errors == () and result.warnings == (), result.errors
    assert result.hero == "Saeryn Dusksorrow"
    assert result.counts == {"main": 60, "sideboard": 10}


def test_rulebook_example_hysteria_yes_corpse_explosion_no(wow_legal_text, index):
    """WoW TCG starter rulebook, deck-building item 2: Saeryn Dusksorrow (Blood) may play
    Hysteria (Blood Hero Required) but not Corpse Explosion (Unholy Hero Required). Both cards
    and the hero are in the CSV."""
    hysteria = by_name(wow_cards(), "Hysteria")
    corpse = by_name(wow_cards(), "Corpse Explosion")
    assert hysteria.requires == {"talent": frozenset({"Blood"})}
    assert corpse.requires == {"talent": frozenset({"Unholy"})}
    with_hysteria = swap_out_first_main_line(wow_legal_text, "4 Hysteria")
    assert check(with_hysteria, index).legal
    with_corpse = swap_out_first_main_line(wow_legal_text, "4 Corpse Explosion")
    result = check(with_corpse, index)
    assert [(e.code, e.card, e.line, dict(e.params)) for e in result.errors] == [
        (
            codes.HERO_TRAIT_REQUIRED,
            "Corpse Explosion",
            3,
            {"trait": "talent", "required": ["Unholy"], "hero": ["Blood"]},
        )
    ]


def test_an_unholy_hero_may_play_corpse_explosion(index):
    text = "Hero: Triton the Sacrilegious\n4 Corpse Explosion"
    spec = dataclasses.replace(WOW_CONSTRUCTED, min_main=None)
    assert check(text, index, spec).legal


def test_hero_found_in_main_is_moved_out(wow_legal_text, index):
    text = wow_legal_text.replace(
        "Hero: Saeryn Dusksorrow\nDeck:\n", "Deck:\n1 Saeryn Dusksorrow\n"
    )
    result = check(text, index)
    assert result.legal, result.errors
    assert result.hero == "Saeryn Dusksorrow" and result.counts["main"] == 60
    assert [r.card.name for r in result.lines["hero"]] == ["Saeryn Dusksorrow"]


def test_missing_hero_skips_hero_checks(wow_legal_text, index):
    text = wow_legal_text.replace("Hero: Saeryn Dusksorrow\n", "")
    text = swap_out_first_main_line(text.replace("Deck:\n", "Deck:\n", 1), "4 Corpse Explosion")
    result = check(text, index)
    assert [e.code for e in result.errors] == [codes.MISSING_HERO]


def test_two_heroes_in_main(wow_legal_text, index):
    text = wow_legal_text.replace("Hero: Saeryn Dusksorrow\n", "")
    text = add_main(text, "1 Saeryn Dusksorrow\n1 Triton the Sacrilegious")
    result = check(text, index)
    assert [(e.code, e.params) for e in result.errors] == [
        (codes.TOO_MANY_HEROES, {"count": 2, "limit": 1})
    ]
    assert result.counts["main"] == 60 and result.hero == "Saeryn Dusksorrow"


def test_two_heroes_in_hero_section(wow_legal_text, index):
    text = wow_legal_text.replace(
        "Hero: Saeryn Dusksorrow", "Hero:\nSaeryn Dusksorrow\nTriton the Sacrilegious"
    )
    assert [e.code for e in check(text, index).errors] == [codes.TOO_MANY_HEROES]


def test_hero_in_deck_when_declared(wow_legal_text, index):
    text = add_main(wow_legal_text, "1 Triton the Sacrilegious") + "\n1 Krog the Deathfist"
    result = check(text, index)
    assert [(e.code, e.card, dict(e.params)) for e in result.errors] == [
        (codes.HERO_IN_DECK, "Triton the Sacrilegious", {"section": "main"}),
        (codes.HERO_IN_DECK, "Krog the Deathfist", {"section": "sideboard"}),
    ]
    assert result.counts == {"main": 60, "sideboard": 10}


def test_non_hero_in_hero_section(wow_legal_text, index):
    text = wow_legal_text.replace("Hero: Saeryn Dusksorrow", "Hero: Hysteria")
    result = check(text, index)
    assert [e.code for e in result.errors] == [codes.HERO_WRONG_KIND]


def test_deck_too_small(wow_legal_text, index):
    text = swap_out_first_main_line(wow_legal_text, "")
    result = check(text, index)
    assert [(e.code, e.params) for e in result.errors] == [
        (codes.DECK_TOO_SMALL, {"count": 56, "minimum": 60})
    ]


def test_copy_limit_four_across_main_and_side(wow_legal_text, index):
    first_name = wow_legal_text.split("\n")[2][2:]
    text = wow_legal_text.replace("Sideboard:\n2 ", f"Sideboard:\n1 {first_name}\n1 ", 1)
    result = check(text, index)
    assert [(e.code, e.card, e.params) for e in result.errors] == [
        (codes.TOO_MANY_COPIES, first_name, {"count": 5, "limit": 4})
    ]


def test_unlimited_cards(index):
    grunts = by_name(wow_cards(), "Orgrimmar Grunts")
    assert grunts.unlimited and grunts.faction == "Horde"
    text = "Hero: Saeryn Dusksorrow\n60 Orgrimmar Grunts"
    assert check(text, index).legal


def test_side_deck_exactly_ten(wow_legal_text, index):
    text = wow_legal_text.replace("Sideboard:\n2 ", "Sideboard:\n1 ", 1)
    result = check(text, index)
    assert [(e.code, e.params) for e in result.errors] == [
        (codes.SIDEBOARD_WRONG_SIZE, {"count": 9, "expected": 10})
    ]


def test_class_restriction(wow_legal_text, index):
    card = next(c for c in wow_cards() if c.class_icons == frozenset({"Mage"}) and not c.requires)
    result = check(add_main(wow_legal_text, f"1 {card.name}"), index)
    assert [(e.code, e.card, dict(e.params)) for e in result.errors] == [
        (codes.CLASS_RESTRICTION, card.name, {"classes": ["Mage"], "hero_class": ["Death Knight"]})
    ]


def test_multi_class_card_sharing_one_icon_is_legal(wow_legal_text, index):
    card = next(
        c
        for c in wow_cards()
        if "Death Knight" in c.class_icons
        and len(c.class_icons) > 1
        and not c.requires
        and c.name not in wow_legal_text
    )
    assert check(add_main(wow_legal_text, f"1 {card.name}"), index).legal


def test_faction_restriction(wow_legal_text, index):
    ally = next(
        c for c in wow_cards() if c.faction == "Alliance" and not c.requires and not c.unlimited
    )
    result = check(add_main(wow_legal_text, f"1 {ally.name}"), index)
    assert [(e.code, e.card, dict(e.params)) for e in result.errors] == [
        (codes.FACTION_RESTRICTION, ally.name, {"faction": "Alliance", "hero_faction": ["Horde"]})
    ]


def test_race_and_profession_required(index):
    race_card = next(c for c in wow_cards() if c.requires.get("race") == frozenset({"Gnome"}))
    prof_card = next(c for c in wow_cards() if "profession" in c.requires)
    text = f"Hero: Saeryn Dusksorrow\n1 {race_card.name}\n1 {prof_card.name}"
    spec = dataclasses.replace(WOW_CONSTRUCTED, min_main=None)
    found = {
        (e.code, e.params["trait"])
        for e in check(text, index, spec).errors
        if e.code == codes.HERO_TRAIT_REQUIRED
    }
    assert found == {(codes.HERO_TRAIT_REQUIRED, "race"), (codes.HERO_TRAIT_REQUIRED, "profession")}


def test_unknown_hero_trait_warns(index):
    text = "Hero: Próba hős\n4 Hysteria"
    spec = dataclasses.replace(WOW_CONSTRUCTED, min_main=None)
    result = check(text, index, spec)
    assert result.legal
    assert [(w.code, w.card, dict(w.params)) for w in result.warnings] == [
        (codes.HERO_TRAITS_UNKNOWN, "Hysteria", {"trait": "talent"})
    ]


def test_ban_list(wow_legal_text, index):
    name = wow_legal_text.split("\n")[2][2:]
    spec = dataclasses.replace(WOW_CONSTRUCTED, banned=frozenset({normalize_name(name)}))
    result = check(wow_legal_text, index, spec)
    assert [(e.code, e.card) for e in result.errors] == [(codes.BANNED_CARD, name)]


def test_rule_card_section_not_used_in_wow(wow_legal_text, index):
    result = check(wow_legal_text + "\nRule card: Hysteria", index)
    assert [(e.code, e.params) for e in result.errors] == [
        (codes.SECTION_NOT_USED, {"section": "rule_card"})
    ]


def test_hero_in_side_deck_without_hero_section(wow_legal_text, index):
    text = wow_legal_text.replace(
        "Hero: Saeryn Dusksorrow\nDeck:\n", "Deck:\n1 Saeryn Dusksorrow\n"
    )
    result = check(text + "\n1 Krog the Deathfist", index)
    assert [(e.code, e.card, dict(e.params)) for e in result.errors] == [
        (codes.HERO_IN_DECK, "Krog the Deathfist", {"section": "sideboard"})
    ]
    assert result.hero == "Saeryn Dusksorrow" and result.counts == {"main": 60, "sideboard": 10}
