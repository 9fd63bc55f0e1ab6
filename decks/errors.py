"""Errors the decks services raise on purpose: members of the project's one error family.

Each is a :class:`hkk_tournament.errors.ValidationFailed` (HTTP 400) with a stable ``code`` and a
translated ``message``; the project's API handler renders them as
``{"error": {"code", "message", "fields", "params"}}`` and pages show ``message``.

- :class:`DeckInputError` (``invalid_deck_input``): the deck list cannot be validated at all;
- :class:`UnknownFormat` (``unknown_format``): no active format has the slug;
- :class:`UnknownGame` (``unknown_game``): no game has the slug;
- :class:`GameStartInputError` (``invalid_game_start``, ``bad_side_size``,
  ``missing_player_name``, ``duplicate_player_name``): the game-start input cannot be computed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import ValidationFailed

__all__ = ["DeckInputError", "GameStartInputError", "UnknownFormat", "UnknownGame"]


class DeckInputError(ValidationFailed):
    """The deck list cannot be validated at all (nothing given, both forms given, empty list).

    ``code`` is always ``"invalid_deck_input"``; ``message`` is a lazy translated string, safe to
    show to the user.
    """

    def __init__(self, message: Any, params: Mapping[str, Any] | None = None) -> None:
        super().__init__("invalid_deck_input", message, params)


class UnknownFormat(ValidationFailed):
    """No active format has this slug (``code`` ``"unknown_format"``, ``params["format"]``).

    ``slug`` is the slug asked for; ``message`` reads "Unknown format: <slug>." in the active
    language.
    """

    def __init__(self, slug: str) -> None:
        self.slug = slug
        super().__init__(
            "unknown_format",
            _("Unknown format: %(format)s.") % {"format": slug},
            {"format": slug},
        )


class UnknownGame(ValidationFailed):
    """No game has this slug (``code`` ``"unknown_game"``, ``params["game"]``)."""

    def __init__(self, slug: str) -> None:
        self.slug = slug
        super().__init__(
            "unknown_game", _("Unknown game: %(game)s.") % {"game": slug}, {"game": slug}
        )


class GameStartInputError(ValidationFailed):
    """The game-start input cannot be computed (bad side size, duplicate player name, bad number).

    ``code`` is one of ``invalid_game_start`` (default), ``bad_side_size``,
    ``missing_player_name``, ``duplicate_player_name``; ``message`` is a lazy translated string,
    safe to show.
    """

    def __init__(
        self,
        message: Any,
        code: str = "invalid_game_start",
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(code, message, params)
