"""Read model of users and their roles in a tournament: the one user lookup (by username,
case-insensitive like sign-in, or by id), the staff of an event and a user's roles. No writes.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import NotFound
from tournaments.models import StaffRole, Tournament
from tournaments.permissions import can_judge, can_manage, is_owner, player_entry_ids


def user_find(*, username: str | None = None, user_id: int | None = None) -> Any:
    """The active user with ``user_id``, or else called ``username`` (case-insensitive,
    surrounding spaces ignored); ``None`` when there is none."""
    users = get_user_model().objects.filter(is_active=True)
    if user_id is not None:
        return users.filter(pk=user_id).first()
    field = get_user_model().USERNAME_FIELD
    name = (username or "").strip()
    if not name:
        return None
    return users.filter(**{f"{field}__iexact": name}).order_by("id").first()


def user_get(*, username: str | None = None, user_id: int | None = None) -> Any:
    """:func:`user_find`, or ``NotFound("user_not_found")`` when there is no such user."""
    user = user_find(username=username, user_id=user_id)
    if user is None:
        raise NotFound(
            "user_not_found",
            _("No such user."),
            {"username": username} if user_id is None else {"user": user_id},
        )
    return user


def staff_list(*, tournament: Tournament) -> list[StaffRole]:
    """Co-organisers and judges of ``tournament`` with their users, by role code (``judge``
    before ``organiser``) and then username."""
    return list(
        tournament.staff.select_related("user", "appointed_by").order_by("role", "user__username")
    )


def my_roles(*, tournament: Tournament, user: Any) -> list[str]:
    """``user``'s roles in ``tournament``: any of ``owner``, ``organiser``, ``judge``,
    ``player`` (an owner is also ``organiser`` and ``judge``)."""
    roles = []
    if is_owner(user, tournament):
        roles.append("owner")
    if can_manage(user, tournament):
        roles.append("organiser")
    if can_judge(user, tournament):
        roles.append("judge")
    if player_entry_ids(user, tournament):
        roles.append("player")
    return roles
