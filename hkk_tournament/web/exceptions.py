"""The API's one mapping from exceptions to HTTP error responses.

:func:`describe_exception` turns any exception the project knows into an :class:`ApiError`
(status, code, message, fields, params, headers); :func:`api_exception_handler` (DRF
``EXCEPTION_HANDLER``) and the Django-level views of ``hkk_tournament.web.error_views`` answer it
with the body of ``hkk_tournament.errors.error_body``::

    {"error": {"code": str, "message": str, "fields": {field: [str]}, "params": {str: JSON}}}

``fields`` and ``params`` are always present (``{}`` when empty). The mapping:

- ``hkk_tournament.errors.ApplicationError`` → its ``status``, ``code``, ``fields``, ``params``;
- DRF ``ValidationError`` → 400 ``invalid``; ``fields`` from the serializer errors (nested paths
  dotted: ``games.0.winner``), ``non_field_errors`` → ``message`` ("Invalid input." if none);
- DRF ``ParseError`` → 400 ``parse_error``;
- DRF ``NotAuthenticated`` / ``AuthenticationFailed`` → 401 (with ``WWW-Authenticate``, token
  auth) or 403 as DRF decides, ``not_authenticated`` / ``authentication_failed``;
- DRF or Django ``PermissionDenied`` → 403 ``permission_denied``;
- DRF ``NotFound``, ``Http404``, ``ObjectDoesNotExist`` → 404 ``not_found``;
- DRF ``MethodNotAllowed`` → 405 ``method_not_allowed``; ``NotAcceptable`` → 406
  ``not_acceptable``; ``UnsupportedMediaType`` → 415 ``unsupported_media_type``;
- DRF ``Throttled`` → 429 ``throttled``, ``Retry-After`` header and ``params["wait"]`` (seconds);
- ``RequestDataTooBig`` → 413 ``request_too_large``, ``params["max_bytes"]``;
  ``TooManyFieldsSent`` / ``TooManyFilesSent`` → 413 ``too_many_fields`` / ``too_many_files``;
- Django ``ValidationError`` → 400 ``invalid`` (``fields`` from ``message_dict``, ``__all__`` →
  ``message``); any other ``SuspiciousOperation`` → 400 ``bad_request``;
- ``django.db.DataError`` (a value PostgreSQL refuses: out of an integer column's range, a NUL
  character in text, too long for its column) and ``OverflowError`` (SQLite's "Python int too
  large to convert to SQLite INTEGER") → 400 ``invalid_data``, logged as a warning with its
  traceback: input that reached the database unchecked is still the client's mistake, but the
  serializer should have caught it (bound the field);
- ``django.db.OperationalError`` caused by psycopg's ``QueryCanceled`` (PostgreSQL's
  ``statement_timeout``, ``HKK_DB_STATEMENT_TIMEOUT``) → 503 ``statement_timeout`` with
  ``Retry-After``, logged as an error with its traceback;
- anything else → 500 ``server_error`` (logged with its traceback; nothing about it revealed),
  ``params["request_id"]`` = the request's ``X-Request-ID``.

The django-axes lockout (``accounts.security.lockout_response``) answers ``/api/`` with the same
body: 429, ``locked_out``, ``params["cooloff_minutes"]`` and ``Retry-After``.

Transactions: services own theirs (``@transaction.atomic``), so the exception has already rolled
them back when it arrives here; :func:`api_exception_handler` also marks any request-wide atomic
block for rollback (DRF ``set_rollback``).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import (
    NON_FIELD_ERRORS,
    ObjectDoesNotExist,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, OperationalError
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from psycopg.errors import QueryCanceled
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import set_rollback

from hkk_tournament.errors import ApplicationError, error_body, retry_after
from hkk_tournament.request_log import current_request_id

logger = logging.getLogger(__name__)

#: Every path under this prefix is answered with JSON errors.
API_PREFIX = "/api/"


def is_api_request(request: HttpRequest | None) -> bool:
    """True for requests to the REST API (path under ``/api/``)."""
    return request is not None and request.path.startswith(API_PREFIX)


@dataclass(frozen=True)
class ApiError:
    """One error, ready to render: HTTP ``status``, the body's parts and extra ``headers``."""

    status: int
    code: str
    message: Any
    fields: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)

    def body(self) -> dict[str, Any]:
        """``{"error": {"code", "message", "fields", "params"}}`` (``errors.error_body``)."""
        return error_body(self.code, self.message, fields=self.fields, params=self.params)


def unexpected_error(request_id: str | None = None) -> ApiError:
    """The 500 answer for an unexpected exception (nothing about the cause is revealed);
    ``params["request_id"]`` names the log lines of the request when known."""
    params = {"request_id": request_id} if request_id else {}
    return ApiError(
        500, "server_error", _("A server error occurred. It has been logged."), params=params
    )


def not_found() -> ApiError:
    """The 404 answer for an unknown path or object."""
    return ApiError(404, "not_found", _("Not found."))


