"""Error pages and Django-level error answers: JSON under ``/api/``, translated HTML elsewhere.

- :func:`bad_request`, :func:`permission_denied`, :func:`page_not_found`, :func:`server_error`:
  the root URLconf's ``handler400/403/404/500``. They answer requests that never reach a DRF
  view (an unknown ``/api/`` path, an error raised by a middleware) with the JSON body of
  ``hkk_tournament.web.exceptions`` under ``/api/``; other paths get ``templates/400.html``,
  ``403.html``, ``404.html``, ``500.html`` in the active language (Hungarian by default).
- :func:`render_application_error`: the one page renderer of
  ``hkk_tournament.errors.ApplicationError``: ``templates/error.html`` with the translated
  message and the error's status. ``hkk_tournament.web.middleware.ApplicationErrorMiddleware``
  calls it for every ``ApplicationError`` a page view lets escape; a view that re-shows a form
  instead catches the error and shows ``hkk_tournament.errors.error_message(exc)``.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils.translation import gettext as _
from django.views import defaults

from hkk_tournament.errors import ApplicationError, error_message, retry_after
from hkk_tournament.request_log import current_request_id
from hkk_tournament.web.exceptions import (
    ApiError,
    describe_exception,
    is_api_request,
    not_found,
    unexpected_error,
)

logger = logging.getLogger(__name__)

#: Served when even ``500.html`` cannot be rendered (broken template or URLconf).
_BARE_500 = (
    '<!DOCTYPE html><html lang="hu"><meta charset="utf-8"><title>500</title>'
    "<h1>Szerverhiba (500)</h1><p>Server error (500).</p></html>"
)


def json_error(error: ApiError) -> JsonResponse:
    """A plain Django ``JsonResponse`` with ``error``'s status, body and headers."""
    response = JsonResponse(error.body(), status=error.status)
    for name, value in error.headers.items():
        response[name] = value
    return response


def _api_answer(exception: Exception | None, fallback: ApiError) -> JsonResponse:
    error = describe_exception(exception) if exception is not None else None
    return json_error(error or fallback)


def render_application_error(request: HttpRequest, exc: ApplicationError) -> HttpResponse:
    """The page for ``exc``: ``error.html`` with its translated message, status ``exc.status``.

    Context: ``code`` (str), ``message`` (str, fields appended), ``status`` (int).
    """
    response = render(
        request,
        "error.html",
        {"code": exc.code, "message": error_message(exc), "status": exc.status},
        status=exc.status,
    )
    wait = retry_after(exc)
    if wait is not None:
        response["Retry-After"] = wait
    return response


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: a ``SuspiciousOperation``, or an over-limit body or field count (413).

    Under ``/api/`` the JSON error; on pages ``400.html``, or for a form over
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` / ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` (Django raises while a
    middleware reads ``request.POST``) ``error.html`` with the translated 413 message.
    """
    if is_api_request(request):
        return _api_answer(exception, ApiError(400, "bad_request", _("Bad request.")))
    error = describe_exception(exception)
    if error is not None and error.status == 413:
        return render(
            request,
            "error.html",
            {"code": error.code, "message": error.message, "status": 413},
            status=413,
        )
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler403``: Django's ``PermissionDenied`` escaping a view or middleware."""
    if is_api_request(request):
        return _api_answer(exception, ApiError(403, "permission_denied", _("Forbidden.")))
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: an unknown path or an ``Http404`` escaping a view."""
    if is_api_request(request):
        return json_error(not_found())
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: an unexpected exception outside DRF (Django has logged it already).

    ``500.html`` is rendered without the request (no context processors run, so a broken
    session or database cannot break the error page) but with ``request_id`` (the id in the
    log); if even that fails, a bare bilingual page.
    """
    request_id = current_request_id()
    if is_api_request(request):
        return json_error(unexpected_error(request_id))
    try:
        return HttpResponseServerError(
            loader.get_template("500.html").render({"request_id": request_id})
        )
    except Exception:  # the error page itself must never raise
        logger.exception("Rendering 500.html failed")
        return HttpResponseServerError(_BARE_500)
