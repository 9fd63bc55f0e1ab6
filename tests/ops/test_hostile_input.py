"""Hostile input gets a 4xx in the one error shape, never a 500 (hkk_tournament.web.parsers,
hkk_tournament.web.pagination, hkk_tournament.web.exceptions), through real requests.

The last tests sweep every operation of the OpenAPI schema, signed in as a superuser against a
started tournament with a paired round, with malformed bodies and out-of-range values.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlencode

import pytest
from django.conf import settings as django_settings
from django.db import DataError
from rest_framework.test import APIClient

from hkk_tournament.web.exceptions import api_exception_handler
from hkk_tournament.web.parsers import nesting_depth_exceeds
from tests.factories import eager_celery  # noqa: F401 (fixture)
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db

VALIDATE = "/api/decks/validate/"
TOKEN = "/api/auth/token/"
JSON = "application/json"


@pytest.fixture
def api() -> APIClient:
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


def error_of(response, status: int) -> dict:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert list(body) == ["error"]
    assert set(body["error"]) == {"code", "message", "fields", "params"}
    return body["error"]


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# --- JSON parser --------------------------------------------------------------------------------


def test_nesting_depth_is_measured_without_recursion():
    assert not nesting_depth_exceeds(1, 0)
    assert not nesting_depth_exceeds([], 1)
    assert nesting_depth_exceeds([], 0)
    assert not nesting_depth_exceeds({"a": [1, {"b": 2}]}, 3)
    assert nesting_depth_exceeds({"a": [1, {"b": []}]}, 3)
    deep: list = []
    for _ in range(50_000):
        deep = [deep]
    assert nesting_depth_exceeds(deep, 32)


def test_json_up_to_the_depth_limit_is_parsed(api):
    limit = django_settings.HKK_JSON_MAX_DEPTH
    assert limit == 32
    body = '{"format": "hkk", "text": "1 Garokk", "main": ' + nested(limit - 1) + "}"
    error = error_of(api.post(VALIDATE, body, content_type=JSON), 400)
    assert error["code"] != "json_too_deep"  # parsed; the deck validation rejects the "main"


@pytest.mark.parametrize("depth", [33, 1_000, 100_000])
def test_json_nested_too_deeply_is_400(api, depth):
    body = '{"format": "hkk", "main": ' + nested(depth - 1) + "}"
    error = error_of(api.post(VALIDATE, body, content_type=JSON), 400)
    assert error["code"] == "json_too_deep"
    assert "at most 32 levels" in error["message"]


def test_json_too_deep_message_is_hungarian_by_default():
    response = APIClient().post(TOKEN, nested(40), content_type=JSON)
    assert "legfeljebb 32 szint" in error_of(response, 400)["message"]


@pytest.mark.parametrize("path", [VALIDATE, TOKEN])
def test_invalid_utf8_is_400(api, path):
    body = b'{"format": "hkk", "text": "1 Garokk \xff\xfe", "username": "\xc3"}'
    error = error_of(api.generic("POST", path, body, content_type=JSON), 400)
    assert error["code"] == "invalid_encoding"
    assert "not valid utf-8 text" in error["message"]


def test_a_declared_text_charset_is_honoured(api):
    body = '{"format": "hkk", "text": "1 Gigaököl"}'.encode("latin-1")
    response = api.generic("POST", VALIDATE, body, content_type=f"{JSON}; charset=latin-1")
    assert response.status_code == 200, response.content


def test_a_compressing_charset_is_refused(api):
    response = api.generic("POST", VALIDATE, b"x", content_type=f"{JSON}; charset=bz2_codec")
    assert error_of(response, 400)["code"] == "unsupported_charset"


@pytest.mark.parametrize(
    "body",
    [
        '{"format": "hkk", "text": NaN}',
        '{"format": "hkk", "text": Infinity}',
        '{"format": "hkk", "count": ' + "9" * 5000 + "}",
        '{"format": "hkk", "text": "unterminated}',
        "\ufeff{}",
        "",
    ],
    ids=["nan", "infinity", "5000-digit-int", "unterminated", "bom", "empty"],
)
def test_malformed_json_is_400(api, body):
    response = api.generic("POST", VALIDATE, body.encode(), content_type=JSON)
    assert error_of(response, 400)["code"] in {"parse_error", "invalid"}


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/xml", "application/octet-stream", "application/x-yaml"],
)
def test_other_content_types_are_415(api, content_type):
    response = api.generic("POST", VALIDATE, b"format: hkk", content_type=content_type)
    error = error_of(response, 415)
    assert error["code"] == "unsupported_media_type"


def test_form_and_multipart_bodies_are_still_accepted(api):
    response = api.post(VALIDATE, {"format": "hkk", "text": "1 Garokk"}, format="multipart")
    assert response.status_code == 200, response.content
    response = api.generic(
        "POST",
        VALIDATE,
        "format=hkk&text=1+Garokk",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200, response.content


def test_malformed_multipart_is_400(api):
    response = api.generic(
        "POST", VALIDATE, b"--x\r\nbroken", content_type="multipart/form-data; boundary=x"
    )
    assert response.status_code == 400, response.content


def test_oversized_json_is_413_before_parsing(api):
    limit = django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = '{"format": "hkk", "main": ' + nested(limit) + "}"
    assert error_of(api.post(VALIDATE, body, content_type=JSON), 413)["code"] == (
        "request_too_large"
    )


# --- pagination -----------------------------------------------------------------------------------


def test_page_size_is_clamped(api, catalogue):
    assert django_settings.HKK_API_MAX_PAGE_SIZE == 500
    body = api.get("/api/cards/", {"limit": 100_000}).json()
    assert body["count"] > 500
    assert len(body["results"]) == 500
    assert len(api.get("/api/cards/", {"limit": "abc"}).json()["results"]) == 50
    assert len(api.get("/api/cards/", {"limit": "9" * 5000}).json()["results"]) == 50


def test_offset_beyond_the_bound_is_400(api, catalogue):
    assert api.get("/api/cards/", {"offset": 1_000_000}).json()["results"] == []
    for offset in (1_000_001, 10**30):
        error = error_of(api.get("/api/cards/", {"offset": offset}), 400)
        assert error["code"] == "invalid"
        assert error["fields"] == {"offset": ["At most 1000000."]}
    assert api.get("/api/cards/", {"offset": -5}).status_code == 200


def test_schema_documents_the_bounds(api):
    schema = api.get("/api/schema/?format=json").json()
    params = {p["name"]: p for p in schema["paths"]["/api/cards/"]["get"]["parameters"]}
    assert params["limit"]["schema"]["maximum"] == 500
    assert params["offset"]["schema"]["maximum"] == 1_000_000


# --- values the database refuses -----------------------------------------------------------------


@pytest.mark.parametrize(
    "exc",
    [
        DataError("integer out of range"),
        OverflowError("Python int too large to convert to SQLite INTEGER"),
    ],
)
def test_a_value_the_database_refuses_is_400_not_500(exc, caplog):
    response = api_exception_handler(exc, {})
    assert response.status_code == 400
    assert response.data["error"]["code"] == "invalid_data"
    assert str(exc) not in json.dumps(response.data)
    assert any(r.levelname == "WARNING" and r.exc_info for r in caplog.records)


# --- every operation of the API -----------------------------------------------------------------

HOSTILE_BODIES = {
    "deep": (nested(100_000).encode(), JSON),
    "bad-utf8": (b'{"name": "\xff\xfe\xfd"}', JSON),
    "nan": (b'{"name": NaN}', JSON),
    "array": (b"[]", JSON),
    "string": (b'"x"', JSON),
    "null": (b"null", JSON),
    "text": (b"hello", "text/plain"),
    "xml": (b"<a/>", "application/xml"),
}

#: Extreme values per JSON schema type (out of every database column's range, NUL characters).
EXTREME: dict[str, list[Any]] = {
    "integer": [10**30, -(10**30), 2**63],
    "number": [1e308, -1e308],
    "string": ["\x00", "x" * 100_000, "\ud800"],
    "boolean": ["yes"],
}


@pytest.fixture
def event(django_user_model):
    """A superuser's started tournament with round 1 paired (entries, a match, a round)."""
    from tests.factories import make_tournament
    from tournaments import services

    admin = django_user_model.objects.create_superuser(
        username="fuzz-admin", email="fuzz@example.org", password="Fuzz-Jelszo-42"
    )
    tournament, entries = make_tournament(entries=4, decks=False, owner=admin)
    tournament = services.tournament_start(actor=SYSTEM, tournament=tournament)
    round_ = services.round_pair_next(actor=SYSTEM, tournament=tournament, seed=1)
    match = round_.matches.order_by("table").first()
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(admin)
    ids = {
        "tournament_id": tournament.pk,
        "number": round_.number,
        "table": match.table,
        "match_id": match.pk,
        "entry_id": entries[0].pk,
        "user_id": admin.pk,
        "report_id": 1,
        "check_id": 1,
    }
    return client, ids


