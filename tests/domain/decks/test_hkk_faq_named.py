"""The FAQ-named HKK cards (``decks/data/hkk/faq-named-cards.csv``): facts only, no duplicates
of a name the rest of the bundled catalogue already holds (docs/rules.md §17 (Card data
sources and coverage))."""

from __future__ import annotations

import pytest

from decks.domain.normalize import normalize_name
from decks.domain.types import FACTS_UNKNOWN, POSSIBLE_KINDS, CardKind
from decks.loaders import CatalogueFormatError, hkk, hkk_faq


def test_the_bundled_faq_table_names_five_cards_the_rest_of_the_catalogue_lacks():
    cards = hkk_faq.parse_faq_named()
    names = {card.name for card in cards}
    assert names == {"A bőség zavara", "A fájdalom szépsége", "Arochos", "Együgyű", "Terrgath"}
    bundled = {normalize_name(card.name) for card in hkk.parse_bundled()}
    assert not {normalize_name(name) for name in names} & bundled
    for card in cards:
        assert card.colours is None and card.types == ()
        assert card.attributes[FACTS_UNKNOWN] == hkk_faq.FAQ_UNKNOWN
        assert card.attributes[hkk_faq.FAQ_SOURCE].startswith("HKK FAQ")
    by_name = {card.name: card for card in cards}
    assert by_name["A bőség zavara"].kind == CardKind.RULE_CARD
    assert POSSIBLE_KINDS not in by_name["A bőség zavara"].attributes
    assert by_name["Terrgath"].attributes[POSSIBLE_KINDS] == ("follower", "rule_card")


def test_with_faq_named_skips_a_name_already_known():
    sample = hkk.parse_sample_csv()
    merged = hkk_faq.with_faq_named(sample)
    assert len(merged) == len(sample) + 5
    twice = hkk_faq.with_faq_named(merged)
    assert len(twice) == len(merged)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("name,kinds\nX,rule_card\n", "missing column"),
        ("name,kinds,source\nX,guild,FAQ\n", "row 2: kinds"),
        ("name,kinds,source\nX,rule_card,\n", "row 2: name and source"),
        ("name,kinds,source\nX,rule_card,FAQ\nx,follower,FAQ\n", "row 3: 'x' is listed twice"),
    ],
)
def test_a_malformed_table_names_the_row(tmp_path, body, message):
    path = tmp_path / "faq.csv"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(CatalogueFormatError, match=message):
        hkk_faq.parse_faq_named(path)
