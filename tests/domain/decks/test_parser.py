from __future__ import annotations

import pytest

from decks.domain import codes
from decks.domain.parser import (
    MAX_LINES,
    MAX_TEXT_LENGTH,
    DeckTooLongError,
    parse_structured,
    parse_text,
)


def names(deck, section):
    return [(line.name, line.count, line.line) for line in deck.sections[section]]


def reasons(deck):
    return [(e.params["reason"], e.line) for e in deck.errors]


@pytest.mark.parametrize(
    "line",
    [
        "4 Gigaököl",
        "4x Gigaököl",
        "4 x Gigaököl",
        "4X Gigaököl",
        "4× Gigaököl",
        "  4   Gigaököl  ",
        "\t4\tGigaököl",
    ],
)
def test_count_forms(line):
    deck = parse_text(line)
    assert names(deck, "main") == [("Gigaököl", 4, 1)]
    assert deck.errors == []


def test_name_without_count_is_one_copy():
    deck = parse_text("Gigaököl")
    assert names(deck, "main") == [("Gigaököl", 1, 1)]


def test_name_starting_with_x_is_not_eaten():
    deck = parse_text("2 xylofon\n2x Xenó lárva (2022)")
    assert names(deck, "main") == [("xylofon", 2, 1), ("Xenó lárva (2022)", 2, 2)]


def test_digit_leading_name_without_space_is_a_name():
    assert names(parse_text("7th Legion"), "main") == [("7th Legion", 1, 1)]


def test_bom_crlf_cr_and_nbsp():
    text = "\ufeffPakli:\r\n3\u00a0Gigaököl\r\n\r\n2 Tisztítótűz\rKiegészítő pakli:\r1 Mágiatörés"
    deck = parse_text(text)
    assert names(deck, "main") == [("Gigaököl", 3, 2), ("Tisztítótűz", 2, 4)]
    assert names(deck, "sideboard") == [("Mágiatörés", 1, 6)]
    assert deck.errors == []


@pytest.mark.parametrize(
    ("header", "section"),
    [
        ("Pakli:", "main"),
        ("DECK:", "main"),
        ("main:", "main"),
        ("Main deck :", "main"),
        ("Kiegészítő pakli:", "sideboard"),
        ("KIEGÉSZÍTŐ PAKLI:", "sideboard"),
        ("Sideboard:", "sideboard"),
        ("Side deck:", "sideboard"),
        ("side:", "sideboard"),
        ("Szabálylap:", "rule_card"),
        ("Rule card:", "rule_card"),
        ("Követő:", "follower"),
        ("Follower:", "follower"),
        ("Hős:", "hero"),
        ("Hero:", "hero"),
        ("Vezér:", "leader"),
        ("Leader:", "leader"),
        ("Inkvizítor:", "inquisitor"),
        ("Inquisitor:", "inquisitor"),
        ("Követ:", "emissary"),
        ("Emissary:", "emissary"),
    ],
)
def test_headers(header, section):
    deck = parse_text(f"1 Before\n{header}\n2 After")
    assert names(deck, "main")[0] == ("Before", 1, 1)
    assert ("After", 2, 3) in names(deck, section)


def test_kovet_and_koveto_are_different_headers():
    deck = parse_text("Követ: Egy követ\nKövető: Arochos (2020)")
    assert names(deck, "emissary") == [("Egy követ", 1, 1)]
    assert names(deck, "follower") == [("Arochos (2020)", 1, 2)]


def test_header_needs_colon():
    assert names(parse_text("Pakli\n1 Gigaököl"), "main")[0] == ("Pakli", 1, 1)


def test_header_with_card_on_same_line():
    deck = parse_text("Szabálylap: Ősi rúna\nHero: 1 Boris Brightbeard\nDeck: 4 Hysteria")
    assert names(deck, "rule_card") == [("Ősi rúna", 1, 1)]
    assert names(deck, "hero") == [("Boris Brightbeard", 1, 2)]
    assert names(deck, "main") == [("Hysteria", 4, 3)]


def test_header_line_keeps_case_of_card_with_expanding_casefold():
    deck = parse_text("Szabálylap: Straße der Ősi")
    assert names(deck, "rule_card") == [("Straße der Ősi", 1, 1)]


def test_comments():
    text = "# whole line\n3 Gigaököl # three of them\n  # indented comment\n2 Card#7\n1 A # b # c"
    deck = parse_text(text)
    assert names(deck, "main") == [("Gigaököl", 3, 2), ("Card#7", 2, 4), ("A", 1, 5)]


def test_repeated_names_merge_keeping_first_line():
    deck = parse_text("2 Gigaököl\n1 Tisztítótűz\n1 GIGAÖKÖL\nKiegészítő pakli:\n1 Gigaököl")
    assert names(deck, "main") == [("Gigaököl", 3, 1), ("Tisztítótűz", 1, 2)]
    assert names(deck, "sideboard") == [("Gigaököl", 1, 5)]


