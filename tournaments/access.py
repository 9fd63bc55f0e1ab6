"""The role facts API views and pages may use: the one module of ``tournaments.permissions``
they import (an import-linter contract in ``pyproject.toml`` keeps them from importing the
predicates themselves).

Two kinds of use, neither a decision about a write:

* **showing controls**: the ``can_*`` booleans and :func:`player_entry_ids` decide which buttons,
  notes and lists a page or an API body shows; the service behind each button checks its actor
  again and refuses (403) on its own.
* **gating reads** with no service behind them: :func:`require_role` (the coarse role of a
  tournament, also the early 403 of a write before its input is read),
  :func:`require_report_reader`, :func:`require_deck_list_reader` and
  :func:`require_match_screen`.

Writes are decided in the services (``tournaments/services``): each takes ``actor`` and calls
the matching ``tournaments.permissions.require_*`` check.
"""

from __future__ import annotations

from typing import Any, Literal

from tournaments.models import Entry, Match, Tournament
from tournaments.permissions import (
    can_appoint_staff,
    can_judge,
    can_manage,
    can_see_override_notes,
    can_view_deck_lists_of,
    can_view_tournament,
    deck_lists_visible,
    is_player_of_entry,
    match_entry_ids_of_player,
    player_entry_ids,
    require_deck_list_viewer,
    require_judge,
    require_judge_of_match,
    require_judge_or_player_of_match,
    require_manage,
    require_owner,
)

__all__ = [
    "can_appoint_staff",
    "can_judge",
    "can_manage",
    "can_see_override_notes",
    "can_view_deck_lists_of",
    "can_view_tournament",
    "deck_lists_visible",
    "is_player_of_entry",
    "own_entry_in_match",
    "player_entry_ids",
    "require_deck_list_reader",
    "require_match_screen",
    "require_report_reader",
    "require_role",
]

#: The roles :func:`require_role` knows: organiser powers, judge powers, the owner.
Role = Literal["manage", "judge", "owner"]

_CHECKS = {"manage": require_manage, "judge": require_judge, "owner": require_owner}


def own_entry_in_match(user: Any, match: Match) -> int | None:
    """The id of ``user``'s entry in ``match`` (the side a result report is for), or ``None``
    when ``user`` does not play in it (``services.result_report_submit`` then refuses)."""
    ids = match_entry_ids_of_player(user, match)
    return min(ids) if ids else None


def require_role(user: Any, tournament: Tournament, role: Role) -> None:
    """The one read gate on a tournament: ``user`` holds ``role`` in ``tournament``.

    Raises:
        hkk_tournament.errors.PermissionDenied: ``permission_denied`` (403) otherwise.
    """
    _CHECKS[role](user, tournament)


def require_report_reader(user: Any, match: Match) -> None:
    """The result reports of ``match``: its judges and its two sides.

    Raises:
        hkk_tournament.errors.PermissionDenied: ``permission_denied`` for anyone else.
    """
    require_judge_or_player_of_match(user, match)


def require_deck_list_reader(user: Any, entry: Entry) -> None:
    """The deck lists of ``entry``: staff, its players, the event's players once published.

    Raises:
        hkk_tournament.errors.PermissionDenied: ``permission_denied`` for anyone else.
    """
    require_deck_list_viewer(user, entry)


def require_match_screen(user: Any, match: Match) -> None:
    """The judge's result screen of ``match``: the event's judges who do not play in it.

    Raises:
        hkk_tournament.errors.PermissionDenied: ``permission_denied`` without the role,
            ``own_match`` for a judge's own table.
    """
    require_judge_of_match(user, match)
