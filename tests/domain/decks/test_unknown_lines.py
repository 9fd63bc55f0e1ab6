"""Names the catalogue lacks still count, counts that are not whole numbers are line errors, and
a list over the line limit is no deck list at all (docs/rules.md §17 (Card data sources and
coverage)). Pure domain, real bundled cards, no database.
"""

from __future__ import annotations

import pytest

from decks.domain import codes
from decks.domain.deck import is_unresolved
from decks.domain.index import CardIndex
from decks.domain.normalize import normalize_name
from decks.domain.parser import MAX_LINES, DeckTooLongError, parse_text
from decks.domain.types import Card, Coverage, FormatSpec, SideboardMode, Verdict
from decks.domain.validate import validate_structured, validate_text
from tests.domain.decks.bundled import (
    HAGYOMANYOS,
    WOW_CONSTRUCTED,
    bundled_index,
    hkk_cards,
    hkk_legal_lines,
    wow_cards,
)

#: The "hkk" format of the seed data: at least 45 cards, any sideboard, at most 3 copies.
HKK_FAQ = FormatSpec(
    slug="hkk",
    game="hkk",
    rule_set="hkk",
    min_main=45,
    sideboard_mode=SideboardMode.ANY,
    copy_limit=3,
)

MISSPELT = "Gigaökööl"  # a player's typo: no card of any game has this name


def deck_cards(count: int) -> list[Card]:
    """``count`` distinct ordinary HKK cards of the bundled sample (facts known)."""
    pool: dict[str, Card] = {}
    for card in hkk_cards():
        if card.kind.value == "card" and card.colours is not None and card.types:
            pool.setdefault(normalize_name(card.name), card)
    cards = list(pool.values())[:count]
    assert len(cards) == count
    return cards


def forty_five_with_a_typo() -> str:
    """42 known cards (14 names x 3) and the misspelt name x 3: the player has 45 cards."""
    lines = [f"3 {card.name}" for card in deck_cards(14)]
    return "\n".join(["Pakli:", *lines, f"3 {MISSPELT}"]) + "\n"


def test_the_typo_is_unknown_to_the_catalogue():
    assert bundled_index().candidates(MISSPELT, "hkk") == ()


def test_45_cards_with_one_unknown_name_x3_is_unverified_with_45_counted():
    result = validate_text(forty_five_with_a_typo(), spec=HKK_FAQ, index=bundled_index())
    assert result.status == Verdict.UNVERIFIED
    assert result.counts == {"main": 45, "sideboard": 0}
    assert result.errors == ()
    assert [(w.code, w.card, w.line) for w in result.warnings] == [
        (codes.CARD_NOT_IN_CATALOGUE, MISSPELT, 16)
    ]
    assert result.unknown_cards == (MISSPELT,)


def test_the_unknown_line_stays_in_its_place_as_a_stand_in():
    result = validate_text(forty_five_with_a_typo(), spec=HKK_FAQ, index=bundled_index())
    main = result.lines["main"]
    assert [is_unresolved(line.card) for line in main] == [False] * 14 + [True]
    assert (main[-1].card.name, main[-1].count, main[-1].line) == (MISSPELT, 3, 16)


def test_a_complete_catalogue_calls_the_name_an_error_but_counts_it():
    complete = CardIndex(hkk_cards())
    result = validate_text(forty_five_with_a_typo(), spec=HKK_FAQ, index=complete)
    assert result.status == Verdict.ILLEGAL
    assert {e.code for e in result.errors} == {codes.UNKNOWN_CARD}  # no deck_too_small
    assert result.counts["main"] == 45


def test_a_deck_too_small_even_with_its_unknown_lines_stays_illegal():
    text = forty_five_with_a_typo().replace(f"3 {MISSPELT}", f"1 {MISSPELT}")
    result = validate_text(text, spec=HKK_FAQ, index=bundled_index())
    assert result.status == Verdict.ILLEGAL
    too_small = [e for e in result.errors if e.code == codes.DECK_TOO_SMALL]
    assert [dict(e.params) for e in too_small] == [{"count": 43, "minimum": 45}]


def test_unknown_sideboard_lines_count_toward_the_exact_sideboard_size():
    lines = hkk_legal_lines()  # 51 cards, then a 30-card sideboard of 10 names x 3
    lines[-1] = f"3 {MISSPELT}"
    result = validate_text("\n".join(lines), spec=HAGYOMANYOS, index=bundled_index())
    assert result.counts == {"main": 51, "sideboard": 30}
    assert result.status == Verdict.UNVERIFIED
    assert codes.SIDEBOARD_WRONG_SIZE not in {e.code for e in result.errors}


def test_an_unknown_name_over_the_copy_limit_is_not_made_illegal():
    # The card may be one of unlimited copies; the name is reported, the list is unverified.
    text = forty_five_with_a_typo().replace(f"3 {MISSPELT}", f"4 {MISSPELT}")
    result = validate_text(text, spec=HKK_FAQ, index=bundled_index())
    assert result.status == Verdict.UNVERIFIED
    assert result.counts["main"] == 46


