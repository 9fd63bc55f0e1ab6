"""Who may change a tournament (issue 3: "owners only may change their tournament"; full roles
come with issue 4). One predicate, used by the API and the pages alike.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import NotAuthenticated, PermissionDenied

from tournaments.models import Tournament


def can_manage(user: Any, tournament: Tournament) -> bool:
    """True when ``user`` is the authenticated owner of ``tournament``."""
    return bool(
        user is not None
        and user.is_authenticated
        and tournament.owner_id is not None
        and tournament.owner_id == user.pk
    )


def require_authenticated(user: Any) -> None:
    """DRF ``NotAuthenticated`` (401/403) for an anonymous user."""
    if user is None or not user.is_authenticated:
        raise NotAuthenticated()


def require_manage(user: Any, tournament: Tournament) -> None:
    """DRF ``NotAuthenticated`` for anonymous users, ``PermissionDenied`` (403) for anyone but
    the owner."""
    require_authenticated(user)
    if not can_manage(user, tournament):
        raise PermissionDenied(_("Only the organiser of this tournament may change it."))
