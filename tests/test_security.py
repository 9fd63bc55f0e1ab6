"""Security foundation: CSRF, deploy checks, token auth, body-size limit, i18n, labelled forms."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig, ValidationError
from django.test import Client
from rest_framework.authtoken.models import Token

from accounts.api import TokenObtainView
from hkk_tournament.web.exceptions import api_exception_handler

User = get_user_model()
PASSWORD = "kardlap-Hatalom-42"
BASE_DIR = Path(django_settings.BASE_DIR)


@pytest.fixture(autouse=True)
def _no_throttle_counts_carried_over():
    """The test settings' memory cache outlives a test: start every test with no counts."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def player(db):
    return User.objects.create_user(
        username="gizella", email="gizella@example.org", password=PASSWORD
    )


# --- CSRF -----------------------------------------------------------------------------------


def test_signup_form_enforces_csrf(db):
    client = Client(enforce_csrf_checks=True)
    data = {
        "last_name": "Kiss",
        "first_name": "Béla",
        "username": "bela",
        "email": "b@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    response = client.post("/accounts/signup/", data)
    assert response.status_code == 403
    assert not User.objects.filter(username="bela").exists()

    page = client.get("/accounts/signup/")
    assert 'name="csrfmiddlewaretoken"' in page.content.decode()
    response = client.post(
        "/accounts/signup/", {**data, "csrfmiddlewaretoken": page.context["csrf_token"]}
    )
    assert response.status_code == 302
    assert User.objects.filter(username="bela").exists()


def test_login_and_logout_enforce_csrf(player):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "gizella", "password": PASSWORD})
    assert response.status_code == 403
    client.force_login(player)
    assert client.post("/accounts/logout/").status_code == 403
    assert client.session.get("_auth_user_id") == str(player.pk)


# --- production settings ----------------------------------------------------------------------


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_environment():
    result = _manage(
        "check",
        "--deploy",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="example.org",
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output, output
    assert "WARNING" not in output, output


def test_production_refuses_to_start_without_secret_key():
    result = _manage("check", DJANGO_DEBUG="0", DJANGO_ALLOWED_HOSTS="example.org")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_production_security_settings_follow_the_environment():
    code = (
        "from django.conf import settings as s; import json; print(json.dumps(["
        "s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
        "s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_PRELOAD, s.SECURE_PROXY_SSL_HEADER, "
        "s.X_FRAME_OPTIONS]))"
    )
    result = _manage(
        "shell",
        "-c",
        code,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="example.org",
        DJANGO_SECURE_HSTS_SECONDS="3600",
        DJANGO_SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO,https",
    )
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout.strip().splitlines()[-1])
    assert values == [True, True, True, 3600, True, ["HTTP_X_FORWARDED_PROTO", "https"], "DENY"]

    bad = _manage(
        "check",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_SECURE_PROXY_SSL_HEADER="https",
    )
    assert bad.returncode != 0
    assert "DJANGO_SECURE_PROXY_SSL_HEADER" in bad.stderr


# --- DRF authentication -----------------------------------------------------------------------


