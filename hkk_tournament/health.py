"""Health checks for load balancers, systemd and monitoring: ``/healthz/`` and ``/readyz/``.

Both are answered by :class:`HealthCheckMiddleware`, which sits right after the request log in
``MIDDLEWARE``, before the host check, the HTTPS redirect, sessions, CSRF, django-axes and the
API throttles: a probe on ``http://127.0.0.1:8000/healthz/`` gets its answer whatever
``DJANGO_ALLOWED_HOSTS`` says, sets no cookie and is never locked out or throttled. Any method
is answered; the body is JSON, ``Cache-Control: no-store``.

- ``/healthz/`` (liveness): the process answers. No database, no broker. Always 200
  ``{"status": "ok"}``.
- ``/readyz/`` (readiness): the database answers ``SELECT 1`` and the Celery broker accepts a
  connection (timeouts: ``HKK_DB_CONNECT_TIMEOUT`` for PostgreSQL, ``HKK_BROKER_CHECK_TIMEOUT``
  seconds (default 2) for the broker). 200 ``{"status": "ok", "database": "ok", "broker": "ok"}``
  or 503 ``{"status": "unavailable", "database": …, "broker": …, "failed": [names]}`` with
  ``"unavailable"`` for each failed check (the cause is logged on ``hkk_tournament.health``, not
  revealed). With no ``CELERY_BROKER_URL`` tasks run in-process (eager), so ``"broker"`` is
  ``"not configured (eager)"`` and does not make the service unready.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)

HEALTH_PATH = "/healthz/"
READY_PATH = "/readyz/"
OK = "ok"
UNAVAILABLE = "unavailable"
EAGER = "not configured (eager)"


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


def _answer(body: dict[str, object], status: int = 200) -> JsonResponse:
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    return response


def healthz() -> JsonResponse:
    """Liveness: 200 ``{"status": "ok"}``."""
    return _answer({"status": OK})


def readyz() -> JsonResponse:
    """Readiness: 200 when every check passes, 503 naming the failed ones (module docstring)."""
    checks = {"database": check_database(), "broker": check_broker()}
    failed = [name for name, result in checks.items() if result == UNAVAILABLE]
    if failed:
        return _answer({"status": UNAVAILABLE, **checks, "failed": failed}, status=503)
    return _answer({"status": OK, **checks})


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
