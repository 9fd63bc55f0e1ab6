"""Error and header middleware: the API's request-size guard, the page renderer of errors and
the ``Permissions-Policy`` header.

- :class:`ApiBodyLimitMiddleware` rejects an ``/api/`` request whose ``Content-Length`` exceeds
  ``DATA_UPLOAD_MAX_MEMORY_SIZE`` before any view or parser runs: 413 with the project's JSON
  error body (``request_too_large``, ``params["max_bytes"]``). Django itself raises
  ``RequestDataTooBig`` lazily, only when a view reads ``request.body``.
- :class:`PageUploadLimitMiddleware` does the same for pages (forms and file uploads) with
  ``settings.HKK_MAX_UPLOAD_BYTES``: 413 ``error.html`` before the CSRF check or a form reads
  the body (Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` leaves uploaded files out, so a 50 MB
  file would otherwise be stored in full before any size check).
- :class:`ApplicationErrorMiddleware` answers exceptions a non-DRF view lets escape: under
  ``/api/`` every known exception becomes the JSON error body (``hkk_tournament.web.exceptions``;
  unknown ones go on to ``handler500``, which answers JSON too); on pages an
  ``ApplicationError`` becomes ``error.html`` with its translated message and status
  (``hkk_tournament.web.error_views.render_application_error``); a ``django.db.DataError`` or
  ``OverflowError`` (a value the database refused) becomes the 400 page, a statement cancelled
  by PostgreSQL's ``statement_timeout`` the 503 page.
- :class:`SecurityHeadersMiddleware` sets ``Permissions-Policy`` from
  ``settings.HKK_PERMISSIONS_POLICY`` on every response (Django's ``SecurityMiddleware`` sets
  ``Referrer-Policy`` and ``django-csp`` the ``Content-Security-Policy``), and keeps shared
  caches from storing a response that sets a cookie (``public`` becomes ``private``).

The first two sit after ``LocaleMiddleware`` so that messages are in the client's language.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.db import DataError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _

from hkk_tournament.errors import ApplicationError
from hkk_tournament.web.error_views import bad_request, json_error, render_application_error
from hkk_tournament.web.exceptions import describe_exception, is_api_request, request_too_large


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
        if is_api_request(request) and limit is not None and _declared_length(request) > limit:
            return json_error(request_too_large())
        return self.get_response(request)


class PageUploadLimitMiddleware:
    """413 ``error.html`` for a page request whose declared body is over
    ``settings.HKK_MAX_UPLOAD_BYTES`` (see module docstring); ``/api/`` is left to
    :class:`ApiBodyLimitMiddleware`."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = getattr(settings, "HKK_MAX_UPLOAD_BYTES", None)
        if not is_api_request(request) and limit and _declared_length(request) > limit:
            message = _("The upload is too large: at most %(kib)d KiB are accepted.") % {
                "kib": limit // 1024
            }
            context = {"code": "request_too_large", "message": message, "status": 413}
            return render(request, "error.html", context, status=413)
        return self.get_response(request)


class ApplicationErrorMiddleware:
    """JSON errors for non-DRF views under ``/api/``, error pages for ``ApplicationError``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if is_api_request(request):
            error = describe_exception(exc)
            return json_error(error) if error is not None else None
        if isinstance(exc, ApplicationError):
            return render_application_error(request, exc)
        if isinstance(exc, (DataError, OverflowError)):  # logged by describe_exception
            return bad_request(request, exc)
        error = describe_exception(exc)
        if error is not None and error.code == "statement_timeout":
            context = {"code": error.code, "message": error.message, "status": error.status}
            response = render(request, "error.html", context, status=error.status)
            for header, value in error.headers.items():
                response[header] = value
            return response
        return None


class SecurityHeadersMiddleware:
    """``Permissions-Policy: settings.HKK_PERMISSIONS_POLICY`` on every response (unless a view
    set its own); a response that sets a cookie and was marked ``public`` becomes ``private``
    (it runs after the session and CSRF middleware have set their cookies)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = getattr(settings, "HKK_PERMISSIONS_POLICY", "")
        if policy and "Permissions-Policy" not in response:
            response["Permissions-Policy"] = policy
        if response.cookies and "public" in response.get("Cache-Control", ""):
            # A shared cache (a venue's proxy) must never keep a response that sets a cookie
            # (the CSRF cookie of a first visit): it would hand that cookie to the next visitor.
            patch_cache_control(response, private=True)
        return response
