"""The pages that use the shared cache keep answering with Redis unreachable, and /readyz/ tells.

The cache is configured as in production (``HKK_CACHE_URL``: :class:`hkk_tournament.web.cache.
FailSafeRedisCache` with the production timeouts) but pointed at a port nothing listens on, so
every cache operation meets a real refused connection. The reachable case uses the real Redis
of ``TEST_REDIS_URL``.
"""

from __future__ import annotations

import os
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.test import Client
from rest_framework.authtoken.models import Token

from hkk_tournament.web.cache import FailSafeRedisCache, forget_outages
from tests.conftest import UNREACHABLE_REDIS_URL
from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import StandingsSnapshot
from tournaments.permissions import SYSTEM

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
DECK_LIST = "1 Garokk\n"

pytestmark = pytest.mark.django_db


def _redis_cache(settings, url: str, retry_seconds: float = 5) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "hkk_tournament.web.cache.FailSafeRedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
            "RETRY_SECONDS": retry_seconds,
        }
    }
    forget_outages()


@pytest.fixture
def cache_down(settings):
    """The shared cache configured but unreachable."""
    _redis_cache(settings, UNREACHABLE_REDIS_URL)
    yield UNREACHABLE_REDIS_URL
    forget_outages()


@pytest.fixture
def running_event():
    """A public running event with a result recorded and its standings computed."""
    owner = UserFactory()
    t, _entries = make_tournament(entries=4, decks=False, owner=owner)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    )
    match = rnd.matches.order_by("table").first()
    services.match_result_record(
        match=match, result="2-0-0", die_roll_winner=match.entry_a_id, actor=owner
    )
    services.standings_refresh(tournament_id=t.pk)
    return t


def _pages_answer(client: Client, t) -> dict[str, int]:
    """Status of each page and API call that reads or writes the cache."""
    get_user_model().objects.create_user("olvaso", password="jelszo-123-hosszu")
    statuses = {
        "live": client.get(f"/tournaments/{t.pk}/live/").status_code,
        "live partial": client.get(f"/tournaments/{t.pk}/live/?partial=1").status_code,
        "standings page": client.get(f"/tournaments/{t.pk}/standings/").status_code,
        "standings API": client.get(f"/api/tournaments/{t.pk}/standings/").status_code,
        "token login": client.post(
            "/api/auth/token/",
            {"username": "olvaso", "password": "jelszo-123-hosszu"},
            content_type="application/json",
        ).status_code,
        "deck validation": client.post(
            "/api/decks/validate/",
            {"format": "hkk", "text": DECK_LIST},
            content_type="application/json",
        ).status_code,
        "sign-up form": client.get("/accounts/signup/").status_code,
        "sign-up": client.post(
            "/accounts/signup/",
            {
                "last_name": "Kovács",
                "first_name": "Anna",
                "username": "kovacsanna",
                "email": "anna@example.org",
                "password1": "Ravasz-Roka-2024",
                "password2": "Ravasz-Roka-2024",
            },
        ).status_code,
    }
    return statuses


EXPECTED = {
    "live": 200,
    "live partial": 200,
    "standings page": 200,
    "standings API": 200,
    "token login": 200,
    "deck validation": 200,
    "sign-up form": 200,
    "sign-up": 302,
}


def test_pages_render_without_an_unreachable_cache(running_event, cache_down, caplog):
    # The event is made first: its writes reach the cache (the public state hooks), so the
    # outage is first met, and logged, by the requests below.
    client = Client(raise_request_exception=False)
    started = time.monotonic()
    statuses = _pages_answer(client, running_event)
    elapsed = time.monotonic() - started
    assert statuses == EXPECTED
    assert elapsed < 10, f"{elapsed:.1f} s for eight requests with the cache down"
    # What the pages show is the real content, rendered afresh.
    live = client.get(f"/tournaments/{running_event.pk}/live/").content.decode()
    assert "P1" in live or "P2" in live
    standings = client.get(f"/api/tournaments/{running_event.pk}/standings/").json()
    assert standings["count"] == 4
    assert Token.objects.filter(user__username="olvaso").exists()
    # The outage is logged (with its cause), once per retry window, not once per operation.
    lines = [r for r in caplog.records if r.name == "hkk_tournament.web.cache"]
    assert len(lines) == 1 and "Connection refused" in lines[0].getMessage()


