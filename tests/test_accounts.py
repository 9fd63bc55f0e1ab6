"""Accounts: sign-up, login/logout, password change and reset, profile, API token (the login
lockout: tests/test_login_lockout.py)."""

from __future__ import annotations

import re

import pytest
from axes.utils import reset as axes_reset
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token

User = get_user_model()
PASSWORD = "kardlap-Hatalom-42"


@pytest.fixture(autouse=True)
def _clean_axes(db):
    """No lockouts and no throttle counts (the memory cache outlives a test) carried over."""
    axes_reset()
    cache.clear()
    yield
    axes_reset()
    cache.clear()


@pytest.fixture
def player(db):
    return User.objects.create_user(
        username="gizella", email="gizella@example.org", password=PASSWORD
    )


def _session_user_id(client: Client) -> str | None:
    return client.session.get("_auth_user_id")


def test_signup_creates_user_and_logs_in(client):
    response = client.post(
        "/accounts/signup/",
        {
            "last_name": "Kiss",
            "first_name": "Béla",
            "username": "bela",
            "email": "Bela@Example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/"
    user = User.objects.get(username="bela")
    assert user.email == "Bela@example.org"  # domain part normalised
    assert user.check_password(PASSWORD)
    assert (user.last_name, user.first_name) == ("Kiss", "Béla")
    assert not user.is_staff
    assert _session_user_id(client) == str(user.pk)


def test_signup_rejects_taken_email_and_mismatched_passwords(client, player):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "masik",
            "email": "GIZELLA@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD + "x",
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert "email" in form.errors
    assert "password2" in form.errors
    assert "first_name" in form.errors and "last_name" in form.errors  # the real name is required
    assert "An account with this e-mail address already exists." in response.content.decode()
    assert not User.objects.filter(username="masik").exists()
    assert _session_user_id(client) is None


def test_signup_page_redirects_a_logged_in_user(client, player):
    client.force_login(player)
    assert client.get("/accounts/signup/").status_code == 302


def test_login_and_logout(client, player):
    page = client.get("/accounts/login/")
    assert page.status_code == 200
    response = client.post(
        "/accounts/login/",
        {"username": "gizella", "password": PASSWORD, "next": "/accounts/profile/"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/profile/"
    assert _session_user_id(client) == str(player.pk)

    # Django 5: logging out is POST only.
    assert client.get("/accounts/logout/").status_code == 405
    assert _session_user_id(client) == str(player.pk)
    response = client.post("/accounts/logout/")
    assert response.status_code == 200
    assert "registration/logged_out.html" in [t.name for t in response.templates]
    assert _session_user_id(client) is None


def test_wrong_password_is_rejected(client, player):
    response = client.post("/accounts/login/", {"username": "gizella", "password": "rossz"})
    assert response.status_code == 200
    assert response.context["form"].errors
    assert _session_user_id(client) is None


def test_profile_requires_login(client):
    response = client.get("/accounts/profile/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_password_change(client, player):
    client.force_login(player)
    new_password = "uj-Jelszo-Kovetok-77"
    response = client.post(
        "/accounts/password_change/",
        {"old_password": "wrong", "new_password1": new_password, "new_password2": new_password},
    )
    assert response.status_code == 200
    assert "old_password" in response.context["form"].errors

    response = client.post(
        "/accounts/password_change/",
        {"old_password": PASSWORD, "new_password1": new_password, "new_password2": new_password},
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password_change/done/"
    player.refresh_from_db()
    assert player.check_password(new_password)
    # The session survives the change (update_session_auth_hash).
    assert client.get("/accounts/password_change/done/").status_code == 200


def test_password_reset_by_email(client, player, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = client.post("/accounts/password_reset/", {"email": "gizella@example.org"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password_reset/done/"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["gizella@example.org"]
    assert "gizella" in message.body
    html_body = message.alternatives[0][0]
    match = re.search(r"http://testserver(/accounts/reset/[^/\s]+/[^/\s]+/)", message.body)
    assert match, message.body
    link = match.group(1)
    assert link in html_body

    # The link redirects to a session-bound "set-password" URL.
    response = client.get(link)
    assert response.status_code == 302
    set_password_url = response["Location"]
    assert set_password_url.endswith("/set-password/")
    new_password = "friss-Jelszo-Szabalylap-9"
    response = client.post(
        set_password_url, {"new_password1": new_password, "new_password2": new_password}
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/reset/done/"
    player.refresh_from_db()
    assert player.check_password(new_password)

    # The link is single-use.
    response = client.get(link, follow=True)
    assert response.context["validlink"] is False

    fresh = Client()
    response = fresh.post("/accounts/login/", {"username": "gizella", "password": new_password})
    assert response.status_code == 302


def test_password_reset_for_unknown_email_sends_nothing(client, settings, db):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = client.post("/accounts/password_reset/", {"email": "senki@example.org"})
    assert response.status_code == 302  # no account enumeration
    assert mail.outbox == []


def test_profile_edit_and_api_token(client, player):
    client.force_login(player)
    response = client.post(
        "/accounts/profile/",
        {"last_name": "Kovács", "first_name": "Gizella", "email": "g@example.org"},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.last_name, player.first_name, player.email) == (
        "Kovács",
        "Gizella",
        "g@example.org",
    )

    response = client.post("/accounts/profile/", {"action": "token"})
    assert response.status_code == 200
    first_key = response.context["new_token"]
    assert first_key == Token.objects.get(user=player).key
    assert first_key in response.content.decode()

    response = client.post("/accounts/profile/", {"action": "token"})
    second_key = response.context["new_token"]
    assert second_key != first_key
    assert list(Token.objects.filter(user=player).values_list("key", flat=True)) == [second_key]
    # The page shown later never repeats the key.
    assert second_key not in client.get("/accounts/profile/").content.decode()


def test_profile_rejects_email_of_another_account(client, player):
    User.objects.create_user(username="masik", email="masik@example.org", password=PASSWORD)
    client.force_login(player)
    response = client.post(
        "/accounts/profile/", {"last_name": "", "first_name": "", "email": "MASIK@example.org"}
    )
    assert response.status_code == 200
    assert "email" in response.context["form"].errors
    player.refresh_from_db()
    assert player.email == "gizella@example.org"


def test_client_ip_trusts_only_configured_proxies(rf, settings):
    from accounts.security import client_ip

    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    settings.HKK_TRUSTED_PROXY_COUNT = 0
    assert client_ip(request) == "10.0.0.1"
    settings.HKK_TRUSTED_PROXY_COUNT = 1
    assert client_ip(request) == "203.0.113.7"  # the spoofable left-hand entry is ignored
    settings.HKK_TRUSTED_PROXY_COUNT = 3
    assert client_ip(request) == "10.0.0.1"  # fewer hops than proxies: do not guess
