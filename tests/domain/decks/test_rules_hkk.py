"""HKK rules (HKK FAQ on rule cards and first-player rights; Kódex §43, §44, §48; docs/rules.md
§3 (HKK deck construction (Hagyományos)), §4 (HKK formats and ban lists (Retró, TM, Páros))) on
real cards from the HKK sample."""

from __future__ import annotations

import dataclasses

import pytest

from decks.domain import codes
from decks.domain.index import CardIndex
from decks.domain.normalize import normalize_name
from decks.domain.types import Card, CardKind, SideboardMode
from decks.domain.validate import validate_text
from tests.domain.decks.catalogue import hkk_cards
from tests.domain.decks.conftest import HAGYOMANYOS

# Hand-built cards (the sample has no epic follower, no unlimited card and no unknown colours).
EPIC = Card(
    id="90001",
    game="hkk",
    name="Próba epikus követő",
    kind=CardKind.EPIC_FOLLOWER,
    types=("Követő", "epikus"),
)
UNLIMITED = Card(
    id="90002", game="hkk", name="Próba korlátlan lap", colours=("Leah",), unlimited=True
)
NO_COLOUR_DATA = Card(id="90003", game="hkk", name="Próba ismeretlen színű", colours=None)


@pytest.fixture(scope="module")
def index():
    return CardIndex((*hkk_cards(), EPIC, UNLIMITED, NO_COLOUR_DATA))


def check(text, index, spec=HAGYOMANYOS):
    return validate_text(text, spec=spec, index=index)


def error_codes(result):
    return [e.code for e in result.errors]


def with_main_line(text, line):
    return text.replace("Pakli:\n", f"Pakli:\n{line}\n", 1)


def test_legal_list_passes(hkk_legal_text, index):
    result = check(hkk_legal_text, index)
    assert result.errors == () and result.warnings == ()
    assert result.legal
    assert result.counts == {"main": 51, "sideboard": 30}
    assert result.rule_card == "Ősi rúna"
    assert result.follower == "A legfőbb követő"
    assert result.hero is None


def test_deck_too_small(hkk_legal_text, index):
    text = hkk_legal_text.replace("Pakli:\n3 ", "Pakli:\n1 ", 1)
    result = check(text, index)
    assert error_codes(result) == [codes.DECK_TOO_SMALL]
    assert result.errors[0].params == {"count": 49, "minimum": 50}


def test_deck_maximum(hkk_legal_text, index):
    spec = dataclasses.replace(HAGYOMANYOS, max_main=50)
    result = check(hkk_legal_text, index, spec)
    assert [(e.code, e.params) for e in result.errors] == [
        (codes.DECK_TOO_LARGE, {"count": 51, "maximum": 50})
    ]


def test_rule_card_and_follower_do_not_count(hkk_legal_text, index):
    # 16 names x 3 = 48 in the deck + rule card and follower must still be too small
    lines = hkk_legal_text.split("\n")
    text = "\n".join(lines[:1] + lines[2:])
    result = check(text, index)
    assert result.counts["main"] == 48
    assert error_codes(result) == [codes.DECK_TOO_SMALL]


def test_too_many_copies_across_deck_and_sideboard(hkk_legal_text, index):
    first = hkk_legal_text.split("\n")[1]  # "3 <name>"
    name = first[2:]
    text = hkk_legal_text.replace("Kiegészítő pakli:\n3x ", f"Kiegészítő pakli:\n1 {name}\n2x ", 1)
    result = check(text, index)
    assert error_codes(result) == [codes.TOO_MANY_COPIES]
    error = result.errors[0]
    assert (error.card, error.line, error.params) == (name, 2, {"count": 4, "limit": 3})


def test_unlimited_card_has_no_copy_limit(hkk_legal_text, index):
    result = check(with_main_line(hkk_legal_text, "9 Próba korlátlan lap"), index)
    assert result.legal, result.errors


def test_copy_limit_can_include_rule_card_and_follower(index):
    spec = dataclasses.replace(
        HAGYOMANYOS,
        copy_limit=1,
        min_main=1,
        sideboard_mode="any",
        colour_limit=None,
        params={"copy_limit_includes_extras": True},
    )
    text = "Pakli:\n1 Gigaököl\nSzabálylap: Ősi rúna\nKiegészítő pakli:\n1 Gigaököl"
    assert error_codes(check(text, index, spec)) == [codes.TOO_MANY_COPIES]


