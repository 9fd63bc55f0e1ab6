"""Blue Moon through every interface, like the other games: the bundled catalogue,
``manage.py validate_deck``, ``POST /api/decks/validate/``, the deck-check page and
``manage.py import_cards bluemoon FILE.csv``."""

from __future__ import annotations

import io
import json

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from decks.loaders.bluemoon import load_bundled
from decks.models import Card
from tests.services.decks.test_validation import EXAMPLES

pytestmark = pytest.mark.django_db

FORMAT = "bluemoon-advanced"
UNVERIFIED = EXAMPLES / "bluemoon-unverified.txt"
ILLEGAL = EXAMPLES / "bluemoon-illegal.txt"
ILLEGAL_CODES = {
    "deck_wrong_size",
    "too_many_leaders",
    "emissary_not_allowed",
    "inquisitor_with_emissary",
    "duplicate_card",
}
HEADER = (
    "id,name,kind,people,number,moons,chosen_one,mutant,plus_cards,plus_moons,"
    "emissary_cards,deck,source,confidence\n"
)


def example(path) -> str:
    return path.read_text(encoding="utf-8")


def validate_cli(*args: str) -> tuple[int, str]:
    """``validate_deck`` through ``call_command``: (exit status, stdout)."""
    out = io.StringIO()
    try:
        call_command("validate_deck", *args, stdout=out)
    except SystemExit as exc:
        return (exc.code if isinstance(exc.code, int) else 1), out.getvalue()
    return 0, out.getvalue()


@pytest.fixture
def api():
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


# --- catalogue -----------------------------------------------------------------------------


def test_load_catalogue_loads_the_bundled_blue_moon_cards(catalogue):
    bundled = {card.id for card in load_bundled()}
    stored = set(Card.objects.filter(game__slug="bluemoon").values_list("external_id", flat=True))
    assert bundled <= stored
    leader = Card.objects.get(game__slug="bluemoon", external_id="leader-khind")
    assert leader.kind == "leader" and leader.attributes["people"] == "Khind"


# --- CLI -----------------------------------------------------------------------------------


def test_cli_unverified_example_exits_3_unverified_with_only_moon_warnings(catalogue):
    # The bundled data lacks some moon costs: nothing checked is broken, but the moon budget
    # cannot be checked, so the list is unverified, not legal (docs/rules.md §17).
    status, out = validate_cli(str(UNVERIFIED), "--format", FORMAT, "--json", "--lang", "en")
    assert status == 3
    data = json.loads(out)
    assert data["status"] == "unverified"
    assert data["legal"] is False
    assert data["errors"] == []
    assert data["counts"]["main"] == 30
    assert {warning["code"] for warning in data["warnings"]} == {"moons_unknown"}


def test_cli_illegal_example_exits_1_with_the_blue_moon_errors(catalogue):
    status, out = validate_cli(str(ILLEGAL), "--format", FORMAT, "--json", "--lang", "en")
    assert status == 1
    data = json.loads(out)
    assert data["legal"] is False
    assert {error["code"] for error in data["errors"]} == ILLEGAL_CODES


def test_cli_readable_report_names_the_errors(catalogue):
    status, out = validate_cli(str(ILLEGAL), "--format", FORMAT, "--lang", "en")
    assert status == 1
    assert "ILLEGAL" in out
    assert "An inquisitor and an emissary cannot be used together." in out


def test_cli_unknown_format_is_unusable_input(catalogue):
    with pytest.raises(CommandError) as caught:
        call_command("validate_deck", str(UNVERIFIED), "--format", "bluemoon-nope")
    assert caught.value.returncode == 2


# --- API -----------------------------------------------------------------------------------


def test_api_validates_the_unverified_text(catalogue, api):
    response = api.post(
        "/api/decks/validate/", {"format": FORMAT, "text": example(UNVERIFIED)}, format="json"
    )
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "unverified" and data["errors"] == []
    assert data["legal"] is False  # true only when legal
    assert len(data["warnings"]) == 19


def test_api_reports_the_illegal_codes(catalogue, api):
    response = api.post(
        "/api/decks/validate/", {"format": FORMAT, "text": example(ILLEGAL)}, format="json"
    )
    assert response.status_code == 200
    data = response.json()
    assert data["legal"] is False
    assert {error["code"] for error in data["errors"]} == ILLEGAL_CODES
    duplicate = next(e for e in data["errors"] if e["code"] == "duplicate_card")
    assert duplicate["card"] == "NoNo"
    assert duplicate["message"] == "“NoNo” is in the deck 2 times; each card may be used once."


