"""Health checks for load balancers, systemd and monitoring: ``/healthz/`` and ``/readyz/``.

Both are answered by :class:`HealthCheckMiddleware`, which sits right after the request log in
``MIDDLEWARE``, before the host check, the HTTPS redirect, sessions, CSRF, django-axes and the
API throttles: a probe on ``http://127.0.0.1:8000/healthz/`` gets its answer whatever
``DJANGO_ALLOWED_HOSTS`` says, sets no cookie and is never locked out or throttled. Any method
is answered; the body is JSON, ``Cache-Control: no-store``.

- ``/healthz/`` (liveness): the process answers. No database, no broker. Always 200
  ``{"status": "ok"}``.
- ``/readyz/`` (readiness): may this node take traffic? Three checks, each ``"ok"``,
  ``"unavailable"`` or a "not configured" value:

  - ``database``: PostgreSQL answers ``SELECT 1`` (timeout ``HKK_DB_CONNECT_TIMEOUT``). Every
    page needs it: down means **503**.
  - ``cache``: the shared cache (``HKK_CACHE_URL``) answers ``PING`` (timeout
    ``HKK_CACHE_TIMEOUT``), asked directly, not through the fail-safe backend
    (:mod:`hkk_tournament.web.cache`). Down means **503** (pages still render without it, but
    throttles cannot count and every answer is rendered afresh); with
    ``HKK_READYZ_CACHE_REQUIRED=0`` it only degrades the node (one Redis shared by every node).
    Without ``HKK_CACHE_URL`` the per-process memory cache is used: ``"local (per process)"``.
  - ``broker``: the Celery broker accepts a connection (timeout ``HKK_BROKER_CHECK_TIMEOUT``).
    Down only **degrades** the node (200): jobs run in-process when the broker cannot be
    reached (``hkk_tournament.jobs``). Without ``CELERY_BROKER_URL`` tasks run in-process
    (eager): ``"not configured (eager)"``.

  Answers: 200 ``{"status": "ok", "database": "ok", "cache": "ok", "broker": "ok"}``; 200
  ``{"status": "degraded", …, "degraded": [names]}`` when only optional checks failed; 503
  ``{"status": "unavailable", …, "failed": [names]}`` (plus ``"degraded"`` when some optional
  ones failed too). The cause of a failure is logged on ``hkk_tournament.web.health``, never
  revealed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)

HEALTH_PATH = "/healthz/"
READY_PATH = "/readyz/"
OK = "ok"
UNAVAILABLE = "unavailable"
DEGRADED = "degraded"
EAGER = "not configured (eager)"
LOCAL = "local (per process)"


def check_database(alias: str = "default") -> str:
    """``"ok"`` when the database ``alias`` answers ``SELECT 1``, else ``"unavailable"``."""
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        logger.exception("Readiness check: database %r unavailable", alias)
        connections[alias].close()  # the next request opens a fresh connection
        return UNAVAILABLE
    return OK


def check_broker() -> str:
    """``"ok"`` when the Celery broker accepts a connection, ``"unavailable"`` when it does not,
    ``"not configured (eager)"`` when tasks run in-process (no ``CELERY_BROKER_URL``)."""
    url = getattr(settings, "CELERY_BROKER_URL", "")
    if not url or getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return EAGER
    from kombu import Connection

    timeout = settings.HKK_BROKER_CHECK_TIMEOUT
    connection = Connection(
        url,
        connect_timeout=timeout,
        transport_options={"socket_connect_timeout": timeout, "socket_timeout": timeout},
    )
    try:
        connection.ensure_connection(
            max_retries=1, interval_start=0, interval_step=0, timeout=timeout
        )
    except Exception:
        logger.exception("Readiness check: Celery broker unavailable")
        return UNAVAILABLE
    finally:
        connection.release()
    return OK


def check_cache(alias: str = "default") -> str:
    """``"ok"`` when the shared cache ``alias`` answers ``PING``, ``"unavailable"`` when it does
    not, ``"local (per process)"`` for a cache that is not shared (no ``HKK_CACHE_URL``)."""
    from hkk_tournament.web.cache import FailSafeRedisCache

    backend = caches[alias]
    if not isinstance(backend, FailSafeRedisCache):
        return LOCAL
    try:
        backend.ping()
    except Exception:
        logger.exception("Readiness check: cache %r unavailable", alias)
        return UNAVAILABLE
    return OK


def _answer(body: dict[str, object], status: int = 200) -> JsonResponse:
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    return response


def healthz() -> JsonResponse:
    """Liveness: 200 ``{"status": "ok"}``."""
    return _answer({"status": OK})


def readyz() -> JsonResponse:
    """Readiness: 200 ``ok`` or ``degraded``, 503 ``unavailable`` naming the failed checks
    (module docstring)."""
    checks = {"database": check_database(), "cache": check_cache(), "broker": check_broker()}
    required = {"database"} | ({"cache"} if settings.HKK_READYZ_CACHE_REQUIRED else set())
    down = [name for name, result in checks.items() if result == UNAVAILABLE]
    failed = [name for name in down if name in required]
    degraded = [name for name in down if name not in required]
    body: dict[str, object] = {"status": OK, **checks}
    if degraded:
        body.update(status=DEGRADED, degraded=degraded)
    if failed:
        body.update(status=UNAVAILABLE, failed=failed)
        return _answer(body, status=503)
    return _answer(body)


class HealthCheckMiddleware:
    """Answers ``/healthz/`` and ``/readyz/`` before the rest of the stack (module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == HEALTH_PATH:
            return healthz()
        if request.path_info == READY_PATH:
            return readyz()
        return self.get_response(request)