def test_banned_card_anywhere(hkk_legal_text, index):
    text = with_main_line(hkk_legal_text, "1 Spóra").replace(
        "Szabálylap: Ősi rúna", "Szabálylap: Lépéselőny"
    )
    result = check(text, index)
    banned = [(e.card, e.params["section"]) for e in result.errors if e.code == codes.BANNED_CARD]
    assert banned == [("Spóra", "main"), ("Lépéselőny", "rule_card")]


def test_sideboard_must_be_exactly_30(hkk_legal_text, index):
    text = hkk_legal_text.replace("Kiegészítő pakli:\n3x ", "Kiegészítő pakli:\n2x ", 1)
    result = check(text, index)
    assert [(e.code, e.params) for e in result.errors] == [
        (codes.SIDEBOARD_WRONG_SIZE, {"count": 29, "expected": 30})
    ]


def test_sideboard_is_optional(hkk_legal_text, index):
    head, _side = hkk_legal_text.split("Kiegészítő pakli:\n")
    text = head + "Szabálylap: Ősi rúna\n"
    result = check(text, index)
    assert result.legal and result.counts["sideboard"] == 0


@pytest.mark.parametrize(
    ("mode", "size", "expected"),
    [
        (SideboardMode.NONE, None, (codes.SIDEBOARD_NOT_ALLOWED, {"count": 30})),
        (SideboardMode.MAX, 20, (codes.SIDEBOARD_TOO_LARGE, {"count": 30, "maximum": 20})),
        (SideboardMode.MAX, 30, None),
        (SideboardMode.ANY, 5, None),
    ],
)
def test_sideboard_modes(hkk_legal_text, index, mode, size, expected):
    spec = dataclasses.replace(HAGYOMANYOS, sideboard_mode=mode, sideboard_size=size)
    got = [(e.code, e.params) for e in check(hkk_legal_text, index, spec).errors]
    assert got == ([] if expected is None else [expected])


def test_two_rule_cards(hkk_legal_text, index):
    text = hkk_legal_text + "Szabálylap: Zarknod börtönében\n"
    result = check(text, index)
    assert [(e.code, e.params) for e in result.errors] == [
        (codes.TOO_MANY_RULE_CARDS, {"count": 2, "limit": 1})
    ]


def test_rule_card_in_sideboard_and_main(hkk_legal_text, index):
    text = (
        with_main_line(hkk_legal_text, "1 Semleges csatamező") + "Kiegészítő pakli:\n1 Lépéselőny\n"
    )
    spec = dataclasses.replace(HAGYOMANYOS, banned=frozenset())
    found = {(e.code, e.card) for e in check(text, index, spec).errors}
    assert (codes.WRONG_SECTION, "Semleges csatamező") in found
    assert (codes.RULE_CARD_IN_SIDEBOARD, "Lépéselőny") in found


def test_non_rule_card_in_rule_card_section(hkk_legal_text, index):
    text = hkk_legal_text.replace("Szabálylap: Ősi rúna", "Szabálylap: Gigaököl")
    result = check(text, index)
    assert [(e.code, e.card, e.params) for e in result.errors] == [
        (codes.WRONG_SECTION, "Gigaököl", {"section": "rule_card", "kind": "card"})
    ]


def test_two_followers(hkk_legal_text, index):
    text = hkk_legal_text + "Követő: Kragoru familiárisa\n"
    assert error_codes(check(text, index)) == [codes.TOO_MANY_FOLLOWERS]


def test_follower_in_deck(hkk_legal_text, index):
    text = with_main_line(hkk_legal_text, "1 Melák, az óriás")
    result = check(text, index)
    assert [(e.code, e.params) for e in result.errors] == [
        (codes.FOLLOWER_IN_DECK, {"section": "main"})
    ]
    assert result.counts["main"] == 51  # not counted


def test_non_follower_in_follower_section(hkk_legal_text, index):
    text = hkk_legal_text.replace("Követő: A legfőbb követő", "Követő: Ősi bölcsesség")
    assert error_codes(check(text, index)) == [codes.WRONG_SECTION]


