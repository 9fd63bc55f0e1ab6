"""HKK coverage of real play: the bundled usage statistics (decks/data/hkk/meta) become name-only
catalogue entries, so every card name of real tournaments is known (docs/rules.md §17)."""

from __future__ import annotations

from decks.domain.normalize import normalize_name
from decks.domain.types import CardKind, possible_kinds, unknown_facts
from decks.loaders import hkk


def meta_keys() -> set[str]:
    return {normalize_name(m.name) for m in hkk.parse_meta_names()}


def test_the_four_statistics_files_are_bundled():
    assert [p.name for p in hkk.META_FILES] == [
        "topcards-classic.csv",
        "topcards-tm.csv",
        "orange-classic.csv",
        "orange-tm.csv",
    ]
    assert all(p.exists() for p in hkk.META_FILES)


def test_coverage_of_real_play_before_and_after():
    names = meta_keys()
    sample = {normalize_name(c.name) for c in hkk.parse_sample_csv()}
    bundled = {normalize_name(c.name) for c in hkk.parse_bundled()}
    assert len(names) == 223
    assert len(names & sample) == 11  # the sample alone
    assert names <= bundled  # sample + name-only entries
    assert len(hkk.parse_bundled()) == 624 + 212


def test_two_name_cells_are_split_and_comma_names_kept():
    assert hkk.split_meta_cell("Lassan járj!, Átkozott követő (új)") == [
        "Lassan járj!",
        "Átkozott követő (új)",
    ]
    assert hkk.split_meta_cell("A bőség zavara (2020), Antimágikus rakshallion (2020)") == [
        "A bőség zavara (2020)",
        "Antimágikus rakshallion (2020)",
    ]
    for whole in ("Fufuka, az álomelf (epikus)", "Jobb későn, mint soha!", "Zén, a vezér"):
        assert hkk.split_meta_cell(whole) == [whole]
    names = meta_keys()
    assert normalize_name("Lassan járj!, Átkozott követő (új)") not in names
    assert normalize_name("Lassan járj!") in names


def test_name_only_entries_know_nothing_but_their_name_and_kind():
    entries = {c.name: c for c in hkk.parse_bundled() if c.id.startswith("meta-")}
    epic = entries["Fufuka, az álomelf (epikus)"]
    assert epic.kind is CardKind.EPIC_FOLLOWER and possible_kinds(epic) == (epic.kind,)
    deck_card = entries["Morf talizmán"]
    assert deck_card.kind is CardKind.CARD
    assert deck_card.colours is None and deck_card.types == ()
    assert unknown_facts(deck_card) == {"types", "colours", "editions", "rarity"}
    orange = entries["Lassan járj!"]
    assert possible_kinds(orange) == (CardKind.RULE_CARD, CardKind.FOLLOWER)
    assert orange.id == hkk.name_only_id("LASSAN  járj!")  # stable, from the normalised name
    assert len({c.id for c in hkk.parse_bundled()}) == 836