def test_api_structured_input_without_a_leader(catalogue, api):
    response = api.post(
        "/api/decks/validate/",
        {"format": FORMAT, "main": ["NoNo", "NoClue"]},
        format="json",
    )
    assert response.status_code == 200
    codes = {error["code"] for error in response.json()["errors"]}
    assert {"missing_leader", "deck_wrong_size"} <= codes


def test_api_unknown_format_is_400(catalogue, api):
    response = api.post(
        "/api/decks/validate/", {"format": "bluemoon-nope", "text": "1 NoNo"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "unknown_format"


# --- page ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "verdict"), [(UNVERIFIED, "Unverified"), (ILLEGAL, "Illegal")])
def test_page_validates_blue_moon_lists(catalogue, path, verdict):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("decks:validate")).content.decode()
    assert f'value="{FORMAT}"' in page
    response = client.post(reverse("decks:validate"), {"format": FORMAT, "text": example(path)})
    assert response.status_code == 200
    html = response.content.decode()
    assert f'badge-{verdict.lower()}">{verdict}<' in html
    if verdict == "Illegal":
        assert "An inquisitor and an emissary cannot be used together." in html


# --- import_cards bluemoon -----------------------------------------------------------------


def test_import_cards_adds_an_organisers_cards_and_validation_uses_them(catalogue, tmp_path):
    sheet = tmp_path / "bluemoon.csv"
    sheet.write_text(
        HEADER
        + "Mimix-01,Proba Medve,card,Mimix,1,6,0,0,,,,,organiser sheet,confirmed\n"
        + "Mimix-02,Proba Roka,card,Mimix,2,6,0,0,,,,,organiser sheet,confirmed\n",
        encoding="utf-8",
    )
    out = io.StringIO()
    call_command("import_cards", "bluemoon", str(sheet), stdout=out)
    assert "2 új" in out.getvalue()  # the command speaks the default language, Hungarian
    card = Card.objects.get(game__slug="bluemoon", external_id="Mimix-01")
    assert card.name == "Proba Medve" and card.attributes["moons"] == 6

    # 12 moons of Mimix cards in a Khind deck: over the budget of 10.
    text = (
        example(UNVERIFIED)
        .replace("1 Tidal Flood", "1 Proba Medve")
        .replace("1 Torrential Flood", "1 Proba Roka")
    )
    status, output = validate_cli_text(tmp_path, text)
    assert status == 1
    data = json.loads(output)
    budget = next(e for e in data["errors"] if e["code"] == "moon_budget_exceeded")
    assert budget["params"]["moons"] == 14  # 6 + 6 + Sea Moon 2
    assert budget["params"]["budget"] == 10


def validate_cli_text(tmp_path, text: str) -> tuple[int, str]:
    deck = tmp_path / "deck.txt"
    deck.write_text(text, encoding="utf-8")
    return validate_cli(str(deck), "--format", FORMAT, "--json", "--lang", "en")


def test_import_cards_bad_row_names_it_and_writes_nothing(catalogue, tmp_path):
    sheet = tmp_path / "bluemoon.csv"
    sheet.write_text(
        HEADER
        + "Mimix-01,Proba Medve,card,Mimix,1,6,0,0,,,,,organiser sheet,confirmed\n"
        + "Mimix-02,Proba Roka,wizard,Mimix,2,6,0,0,,,,,organiser sheet,confirmed\n",
        encoding="utf-8",
    )
    before = Card.objects.filter(game__slug="bluemoon").count()
    with pytest.raises(CommandError) as caught:
        call_command("import_cards", "bluemoon", str(sheet))
    assert caught.value.returncode == 2
    assert "row 3" in str(caught.value) and "kind" in str(caught.value)
    assert Card.objects.filter(game__slug="bluemoon").count() == before
    assert not Card.objects.filter(external_id="Mimix-01").exists()


def test_import_cards_missing_column_is_a_clear_error(catalogue, tmp_path):
    sheet = tmp_path / "bluemoon.csv"
    sheet.write_text("id,name\nX-1,Valami\n", encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        call_command("import_cards", "bluemoon", str(sheet))
    assert "missing column" in str(caught.value)