def test_token_authentication(client, player):
    token = Token.objects.create(user=player)
    response = client.get("/api/auth/me/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 200
    assert response.json() == {
        "id": player.pk,
        "username": "gizella",
        "email": "gizella@example.org",
        "is_staff": False,
    }
    # SessionAuthentication comes first, so DRF answers 403 (no WWW-Authenticate challenge).
    response = client.get(
        "/api/auth/me/", HTTP_AUTHORIZATION="Token nincs-ilyen", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "authentication_failed"
    assert response.json()["error"]["message"] == "Invalid token."
    response = client.get("/api/auth/me/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_authenticated"
    assert response.json()["error"]["message"] == "Authentication credentials were not provided."


def test_session_authentication(client, player):
    client.force_login(player)
    response = client.get("/api/auth/me/")
    assert response.status_code == 200
    assert response.json()["username"] == "gizella"


# --- oversized bodies -------------------------------------------------------------------------


def test_oversized_api_body_gets_413_json(client, db):
    limit = django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = json.dumps({"username": "x", "password": "y" * (limit + 10)})
    response = client.post(
        "/api/auth/token/", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 413
    payload = response.json()["error"]
    assert payload["code"] == "request_too_large"
    assert payload["params"] == {"max_bytes": limit}
    assert f"at most {limit} bytes" in payload["message"]


def test_oversized_deck_validation_body_gets_413_json(client, db):
    limit = django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = json.dumps({"format": "hkk", "text": "1 Garokk\n" * (limit // 9 + 10)})
    response = client.post("/api/decks/validate/", body, content_type="application/json")
    assert response.status_code == 413
    payload = response.json()["error"]
    assert payload["code"] == "request_too_large"
    assert "bájt" in payload["message"] or "byte" in payload["message"]


def test_body_at_the_limit_is_accepted(client, player, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 200
    body = json.dumps({"username": "gizella", "password": PASSWORD})
    body += " " * (200 - len(body))
    response = client.post("/api/auth/token/", body, content_type="application/json")
    assert response.status_code == 200
    response = client.post("/api/auth/token/", body + " ", content_type="application/json")
    assert response.status_code == 413


def test_drf_exception_handler_maps_request_data_too_big(rf, db, settings):
    """Without the middleware (e.g. a body without Content-Length), DRF's parser raises
    RequestDataTooBig; the exception handler turns it into the same 413."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    request = rf.post(
        "/api/auth/token/",
        json.dumps({"username": "x", "password": "y" * 200}),
        content_type="application/json",
    )
    response = TokenObtainView.as_view()(request)
    assert response.status_code == 413
    assert response.data["error"]["code"] == "request_too_large"
    assert response.data["error"]["params"] == {"max_bytes": 100}


def test_exception_handler_maps_django_errors():
    response = api_exception_handler(RequestDataTooBig(), {})
    assert response.status_code == 413
    response = api_exception_handler(ValidationError("Rossz pakli."), {})
    assert response.status_code == 400
    assert response.data == {
        "error": {"code": "invalid", "message": "Rossz pakli.", "fields": {}, "params": {}}
    }
    response = api_exception_handler(ValidationError({"deck": ["Túl kevés lap."]}), {})
    assert response.data["error"]["fields"] == {"deck": ["Túl kevés lap."]}
    response = api_exception_handler(RuntimeError("bug"), {})
    assert response.status_code == 500
    assert response.data["error"]["code"] == "server_error"
    assert "bug" not in response.data["error"]["message"]


def test_oversized_form_post_outside_api_is_a_translated_413_page(client, db, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    response = client.post("/accounts/login/", {"username": "x", "password": "y" * 500})
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert '<html lang="hu">' in html
    assert "legfeljebb 100 bájt" in html
    response = client.post(
        "/accounts/login/", {"username": "x", "password": "y" * 500}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 413
    assert "at most 100 bytes" in response.content.decode()


# --- language, labels, layout -----------------------------------------------------------------


def test_pages_are_hungarian_by_default_and_english_after_switch(client, db):
    page = client.get("/accounts/login/").content.decode()
    assert '<html lang="hu">' in page
    assert "Bejelentkezés" in page
    assert "Felhasználónév" in page

    response = client.post("/i18n/setlang/", {"language": "en", "next": "/accounts/login/"})
    assert response.status_code == 302
    page = client.get("/accounts/login/").content.decode()
    assert '<html lang="en">' in page
    assert "Log in" in page
    assert "Username" in page
    assert "Bejelentkezés" not in page


class _FormAudit(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inputs: list[str] = []
        self.labels: set[str] = set()
        self.viewport = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in {"input", "select", "textarea"} and a.get("type") not in {"hidden", "submit"}:
            self.inputs.append(a.get("id") or "")
        if tag == "label" and a.get("for"):
            self.labels.add(a["for"])
        if (
            tag == "meta"
            and a.get("name") == "viewport"
            and "width=device-width" in a.get("content", "")
        ):
            self.viewport = True


@pytest.mark.parametrize(
    "url",
    [
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password_reset/",
        "/accounts/password_change/",
        "/accounts/profile/",
    ],
)
def test_every_form_field_has_a_label(client, player, url):
    if url in {"/accounts/password_change/", "/accounts/profile/"}:
        client.force_login(player)
    response = client.get(url)
    assert response.status_code == 200
    audit = _FormAudit()
    audit.feed(response.content.decode())
    assert audit.viewport  # phone-sized screens get the mobile layout
    assert audit.inputs, url
    unlabelled = [field for field in audit.inputs if not field or field not in audit.labels]
    assert unlabelled == [], url


def test_header_shows_account_links(client, player):
    page = client.get("/accounts/login/").content.decode()
    assert 'href="/accounts/signup/"' in page
    client.force_login(player)
    page = client.get("/accounts/profile/").content.decode()
    assert 'action="/accounts/logout/" method="post"' in page
    assert "gizella" in page
