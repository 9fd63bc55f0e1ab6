"""Catalogue coverage per game: ``GET /api/catalogue/`` and the ``/cards/coverage/`` page, and
the verdict against a partial catalogue (docs/rules.md §17 (Card data sources and coverage))."""

from __future__ import annotations

import io
import json

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from decks.loaders import hkk
from decks.selectors.cache import clear_caches
from decks.selectors.cards import get_card_index
from tests.services.decks.test_validation import example

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


def test_api_lists_each_games_coverage():
    response = APIClient().get("/api/catalogue/")
    assert response.status_code == 200
    rows = {row["game"]: row for row in response.json()}
    assert rows["hkk"]["coverage"] == "partial"
    assert rows["hkk"]["cards"] == 624 + 212 + 5  # sample + usage statistics + HKK FAQ
    assert rows["hkk"]["name_only"] == 212 + 5
    assert rows["hkk"]["editions"] >= 256
    assert 0 < rows["hkk"]["editions_with_cards"] <= rows["hkk"]["editions"]
    assert rows["hkk"]["last_synced_at"] is None
    assert rows["wow"]["coverage"] == "complete" and rows["wow"]["cards"] == 6425


def test_coverage_page_is_linked_from_the_deck_page():
    client = Client()
    assert 'href="/cards/coverage/"' in client.get("/").content.decode()
    html = client.get("/cards/coverage/").content.decode()
    assert 'data-game="hkk"' in html and 'data-coverage="partial"' in html


def test_every_meta_name_is_known_through_the_database_index():
    clear_caches()
    index = get_card_index()
    names = hkk.parse_meta_names()
    known = [m.name for m in names if index.lookup(m.name, "hkk") is not None]
    assert len(known) == len(names) == 223


def _unverified_list() -> str:
    return example("hkk-legal.txt") + "\n1 Nincs ilyen lap\n"


def test_a_list_naming_a_card_the_partial_catalogue_lacks_is_unverified_in_the_api():
    response = APIClient().post(
        "/api/decks/validate/", {"format": "hkk", "text": _unverified_list()}, format="json"
    )
    data = response.json()
    assert (data["status"], data["legal"]) == ("unverified", False)
    assert data["errors"] == []
    assert data["unknown_cards"] == ["Nincs ilyen lap"]


def test_the_page_shows_unverified_with_the_unknown_names():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.post("/", {"format": "hkk", "text": _unverified_list()}).content.decode()
    assert 'data-status="unverified" class="badge badge-unverified">Unverified<' in html
    assert '<ul class="unknown-cards"><li>Nincs ilyen lap</li></ul>' in html


def test_the_cli_exits_3_for_an_unverified_list(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text(_unverified_list(), encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(SystemExit) as caught:
        call_command("validate_deck", str(path), "--format", "hkk", "--json", stdout=out)
    assert caught.value.code == 3
    data = json.loads(out.getvalue())
    assert (data["status"], data["legal"]) == ("unverified", False)
