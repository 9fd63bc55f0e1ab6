"""Request ids and the one log line per request.

- :class:`RequestLogMiddleware` (first in ``MIDDLEWARE``) gives every request an id: the client's
  or the reverse proxy's ``X-Request-ID`` header when it is a plausible id (1-128 characters of
  ``A-Z a-z 0-9 . _ : -``), otherwise a new random one (32 hex digits). The id is returned in the
  ``X-Request-ID`` response header, kept on ``request.request_id`` and, while the request runs, in
  a context variable that :class:`RequestIdFilter` copies onto every log record — so the
  traceback Django logs for a 500 (logger ``django.request``) and the API's own error log
  (``hkk_tournament.web.exceptions``) carry the same ``request_id`` as the request line.
- When the response is ready it logs one line on the logger ``hkk_tournament.request`` (INFO;
  the health checks at DEBUG) with the fields ``method``, ``path`` (no query string),
  ``status``, ``duration_ms`` (float, milliseconds inside Django), ``request_id`` and
  ``user_id`` (``None`` when anonymous). With the JSON formatter of ``settings.LOGGING`` that is
  one JSON object per line.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger("hkk_tournament.request")

#: Header carrying the id in both directions.
REQUEST_ID_HEADER = "X-Request-ID"
_REQUEST_ID_META = "HTTP_X_REQUEST_ID"
_VALID_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
#: Paths answered by hkk_tournament.web.health: logged at DEBUG so probes do not flood the log.
_QUIET_PATHS = frozenset({"/healthz/", "/readyz/"})

_current_request_id: ContextVar[str | None] = ContextVar("hkk_request_id", default=None)


def current_request_id() -> str | None:
    """The id of the request being handled in this thread/context, or ``None`` outside one."""
    return _current_request_id.get()


def request_id_from(request: HttpRequest) -> str:
    """The incoming ``X-Request-ID`` if it is a plausible id, else a new ``uuid4().hex``."""
    incoming = request.META.get(_REQUEST_ID_META, "")
    if isinstance(incoming, str) and _VALID_ID.fullmatch(incoming):
        return incoming
    return uuid.uuid4().hex


class RequestIdFilter(logging.Filter):
    """Logging filter: sets ``record.request_id`` to the current request's id (``None`` outside a
    request) unless the record already has one. Attached to the console handler."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = _current_request_id.get()
        return True


def _user_id(request: HttpRequest) -> Any:
    user = getattr(request, "user", None)  # absent when a middleware answered before auth ran
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return user.pk


class RequestLogMiddleware:
    """Request id in and out, one log line per request (see the module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_from(request)
        request.request_id = request_id  # type: ignore[attr-defined]
        # Not reset when the response leaves: Django logs 4xx responses ("Not Found: …") after
        # the middleware chain; the id is cleared when the response is closed (see below).
        _current_request_id.set(request_id)
        started = time.perf_counter()
        response = self.get_response(request)
        duration_ms = round((time.perf_counter() - started) * 1000, 2)
        response[REQUEST_ID_HEADER] = request_id
        fields = {
            "method": request.method,
            "path": request.path,
            "status": response.status_code,
            "duration_ms": duration_ms,
            "request_id": request_id,
            "user_id": _user_id(request),
        }
        level = logging.DEBUG if request.path_info in _QUIET_PATHS else logging.INFO
        logger.log(
            level,
            "%s %s %s %.1fms",
            request.method,
            request.path,
            response.status_code,
            duration_ms,
            extra=fields,
        )
        return response


def _forget_request_id(**_: Any) -> None:
    _current_request_id.set(None)


request_finished.connect(_forget_request_id, dispatch_uid="hkk_tournament.request_log")