def _operations(client) -> tuple[list[tuple[str, str, dict]], dict]:
    schema = client.get("/api/schema/?format=json").json()
    ops = []
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method in {"get", "post", "put", "patch", "delete"}:
                ops.append((method, path, operation))
    return ops, schema


def _fill(path: str, ids: dict) -> str:
    def value(match: re.Match) -> str:
        return str(ids.get(match.group(1), 1))

    return re.sub(r"\{(\w+)\}", value, path)


def _resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = schema["components"]["schemas"][name]
    return node


def _extreme_bodies(schema: dict, operation: dict) -> list[dict]:
    content = operation.get("requestBody", {}).get("content", {})
    body_schema = content.get(JSON, {}).get("schema")
    if not body_schema:
        return []
    props = _resolve(schema, body_schema).get("properties", {})
    bodies = []
    for round_no in range(3):
        body = {}
        for name, prop in props.items():
            prop = _resolve(schema, prop)
            kind = prop.get("type", "string")
            if kind == "array":
                item = _resolve(schema, prop.get("items", {}))
                item_kind = item.get("type", "string")
                choices = EXTREME.get(item_kind, [None])
                body[name] = [choices[round_no % len(choices)]] * 3
            else:
                choices = EXTREME.get(kind, [None])
                body[name] = choices[round_no % len(choices)]
        bodies.append(body)
    return bodies


