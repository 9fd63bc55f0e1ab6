"""``decks.services.validation.deck_validate`` / ``validation_result_dict`` and ``decks.messages``.

The ``catalogue`` fixture (``tests/conftest.py``) makes sure the real bundled catalogue is in
the test database.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from decks.domain import bluemoon, codes
from decks.domain.types import Violation
from decks.errors import DeckInputError, UnknownFormat
from decks.messages import MESSAGES, message_for
from decks.models import Format
from decks.selectors.cache import clear_caches
from decks.services.validation import deck_validate, validation_result_dict

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

RESULT_KEYS = {
    "format",
    "status",
    "unknown_cards",
    "legal",
    "counts",
    "rule_card",
    "follower",
    "hero",
    "errors",
    "warnings",
}
ISSUE_KEYS = {"code", "message", "card", "line", "params"}

#: (example file, format slug, legal?, codes that must be among the errors).
EXAMPLE_CASES = [
    ("hkk-legal.txt", "hkk", True, set()),
    ("hkk-legal.txt", "hkk-hagyomanyos", True, set()),
    (
        "hkk-illegal.txt",
        "hkk",
        False,
        {
            "deck_too_small",
            "too_many_copies",
            "rule_card_in_sideboard",
            "wrong_section",
        },
    ),
    (
        "hkk-illegal.txt",
        "hkk-hagyomanyos",
        False,
        {"deck_too_small", "too_many_copies", "banned_card", "sideboard_wrong_size"},
    ),
    ("wow-legal.txt", "wow-constructed", True, set()),
    (
        "wow-illegal.txt",
        "wow-constructed",
        False,
        {
            "deck_too_small",
            "too_many_copies",
            "class_restriction",
            "faction_restriction",
            "hero_trait_required",
        },
    ),
]


def example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


# --- messages (no database) ------------------------------------------------------------------


def test_every_violation_code_has_a_message():
    every = codes.ALL_CODES | bluemoon.BLUEMOON_CODES
    missing = sorted(code for code in every if code not in MESSAGES)
    assert missing == []


@pytest.mark.parametrize("code", sorted(codes.ALL_CODES | bluemoon.BLUEMOON_CODES))
def test_every_message_renders_without_params(code):
    with translation.override("en"):
        text = message_for(Violation(code, {}, "Some card", 3))
    assert text
    assert "%(" not in text
    assert code not in text  # its own message, not the generic fallback


def test_message_fills_params_in_english():
    violation = Violation(codes.TOO_MANY_COPIES, {"count": 4, "limit": 3}, "Gigaököl", 3)
    with translation.override("en"):
        text = message_for(violation)
    assert text == ("4 copies of “Gigaököl” (deck and sideboard together); at most 3 are allowed.")


def test_unknown_code_gets_a_generic_message_naming_the_code():
    with translation.override("en"):
        text = message_for(Violation("brand_new_rule", {"x": 1}))
    assert "brand_new_rule" in text


def test_parse_error_message_explains_the_reason():
    with translation.override("en"):
        text = message_for(Violation(codes.PARSE_ERROR, {"reason": "zero_count"}, None, 7))
    assert "zero" in text


def test_unknown_card_message_offers_suggestions():
    violation = Violation(codes.UNKNOWN_CARD, {"suggestions": ["Óriás skorpió"]}, "Óriás skorpio")
    with translation.override("en"):
        text = message_for(violation)
    assert "Óriás skorpio" in text
    assert "Did you mean: Óriás skorpió?" in text


def test_list_params_are_joined():
    violation = Violation(
        codes.CLASS_RESTRICTION, {"classes": ["Mage"], "hero_class": ["Warrior"]}, "Blink", 4
    )
    with translation.override("en"):
        text = message_for(violation)
    assert text == "“Blink” is for Mage, but the hero's class is Warrior."


# --- deck_validate ---------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "slug", "legal", "expected"), EXAMPLE_CASES)
def test_examples_validate_as_documented(catalogue, name, slug, legal, expected):
    result = deck_validate(format_slug=slug, text=example(name), on=date(2025, 6, 1))
    found = {violation.code for violation in result.errors}
    assert result.legal is legal, [(v.code, v.card, v.line) for v in result.errors]
    assert expected <= found


@pytest.mark.django_db
def test_legal_examples_report_counts_and_declared_cards(catalogue):
    hkk = deck_validate(format_slug="hkk", text=example("hkk-legal.txt"))
    assert dict(hkk.counts) == {"main": 52, "sideboard": 0}
    assert hkk.rule_card == "Ősi rúna"
    assert hkk.follower == "A legfőbb követő"
    wow = deck_validate(format_slug="wow-constructed", text=example("wow-legal.txt"))
    assert dict(wow.counts) == {"main": 62, "sideboard": 0}
    assert wow.hero == "Gorebelly"


@pytest.mark.django_db
def test_unknown_name_gets_suggestions(catalogue):
    # The bundled HKK catalogue is partial: a name it lacks is not an error, but the list
    # cannot be verified (docs/rules.md §17).
    result = deck_validate(format_slug="hkk", text=example("hkk-illegal.txt"))
    assert not [v for v in result.errors if v.code == codes.UNKNOWN_CARD]
    unknown = [v for v in result.warnings if v.code == codes.CARD_NOT_IN_CATALOGUE]
    assert [v.card for v in unknown] == ["Óriás skorpio"]
    assert result.unknown_cards == ("Óriás skorpio",)
    assert "Óriás skorpió" in unknown[0].params["suggestions"]
    assert unknown[0].line == 12


@pytest.mark.django_db
def test_validation_date_selects_the_ban_list_in_force(catalogue):
    text = example("hkk-legal.txt").replace("3 Garokk", "3 Garokk\n1 Kismassza")
    before = deck_validate(format_slug="hkk-hagyomanyos", text=text, on=date(2024, 12, 31))
    after = deck_validate(format_slug="hkk-hagyomanyos", text=text, on=date(2025, 1, 2))
    assert "banned_card" not in {v.code for v in before.errors}
    assert "banned_card" in {v.code for v in after.errors}


@pytest.mark.django_db
def test_structured_input_is_validated_like_text(catalogue):
    data = {
        "hero": "Gorebelly",
        "main": [
            {"name": "Battle Shout", "count": 4},
            "4 Berserker Stance",
            "4 Charge",
            "4 Cleave",
            "4 Defensive Stance",
            "4 Demoralizing Shout",
            "4 Execute",
            "4 Heroic Strike",
            "4 Mocking Blow",
            "4 Rend",
            "4 Barak the Shamed",
            "4 Brigg",
            "4 Fa'tafi",
            "4 Gartok Skullsplitter",
            "4 Guardian Steelhorn",
        ],
        "sideboard": [],
    }
    result = deck_validate(format_slug="wow-constructed", data=data)
    assert result.legal, [(v.code, v.card) for v in result.errors]
    assert result.counts["main"] == 60
    data["main"].append({"name": "Blink", "count": 1})
    illegal = deck_validate(format_slug="wow-constructed", data=data)
    assert [v.code for v in illegal.errors] == ["class_restriction"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "kwargs",
    [
        {"text": ""},
        {"text": "  \n\t\n"},
        {},
        {"text": "3 Garokk", "data": {"main": ["3 Garokk"]}},
        {"data": {}},
        {"data": {"main": [], "sideboard": [], "rule_card": "  ", "hero": None}},
    ],
)
def test_unusable_input_raises_deck_input_error(catalogue, kwargs):
    with pytest.raises(DeckInputError) as raised:
        deck_validate(format_slug="hkk", **kwargs)
    assert str(raised.value.message)


@pytest.mark.django_db
def test_unknown_or_inactive_format_raises(catalogue):
    with pytest.raises(UnknownFormat):
        deck_validate(format_slug="no-such-format", text="3 Garokk")
    Format.objects.filter(slug="hkk-retro").update(is_active=False)
    clear_caches()
    with pytest.raises(UnknownFormat):
        deck_validate(format_slug="hkk-retro", text="3 Garokk")
    clear_caches()


@pytest.mark.django_db
def test_deck_validate_is_read_only_and_cheap(catalogue, monkeypatch):
    # A loaded machine can take over a second between the two calls; the periodic version check
    # (one query, at most once a second) is not what this test counts.
    monkeypatch.setattr("decks.selectors.cache.VERSION_CHECK_SECONDS", 3600.0)
    deck_validate(format_slug="hkk", text=example("hkk-legal.txt"))  # warm the caches
    # Building the index may outlast the once-a-second version check; check it now.
    deck_validate(format_slug="hkk", text=example("hkk-legal.txt"))
    with CaptureQueriesContext(connection) as ctx:
        deck_validate(format_slug="wow-constructed", text=example("wow-illegal.txt"))
    writes = [q["sql"] for q in ctx.captured_queries if q["sql"].split()[0].upper() != "SELECT"]
    assert writes == []
    assert len(ctx.captured_queries) <= 3, [q["sql"][:90] for q in ctx.captured_queries]


@pytest.mark.django_db
def test_result_dict_has_the_documented_shape_and_translated_messages(catalogue):
    result = deck_validate(format_slug="wow-constructed", text=example("wow-illegal.txt"))
    with translation.override("en"):
        data = validation_result_dict(result)
    assert set(data) == RESULT_KEYS
    assert set(data["counts"]) == {"main", "sideboard"}
    assert data["format"] == "wow-constructed"
    assert data["legal"] is False
    assert data["hero"] == "Gorebelly"
    assert data["errors"]
    for issue in data["errors"] + data["warnings"]:
        assert set(issue) == ISSUE_KEYS
        assert issue["message"] and "%(" not in issue["message"]
    faction = next(i for i in data["errors"] if i["code"] == "faction_restriction")
    assert faction["card"] in {"Crazy Igvand", "Donna Calister"}
    assert faction["line"] in {14, 15}
    assert "Alliance" in faction["message"]
