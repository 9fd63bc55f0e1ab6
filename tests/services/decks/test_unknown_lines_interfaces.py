"""Unknown names counted, bad counts and over-long lists through every interface: the service,
``manage.py validate_deck`` (exit status) and ``POST /api/decks/validate/`` (HTTP status), on
the real bundled catalogue in PostgreSQL (HKK partial). docs/rules.md §17.
"""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from decks.domain.parser import MAX_LINES
from decks.errors import DeckInputError
from decks.services.validation import deck_validate
from tests.services.decks.test_validate_deck_command import run
from tests.services.decks.test_validation import EXAMPLES

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]

VALIDATE = "/api/decks/validate/"
MISSPELT = "Gigaökööl"


def forty_five_with_a_typo() -> str:
    """``examples/hkk-legal.txt`` cut to 45 cards, "Gigaököl" x 3 misspelt: 42 known + 3."""
    text = (EXAMPLES / "hkk-legal.txt").read_text(encoding="utf-8")
    for line in ("3 Óriáspók\n", "2 Csoda\n", "2 Ongóliant diszkoszvetés\n"):
        assert line in text
        text = text.replace(line, "")
    return text.replace("3 Gigaököl\n", f"3 {MISSPELT}\n")


def ten_thousand_lines() -> str:
    return "".join(f"1 Gigaököl {i}\n" for i in range(10_080))


@pytest.fixture
def api():
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


def test_service_45_cards_with_an_unknown_name_x3_is_unverified_with_45_counted():
    result = deck_validate(format_slug="hkk", text=forty_five_with_a_typo())
    assert (result.status, dict(result.counts)) == ("unverified", {"main": 45, "sideboard": 0})
    assert result.unknown_cards == (MISSPELT,) and result.errors == ()


def test_cli_45_cards_with_an_unknown_name_exits_3_unverified_45_cards(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text(forty_five_with_a_typo(), encoding="utf-8")
    status, out, _err = run(str(path), "--format", "hkk", "--json", "--lang", "en")
    data = json.loads(out)
    assert status == 3
    assert (data["status"], data["counts"]["main"], data["unknown_cards"]) == (
        "unverified",
        45,
        [MISSPELT],
    )
    assert [e["code"] for e in data["errors"]] == []


@pytest.mark.parametrize("line", ["1e9 Tisztítótűz", "3.5 Tisztítótűz", "0x Tisztítótűz"])
def test_cli_a_count_that_is_not_a_whole_number_is_an_error_on_its_line(tmp_path, line):
    path = tmp_path / "deck.txt"
    text = forty_five_with_a_typo()
    path.write_text(text + line + "\n", encoding="utf-8")
    status, out, _err = run(str(path), "--format", "hkk", "--json", "--lang", "en")
    data = json.loads(out)
    assert status == 1 and data["status"] == "illegal"
    (error,) = data["errors"]
    assert (error["code"], error["line"]) == ("parse_error", len(text.splitlines()) + 1)
    assert error["params"]["reason"] in {"bad_count", "zero_count"}
    assert data["unknown_cards"] == [MISSPELT]  # the bad line is not read as a card name


def test_cli_a_10080_line_list_is_unusable_input_exit_2_without_a_verdict(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text(ten_thousand_lines(), encoding="utf-8")
    status, out, err = run(str(path), "--format", "hkk", "--json", "--lang", "en")
    assert status == 2
    assert out == ""  # no verdict, no count
    assert f"10080 lines; a deck list may have at most {MAX_LINES}" in err


def test_api_a_10080_line_list_is_400_without_a_verdict(api):
    response = api.post(VALIDATE, {"format": "hkk", "text": ten_thousand_lines()}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert "status" not in body and "counts" not in body
    assert body["error"]["code"] == "invalid_deck_input"
    assert body["error"]["params"] == {
        "reason": "too_many_lines",
        "found": 10_080,
        "limit": MAX_LINES,
    }


def test_api_too_many_structured_items_is_400(api):
    main = [{"name": "Gigaököl", "count": 1}] * (MAX_LINES + 1)
    response = api.post(VALIDATE, {"format": "hkk", "main": main}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["params"]["reason"] == "too_many_lines"


def test_api_45_cards_with_an_unknown_name_is_unverified(api):
    response = api.post(
        VALIDATE, {"format": "hkk", "text": forty_five_with_a_typo()}, format="json"
    )
    assert response.status_code == 200
    data = response.json()
    assert (data["status"], data["legal"], data["counts"]["main"]) == ("unverified", False, 45)
    assert data["unknown_cards"] == [MISSPELT]


def test_the_service_raises_the_one_input_error_for_an_over_long_list():
    with pytest.raises(DeckInputError) as raised:
        deck_validate(format_slug="hkk", text=ten_thousand_lines())
    assert raised.value.params["found"] == 10_080
