"""Who may see and change what in a tournament: one set of predicates, used by the
API, the pages and the services alike, always checked on the object (the tournament, the entry,
the match), never on login alone.

Roles, per tournament:

* **organiser**: the owner (``Tournament.owner``) and co-organisers (``StaffRole`` ``organiser``).
  Runs the event: registrations, deck overrides, rounds, publishing, drops. Only the owner
  appoints or removes staff.
* **judge**: ``StaffRole`` ``judge`` (organisers are judges too). Records and corrects results,
  sees every deck list of the event, runs deck checks, and sees the organisers' override notes.
  Nobody judges a match they play in (:func:`can_judge_match`): a staff member who also plays
  leaves their own table's result, die rolls and clock to another judge, and reports it as a
  player.
* **player**: a user whose ``Player`` sits in an entry of the event. Registers while registration
  is open, submits and replaces only their own list before the lock, reports their own results,
  sees their own matches.
* **anonymous / anyone else**: published pairings and standings of public events only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import NotAuthenticated, PermissionDenied

from hkk_tournament import errors
from tournaments.models import Entry, EntryMember, Match, Player, StaffRole, Tournament


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


def can_see_override_notes(user: Any, tournament: Tournament) -> bool:
    """The organisers' reasons for letting an entry play without a legal list
    (``Entry.pairing_override_reason``) are for the staff (organisers and judges) only; everyone
    else sees just that the entry plays by override."""
    return can_judge(user, tournament)


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


# --- list predicates and the remaining object checks ----------------------------------------


def deck_lists_visible(user: Any, tournament: Tournament) -> Callable[[int], bool]:
    """A predicate over entry ids of ``tournament``: may ``user`` see that entry's deck lists?
    The same rule as :func:`can_view_deck_lists_of`, with its queries done once for a list."""
    if can_judge(user, tournament):
        return lambda entry_id: True
    own = player_entry_ids(user, tournament)
    if tournament.decklists_published and own:
        return lambda entry_id: True
    return lambda entry_id: entry_id in own


def match_entry_ids_of_player(user: Any, match: Match) -> set[int]:
    """The entries of ``match`` (one at most) in which ``user`` plays."""
    if not _authenticated(user):
        return set()
    ids = [i for i in (match.entry_a_id, match.entry_b_id) if i is not None]
    return set(
        EntryMember.objects.filter(entry_id__in=ids, player__user_id=user.pk)
        .values_list("entry_id", flat=True)
        .distinct()
    )


def plays_in_match(user: Any, match: Match) -> bool:
    """True when ``user`` is a member of one of the two entries of ``match``."""
    return bool(match_entry_ids_of_player(user, match))


def can_judge_match(user: Any, match: Match) -> bool:
    """Judge powers on one match (record and correct its games, its slip, its die rolls, its
    players' reports, its table's time extension): a judge or organiser of the event who does
    not play in ``match``. Nobody judges their own match."""
    return can_judge(user, match.round.tournament) and not plays_in_match(user, match)


def refuse_own_match(user: Any, match: Match) -> None:
    """The check a service makes on its actor: ``user`` (``None`` for a system call: a
    command, a benchmark) must not play in ``match``.

    Raises:
        hkk_tournament.errors.PermissionDenied: ``own_match`` (403), params ``table``.
    """
    if user is not None and plays_in_match(user, match):
        raise errors.PermissionDenied(
            "own_match",
            _("You play at table %(table)s: another judge records and corrects its result.")
            % {"table": match.table},
            {"table": match.table},
        )


def require_judge_of_match(user: Any, match: Match) -> None:
    """DRF ``NotAuthenticated`` for anonymous users, ``PermissionDenied`` for anyone but the
    judges and organisers of the event, and ``own_match`` (:func:`refuse_own_match`) for one
    of them who plays in ``match``."""
    require_judge(user, match.round.tournament)
    refuse_own_match(user, match)


def require_owner(user: Any, tournament: Tournament) -> None:
    """``NotAuthenticated`` for anonymous users, ``PermissionDenied`` for anyone but the owner
    (appointing and removing staff)."""
    require_authenticated(user)
    if not can_appoint_staff(user, tournament):
        raise PermissionDenied(_("Only the owner of this tournament may do this."))


def require_deck_submitter(user: Any, entry: Entry, player: Player | None = None) -> None:
    """Organisers submit any member's list; a player only their own (``player`` is the member
    whose list changes; ``None``: the check before the member is resolved)."""
    require_authenticated(user)
    if can_manage(user, entry.tournament):
        return
    if not is_player_of_entry(user, entry) or (player is not None and player.user_id != user.pk):
        raise PermissionDenied(_("You may change only your own deck list."))


def require_player_of_match(user: Any, match: Match) -> int:
    """The id of ``user``'s entry in ``match``; ``PermissionDenied`` when they do not play in
    it (only the players report their own results)."""
    require_authenticated(user)
    ids = match_entry_ids_of_player(user, match)
    if not ids:
        raise PermissionDenied(_("You can report only the results of your own matches."))
    return min(ids)


def require_judge_or_player_of_match(user: Any, match: Match) -> None:
    """Judges of the event, and the two sides of ``match`` (its result reports)."""
    require_authenticated(user)
    if can_judge(user, match.round.tournament) or match_entry_ids_of_player(user, match):
        return
    raise PermissionDenied(_("Only the judges and the players of this match may see this."))


def require_deck_list_viewer(user: Any, entry: Entry) -> None:
    """``PermissionDenied`` unless :func:`can_view_deck_lists_of` (``NotAuthenticated`` for
    anonymous users)."""
    require_authenticated(user)
    if not can_view_deck_lists_of(user, entry):
        raise PermissionDenied(_("The deck lists of other players are not published yet."))
