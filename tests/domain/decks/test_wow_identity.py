"""WoW TCG card identity: a name shared by two cards resolves by context (hero, the deck's other
cards), an explicit printing can be named, and a choice that context cannot make is reported
(docs/rules.md §9). Bundled catalogue: Death Coil is 763 (Warlock, Fires of Outland) and 2897
(Death Knight, Death Knight Starter); Paladin Training 988 (Ability) and 3168 (Quest), both
Paladin; Surge of Life 463 (Shaman) and 3044 (Rogue)."""

from __future__ import annotations

import pytest

from decks.domain import codes
from decks.domain.identity import choose_printing, fits_hero, printing_label
from decks.domain.parser import parse_text
from decks.domain.validate import resolve, validate_text
from tests.domain.decks.bundled import WOW_CONSTRUCTED, bundled_index, wow_card


def resolved(text: str):
    sections, notes = resolve(parse_text(text), game="wow", index=bundled_index())
    return {s: [(r.card.id, r.count) for r in lines] for s, lines in sections.items()}, notes


def main_ids(text: str) -> list[str]:
    sections, _notes = resolved(text)
    return [card_id for card_id, _count in sections["main"]]


def test_shared_name_takes_the_printing_that_fits_the_hero():
    assert main_ids("Hero: Saeryn Dusksorrow\n4 Death Coil") == ["2897"]
    assert main_ids("Hero: Radak Doombringer\n4 Death Coil") == ["763"]
    assert main_ids("Hero: Grennan Stormspeaker\n2 Surge of Life") == ["463"]
    assert main_ids("Hero: Kayleitha\n2 Surge of Life") == ["3044"]
    # The hero may also be found in the deck itself.
    assert main_ids("1 Saeryn Dusksorrow\n4 Death Coil")[-1] == "2897"
    _sections, notes = resolved("Hero: Saeryn Dusksorrow\n4 Death Coil")
    assert notes == []


def test_a_death_knight_list_with_death_coil_is_not_rejected():
    result = validate_text(
        "Hero: Saeryn Dusksorrow\nDeck:\n4 Death Coil", spec=WOW_CONSTRUCTED, index=bundled_index()
    )
    assert codes.CLASS_RESTRICTION not in {e.code for e in result.errors}
    assert {e.code for e in result.errors} == {codes.DECK_TOO_SMALL}
    assert result.lines["main"][0].card.class_icons == {"Death Knight"}


def test_without_a_hero_the_other_cards_decide():
    text = "4 Corruption\n4 Curse of Agony\n4 Death Coil"
    assert main_ids(text)[-1] == "763"
    _sections, notes = resolved(text)
    assert notes == []


def test_still_ambiguous_takes_a_printing_and_reports_it():
    _sections, notes = resolved("Hero: Graccus\n2 Paladin Training")
    assert [n.code for n in notes] == [codes.PRINTING_CHOSEN]
    note = notes[0]
    assert note.params["id"] == "988"
    assert note.params["chosen"] == "Paladin Training (Ability, March of the Legion)"
    assert note.params["others"] == ["Paladin Training (Quest, Wrathgate)"]
    assert note.line == 2 and note.card == "Paladin Training"
    result = validate_text(
        "Hero: Graccus\nDeck:\n2 Paladin Training", spec=WOW_CONSTRUCTED, index=bundled_index()
    )
    assert codes.PRINTING_CHOSEN in {w.code for w in result.warnings}
    assert codes.PRINTING_CHOSEN not in {e.code for e in result.errors}


def test_no_context_at_all_reports_the_choice():
    _sections, notes = resolved("4 Death Coil")
    assert [n.params["id"] for n in notes] == ["763"]
    assert notes[0].params["others"] == ["Death Coil (Death Knight, Death Knight Starter)"]


@pytest.mark.parametrize(
    ("typed", "card_id"),
    [
        ("Death Coil (Death Knight)", "2897"),
        ("Death Coil (death knight)", "2897"),
        ("Death Coil [DKS]", "2897"),
        ("Death Coil (Death Knight Starter)", "2897"),
        ("Death Coil (Warlock)", "763"),
        ("Death Coil [foo]", "763"),
        ("Death Coil (Fires of Outland)", "763"),
        ("Paladin Training (Quest)", "3168"),
        ("Paladin Training [Wrathgate]", "3168"),
        ("Kulan Earthgaurd (hoa)", "249"),
    ],
)
def test_a_printing_can_be_named_explicitly(typed, card_id):
    found = bundled_index().candidates(typed, "wow")
    assert [c.id for c in found] == [card_id]


def test_an_explicit_printing_beats_context_and_is_checked():
    result = validate_text(
        "Hero: Radak Doombringer\nDeck:\n4 Death Coil (Death Knight)",
        spec=WOW_CONSTRUCTED,
        index=bundled_index(),
    )
    assert codes.CLASS_RESTRICTION in {e.code for e in result.errors}
    assert result.warnings == ()


def test_a_qualifier_that_matches_nothing_is_an_unknown_card():
    assert bundled_index().candidates("Death Coil (Mage)", "wow") == ()
    result = validate_text(
        "Hero: Saeryn Dusksorrow\nDeck:\n4 Death Coil (Mage)",
        spec=WOW_CONSTRUCTED,
        index=bundled_index(),
    )
    assert codes.UNKNOWN_CARD in {e.code for e in result.errors}


def test_identity_helpers():
    saeryn = bundled_index().lookup("Saeryn Dusksorrow", "wow")
    warlock_coil, dk_coil = wow_card("763"), wow_card("2897")
    assert fits_hero(dk_coil, saeryn) and not fits_hero(warlock_coil, saeryn)
    assert fits_hero(warlock_coil, None)
    assert choose_printing([warlock_coil, dk_coil], hero=saeryn) == (dk_coil, None)
    assert printing_label(warlock_coil) == "Death Coil (Warlock, Fires of Outland)"
    with pytest.raises(ValueError):
        choose_printing([], hero=None)


def test_raid_and_treasure_cards_are_flagged_by_set():
    treasure = wow_card("2943")  # Icy Blast Amulet, Naxxramas treasure
    assert treasure.attributes["set_group"] == "Raid"
    assert treasure.attributes["set_kind"] == "Treasure"
    assert wow_card("1").attributes["set_code"] == "hoa"
    assert wow_card("1").attributes["set_group"] == "Basic"