@pytest.mark.usefixtures("eager_celery")
def test_no_operation_answers_500_to_hostile_bodies(event):
    client, ids = event
    operations, schema = _operations(client)
    failures = []
    for method, path, operation in operations:
        url = _fill(path, ids)
        if method == "get":
            for params in ({"limit": 10**9, "offset": 10**30}, {"q": "\x00", "game": "\x00"}):
                response = client.get(url, params)
                if response.status_code >= 500:
                    failures.append((method, url, params, response.status_code))
            continue
        for name, (body, content_type) in HOSTILE_BODIES.items():
            response = client.generic(method.upper(), url, body, content_type=content_type)
            if response.status_code >= 500:
                failures.append((method, url, name, response.status_code))
        for body in _extreme_bodies(schema, operation):
            response = client.generic(method.upper(), url, json.dumps(body), content_type=JSON)
            if response.status_code >= 500:
                failures.append((method, url, body, response.status_code))
    assert failures == []


#: Query values that are not plain numbers: superscript and other non-decimal digits, fractions,
#: hex, a number beyond every column, signs, NUL, empty.
JUNK_NUMBERS = ["²", "٣x", "1.5", "abc", "0x10", "-1", "9" * 40, "\x00", "1e3", "Ⅻ", " "]


@pytest.mark.usefixtures("eager_celery")
def test_integer_query_parameters_never_answer_500(event):
    """Every integer query parameter of the schema (the round clock's ``table``, the
    standings' ``entry``, the pagination's ``limit`` / ``offset``, ``async`` …) with junk:
    no 5xx, and every refusal in the standard error shape."""
    client, ids = event
    operations, schema = _operations(client)
    checked, failures = [], []
    for method, path, operation in operations:
        for parameter in operation.get("parameters", []):
            parameter = _resolve(schema, parameter)
            if parameter.get("in") != "query" or parameter["schema"].get("type") != "integer":
                continue
            checked.append(f"{path}?{parameter['name']}")
            url = _fill(path, ids)
            for value in JUNK_NUMBERS:
                response = client.generic(
                    method.upper(), f"{url}?{urlencode({parameter['name']: value})}"
                )
                status = response.status_code
                shaped = status < 400 or set(response.json()) == {"error"}
                if status >= 500 or not shaped:
                    failures.append((method, path, parameter["name"], value, status))
    assert any(name.endswith("/clock/?table") for name in checked), checked
    assert len(checked) >= 5, checked
    assert failures == []


@pytest.mark.parametrize("value", ["²", "٣x", "abc", "1.5", "0", "40000", "9" * 40])
def test_the_round_clock_refuses_a_table_that_is_not_a_table_number(event, value):
    client, ids = event
    url = f"/api/tournaments/{ids['tournament_id']}/rounds/{ids['number']}/clock/"
    response = client.get(url, {"table": value})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid" and list(error["fields"]) == ["table"]


def test_the_round_clock_reads_a_table_in_any_decimal_digits(event):
    client, ids = event
    url = f"/api/tournaments/{ids['tournament_id']}/rounds/{ids['number']}/clock/"
    arabic = "".join(chr(0x0660 + int(d)) for d in str(ids["table"]))
    for value in (str(ids["table"]), arabic):
        response = client.get(url, {"table": value})
        assert response.status_code == 200 and response.json()["table"] == ids["table"]
    assert client.get(url, {"table": ""}).json()["table"] is None
