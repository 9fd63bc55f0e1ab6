"""Request ids and JSON request logs (hkk_tournament.request_log, settings.LOGGING)."""

from __future__ import annotations

import json
import logging
import logging.config
import re

import pytest
from django.conf import settings
from django.test import Client
from pythonjsonlogger.json import JsonFormatter

from hkk_tournament.request_log import RequestIdFilter

HEX_ID = re.compile(r"[0-9a-f]{32}")


def _json_formatter() -> logging.Formatter:
    """The formatter settings.LOGGING puts on the console handler (applied afresh: another test,
    e.g. one starting a Celery worker, may have reconfigured the root logger)."""
    logging.config.dictConfig(settings.LOGGING)
    for handler in logging.getLogger().handlers:
        if isinstance(handler.formatter, JsonFormatter):
            assert any(isinstance(f, RequestIdFilter) for f in handler.filters)
            return handler.formatter
    raise AssertionError("no JSON console handler configured by settings.LOGGING")


def _request_lines(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "hkk_tournament.request"]


def test_a_request_id_is_generated_and_returned(client, caplog):
    with caplog.at_level(logging.INFO, logger="hkk_tournament.request"):
        response = client.get("/accounts/login/?next=/secret-query/")
    request_id = response["X-Request-ID"]
    assert HEX_ID.fullmatch(request_id)
    [record] = _request_lines(caplog)
    line = json.loads(_json_formatter().format(record))
    assert line["logger"] == "hkk_tournament.request"
    assert line["level"] == "INFO"
    assert line["method"] == "GET"
    assert line["path"] == "/accounts/login/"  # no query string
    assert line["status"] == 200
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    assert line["request_id"] == request_id
    assert line["user_id"] is None
    assert "\n" not in _json_formatter().format(record)  # one line per request


@pytest.mark.parametrize(
    ("incoming", "kept"),
    [
        ("3f2c1a9e-7b1d-4c0e-9a55-0d6f2b7e8c11", True),
        ("nginx.req:42_a", True),
        ("x" * 128, True),
        ("x" * 129, False),
        ("two words", False),
        ('"><script>', False),
        ("", False),
    ],
)
def test_incoming_request_id_is_kept_only_when_plausible(client, incoming, kept):
    response = client.get("/healthz/", HTTP_X_REQUEST_ID=incoming)
    if kept:
        assert response["X-Request-ID"] == incoming
    else:
        assert HEX_ID.fullmatch(response["X-Request-ID"])


@pytest.mark.django_db
def test_the_signed_in_user_is_logged(client, django_user_model, caplog):
    user = django_user_model.objects.create_user(username="naplo", password="x-Jelszo-42")
    client.force_login(user)
    with caplog.at_level(logging.INFO, logger="hkk_tournament.request"):
        client.get("/accounts/profile/", HTTP_X_REQUEST_ID="req-1")
    [record] = _request_lines(caplog)
    assert record.user_id == user.pk
    assert record.request_id == "req-1"


@pytest.mark.django_db
def test_the_token_user_of_an_api_call_is_logged(client, django_user_model, caplog):
    from rest_framework.authtoken.models import Token

    user = django_user_model.objects.create_user(username="tokenes", password="x-Jelszo-42")
    token = Token.objects.create(user=user)
    with caplog.at_level(logging.INFO, logger="hkk_tournament.request"):
        client.get("/api/auth/me/", HTTP_AUTHORIZATION=f"Token {token.key}")
    [record] = _request_lines(caplog)
    assert record.user_id == user.pk


@pytest.mark.django_db
@pytest.mark.urls("tests.error_urls")
def test_an_api_500_log_and_body_carry_the_request_id(caplog):
    api = Client(HTTP_ACCEPT_LANGUAGE="en")
    with caplog.at_level(logging.INFO):
        response = api.get("/api/test-errors/bug/", HTTP_X_REQUEST_ID="trace-500-api")
    assert response.status_code == 500
    assert response["X-Request-ID"] == "trace-500-api"
    assert response.json()["error"]["params"] == {"request_id": "trace-500-api"}
    [error] = [r for r in caplog.records if r.name == "hkk_tournament.web.exceptions"]
    assert error.exc_info and error.request_id == "trace-500-api"
    line = json.loads(_json_formatter().format(error))
    assert line["request_id"] == "trace-500-api"
    assert "secret detail" in line["exc_info"]  # the traceback is in the log, not the answer
    assert [r.status for r in _request_lines(caplog)] == [500]


@pytest.mark.django_db
@pytest.mark.urls("tests.error_urls")
def test_a_page_500_log_and_page_carry_the_request_id(caplog):
    quiet = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="hu")
    with caplog.at_level(logging.INFO):
        response = quiet.get("/test-errors/bug/", HTTP_X_REQUEST_ID="trace-500-page")
    assert response.status_code == 500
    assert "trace-500-page" in response.content.decode()
    [error] = [r for r in caplog.records if r.name == "django.request"]
    assert error.levelno == logging.ERROR and error.exc_info
    assert error.request_id == "trace-500-page"


@pytest.mark.django_db
def test_a_404_warning_carries_the_request_id(client, caplog):
    with caplog.at_level(logging.WARNING, logger="django.request"):
        client.get("/nincs-ilyen/", HTTP_X_REQUEST_ID="trace-404")
    [warning] = [r for r in caplog.records if r.name == "django.request"]
    assert warning.request_id == "trace-404"


def test_records_outside_a_request_have_no_request_id():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "outside", None, None)
    RequestIdFilter().filter(record)
    assert record.request_id is None