def test_throttles_fail_open_while_the_cache_is_unreachable(cache_down, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "login": "2/min",
        },
    }
    client = Client(raise_request_exception=False)
    body = {"username": "senki", "password": "rossz"}
    codes = [
        client.post("/api/auth/token/", body, content_type="application/json").status_code
        for _ in range(4)
    ]
    assert codes == [400, 400, 400, 400]  # wrong password each time, never 429 nor 500


def test_the_backend_skips_redis_for_the_retry_window_then_tries_again(settings):
    _redis_cache(settings, UNREACHABLE_REDIS_URL, retry_seconds=0.3)
    guarded = caches["default"]
    assert isinstance(guarded, FailSafeRedisCache)
    calls = 0
    original = guarded._cache.get_client

    def counting(*args, **kwargs):
        nonlocal calls
        calls += 1
        return original(*args, **kwargs)

    guarded._cache.get_client = counting
    assert guarded.get("a", "default") == "default"
    assert guarded.get_many(["a", "b"]) == {}
    assert guarded.add("a", 1) is False
    assert guarded.set_many({"a": 1, "b": 2}) == ["a", "b"]
    with pytest.raises(ValueError):
        guarded.incr("a")
    assert calls == 1  # the first failure opened the window; the rest did not touch Redis
    time.sleep(0.35)
    assert guarded.get("a") is None
    assert calls == 2
    forget_outages()


def test_a_reachable_redis_is_used(settings):
    _redis_cache(settings, REDIS_URL)
    guarded = caches["default"]
    guarded.set("hkk-outage-test", [1, 2], 30)
    assert guarded.get("hkk-outage-test") == [1, 2]
    assert guarded.delete("hkk-outage-test") is True


def test_pages_work_with_the_broker_down_and_readyz_says_degraded(
    unreachable_broker, running_event, settings, django_capture_on_commit_callbacks
):
    """The broker refuses connections, the cache is up: readiness 200 "degraded"; the pages
    answer and a recorded result still refreshes the standings (the job runs in-process)."""
    _redis_cache(settings, REDIS_URL)
    settings.HKK_BROKER_CHECK_TIMEOUT = 1
    client = Client(raise_request_exception=False)
    ready = client.get("/readyz/")
    assert ready.status_code == 200, ready.content
    assert ready.json() == {
        "status": "degraded",
        "database": "ok",
        "cache": "ok",
        "broker": "unavailable",
        "degraded": ["broker"],
    }
    assert _pages_answer(client, running_event) == EXPECTED
    rnd = running_event.rounds.get()
    match = rnd.matches.filter(games__isnull=True, entry_b__isnull=False).first()
    with django_capture_on_commit_callbacks(execute=True):
        services.match_result_record(
            match=match, result="2-1-0", die_roll_winner=match.entry_a_id, actor=SYSTEM
        )
    snapshot = StandingsSnapshot.objects.get(tournament=running_event)
    assert sum(row["match_points"] for row in snapshot.rows) == 6


def test_the_backend_keeps_one_redis_client_per_server(settings):
    """One redis-py client per connection pool, shared by the threads (issue 22: building one
    per cache operation cost ~6 % of a public worker's CPU); the values still round-trip."""
    import threading

    _redis_cache(settings, REDIS_URL)
    cache = caches["default"]
    first = cache._cache.get_client(write=True)
    assert cache._cache.get_client(write=False) is first
    seen: list[object] = []
    thread = threading.Thread(target=lambda: seen.append(cache._cache.get_client(write=True)))
    thread.start()
    thread.join()
    assert seen == [first]
    cache.set("reuse-probe", {"n": 1}, 5)
    assert cache.get_many(["reuse-probe"]) == {"reuse-probe": {"n": 1}}