def flatten_fields(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """Serializer errors as ``{dotted field path: [messages]}``.

    ``{"games": [{}, {"winner": ["Required."]}]}`` → ``{"games.1.winner": ["Required."]}``;
    a list of plain messages stays under its own field name (``""`` at the top level).
    """
    flat: dict[str, list[str]] = {}

    def walk(value: Any, path: str) -> None:
        if isinstance(value, Mapping):
            for key, item in value.items():
                walk(item, f"{path}.{key}" if path else str(key))
        elif isinstance(value, (list, tuple)):
            if any(isinstance(item, (Mapping, list, tuple)) for item in value):
                for index, item in enumerate(value):
                    walk(item, f"{path}.{index}" if path else str(index))
            elif value:
                flat.setdefault(path, []).extend(str(item) for item in value)
        else:
            flat.setdefault(path, []).append(str(value))

    walk(detail, prefix)
    return flat


def _split_non_field(fields: dict[str, list[str]], keys: tuple[str, ...]) -> tuple[list[str], dict]:
    general: list[str] = []
    for key in keys:
        general.extend(fields.pop(key, []))
    return general, fields


def _validation_error(detail: Any, non_field_keys: tuple[str, ...]) -> ApiError:
    if isinstance(detail, Mapping):
        general, fields = _split_non_field(flatten_fields(detail), non_field_keys)
    else:
        general, fields = [m for msgs in flatten_fields(detail).values() for m in msgs], {}
    message = " ".join(general) if general else _("Invalid input.")
    return ApiError(400, "invalid", message, fields=fields)


def request_too_large() -> ApiError:
    """The 413 answer for a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    message = _(
        "The request body is too large: at most %(limit)d bytes (%(kib)d KiB) are accepted."
    ) % {"limit": limit, "kib": limit // 1024}
    return ApiError(413, "request_too_large", message, params={"max_bytes": limit})


def _too_large(exc: BaseException) -> ApiError | None:
    if isinstance(exc, RequestDataTooBig):
        return request_too_large()
    if isinstance(exc, TooManyFieldsSent):
        return ApiError(413, "too_many_fields", _("The request has too many fields."))
    if isinstance(exc, TooManyFilesSent):
        return ApiError(413, "too_many_files", _("The request has too many files."))
    return None


def _drf_error(exc: drf.APIException) -> ApiError:
    if isinstance(exc, drf.ValidationError):
        return _validation_error(exc.detail, (api_settings.NON_FIELD_ERRORS_KEY,))
    detail = exc.detail
    if isinstance(detail, (Mapping, list)):
        message = " ".join(m for msgs in flatten_fields(detail).values() for m in msgs)
        code = exc.default_code
    else:
        message = str(detail)
        code = getattr(detail, "code", None) or exc.default_code
    headers: dict[str, str] = {}
    params: dict[str, Any] = {}
    auth_header = getattr(exc, "auth_header", None)
    if auth_header:
        headers["WWW-Authenticate"] = auth_header
    wait = getattr(exc, "wait", None)
    if wait is not None:
        seconds = math.ceil(wait)
        headers["Retry-After"] = str(seconds)
        params["wait"] = seconds
    return ApiError(exc.status_code, str(code), message, params=params, headers=headers)


def describe_exception(exc: BaseException) -> ApiError | None:
    """The :class:`ApiError` for ``exc`` (see the module's table), or ``None`` if unexpected."""
    if isinstance(exc, ApplicationError):
        wait = retry_after(exc)
        headers = {"Retry-After": wait} if wait is not None else {}
        return ApiError(
            exc.status, exc.code, exc.message, fields=exc.fields, params=exc.params, headers=headers
        )
    if isinstance(exc, drf.APIException):
        return _drf_error(exc)
    too_large = _too_large(exc)  # before SuspiciousOperation: these are subclasses of it
    if too_large is not None:
        return too_large
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            return _validation_error(exc.message_dict, (NON_FIELD_ERRORS,))
        return _validation_error(list(exc.messages), ())
    if isinstance(exc, (Http404, ObjectDoesNotExist)):
        return not_found()
    if isinstance(exc, DjangoPermissionDenied):
        message = str(exc) if exc.args else _("You do not have permission to perform this action.")
        return ApiError(403, "permission_denied", message)
    if isinstance(exc, SuspiciousOperation):
        return ApiError(400, "bad_request", _("The request could not be understood."))
    if isinstance(exc, (DataError, OverflowError)):
        logger.warning("Database refused a value: %s", exc, exc_info=exc)
        return ApiError(400, "invalid_data", _("A value in the request is out of range."))
    if isinstance(exc, OperationalError) and isinstance(exc.__cause__, QueryCanceled):
        return statement_timeout(exc)
    return None


def statement_timeout(exc: BaseException) -> ApiError:
    """The 503 answer for a statement PostgreSQL cancelled after ``statement_timeout``
    (``HKK_DB_STATEMENT_TIMEOUT``): logged as an error with its traceback, ``Retry-After``."""
    logger.error("Database statement cancelled (statement_timeout): %s", exc, exc_info=exc)
    return ApiError(
        503,
        "statement_timeout",
        _("The request took too long and was stopped; nothing was saved. Try again shortly."),
        headers={"Retry-After": "5"},
    )


def error_response(error: ApiError) -> Response:
    """A DRF ``Response`` with ``error``'s status, body and headers."""
    return Response(error.body(), status=error.status, headers=dict(error.headers))


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """DRF ``EXCEPTION_HANDLER``: every exception → a JSON error ``Response`` (never ``None``).

    Unexpected exceptions are logged with their traceback (logger ``hkk_tournament.web.exceptions``)
    and answered 500 ``server_error``.
    """
    set_rollback()
    error = describe_exception(exc)
    if error is None:
        request = context.get("request")
        logger.error(
            "Unexpected error in %s %s",
            getattr(request, "method", "?"),
            getattr(request, "path", "?"),
            exc_info=exc,
        )
        error = unexpected_error(current_request_id())
    return error_response(error)