def test_a_known_name_over_the_copy_limit_stays_illegal_beside_unknown_names():
    first = deck_cards(1)[0].name
    text = forty_five_with_a_typo().replace(f"3 {first}\n", f"4 {first}\n", 1)
    result = validate_text(text, spec=HKK_FAQ, index=bundled_index())
    assert result.status == Verdict.ILLEGAL
    assert {e.code for e in result.errors} == {codes.TOO_MANY_COPIES}


def test_an_unknown_rule_card_is_declared_not_counted_and_no_colour_or_section_noise():
    lines = hkk_legal_lines()
    text = "\n".join([*lines, "Szabálylap: Nincs ilyen szabálylap", "Pakli:", f"1 {MISSPELT}"])
    result = validate_text(text, spec=HAGYOMANYOS, index=bundled_index())
    assert result.rule_card == "Nincs ilyen szabálylap"
    assert result.counts == {"main": 52, "sideboard": 30}
    assert result.status == Verdict.UNVERIFIED
    assert {w.code for w in result.warnings} == {codes.CARD_NOT_IN_CATALOGUE}
    assert result.unknown_cards == ("Nincs ilyen szabálylap", MISSPELT)


def test_unknown_structured_items_count_too():
    names = [{"name": card.name, "count": 3} for card in deck_cards(14)]
    data = {"main": [*names, {"name": MISSPELT, "count": 3}]}
    result = validate_structured(data, spec=HKK_FAQ, index=bundled_index())
    assert (result.status, result.counts["main"]) == (Verdict.UNVERIFIED, 45)


def test_wow_unknown_main_line_counts_and_may_be_the_hero():
    partial = CardIndex(wow_cards(), coverage={"wow": Coverage.PARTIAL})
    known = [c for c in wow_cards() if c.kind.value == "card" and not c.class_icons]
    known = [c for c in known if c.faction is None and not c.requires]
    lines = [f"4 {card.name}" for card in list({c.name: c for c in known}.values())[:15]]
    result = validate_text(
        "\n".join([*lines, "1 Saeryn Duskorow"]), spec=WOW_CONSTRUCTED, index=partial
    )
    assert result.counts["main"] == 61
    assert codes.MISSING_HERO not in {e.code for e in result.errors}
    assert result.unknown_cards == ("Saeryn Duskorow",)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("1e9 Gigaököl", "bad_count"),
        ("1E+9 Gigaököl", "bad_count"),
        ("3.5 Gigaököl", "bad_count"),
        ("3,5 Gigaököl", "bad_count"),
        ("3.5x Gigaököl", "bad_count"),
        (".5 Gigaököl", "bad_count"),
        ("-2.5 Gigaököl", "bad_count"),
        ("0x10 Gigaököl", "bad_count"),
        ("0x1F Gigaököl", "bad_count"),
        ("0x Gigaököl", "zero_count"),
        ("1/2 Gigaököl", "bad_count"),
        ("½ Gigaököl", "bad_count"),
        ("x2.5 Gigaököl", "bad_count"),
        ("Gigaököl x2.5", "bad_count"),
        ("Gigaököl ×1e9", "bad_count"),
    ],
)
def test_a_count_that_is_not_a_whole_number_is_an_error_on_its_line(line, reason):
    deck = parse_text(f"3 Tisztítótűz\n{line}\n")
    assert [(e.code, e.params["reason"], e.line) for e in deck.errors] == [
        (codes.PARSE_ERROR, reason, 2)
    ]
    assert [entry.name for entry in deck.sections["main"]] == ["Tisztítótűz"]
    result = validate_text(f"3 Tisztítótűz\n{line}\n", spec=HKK_FAQ, index=bundled_index())
    assert result.status == Verdict.ILLEGAL and result.unknown_cards == ()
    assert codes.CARD_NOT_IN_CATALOGUE not in {w.code for w in result.warnings}


@pytest.mark.parametrize(
    ("line", "name", "count"),
    [
        ("X-51 Nether-Rocket", "X-51 Nether-Rocket", 1),  # a WoW TCG card, not "x -51"
        ("2 X-51 Nether-Rocket", "X-51 Nether-Rocket", 2),
        ("X-51 Nether-Rocket x2", "X-51 Nether-Rocket", 2),
        ("7th Legion", "7th Legion", 1),
        ("1000 Needles", "Needles", 1000),  # a whole number: read, then too large
    ],
)
def test_names_with_digits_and_whole_counts_are_still_read(line, name, count):
    deck = parse_text(line)
    if count > 999:
        assert [e.params["reason"] for e in deck.errors] == ["count_too_large"]
    else:
        assert deck.errors == []
        assert [(e.name, e.count) for e in deck.sections["main"]] == [(name, count)]


def test_no_bundled_card_name_reads_as_a_bad_count():
    for card in (*hkk_cards(), *wow_cards()):
        for line in (card.name, f"2 {card.name}", f"{card.name} x2"):
            assert parse_text(line).errors == [], line


def test_a_list_over_the_line_limit_gets_no_verdict():
    text = "\n".join(f"1 {MISSPELT} {i}" for i in range(10_080))
    with pytest.raises(DeckTooLongError) as raised:
        validate_text(text, spec=HKK_FAQ, index=bundled_index())
    assert (raised.value.found, raised.value.limit) == (10_080, MAX_LINES)