def test_typographic_apostrophe_merges():
    deck = parse_text("1 Thu’zad\n1 Thu'zad")
    assert names(deck, "main") == [("Thu’zad", 2, 1)]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("0 Gigaököl", "zero_count"),
        ("0x Gigaököl", "zero_count"),
        ("-2 Gigaököl", "negative_count"),
        ("1000 Gigaököl", "count_too_large"),
        ("9" * 5000 + " Gigaököl", "count_too_large"),
        ("4", "missing_name"),
        ("4x", "missing_name"),
        ("1 " + "a" * 300, "name_too_long"),
    ],
)
def test_bad_counts_are_reported_and_skipped(line, reason):
    deck = parse_text(f"1 Good\n{line}\n1 Also good")
    assert reasons(deck) == [(reason, 2)]
    assert all(e.code == codes.PARSE_ERROR for e in deck.errors)
    assert [n for n, _c, _l in names(deck, "main")] == ["Good", "Also good"]


def test_999_is_accepted():
    assert names(parse_text("999 Gigaököl"), "main") == [("Gigaököl", 999, 1)]


def test_too_many_lines_is_unusable_input_not_a_deck():
    with pytest.raises(DeckTooLongError) as raised:
        parse_text("\n".join(f"1 Card {i}" for i in range(MAX_LINES + 1)))
    assert (raised.value.reason, raised.value.found, raised.value.limit) == (
        "too_many_lines",
        MAX_LINES + 1,
        MAX_LINES,
    )


def test_exactly_the_line_limit_is_still_read():
    deck = parse_text("\n".join(f"1 Card {i}" for i in range(MAX_LINES)))
    assert deck.errors == [] and len(deck.sections["main"]) == MAX_LINES


def test_too_long_text_is_unusable_input():
    with pytest.raises(DeckTooLongError) as raised:
        parse_text("1 " + "a" * MAX_TEXT_LENGTH)
    assert raised.value.reason == "text_too_long"


def test_too_many_structured_items_is_unusable_input():
    with pytest.raises(DeckTooLongError) as raised:
        parse_structured(
            {"main": ["1 Card"] * (MAX_LINES // 2 + 1), "sideboard": ["1 B"] * (MAX_LINES // 2)}
        )
    assert raised.value.reason == "too_many_lines"


def test_blank_lines_do_not_count_towards_the_limit():
    deck = parse_text("\n" * (MAX_LINES * 2) + "1 Gigaököl")
    assert deck.errors == []
    assert names(deck, "main") == [("Gigaököl", 1, MAX_LINES * 2 + 1)]


def test_control_characters_are_tolerated():
    deck = parse_text("1 Giga\x00ököl\x07\n\x0b\x0c")
    assert deck.errors == []
    assert names(deck, "main") == [("Giga ököl", 1, 1)]


# -- structured input --------------------------------------------------------------------


def test_structured_all_shapes():
    deck = parse_structured(
        {
            "main": [
                "Gigaököl",
                "3 Tisztítótűz",
                {"name": "Mágiatörés", "count": 2},
                {"name": "X"},
            ],
            "sideboard": [{"name": "Gigaököl", "count": 3}],
            "rule_card": "Ősi rúna",
            "follower": None,
            "hero": "",
        }
    )
    assert names(deck, "main") == [
        ("Gigaököl", 1, None),
        ("Tisztítótűz", 3, None),
        ("Mágiatörés", 2, None),
        ("X", 1, None),
    ]
    assert names(deck, "sideboard") == [("Gigaököl", 3, None)]
    assert names(deck, "rule_card") == [("Ősi rúna", 1, None)]
    assert deck.sections["follower"] == [] and deck.sections["hero"] == []
    assert deck.errors == []


def test_structured_bad_shapes():
    deck = parse_structured(
        {
            "main": [
                42,
                {"count": 2},
                {"name": "A", "count": "2"},
                {"name": "B", "count": 0},
                {"name": "C", "count": True},
                {"name": "D", "count": 1000},
                "0 E",
                "F",
            ],
            "sideboard": "not a list",
            "bogus": [],
            "rule_card": 7,
        }
    )
    got = [
        (e.params["reason"], e.params.get("section"), e.params.get("index")) for e in deck.errors
    ]
    assert got == [
        ("bad_item", "main", 0),
        ("missing_name", "main", 1),
        ("bad_count", "main", 2),
        ("zero_count", "main", 3),
        ("bad_count", "main", 4),
        ("count_too_large", "main", 5),
        ("zero_count", "main", 6),
        ("bad_section", "sideboard", None),
        ("unknown_section", "bogus", None),
        ("bad_item", "rule_card", None),
    ]
    assert all(e.line is None for e in deck.errors)
    assert names(deck, "main") == [("F", 1, None)]


@pytest.mark.parametrize("data", [None, [], "4 Gigaököl", 3])
def test_structured_not_an_object(data):
    assert reasons(parse_structured(data)) == [("not_an_object", None)]


def test_single_card_header_with_card_returns_to_list_section():
    deck = parse_text(
        "Hős: Saeryn Dusksorrow\n4 Hysteria\nKiegészítő pakli:\n1 A\n"
        "Szabálylap: Ősi rúna\n1 B\nKövető:\nArochos (2020)\n"
    )
    assert names(deck, "hero") == [("Saeryn Dusksorrow", 1, 1)]
    assert names(deck, "main") == [("Hysteria", 4, 2)]
    assert names(deck, "sideboard") == [("A", 1, 4), ("B", 1, 6)]
    assert names(deck, "rule_card") == [("Ősi rúna", 1, 5)]
    assert names(deck, "follower") == [("Arochos (2020)", 1, 8)]
