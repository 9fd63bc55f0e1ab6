"""The 14 public WoW TCG deck lists (tests/fixtures/wowtcg, see its PROVENANCE.md) validate as
meant against the bundled catalogue: 13 legal, the hero-less template illegal (missing_hero).

Each JSON list becomes a plain deck list ("Hero: …", "Deck:", "4 Name" lines) built from the
names as the list's author typed them; the hero comes from ``hero_card_def_id`` (set +
collector number) through the catalogue.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from decks.domain import codes
from decks.domain.normalize import normalize_name
from decks.domain.types import Verdict
from decks.domain.validate import validate_text
from tests.domain.decks.bundled import WOW_CONSTRUCTED, bundled_index, wow_cards

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "wowtcg" / "decks"
#: The list format's set prefixes → the set names of the bundled catalogue.
SET_PREFIXES = {"azeroth": "Heroes of Azeroth", "dark_portal": "The Dark Portal"}
LISTS = sorted(FIXTURES.glob("*/*.json"))


def card_for_def_id(def_id: str):
    """The catalogue card that ``azeroth_6`` (set prefix + collector number) names."""
    prefix, number = def_id.rsplit("_", 1)
    series = SET_PREFIXES[prefix]
    return next(
        c
        for c in wow_cards()
        if c.attributes.get("series") == series
        and str(c.attributes.get("card_num", "")).lstrip("0") == number
    )


def to_deck_list(data: dict) -> str:
    lines = []
    if data.get("hero_card_def_id"):
        lines.append(f"Hero: {card_for_def_id(data['hero_card_def_id']).name}")
    lines.append("Deck:")
    lines += [f"{e['count']} {e['_card_name']}" for e in data["card_entries"]]
    return "\n".join(lines) + "\n"


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8-sig"))


def test_all_fourteen_lists_are_bundled():
    assert len(LISTS) == 14
    assert sum(1 for p in LISTS if p.parent.name == "templates") == 1


@pytest.mark.parametrize("path", LISTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_real_list_validates_as_meant(path):
    data = load(path)
    result = validate_text(to_deck_list(data), spec=WOW_CONSTRUCTED, index=bundled_index())
    if path.parent.name == "templates":
        assert result.status == Verdict.ILLEGAL
        assert [e.code for e in result.errors] == [codes.MISSING_HERO]
        return
    assert result.status == Verdict.LEGAL, [(e.code, e.card, e.params) for e in result.errors]
    assert result.errors == () and result.warnings == ()
    assert result.counts == {"main": 60, "sideboard": 0}
    assert result.hero == card_for_def_id(data["hero_card_def_id"]).name


@pytest.mark.parametrize("path", LISTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_typed_name_resolves_to_the_printing_its_id_names(path):
    index = bundled_index()
    for entry in load(path)["card_entries"]:
        meant = card_for_def_id(entry["card_def_id"])
        found = index.candidates(entry["_card_name"], "wow")
        assert meant in found, entry
        assert normalize_name(found[0].name) == normalize_name(meant.name)


def test_misspelt_source_names_show_the_printed_name():
    index = bundled_index()
    for typed, printed in {
        "Kulan Earthguard": "Kulan Earthguard",
        "Kulan Earthgaurd": "Kulan Earthguard",
        "Galway Steamwhistle": "Galway Steamwhistle",
        "Galway Streamwhistle": "Galway Steamwhistle",
        "Bestial Wrath": "Bestial Wrath",
        "Beastial Wrath": "Bestial Wrath",
        "Wazzuli Wilemender": "Wazzuli Wildmender",
        "Samuel Gray": "Samuel Grey",
        "Galahandra Keeper of the Silent Grove": "Galahandra, Keeper of the Silent Grove",
    }.items():
        card = index.lookup(typed, "wow")
        assert card is not None and card.name == printed, typed
