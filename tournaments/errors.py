"""Typed errors raised by the tournament services (../shared/STYLE.md §5.6).

Every error carries a stable ``code`` (never renamed; API clients and tests match on it), a
translated ``message`` (lazy, safe to show to organisers and players) and ``params`` (JSON-safe
values the message was built from). The API's exception handler maps the classes to HTTP:

- :class:`NotFound` → 404 (e.g. ``table_not_in_round``),
- :class:`Conflict` → 409 (a concurrent or duplicate write: ``game_already_recorded``,
  ``round_already_paired``, ``stale_version``),
- :class:`InvalidState` → 409/400 (the tournament/round is in the wrong state:
  ``round_finished``, ``lists_locked``, ``late_entry_closed`` …),
- :class:`ValidationFailed` → 400 (bad input: ``first_player_mismatch``,
  ``pair_needs_two_players`` …).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ServiceError(Exception):
    """Base class of every tournament service error.

    Attributes:
        code: stable machine-readable code.
        message: translated (lazy) human message.
        params: JSON-safe values used in the message.
    """

    def __init__(self, code: str, message: Any, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.params: dict[str, Any] = dict(params or {})

    def as_dict(self) -> dict[str, Any]:
        """``{"code", "message", "params"}`` with the message rendered in the active language."""
        return {"code": self.code, "message": str(self.message), "params": self.params}


class NotFound(ServiceError):  # noqa: N818
    """The object addressed does not exist in this tournament/round."""


class Conflict(ServiceError):  # noqa: N818
    """Someone else wrote first (duplicate game, round already paired, stale version)."""


class InvalidState(ServiceError):  # noqa: N818
    """The operation is not allowed in the current state of the tournament, round or match."""


class ValidationFailed(ServiceError):  # noqa: N818
    """The input itself is wrong (inconsistent first player, wrong team size …)."""
