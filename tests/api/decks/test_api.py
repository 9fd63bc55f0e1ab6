"""REST API of the decks app, end to end through the URLconf (``/api/...``)."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from tests.services.decks.test_validation import EXAMPLES, ISSUE_KEYS, RESULT_KEYS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]

VALIDATE = "/api/decks/validate/"


@pytest.fixture
def api():
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


def example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def test_validate_legal_text_returns_200_and_the_result(api):
    response = api.post(
        VALIDATE, {"format": "hkk", "text": example("hkk-legal.txt")}, format="json"
    )
    assert response.status_code == 200
    data = response.json()
    assert set(data) == RESULT_KEYS
    assert data["legal"] is True
    assert data["counts"] == {"main": 52, "sideboard": 0}
    assert data["rule_card"] == "Ősi rúna"
    assert data["follower"] == "A legfőbb követő"
    assert data["hero"] is None
    assert data["errors"] == []


def test_validate_illegal_text_returns_200_with_translated_errors(api):
    response = api.post(
        VALIDATE, {"format": "wow-constructed", "text": example("wow-illegal.txt")}, format="json"
    )
    assert response.status_code == 200
    data = response.json()
    assert data["legal"] is False
    for issue in data["errors"]:
        assert set(issue) == ISSUE_KEYS
    by_code = {}
    for issue in data["errors"]:
        by_code.setdefault(issue["code"], []).append(issue)
    assert {"class_restriction", "faction_restriction", "hero_trait_required"} <= set(by_code)
    blink = next(i for i in by_code["class_restriction"] if i["card"] == "Blink")
    assert blink == {
        "code": "class_restriction",
        "message": "“Blink” is for Mage, but the hero's class is Warrior.",
        "card": "Blink",
        "line": 11,
        "params": {"classes": ["Mage"], "hero_class": ["Warrior"]},
    }


def test_validate_structured_input(api):
    payload = {
        "format": "wow-constructed",
        "hero": "Gorebelly",
        "main": [
            {"name": name, "count": 4}
            for name in [
                "Battle Shout",
                "Berserker Stance",
                "Charge",
                "Cleave",
                "Defensive Stance",
                "Demoralizing Shout",
                "Execute",
                "Heroic Strike",
                "Mocking Blow",
                "Rend",
                "Barak the Shamed",
                "Brigg",
                "Fa'tafi",
                "Gartok Skullsplitter",
            ]
        ]
        + ["4 Guardian Steelhorn"],
        "sideboard": [],
    }
    response = api.post(VALIDATE, payload, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["legal"] is True
    assert response.json()["hero"] == "Gorebelly"
    payload["main"] = payload["main"][:5]
    short = api.post(VALIDATE, payload, format="json").json()
    assert short["legal"] is False
    assert [e["code"] for e in short["errors"]] == ["deck_too_small"]


def test_structured_hkk_sections_and_bad_items(api):
    payload = {
        "format": "hkk",
        "main": ["3 Garokk", {"name": "Gigaököl", "count": "three"}],
        "rule_card": "Ősi rúna",
        "follower": "A legfőbb követő",
    }
    data = api.post(VALIDATE, payload, format="json").json()
    assert data["rule_card"] == "Ősi rúna"
    assert data["follower"] == "A legfőbb követő"
    parse = next(e for e in data["errors"] if e["code"] == "parse_error")
    assert parse["params"] == {"reason": "bad_count", "section": "main", "index": 1}
    assert "whole number" in parse["message"]


def test_blue_moon_sections_are_accepted(api):
    payload = {"format": "bluemoon-advanced", "leader": "Nobody", "inquisitor": None, "main": []}
    response = api.post(VALIDATE, payload, format="json")
    assert response.status_code == 200
    codes = {e["code"] for e in response.json()["errors"]}
    assert "unknown_card" in codes


def test_unknown_format_is_400_with_a_clear_message(api):
    response = api.post(VALIDATE, {"format": "nope", "text": "3 Garokk"}, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "error": {
            "code": "unknown_format",
            "message": "Unknown format: nope.",
            "fields": {},
            "params": {"format": "nope"},
        }
    }


def test_unknown_format_message_is_hungarian_by_default():
    response = APIClient().post(VALIDATE, {"format": "nope", "text": "3 Garokk"}, format="json")
    assert response.status_code == 400
    assert response.headers["Content-Language"] == "hu"


@pytest.mark.parametrize(
    "payload",
    [
        {"format": "hkk", "text": ""},
        {"format": "hkk", "text": "   \n "},
        {"format": "hkk"},
        {"format": "hkk", "main": [], "sideboard": []},
    ],
)
def test_empty_input_is_400(api, payload):
    response = api.post(VALIDATE, payload, format="json")
    assert response.status_code == 400
    body = response.json()["error"]
    assert body["code"] == "invalid_deck_input"
    assert body["message"]


def test_text_and_structured_together_is_400(api):
    payload = {"format": "hkk", "text": "3 Garokk", "main": ["3 Garokk"]}
    response = api.post(VALIDATE, payload, format="json")
    assert response.status_code == 400
    assert "either" in response.json()["error"]["message"]


def test_missing_format_is_400_field_error(api):
    response = api.post(VALIDATE, {"text": "3 Garokk"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert "format" in response.json()["error"]["fields"]


def test_malformed_json_is_400(api):
    response = api.post(VALIDATE, data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "parse_error"
    assert "JSON parse error" in response.json()["error"]["message"]


def test_oversized_body_is_413_with_a_message(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    text = "3 Garokk\n" * 5_000
    response = api.post(VALIDATE, {"format": "hkk", "text": text}, format="json")
    assert response.status_code == 413
    body = response.json()["error"]
    assert body["code"] == "request_too_large"
    assert "too large" in body["message"]


def test_oversized_body_without_the_middleware_is_still_413(api, settings):
    settings.MIDDLEWARE = [
        m
        for m in settings.MIDDLEWARE
        if m != "hkk_tournament.web.middleware.ApiBodyLimitMiddleware"
    ]
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    response = api.post(VALIDATE, {"format": "hkk", "text": "3 Garokk\n" * 5_000}, format="json")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "request_too_large"


def test_get_on_validate_is_405(api):
    assert api.get(VALIDATE).status_code == 405


def test_formats_list(api, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):
        response = api.get("/api/formats/")
    assert response.status_code == 200
    formats = {f["slug"]: f for f in response.json()}
    assert {"hkk", "hkk-hagyomanyos", "wow-constructed", "bluemoon-advanced"} <= set(formats)
    hagyomanyos = formats["hkk-hagyomanyos"]
    assert hagyomanyos["game"] == "hkk"
    assert hagyomanyos["rule_set"] == "hkk"
    assert hagyomanyos["min_main"] == 50
    assert hagyomanyos["sideboard_mode"] == "exact"
    assert hagyomanyos["sideboard_size"] == 30
    assert hagyomanyos["copy_limit"] == 3
    assert hagyomanyos["colour_limit"] == 3
    assert formats["wow-constructed"]["copy_limit"] == 4


def test_inactive_formats_are_not_listed(api):
    from decks.models import Format

    Format.objects.filter(slug="hkk-retro").update(is_active=False)
    slugs = {f["slug"] for f in api.get("/api/formats/").json()}
    assert "hkk-retro" not in slugs
    assert "hkk" in slugs


def test_card_search_matches_normalised_substring(api):
    response = api.get("/api/cards/", {"game": "hkk", "q": "  ÓRIÁS  skorp"})
    assert response.status_code == 200
    data = response.json()
    assert [c["name"] for c in data["results"]] == ["Óriás skorpió"]
    card = data["results"][0]
    assert card["game"] == "hkk"
    assert card["id"] == "307"
    assert card["colours"] == ["Sheran"]


def test_card_search_filters_by_game(api):
    wow = api.get("/api/cards/", {"game": "wow", "q": "charge"}).json()
    assert wow["count"] >= 1
    assert {c["game"] for c in wow["results"]} == {"wow"}
    hkk = api.get("/api/cards/", {"game": "hkk", "q": "charge"}).json()
    assert hkk["count"] == 0


def test_card_search_is_paginated_with_constant_queries(api, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):
        first = api.get("/api/cards/", {"game": "wow", "limit": 50}).json()
    assert first["count"] == 6425
    assert len(first["results"]) == 50
    assert first["next"]
    with django_assert_max_num_queries(2):
        second = api.get("/api/cards/", {"game": "wow", "limit": 50, "offset": 50}).json()
    assert not {c["id"] for c in first["results"]} & {c["id"] for c in second["results"]}


def test_schema_lists_every_decks_endpoint(api):
    response = api.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = json.loads(response.content)
    paths = schema["paths"]
    assert "post" in paths["/api/decks/validate/"]
    assert "get" in paths["/api/formats/"]
    assert "get" in paths["/api/cards/"]
    params = {p["name"] for p in paths["/api/cards/"]["get"]["parameters"]}
    assert {"game", "q", "limit", "offset"} <= params
    request_ref = paths["/api/decks/validate/"]["post"]["requestBody"]["content"][
        "application/json"
    ]["schema"]["$ref"]
    assert request_ref.endswith("/DeckValidateInput")
    assert "200" in paths["/api/decks/validate/"]["post"]["responses"]
    assert "400" in paths["/api/decks/validate/"]["post"]["responses"]


def test_swagger_ui_is_served(api):
    assert api.get("/api/docs/").status_code == 200


def test_output_serializer_documents_exactly_the_returned_shape():
    from decks.api.validate import DeckValidateOutputSerializer, ViolationOutputSerializer

    assert set(DeckValidateOutputSerializer().fields) == RESULT_KEYS
    assert set(ViolationOutputSerializer().fields) == ISSUE_KEYS
