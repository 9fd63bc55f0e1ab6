"""Login protection that a venue's shared address survives (accounts.security): per-username
lockout with exponential back-off, an address lock only above a high threshold, and known
devices (signed cookie set at a successful login) that nobody else's failures block. The login
page and the token API behave alike."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from axes.utils import reset as axes_reset
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import F, Sum
from django.test import Client

from accounts.security import backoff

User = get_user_model()
PASSWORD = "kardlap-Hatalom-42"
VENUE = "203.0.113.7"  # one NAT address for the whole venue


@pytest.fixture(autouse=True)
def _clean_axes(db):
    """No lockouts and no counts (the memory cache outlives a test) carried over."""
    axes_reset()
    cache.clear()
    yield
    axes_reset()
    cache.clear()


@pytest.fixture
def player(db):
    return User.objects.create_user(username="gizella", password=PASSWORD)


def _page(client: Client, username: str, password: str) -> int:
    return client.post("/accounts/login/", {"username": username, "password": password}).status_code


def _api(client: Client, username: str, password: str) -> int:
    body = {"username": username, "password": password}
    return client.post("/api/auth/token/", body, content_type="application/json").status_code


def _age_failures(by: timedelta) -> None:
    """Move every recorded failure ``by`` into the past (the clock moves on)."""
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - by)


def test_200_players_behind_one_address_log_in_after_60_typos(settings):
    assert settings.HKK_LOGIN_IP_FAILURE_LIMIT == 500  # the documented default
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["login"] == "300/min"
    users = [
        User.objects.create_user(username=f"jatekos{n:03d}", password=PASSWORD) for n in range(200)
    ]
    # 60 typos from the venue: 20 players mistype 3 times each (below the per-username limit).
    typos = [
        _page(Client(REMOTE_ADDR=VENUE), f"jatekos{n % 20:03d}", "elgepelt") for n in range(60)
    ]
    assert typos == [200] * 60
    recorded = AccessAttempt.objects.filter(ip_address=VENUE).aggregate(
        n=Sum("failures_since_start")
    )
    assert recorded["n"] == 60
    # Fresh browsers (no known-device cookie): half log in on the page, half take an API token.
    page = [_page(Client(REMOTE_ADDR=VENUE), u.username, PASSWORD) for u in users[:100]]
    api = [_api(Client(REMOTE_ADDR=VENUE), u.username, PASSWORD) for u in users[100:]]
    assert page.count(302) + api.count(200) == 200


def test_a_targeted_username_is_locked_with_exponential_back_off(player, settings):
    attacker = Client(REMOTE_ADDR="198.51.100.66", HTTP_ACCEPT_LANGUAGE="en")
    assert [_page(attacker, "gizella", "rossz") for _ in range(4)] == [200] * 4
    response = attacker.post("/accounts/login/", {"username": "gizella", "password": "rossz"})
    assert response.status_code == 429  # the 5th failure locks: 1 minute
    assert response["Retry-After"] == "60"
    assert "paused for 1 minute" in response.content.decode()
    # Locked: the right password from a fresh device elsewhere is refused too ...
    assert _page(Client(REMOTE_ADDR="192.0.2.1"), "gizella", PASSWORD) == 429
    # ... and refused attempts do not restart the clock.
    failures = AccessAttempt.objects.get(username="gizella").failures_since_start
    assert failures == 5
    waits = []
    for _ in range(5):  # every further failure after the wait doubles it: 2, 4, 8, 16, 32 min
        _age_failures(timedelta(hours=2) - timedelta(seconds=1))  # the wait is over ...
        response = attacker.post("/accounts/login/", {"username": "gizella", "password": "rossz"})
        assert response.status_code == 429  # ... one more guess, locked again
        waits.append(int(response["Retry-After"]))
    assert waits == [120, 240, 480, 960, 1920]
    _age_failures(timedelta(minutes=33))
    assert _page(attacker, "gizella", "rossz") == 429
    assert backoff(11, 5) == settings.HKK_LOGIN_BACKOFF_MAX == timedelta(minutes=60)  # the cap
    # The API answers the same lock in the one JSON error shape.
    api = Client(REMOTE_ADDR="192.0.2.2", HTTP_ACCEPT_LANGUAGE="en")
    response = api.post(
        "/api/auth/token/",
        {"username": "gizella", "password": PASSWORD},
        content_type="application/json",
    )
    assert response.status_code == 429
    error = response.json()["error"]
    assert error["code"] == "locked_out" and error["params"] == {"cooloff_minutes": 60}
    assert 3500 < int(response["Retry-After"]) <= 3600
    # Once the back-off is over, the right password works (and forgives that address's failures).
    _age_failures(timedelta(minutes=61))
    assert _page(Client(REMOTE_ADDR="198.51.100.66"), "gizella", PASSWORD) == 302
    assert not AccessAttempt.objects.filter(username="gizella", ip_address="198.51.100.66").exists()


def test_a_known_device_logs_in_while_the_username_is_locked(player):
    phone = Client(REMOTE_ADDR=VENUE)
    assert _page(phone, "gizella", PASSWORD) == 302  # sets the signed known-device cookie
    assert phone.cookies["hkk_device"]["httponly"]
    phone.post("/accounts/logout/")
    attacker = Client(REMOTE_ADDR="198.51.100.66")
    assert [_page(attacker, "gizella", "rossz") for _ in range(8)][-1] == 429
    assert _page(Client(REMOTE_ADDR=VENUE), "gizella", PASSWORD) == 429  # a fresh browser
    assert _page(phone, "gizella", PASSWORD) == 302  # the known device
    phone.post("/accounts/logout/")
    assert _api(phone, "gizella", PASSWORD) == 200  # the token endpoint too
    # A tampered cookie is no cookie.
    forged = Client(REMOTE_ADDR=VENUE)
    forged.cookies["hkk_device"] = phone.cookies["hkk_device"].value.replace("gizella", "gizellb")
    assert _page(forged, "gizella", PASSWORD) == 429
    # A cookie for another username does not help this one.
    User.objects.create_user(username="masik", password=PASSWORD)
    other = Client(REMOTE_ADDR=VENUE)
    assert _page(other, "masik", PASSWORD) == 302
    other.post("/accounts/logout/")
    assert _page(other, "gizella", PASSWORD) == 429


def test_a_known_device_that_keeps_failing_loses_its_exemption(player):
    phone = Client(REMOTE_ADDR=VENUE)
    assert _page(phone, "gizella", PASSWORD) == 302
    phone.post("/accounts/logout/")
    statuses = [_page(phone, "gizella", "rossz") for _ in range(6)]
    assert statuses == [200, 200, 200, 200, 429, 429]  # its own 5 failures: no exemption
    assert _page(phone, "gizella", PASSWORD) == 429


def test_the_address_lock_needs_the_high_threshold_and_spares_known_devices(player, settings):
    settings.HKK_LOGIN_IP_FAILURE_LIMIT = 80  # the default, 500, behaves the same way
    phone = Client(REMOTE_ADDR=VENUE)
    assert _page(phone, "gizella", PASSWORD) == 302
    phone.post("/accounts/logout/")
    sprayer = Client(REMOTE_ADDR=VENUE)
    statuses = [_page(sprayer, f"nincs{n}", "rossz") for n in range(80)]
    assert statuses == [200] * 79 + [429]  # the 80th failure from the address locks it
    response = Client(REMOTE_ADDR=VENUE).post(
        "/accounts/login/", {"username": "gizella", "password": PASSWORD}
    )
    assert response.status_code == 429 and 890 < int(response["Retry-After"]) <= 15 * 60
    body = {"username": "gizella", "password": PASSWORD}
    api = Client(REMOTE_ADDR=VENUE).post("/api/auth/token/", body, content_type="application/json")
    assert api.status_code == 429 and 890 < int(api["Retry-After"]) <= 15 * 60
    assert _page(phone, "gizella", PASSWORD) == 302  # known device: never blocked by others
    assert _page(Client(REMOTE_ADDR="10.9.8.7"), "gizella", PASSWORD) == 302  # other address
    # Refused attempts do not extend the address lock; 15 minutes after the last failure it lifts.
    _age_failures(timedelta(minutes=15, seconds=1))
    assert _page(Client(REMOTE_ADDR=VENUE), "gizella", PASSWORD) == 302


def test_a_successful_login_forgives_only_its_own_failures(player, settings):
    settings.HKK_LOGIN_IP_FAILURE_LIMIT = 50
    client = Client(REMOTE_ADDR=VENUE)
    assert [_page(client, f"nincs{n}", "rossz") for n in range(46)] == [200] * 46
    assert [_page(client, "gizella", "rossz") for _ in range(3)] == [200] * 3  # 49 from here
    assert _page(client, "gizella", PASSWORD) == 302  # forgives gizella's own 3: 46 remain
    client.post("/accounts/logout/")
    assert [_page(client, f"ujabb{n}", "rossz") for n in range(4)] == [200, 200, 200, 429]


def test_backoff_doubles_from_the_limit_up_to_the_cap(settings):
    settings.HKK_LOGIN_BACKOFF_BASE = timedelta(seconds=60)
    settings.HKK_LOGIN_BACKOFF_MAX = timedelta(minutes=60)
    assert [backoff(n, 5).total_seconds() for n in range(3, 13)] == [
        0, 0, 60, 120, 240, 480, 960, 1920, 3600, 3600,
    ]  # fmt: skip
    assert backoff(10_000, 5) == timedelta(minutes=60)


def test_the_lockout_page_is_hungarian_by_default(player):
    client = Client(REMOTE_ADDR="198.51.100.66")
    for _ in range(4):
        _page(client, "gizella", "rossz")
    page = client.post("/accounts/login/", {"username": "gizella", "password": "rossz"})
    text = page.content.decode()
    assert page.status_code == 429
    assert "ebbe a fiókba 1 percig nem lehet bejelentkezni" in text
    assert "a helyes jelszavad továbbra is működik" in text
