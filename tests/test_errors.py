"""The one error model through real requests: JSON ``{"error": {...}}`` under /api/, translated
pages elsewhere (hkk_tournament.errors, hkk_tournament.web.exceptions,
hkk_tournament.web.error_views).

The raising views live in the test URLconf ``tests.error_urls``.
"""

from __future__ import annotations

import json
import logging

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test import Client
from rest_framework import exceptions as drf
from rest_framework.test import APIClient

from hkk_tournament import errors

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.error_urls")]

User = get_user_model()
PASSWORD = "Titkos-Jelszo-42"


@pytest.fixture(autouse=True)
def _no_throttle_counts_carried_over():
    """The test settings' memory cache outlives a test: start every test with no counts."""
    cache.clear()
    yield
    cache.clear()


# --- helpers -----------------------------------------------------------------------------------


@pytest.fixture
def api() -> APIClient:
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def quiet_client() -> Client:
    """A client that returns the 500 response instead of re-raising the exception."""
    return Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")


def error_of(response, status: int) -> dict:
    """The ``error`` object of a JSON error response, after checking the status and shape."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert list(body) == ["error"]
    assert set(body["error"]) == {"code", "message", "fields", "params"}
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]


# --- ApplicationError --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "status", "code"),
    [
        ("validation_failed", 400, "bad_team"),
        ("permission_denied", 403, "not_organiser"),
        ("not_found", 404, "round_not_found"),
        ("conflict", 409, "game_already_recorded"),
        ("invalid_state", 409, "round_finished"),
    ],
)
def test_application_errors_use_their_status_and_code(api, kind, status, code):
    error = error_of(api.get(f"/api/test-errors/{kind}/"), status)
    assert error["code"] == code


def test_application_error_carries_fields_and_params_translated(api):
    error = error_of(api.get("/api/test-errors/validation_failed/"), 400)
    assert error == {
        "code": "bad_team",
        "message": "Invalid input.",
        "fields": {"players": ["Invalid input."]},
        "params": {"size": 3},
    }
    hungarian = APIClient(HTTP_ACCEPT_LANGUAGE="hu").get("/api/test-errors/validation_failed/")
    assert error_of(hungarian, 400)["message"] == "Érvénytelen adat."


def test_application_error_in_a_plain_api_view_is_json(api):
    error = error_of(api.get("/api/test-errors/plain/conflict/"), 409)
    assert error["code"] == "game_already_recorded"


def test_forbidden_is_an_alias_of_permission_denied():
    assert errors.Forbidden is errors.PermissionDenied
    assert errors.Forbidden("x", "y").status == 403


# --- DRF exceptions ----------------------------------------------------------------------------


def test_serializer_errors_become_fields(api):
    response = api.post("/api/test-errors/x/", {"games": [{"a": 1}, {"b": "two"}]}, format="json")
    error = error_of(response, 400)
    assert error["code"] == "invalid"
    assert error["message"] == "Invalid input."
    assert error["fields"] == {
        "name": ["This field is required."],
        "games.1.b": ["A valid integer is required."],
    }


def test_non_field_errors_become_the_message(api):
    response = api.post("/api/test-errors/x/", {"name": "both", "games": []}, format="json")
    error = error_of(response, 400)
    assert error["message"] == "Name and games disagree."
    assert error["fields"] == {}


def test_wrong_password_is_a_400_with_the_reason(api, django_user_model):
    django_user_model.objects.create_user(username="gizella", password=PASSWORD)
    response = api.post(
        "/api/auth/token/", {"username": "gizella", "password": "rossz"}, format="json"
    )
    error = error_of(response, 400)
    assert error["message"] == "Unable to log in with provided credentials."


def test_parse_error_is_400(api):
    response = api.post("/api/auth/token/", "{not json", content_type="application/json")
    assert error_of(response, 400)["code"] == "parse_error"


def test_not_authenticated_is_403_with_session_auth(api):
    error = error_of(api.get("/api/auth/me/"), 403)
    assert error["code"] == "not_authenticated"
    assert error["message"] == "Authentication credentials were not provided."


def test_not_authenticated_is_401_with_a_challenge_for_token_auth(api):
    response = api.get("/api/test-errors/token-only/")
    assert error_of(response, 401)["code"] == "not_authenticated"
    assert response["WWW-Authenticate"] == "Token"


def test_authentication_failed(api):
    response = api.get("/api/auth/me/", HTTP_AUTHORIZATION="Token nincs-ilyen")
    assert error_of(response, 403)["code"] == "authentication_failed"


def test_unknown_api_path_is_a_json_404(api):
    error = error_of(api.get("/api/nincs-ilyen/"), 404)
    assert error == {"code": "not_found", "message": "Not found.", "fields": {}, "params": {}}


def test_method_not_allowed_is_405(api):
    error = error_of(api.get("/api/auth/token/"), 405)
    assert error["code"] == "method_not_allowed"
    assert "GET" in error["message"]


def test_not_acceptable_is_406(api):
    response = api.get("/api/auth/me/", HTTP_ACCEPT="application/xml")
    assert response.status_code == 406
    assert response.json()["error"]["code"] == "not_acceptable"


def test_unsupported_media_type_is_415(api):
    response = api.post("/api/auth/token/", "username=x", content_type="text/plain")
    assert error_of(response, 415)["code"] == "unsupported_media_type"


def test_throttled_is_429_with_retry_after(api):
    response = api.get("/api/test-errors/throttled/")
    error = error_of(response, 429)
    assert error["code"] == "throttled"
    assert error["params"] == {"wait": 30}
    assert response["Retry-After"] == "30"


def test_lockout_is_429_json_under_api(api, django_user_model, settings):
    settings.AXES_FAILURE_LIMIT = 1
    django_user_model.objects.create_user(username="gizella", password=PASSWORD)
    credentials = {"username": "gizella", "password": "rossz"}
    api.post("/api/auth/token/", credentials, format="json")
    response = api.post("/api/auth/token/", credentials, format="json")
    error = error_of(response, 429)
    assert error["code"] == "locked_out"
    assert error["params"] == {"cooloff_minutes": 1}  # the first step of the back-off


# --- Django exceptions -------------------------------------------------------------------------


def test_django_validation_error_is_400_with_fields(api):
    error = error_of(api.get("/api/test-errors/django_validation/"), 400)
    assert error == {
        "code": "invalid",
        "message": "Broken deck.",
        "fields": {"deck": ["Too few cards."]},
        "params": {},
    }


@pytest.mark.parametrize("kind", ["does_not_exist", "http404"])
def test_missing_objects_are_404(api, kind):
    assert error_of(api.get(f"/api/test-errors/{kind}/"), 404)["code"] == "not_found"
    assert error_of(api.get(f"/api/test-errors/plain/{kind}/"), 404)["code"] == "not_found"


def test_django_permission_denied_is_403(api):
    error = error_of(api.get("/api/test-errors/plain/django_permission/"), 403)
    assert error["code"] == "permission_denied"


def test_suspicious_operation_is_400(api):
    assert error_of(api.get("/api/test-errors/suspicious/"), 400)["code"] == "bad_request"


@pytest.mark.parametrize("with_guard", [True, False])
def test_body_over_the_limit_in_a_plain_api_view_is_413(api, settings, with_guard):
    """With the Content-Length guard, or without it (the view reading the body raises)."""
    if not with_guard:
        guard = "hkk_tournament.web.middleware.ApiBodyLimitMiddleware"
        settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if m != guard]
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    response = api.generic(
        "POST", "/api/test-errors/plain/read_body/", "x" * 200, content_type="text/plain"
    )
    error = error_of(response, 413)
    assert error["code"] == "request_too_large"
    assert error["params"] == {"max_bytes": 100}


# --- 500 ---------------------------------------------------------------------------------------


def test_unexpected_error_in_an_api_view_is_a_logged_json_500(api, caplog):
    with caplog.at_level(logging.ERROR, logger="hkk_tournament.web.exceptions"):
        response = api.get("/api/test-errors/bug/")
    error = error_of(response, 500)
    assert error["code"] == "server_error"
    assert "secret detail" not in json.dumps(error)
    assert any(record.exc_info for record in caplog.records)


def test_unexpected_error_rolls_back_the_request_transaction(api, monkeypatch):
    monkeypatch.setitem(connection.settings_dict, "ATOMIC_REQUESTS", True)
    response = api.post("/api/test-errors/write_then_fail/", {}, format="json")
    assert error_of(response, 500)["code"] == "server_error"
    assert not User.objects.filter(username="rolled-back").exists()


def test_unexpected_error_in_a_plain_api_view_is_json_500(quiet_client):
    error = error_of(quiet_client.get("/api/test-errors/plain/bug/"), 500)
    assert error["code"] == "server_error"


def test_errors_raised_in_middleware_are_json_under_api(quiet_client, settings):
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "tests.error_urls.RaisingMiddleware"]
    forbidden = quiet_client.get("/api/auth/me/", HTTP_X_RAISE="django_permission")
    assert error_of(forbidden, 403)["code"] == "permission_denied"
    too_odd = quiet_client.get("/api/auth/me/", HTTP_X_RAISE="suspicious")
    assert error_of(too_odd, 400)["code"] == "bad_request"
    broken = quiet_client.get("/api/auth/me/", HTTP_X_RAISE="bug")
    assert error_of(broken, 500)["code"] == "server_error"


# --- pages -------------------------------------------------------------------------------------


def test_unknown_page_is_a_hungarian_404_page(client):
    response = client.get("/nincs-ilyen-oldal/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert '<html lang="hu">' in html
    assert "Nincs ilyen oldal" in html


def test_application_error_on_a_page_renders_the_translated_message(client):
    response = client.get("/test-errors/validation_failed/")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert "Érvénytelen adat." in response.content.decode()
    response = client.get("/test-errors/conflict/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 409
    assert "Already recorded." in response.content.decode()


def test_permission_denied_page_is_hungarian_403(client):
    response = client.get("/test-errors/django_permission/")
    assert response.status_code == 403
    assert "Hozzáférés megtagadva" in response.content.decode()


def test_bad_request_page_is_400(client):
    response = client.get("/test-errors/suspicious/")
    assert response.status_code == 400
    assert "Hibás kérés" in response.content.decode()


def test_server_error_page_is_hungarian_500(quiet_client):
    response = quiet_client.get("/test-errors/bug/", HTTP_ACCEPT_LANGUAGE="hu")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Szerverhiba" in html
    assert "Hiba történt nálunk." in html  # 500.html itself, not the bare fallback page
    assert "secret detail" not in html


# --- schema ------------------------------------------------------------------------------------


def test_every_operation_documents_the_error_body(api):
    schema = api.get("/api/schema/?format=json").json()
    ref = "#/components/schemas/ErrorResponse"
    assert set(schema["components"]["schemas"]["Error"]["properties"]) == {
        "code",
        "message",
        "fields",
        "params",
    }
    for path_item in schema["paths"].values():
        for operation in path_item.values():
            responses = operation["responses"]
            assert responses["default"]["content"]["application/json"]["schema"]["$ref"] == ref
            for status, response in responses.items():
                if status.isdigit() and int(status) >= 400:
                    assert response["content"]["application/json"]["schema"]["$ref"] == ref


def test_drf_error_classes_are_all_mapped():
    """Every DRF exception the API can raise has its own code, not a generic one."""
    from hkk_tournament.web.exceptions import describe_exception

    for exc, code in [
        (drf.ParseError(), "parse_error"),
        (drf.MethodNotAllowed("PUT"), "method_not_allowed"),
        (drf.UnsupportedMediaType("text/plain"), "unsupported_media_type"),
        (drf.NotFound(), "not_found"),
        (drf.PermissionDenied(), "permission_denied"),
    ]:
        error = describe_exception(exc)
        assert error is not None and error.code == code and error.status == exc.status_code
