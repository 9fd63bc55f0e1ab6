"""/healthz/ and /readyz/ (hkk_tournament.web.health) through real requests.

The broker and cache checks talk to real services: Redis on 127.0.0.1:6379 (``TEST_REDIS_URL``
overrides) and a refused port on the loopback for the failing cases. What the pages do with the
cache or the broker down: tests/ops/test_cache_outage.py.
"""

from __future__ import annotations

import os

import pytest
from django.db import OperationalError, connections

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
REFUSED_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1 of the loopback


def test_healthz_is_ok_without_touching_the_database(client):
    # No django_db mark: any database access would raise here.
    response = client.get("/healthz/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in response
    assert "Vary" not in response


@pytest.mark.django_db
def test_readyz_with_eager_celery_is_ready(client, settings):
    settings.CELERY_BROKER_URL = ""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    response = client.get("/readyz/")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "cache": "local (per process)",
        "broker": "not configured (eager)",
    }


@pytest.mark.django_db
def test_readyz_with_a_running_broker_is_ready(client, settings):
    settings.CELERY_BROKER_URL = REDIS_URL
    settings.CELERY_TASK_ALWAYS_EAGER = False
    response = client.get("/readyz/")
    assert response.status_code == 200, response.content
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "cache": "local (per process)",
        "broker": "ok",
    }


@pytest.mark.django_db
def test_readyz_with_a_running_shared_cache_is_ready(client, settings):
    settings.CACHES = {
        "default": {"BACKEND": "hkk_tournament.web.cache.FailSafeRedisCache", "LOCATION": REDIS_URL}
    }
    settings.CELERY_BROKER_URL = ""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    response = client.get("/readyz/")
    assert response.status_code == 200, response.content
    assert response.json()["cache"] == "ok"


@pytest.mark.django_db
def test_readyz_fails_with_the_shared_cache_unreachable(client, settings, caplog):
    settings.CACHES = {
        "default": {
            "BACKEND": "hkk_tournament.web.cache.FailSafeRedisCache",
            "LOCATION": REFUSED_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    settings.CELERY_BROKER_URL = ""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    response = client.get("/readyz/")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "database": "ok",
        "cache": "unavailable",
        "broker": "not configured (eager)",
        "failed": ["cache"],
    }
    assert any("cache 'default' unavailable" in r.getMessage() for r in caplog.records)
    # One Redis shared by every node: its outage may be counted as degrading only.
    settings.HKK_READYZ_CACHE_REQUIRED = False
    response = client.get("/readyz/")
    assert response.status_code == 200
    assert response.json()["status"] == "degraded" and response.json()["degraded"] == ["cache"]


@pytest.mark.django_db
def test_readyz_reports_a_refused_broker_as_degraded_not_down(client, settings, caplog):
    """Jobs run in-process while the broker is down, so the node keeps serving: 200."""
    settings.CELERY_BROKER_URL = REFUSED_URL
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.HKK_BROKER_CHECK_TIMEOUT = 2
    response = client.get("/readyz/")
    assert response.status_code == 200
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "cache": "local (per process)",
        "broker": "unavailable",
        "degraded": ["broker"],
    }
    assert "Connection refused" not in response.content.decode()  # the cause is only logged
    assert any("broker unavailable" in r.getMessage() and r.exc_info for r in caplog.records)


@pytest.mark.django_db
def test_readyz_names_an_unreachable_database_with_503(client, settings, monkeypatch):
    settings.CELERY_BROKER_URL = ""
    settings.CELERY_TASK_ALWAYS_EAGER = True

    def refuse(*args, **kwargs):
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(connections["default"], "cursor", refuse)
    response = client.get("/readyz/")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "database": "unavailable",
        "cache": "local (per process)",
        "broker": "not configured (eager)",
        "failed": ["database"],
    }


@pytest.mark.django_db
def test_probes_skip_host_checks_https_redirect_sessions_and_axes(client, settings):
    """A load balancer probing http://10.0.0.5:8000/healthz/ in production gets its answer."""
    settings.ALLOWED_HOSTS = ["example.org"]
    settings.SECURE_SSL_REDIRECT = True
    for path in ("/healthz/", "/readyz/"):
        response = client.get(path, HTTP_HOST="10.0.0.5:8000")
        assert response.status_code == 200, path
        assert "Set-Cookie" not in response
        assert response["X-Request-ID"]
    # Every other path still gets Django's checks.
    assert client.get("/accounts/login/", HTTP_HOST="10.0.0.5:8000").status_code == 400
    assert client.get("/accounts/login/", HTTP_HOST="example.org").status_code == 301


def test_probe_lines_are_logged_at_debug_only(client, caplog):
    with caplog.at_level("INFO", logger="hkk_tournament.request"):
        client.get("/healthz/")
    assert not [r for r in caplog.records if r.name == "hkk_tournament.request"]
