"""Request-size guard for the API (``/api/...``), answering like ``hkk_tournament.exceptions``.

Django raises ``RequestDataTooBig`` lazily, only when a view reads ``request.body``; Django's own
answer is a bare 400. ``ApiBodyLimitMiddleware`` instead:

- rejects an ``/api/`` request whose ``Content-Length`` exceeds ``DATA_UPLOAD_MAX_MEMORY_SIZE``
  before any view or parser runs, with 413 and the JSON of
  ``hkk_tournament.exceptions.too_large_payload``;
- turns ``RequestDataTooBig`` / ``TooManyFieldsSent`` / ``TooManyFilesSent`` escaping a non-DRF
  view under ``/api/`` into the same 413 JSON (DRF views are handled by the exception handler).

It sits after ``LocaleMiddleware`` so that the message is in the client's language.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse

from hkk_tournament.exceptions import too_large_payload

API_PREFIX = "/api/"


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class ApiBodyLimitMiddleware:
    """413 JSON for over-limit bodies on ``/api/`` routes (see module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if (
            request.path.startswith(API_PREFIX)
            and limit is not None
            and _declared_length(request) > limit
        ):
            return JsonResponse(too_large_payload(RequestDataTooBig()), status=413)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not request.path.startswith(API_PREFIX):
            return None
        payload = too_large_payload(exc)
        if payload is None:
            return None
        return JsonResponse(payload, status=413)
