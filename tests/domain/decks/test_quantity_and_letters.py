"""Quantity forms players type ("3 Name", "3x Name", "Name x3", "×3 Name" …) and the Latin-1
look-alikes õ/û/Õ/Û typed for the Hungarian ő/ű/Ő/Ű."""

from __future__ import annotations

import pytest

from decks.domain.index import CardIndex
from decks.domain.normalize import hungarian_lookalikes
from decks.domain.parser import parse_structured, parse_text
from decks.domain.types import Card
from decks.domain.validate import validate_text
from tests.domain.decks.bundled import HAGYOMANYOS, bundled_index, hkk_legal_lines


def main_lines(text: str) -> list[tuple[str, int]]:
    deck = parse_text(text)
    assert deck.errors == []
    return [(line.name, line.count) for line in deck.sections["main"]]


@pytest.mark.parametrize(
    "line",
    [
        "3 Gigaököl",
        "3x Gigaököl",
        "3X Gigaököl",
        "3 x Gigaököl",
        "3×Gigaököl".replace("×", "× "),
        "3 × Gigaököl",
        "Gigaököl x3",
        "Gigaököl X3",
        "Gigaököl x 3",
        "Gigaököl ×3",
        "Gigaököl × 3",
        "x3 Gigaököl",
        "X3 Gigaököl",
        "×3 Gigaököl",
        "x 3 Gigaököl",
    ],
)
def test_every_quantity_form(line):
    assert main_lines(line) == [("Gigaököl", 3)]


def test_forms_mix_and_merge():
    text = "2 Gigaököl\nGigaököl x1\nTisztítótűz ×2\nx2 Mágiatörés\nEllenvarázslat"
    assert main_lines(text) == [
        ("Gigaököl", 3),
        ("Tisztítótűz", 2),
        ("Mágiatörés", 2),
        ("Ellenvarázslat", 1),
    ]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("Gigaököl x0", "zero_count"),
        ("x0 Gigaököl", "zero_count"),
        ("Gigaököl x-1", "negative_count"),
        ("Gigaököl x10000", "count_too_large"),
    ],
)
def test_bad_trailing_and_leading_counts(line, reason):
    deck = parse_text(line)
    assert [e.params["reason"] for e in deck.errors] == [reason]
    assert deck.sections["main"] == []


def test_names_that_merely_contain_x_or_digits_stay_names():
    assert main_lines("Xenó lárva (2022)") == [("Xenó lárva (2022)", 1)]
    assert main_lines("2 xylofon") == [("xylofon", 2)]
    assert main_lines("Gnomeregan Auto-Blocker 600") == [("Gnomeregan Auto-Blocker 600", 1)]
    assert main_lines("Box 3") == [("Box 3", 1)]


def test_structured_string_items_take_the_same_forms():
    deck = parse_structured({"main": ["Gigaököl x3", "x2 Tisztítótűz"]})
    assert [(ln.name, ln.count) for ln in deck.sections["main"]] == [
        ("Gigaököl", 3),
        ("Tisztítótűz", 2),
    ]


def test_lookalike_letters_map_to_hungarian():
    assert hungarian_lookalikes("Õsi rúna, Tisztítótûz, ÛR") == "Ősi rúna, Tisztítótűz, ŰR"
    assert hungarian_lookalikes("plain") == "plain"


def test_index_reads_lookalikes_when_the_catalogue_has_the_hungarian_form():
    index = bundled_index()
    assert index.lookup("Õsi rúna", "hkk").name == "Ősi rúna"
    assert index.lookup("TISZTÍTÓTÛZ", "hkk").name == "Tisztítótűz"
    # A name the catalogue really spells with õ is found as typed, never rewritten.
    own = CardIndex([Card(id="1", game="x", name="Pão"), Card(id="2", game="x", name="Pőo")])
    assert own.lookup("Pão", "x").id == "1"


def test_headers_typed_with_lookalikes_are_headers():
    deck = parse_text("1 A\nKiegészítõ pakli:\n1 B\nKövetõ: C")
    assert [ln.name for ln in deck.sections["sideboard"]] == ["B"]
    assert [ln.name for ln in deck.sections["follower"]] == ["C"]


def test_a_list_typed_with_lookalikes_validates_as_the_printed_cards():
    lines = hkk_legal_lines()
    typed = [ln.replace("ő", "õ").replace("ű", "û") for ln in lines]
    assert typed != lines
    result = validate_text(
        "\n".join([*typed, "Szabálylap: Õsi rúna"]), spec=HAGYOMANYOS, index=bundled_index()
    )
    assert result.status == "legal", result.errors
    assert result.rule_card == "Ősi rúna"
