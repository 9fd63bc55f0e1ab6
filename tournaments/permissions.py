"""Who may see and change what in a tournament (issue 4 §1): one set of predicates, used by the
API, the pages and the services alike, always checked on the object (the tournament, the entry,
the match), never on login alone.

Roles, per tournament:

* **organiser**: the owner (``Tournament.owner``) and co-organisers (``StaffRole`` ``organiser``).
  Runs the event: registrations, deck overrides, rounds, publishing, drops. Only the owner
  appoints or removes staff.
* **judge**: ``StaffRole`` ``judge`` (organisers are judges too). Records and corrects results,
  sees every deck list of the event, runs deck checks.
* **player**: a user whose ``Player`` sits in an entry of the event. Registers while registration
  is open, submits and replaces only their own list before the lock, reports their own results,
  sees their own matches.
* **anonymous / anyone else**: published pairings and standings of public events only.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import NotAuthenticated, PermissionDenied

from tournaments.models import Entry, EntryMember, StaffRole, Tournament


def _authenticated(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated)


def _staff_role(user: Any, tournament: Tournament) -> str | None:
    if not _authenticated(user):
        return None
    cache = getattr(user, "_hkk_staff_roles", None)
    if cache is None:
        cache = {}
        user._hkk_staff_roles = cache
    if tournament.pk not in cache:
        cache[tournament.pk] = (
            StaffRole.objects.filter(tournament_id=tournament.pk, user_id=user.pk)
            .values_list("role", flat=True)
            .first()
        )
    return cache[tournament.pk]


def is_owner(user: Any, tournament: Tournament) -> bool:
    """True when ``user`` is the authenticated owner of ``tournament``."""
    return bool(
        _authenticated(user) and tournament.owner_id is not None and tournament.owner_id == user.pk
    )


def can_manage(user: Any, tournament: Tournament) -> bool:
    """Organiser powers: the owner or a co-organiser (``StaffRole.Role.ORGANISER``)."""
    return is_owner(user, tournament) or _staff_role(user, tournament) == StaffRole.Role.ORGANISER


def can_appoint_staff(user: Any, tournament: Tournament) -> bool:
    """Only the owner appoints and removes co-organisers and judges."""
    return is_owner(user, tournament)


def can_judge(user: Any, tournament: Tournament) -> bool:
    """Judge powers (record and correct results, see every list, deck checks): organisers and
    judges of this tournament."""
    return can_manage(user, tournament) or _staff_role(user, tournament) == StaffRole.Role.JUDGE


def player_entry_ids(user: Any, tournament: Tournament) -> set[int]:
    """Ids of the entries of ``tournament`` in which ``user`` plays (a pair team counts for both
    members); empty for anonymous users and non-players."""
    if not _authenticated(user):
        return set()
    return set(
        EntryMember.objects.filter(tournament_id=tournament.pk, player__user_id=user.pk)
        .values_list("entry_id", flat=True)
        .distinct()
    )


def is_player_of_entry(user: Any, entry: Entry) -> bool:
    """True when ``user`` is one of the members of ``entry``."""
    return _authenticated(user) and entry.members.filter(player__user_id=user.pk).exists()


def can_view_tournament(user: Any, tournament: Tournament) -> bool:
    """Public events are visible to everyone; private ones to staff and their players."""
    if tournament.is_public:
        return True
    return can_judge(user, tournament) or bool(player_entry_ids(user, tournament))


def can_view_deck_lists_of(user: Any, entry: Entry) -> bool:
    """Deck lists: staff always; the entry's own players always; other players of the event only
    once the organiser published the lists (``Tournament.decklists_published``)."""
    tournament = entry.tournament
    if can_judge(user, tournament) or is_player_of_entry(user, entry):
        return True
    return tournament.decklists_published and bool(player_entry_ids(user, tournament))


def require_authenticated(user: Any) -> None:
    """DRF ``NotAuthenticated`` (401/403) for an anonymous user."""
    if not _authenticated(user):
        raise NotAuthenticated()


def require_manage(user: Any, tournament: Tournament) -> None:
    """DRF ``NotAuthenticated`` for anonymous users, ``PermissionDenied`` (403) for anyone but
    the organisers."""
    require_authenticated(user)
    if not can_manage(user, tournament):
        raise PermissionDenied(_("Only the organisers of this tournament may change it."))


def require_judge(user: Any, tournament: Tournament) -> None:
    """DRF ``NotAuthenticated`` for anonymous users, ``PermissionDenied`` for anyone but the
    organisers and judges of ``tournament``."""
    require_authenticated(user)
    if not can_judge(user, tournament):
        raise PermissionDenied(_("Only the judges of this tournament may do this."))