def test_horde_commander_with_rule_card(hkk_legal_text, index):
    # 9219 "Arochos (2020)" is Követő|hordaparancsnok in the sample (Kódex §48.1)
    text = hkk_legal_text.replace("Követő: A legfőbb követő", "Követő: Arochos (2020)")
    result = check(text, index)
    assert [(e.code, e.card, e.params) for e in result.errors] == [
        (codes.EPIC_FOLLOWER_COMBINED, "Arochos (2020)", {"with": ["Ősi rúna"]})
    ]


def test_horde_commander_alone_is_legal(hkk_legal_text, index):
    text = hkk_legal_text.replace("Követő: A legfőbb követő", "Követő: Arochos (2020)")
    text = text.replace("Szabálylap: Ősi rúna\n", "")
    assert check(text, index).legal


def test_epic_follower_with_other_follower(hkk_legal_text, index):
    text = hkk_legal_text.replace("Szabálylap: Ősi rúna\n", "") + "Követő: Próba epikus követő\n"
    found = [(e.code, e.card, dict(e.params)) for e in check(text, index).errors]
    assert (
        codes.EPIC_FOLLOWER_COMBINED,
        "Próba epikus követő",
        {"with": ["A legfőbb követő"]},
    ) in found
    assert codes.TOO_MANY_FOLLOWERS in [c for c, _n, _p in found]


def test_too_many_colours(hkk_legal_text, index):
    raia = next(c for c in hkk_cards() if c.colours == ("Raia",))
    result = check(with_main_line(hkk_legal_text, f"1 {raia.name}"), index)
    assert error_codes(result) == [codes.TOO_MANY_COLOURS]
    params = result.errors[0].params
    assert params["limit"] == 3
    assert sorted(params["colours"]) == ["Dornodon", "Leah", "Raia", "Tharr"]


def test_colourless_and_bufa_do_not_count(hkk_legal_text, index):
    bufa = next(c for c in hkk_cards() if c.colours == ("Bufa",))
    assert check(with_main_line(hkk_legal_text, f"1 {bufa.name}"), index).legal


def test_colour_limit_ignores_sideboard_by_default(hkk_legal_text, index):
    raia = next(c for c in hkk_cards() if c.colours == ("Raia",))
    text = hkk_legal_text.replace(
        "Kiegészítő pakli:\n3x ", f"Kiegészítő pakli:\n3 {raia.name}\n3x "
    )
    strict = dataclasses.replace(HAGYOMANYOS, sideboard_mode=SideboardMode.ANY)
    assert codes.TOO_MANY_COLOURS not in error_codes(check(text, index, strict))
    both = dataclasses.replace(strict, params={"colours_include_sideboard": True})
    assert codes.TOO_MANY_COLOURS in error_codes(check(text, index, both))


def test_unknown_colours_warn(hkk_legal_text, index):
    result = check(with_main_line(hkk_legal_text, "1 Próba ismeretlen színű"), index)
    assert result.legal
    assert [(w.code, w.card, w.line) for w in result.warnings] == [
        (codes.COLOURS_UNKNOWN, "Próba ismeretlen színű", 2)
    ]


def unused_leah_card(text):
    return next(c.name for c in hkk_cards() if c.colours == ("Leah",) and c.name not in text)


def test_sideboard_only_card_in_main(hkk_legal_text, index):
    name = unused_leah_card(hkk_legal_text)
    spec = dataclasses.replace(HAGYOMANYOS, sideboard_only=frozenset({normalize_name(name)}))
    result = check(with_main_line(hkk_legal_text, f"1 {name}"), index, spec)
    assert [(e.code, e.card) for e in result.errors] == [(codes.SIDEBOARD_ONLY_IN_MAIN, name)]
    side = hkk_legal_text.replace("Kiegészítő pakli:\n3x ", f"Kiegészítő pakli:\n1 {name}\n2x ", 1)
    assert check(side, index, spec).legal


def test_hero_section_not_used_in_hkk(hkk_legal_text, index):
    result = check(hkk_legal_text + "Hős: Gigaököl\n", index)
    assert [(e.code, e.params) for e in result.errors] == [
        (codes.SECTION_NOT_USED, {"section": "hero"})
    ]
