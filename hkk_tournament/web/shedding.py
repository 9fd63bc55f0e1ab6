"""Shedding public reads the server cannot serve in time, before they cost anything.

:class:`LoadSheddingMiddleware` looks at every ``GET`` / ``HEAD`` (the public reads; writes of
staff and players are never shed, and in production they have their own worker pool,
docs/production.md) before a view runs:

- **Waited too long.** The reverse proxy stamps each request with the time it arrived
  (``X-Request-Start: t=<seconds since the epoch>``, nginx's ``$msec``; milliseconds and
  microseconds are understood too). A read that waited in the queue longer than
  ``HKK_SHED_AFTER_MS`` (default 1,000 ms; 0 = never) is answered at once with **503** and
  ``Retry-After: HKK_SHED_RETRY_AFTER`` seconds (default 5): its visitor would have had a slow
  answer anyway, and rendering it would make every later request slower still. A request
  without the header (no proxy) is never shed for its wait.
- **Client gone.** A read whose client closed the connection while it waited (a phone that
  gave up, a refresh) is dropped without rendering (Gunicorn's socket is peeked; status 499 is
  logged, nothing can be sent).

The answer is tiny: the API's JSON error body (``overloaded``) or a one-line page in the
visitor's language, so shedding stays cheap however many requests arrive. Sits right after
``LocaleMiddleware`` (the message is translated), before sessions are read.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from hkk_tournament.web.error_views import json_error
from hkk_tournament.web.exceptions import ApiError, is_api_request

#: Status logged for a request whose client left before it was served (nginx's convention).
CLIENT_GONE = 499


def queue_seconds(request: HttpRequest, now: float | None = None) -> float | None:
    """Seconds since the proxy received ``request`` (``X-Request-Start``), ``None`` without a
    usable header. ``t=1700000000.123`` (seconds), ``…123`` in milliseconds or microseconds."""
    raw = request.META.get("HTTP_X_REQUEST_START", "").strip()
    if raw.startswith("t="):
        raw = raw[2:]
    try:
        stamp = float(raw)
    except ValueError:
        return None
    while stamp > 1e11:  # milliseconds or microseconds since the epoch
        stamp /= 1000
    return (time.time() if now is None else now) - stamp


def client_gone(request: HttpRequest) -> bool:
    """The client closed its connection (Gunicorn's ``gunicorn.socket`` reads end-of-stream;
    ``False`` when that cannot be known: another server, pipelined data waiting)."""
    sock = request.META.get("gunicorn.socket")
    if not isinstance(sock, socket.socket):
        return False
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:
        return True


def overloaded(request: HttpRequest) -> HttpResponse:
    """The 503 answer of a shed read: JSON ``overloaded`` under ``/api/``, else a short page."""
    retry = str(settings.HKK_SHED_RETRY_AFTER)
    message = _("The server is busy. Try again in a few seconds.")
    if is_api_request(request):
        return json_error(ApiError(503, "overloaded", message, headers={"Retry-After": retry}))
    page = (
        f'<!DOCTYPE html><html lang="{get_language()}"><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="refresh" content="{retry}">'
        f"<title>{escape(message)}</title><p>{escape(message)}</p></html>"
    )
    response = HttpResponse(page, status=503)
    response["Retry-After"] = retry
    response["Cache-Control"] = "no-store"
    return response


class LoadSheddingMiddleware:
    """503 with ``Retry-After`` for reads that waited too long, nothing for reads whose client
    left (module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD"):
            limit = settings.HKK_SHED_AFTER_MS / 1000
            waited = queue_seconds(request)
            if limit > 0 and waited is not None and waited > limit:
                return _quiet(overloaded(request))
            if client_gone(request):
                return _quiet(HttpResponse(status=CLIENT_GONE, reason="Client Closed Request"))
        return self.get_response(request)


def _quiet(response: HttpResponse) -> HttpResponse:
    """Keep Django's ``django.request`` logger from logging a shed request as an error (one
    request log line is written anyway, ``hkk_tournament.request_log``): under overload
    thousands of tracebacks-free error lines would only cost more CPU."""
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response
