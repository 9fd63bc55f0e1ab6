"""Blue Moon CSV loader (decks.loaders.bluemoon) and the bundled partial card list."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from decks.domain.types import CardKind
from decks.loaders.base import CatalogueFormatError
from decks.loaders.bluemoon import COLUMNS, PEOPLES, load_bundled, read_bluemoon_csv

HEADER = ",".join(COLUMNS) + "\n"
FAQ_REFERENCES = (
    Path(__file__).resolve().parents[2] / "fixtures" / "bluemoon" / "faq-card-references.txt"
)


def write(tmp_path, *rows):
    path = tmp_path / "cards.csv"
    path.write_text(HEADER + "".join(row + "\n" for row in rows), encoding="utf-8")
    return path


def test_bundled_file_holds_the_faq_cards():
    cards = {c.id: c for c in load_bundled()}
    hoax15 = cards["Hoax-15"]
    assert hoax15.name == "Ketharkopas the Astronomer"
    assert hoax15.game == "bluemoon" and hoax15.kind is CardKind.CARD
    assert hoax15.attributes["people"] == "Hoax" and hoax15.attributes["number"] == 15
    assert hoax15.attributes["deck"] == "Khind deck"
    assert hoax15.attributes["moons"] is None  # not stated in the FAQ
    sea_moon = cards["Buka-31"]
    assert (sea_moon.attributes["moons"], sea_moon.attributes["deck"]) == (2, "Promo")
    razor, swift = cards["Inq-412"], cards["Inq-411"]
    assert razor.kind is CardKind.INQUISITOR
    assert (razor.attributes["plus_cards"], razor.attributes["plus_moons"]) == (5, 5)
    assert (swift.attributes["plus_cards"], swift.attributes["plus_moons"]) == (0, 0)
    assert cards["Mutant-106"].attributes["mutant"] is True
    assert {c.name for c in cards.values() if c.kind is CardKind.EMISSARY} == {"Tutu", "Hyla"}
    leaders = {c.attributes["people"] for c in cards.values() if c.kind is CardKind.LEADER}
    assert leaders == set(PEOPLES)
    assert all(
        c.attributes["confidence"] == "unknown" for c in cards.values() if c.kind is CardKind.LEADER
    )


def test_every_card_the_faq_names_is_shipped():
    # The FAQ's card references, copied verbatim into the fixture (tests/fixtures/PROVENANCE.md).
    text = FAQ_REFERENCES.read_text(encoding="utf-8")
    brackets = set(re.findall(r"\[(?:Promo/)?(\w+) (\d+)(?:, [^\]]*)?\]", text))
    assert len(brackets) == 63
    ids = {c.id for c in load_bundled()}
    for prefix, number in brackets:
        assert f"{prefix}-{number}" in ids or f"{prefix}-{int(number):02d}" in ids, prefix + number


def test_valid_organiser_file(tmp_path):
    path = write(
        tmp_path,
        "Vulca-01,Fire Card,card,vulca,1,3,0,0,,,,,,confirmed",
        "leader-vulca,Vulca Leader,leader,Vulca,,,,,,,,,,unknown",
        "emissary-tutu,Tutu,emissary,,,,,,,,Vulca-01,,,confirmed",
    )
    first, leader, tutu = read_bluemoon_csv(path)
    assert first.attributes["people"] == "Vulca" and first.attributes["moons"] == 3
    assert first.attributes["chosen_one"] is False
    assert leader.kind is CardKind.LEADER
    assert tutu.attributes["emissary_cards"] == ["Vulca-01"]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("X-1,Name,card,Vulca,1,many,,,,,,,,confirmed", "row 2: column 'moons'"),
        ("X-1,Name,dragon,Vulca,1,,,,,,,,,confirmed", "row 2: column 'kind'"),
        ("X-1,Name,card,Elves,1,,,,,,,,,confirmed", "row 2: unknown people"),
        ("X-1,Name,card,Vulca,1,,yes,,,,,,,confirmed", "row 2: column 'chosen_one'"),
        ("X-1,Name,card,Vulca,1,,,,,,,,,maybe", "row 2: column 'confidence'"),
        (",Name,card,Vulca,1,,,,,,,,,confirmed", "row 2: column 'id' is empty"),
        ("X-1,Name,card,Vulca,1,,,1,,,,,,confirmed", "row 2: a mutant"),
        ("X-1,Name,card,Vulca,1,,,,2,,,,,confirmed", "row 2: only an inquisitor"),
        ("L,Name,leader,,,,,,,,,,,unknown", "row 2: a leader needs a people"),
        ("E,Tutu,emissary,,,,,,,,Nope-1,,,confirmed", "row 2: emissary card 'Nope-1'"),
        ("X-1,Name,card,Vulca,1,,,,,,,,,confirmed,extra", "row 2: more values"),
    ],
)
def test_bad_rows_name_the_row(tmp_path, row, message):
    with pytest.raises(CatalogueFormatError, match=message):
        read_bluemoon_csv(write(tmp_path, row))


def test_duplicates_and_missing_columns(tmp_path):
    path = write(
        tmp_path,
        "X-1,Name,card,Vulca,1,,,,,,,,,confirmed",
        "X-1,Other,card,Vulca,2,,,,,,,,,confirmed",
    )
    with pytest.raises(CatalogueFormatError, match="row 3: id 'X-1' already used in row 2"):
        read_bluemoon_csv(path)
    path.write_text("id,name\nX-1,Name\n", encoding="utf-8")
    with pytest.raises(CatalogueFormatError, match="row 1: missing column"):
        read_bluemoon_csv(path)


def test_registers_as_importer():
    from decks.loaders import get_importer

    assert get_importer("bluemoon") is read_bluemoon_csv
