"""The one error model of the project: :class:`ApplicationError` and its subclasses.

Services (``tournaments.services``, ``decks.services``, ``accounts.services``) raise these; they
never return error values and never build HTTP responses. Two renderers turn them into answers:

- the API: ``hkk_tournament.web.exceptions.api_exception_handler`` (DRF ``EXCEPTION_HANDLER``)
  answers ``exc.status`` with the JSON body of :func:`error_body`;
- the pages: ``hkk_tournament.web.middleware.ApplicationErrorMiddleware`` renders
  ``templates/error.html`` with the translated message and ``exc.status``
  (``hkk_tournament.web.error_views.render_application_error``); views that re-show a form catch
  the error and show :func:`error_message` instead.

Every error carries:

- ``code``: stable machine-readable code (``snake_case``, never renamed; API clients and tests
  match on it), e.g. ``"game_already_recorded"``;
- ``message``: translated human message, usually a lazy ``gettext_lazy`` string (rendered in the
  language active when the response is built), safe to show to organisers and players;
- ``fields``: ``{field name: [translated messages]}`` for errors tied to input fields
  (``{}`` when none);
- ``params``: JSON-safe values the message was built from (``{}`` when none), e.g.
  ``{"round": 3}``;
- ``status``: the HTTP status (class attribute): :class:`ValidationFailed` 400,
  :class:`PermissionDenied` (alias :class:`Forbidden`) 403, :class:`NotFound` 404,
  :class:`Conflict` 409, :class:`InvalidState` 409, :class:`TooManyRequests` 429 (both
  renderers add ``Retry-After: params["wait"]``).

The JSON shape of every error under ``/api/`` (:func:`error_body`)::

    {"error": {"code": str, "message": str, "fields": {str: [str]}, "params": {str: JSON}}}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

__all__ = [
    "ApplicationError",
    "Conflict",
    "Forbidden",
    "InvalidState",
    "NotFound",
    "PermissionDenied",
    "TooManyRequests",
    "ValidationFailed",
    "error_body",
    "error_message",
]


class ApplicationError(Exception):
    """Base class of every error a service raises on purpose (see the module docstring).

    Args:
        code: stable machine-readable code, e.g. ``"round_finished"``.
        message: translated (lazy) human message.
        params: JSON-safe values the message was built from (copied; ``{}`` when ``None``).
        fields: ``{field: [messages]}`` for input errors tied to fields (copied; each message
            may be lazy, a single message is wrapped into a list).

    Attributes:
        status: HTTP status of the class (400 for the base class).
        code, message, params, fields: as given.
    """

    status: ClassVar[int] = 400

    def __init__(
        self,
        code: str,
        message: Any,
        params: Mapping[str, Any] | None = None,
        *,
        fields: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message
        self.params: dict[str, Any] = dict(params or {})
        self.fields: dict[str, list[Any]] = {
            name: list(msgs) if isinstance(msgs, (list, tuple)) else [msgs]
            for name, msgs in (fields or {}).items()
        }

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        """``{"code", "message", "fields", "params"}`` rendered in the active language."""
        return error_body(self.code, self.message, fields=self.fields, params=self.params)["error"]


class ValidationFailed(ApplicationError):  # noqa: N818 (stable public name)
    """400: the input itself is wrong (inconsistent first player, wrong team size …)."""

    status = 400


class PermissionDenied(ApplicationError):  # noqa: N818 (stable public name)
    """403: the caller may not do this (not an organiser, judge or player of the object)."""

    status = 403


#: Alias of :class:`PermissionDenied` (avoids a clash with Django's and DRF's names on import).
Forbidden = PermissionDenied


class NotFound(ApplicationError):  # noqa: N818 (stable public name)
    """404: the object addressed does not exist (in this tournament/round, or for this caller)."""

    status = 404


class Conflict(ApplicationError):  # noqa: N818 (stable public name)
    """409: someone else wrote first (duplicate game, round already paired, stale version)."""

    status = 409


class InvalidState(ApplicationError):  # noqa: N818 (stable public name)
    """409: not allowed in the current state of the tournament, round or match (RFC 9110
    §15.5.10: retrying after the state changes may work)."""

    status = 409


class TooManyRequests(ApplicationError):  # noqa: N818 (stable public name)
    """429: over a rate limit (``hkk_tournament.web.throttling``); ``params["wait"]`` = seconds
    until the next attempt is allowed, sent as ``Retry-After`` too."""

    status = 429


def retry_after(exc: ApplicationError) -> str | None:
    """The ``Retry-After`` header value of ``exc`` (``params["wait"]`` of a 429), else ``None``."""
    wait = exc.params.get("wait")
    if exc.status == 429 and isinstance(wait, int):
        return str(wait)
    return None


def _messages(value: Any) -> list[str]:
    if isinstance(value, (list, tuple)):
        return [str(item) for item in value]
    return [str(value)]


def error_body(
    code: str,
    message: Any,
    *,
    fields: Mapping[str, Any] | None = None,
    params: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON body of an API error, messages rendered (``str``) in the active language.

    Shape: ``{"error": {"code": str, "message": str, "fields": {field: [str]},
    "params": {str: JSON}}}``; ``fields`` and ``params`` are ``{}`` when not given. ``fields``
    maps a field name (nested paths dotted, e.g. ``games.0.winner``) to one message or a list.
    """
    return {
        "error": {
            "code": str(code),
            "message": str(message),
            "fields": {str(name): _messages(msgs) for name, msgs in (fields or {}).items()},
            "params": dict(params or {}),
        }
    }


def error_message(exc: ApplicationError) -> str:
    """The one line a page shows for ``exc``: its message, then its field messages if any, in
    words only (the field names are for the API, never shown on a page); a field message the
    main message already says is not repeated."""
    parts = [str(exc.message)]
    for msgs in exc.fields.values():
        parts.extend(str(m) for m in msgs if str(m) not in parts)
    return " ".join(parts)
