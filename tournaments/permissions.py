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
* **the system** (:data:`SYSTEM`): management commands, Celery tasks, data restores and
  benchmarks act as ``SYSTEM``, which passes every ``require_*`` check and holds no role in the
  ``can_*`` predicates (it sees nothing on a page). Nothing else does: a service never treats
  ``None`` as "anyone".

Who decides: every service that changes state takes the acting user as ``actor`` (keyword-only,
no default) and calls one ``require_*`` check below before it writes; the check raises
:class:`hkk_tournament.errors.PermissionDenied` (403, code ``permission_denied`` or
``own_match``), which the API's exception handler and the pages' error middleware render. API
views and pages never import this module (an import-linter contract in ``pyproject.toml``):
they show or hide controls and gate reads through :mod:`tournaments.access`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from django.utils.translation import gettext_lazy as _

from hkk_tournament import errors
from tournaments.models import Entry, EntryMember, Match, Player, Round, StaffRole, Tournament


class SystemActor:
    """The actor of management commands, Celery tasks, restores and benchmarks: not a user, no
    role in any ``can_*`` predicate, but allowed by every ``require_*`` check. Use the one
    instance :data:`SYSTEM`; rows recording who acted store ``None`` for it (:func:`acting_user`).
    """

    pk = None
    is_authenticated = False
    is_anonymous = False

    def __repr__(self) -> str:
        return "SYSTEM"


#: The explicit system actor (see :class:`SystemActor`).
SYSTEM: Final = SystemActor()


class OnBehalfOf:
    """The actor a service passes to another service after it checked its own actor under a
    different rule: two matching player reports record their games through ``game_record``,
    whose own check is for judges. Passes every ``require_*`` check; rows store ``user``.
    Only services and the tasks they enqueue (after checking the actor) make one
    (:func:`on_behalf_of`); API views and pages cannot import this module."""

    is_authenticated = False
    is_anonymous = False

    def __init__(self, user: Any) -> None:
        self.user = user
        self.pk = getattr(user, "pk", None)


def on_behalf_of(actor: Any) -> OnBehalfOf:
    """``actor``, already checked by the calling service, for a nested service call."""
    return OnBehalfOf(acting_user(actor))


def _trusted(actor: Any) -> bool:
    return actor is SYSTEM or isinstance(actor, OnBehalfOf)


def acting_user(actor: Any) -> Any:
    """The user to store as the one who acted (``TournamentAction.by``, ``Game.recorded_by`` …):
    ``actor`` itself (the user behind :class:`OnBehalfOf`), ``None`` for :data:`SYSTEM` or an
    anonymous user."""
    if isinstance(actor, OnBehalfOf):
        return actor.user
    if actor is SYSTEM or not _authenticated(actor):
        return None
    return actor


def _denied(message: Any) -> errors.PermissionDenied:
    return errors.PermissionDenied("permission_denied", message)


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
            .order_by("pk")  # one row at most; the default ordering would join the event
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
        .order_by()  # the default ordering would join the entry and the event for nothing
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


def require_manage(user: Any, tournament: Tournament) -> None:
    """The organisers of ``tournament`` (or :data:`SYSTEM`).

    Raises:
        hkk_tournament.errors.PermissionDenied: ``permission_denied`` (403) for anyone else,
            anonymous users included.
    """
    if not _trusted(user) and not can_manage(user, tournament):
        raise _denied(_("Only the organisers of this tournament may change it."))


def require_judge(user: Any, tournament: Tournament) -> None:
    """The organisers and judges of ``tournament`` (or :data:`SYSTEM`).

    Raises:
        hkk_tournament.errors.PermissionDenied: ``permission_denied`` (403) for anyone else.
    """
    if not _trusted(user) and not can_judge(user, tournament):
        raise _denied(_("Only the judges of this tournament may do this."))


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
        .order_by()  # the default ordering would join the entry and the event for nothing
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
    """The check a service makes on its actor: ``user`` (:data:`SYSTEM` for a command, a task
    or a benchmark) must not play in ``match``.

    Raises:
        hkk_tournament.errors.PermissionDenied: ``own_match`` (403), params ``table``.
    """
    if not _trusted(user) and plays_in_match(user, match):
        raise errors.PermissionDenied(
            "own_match",
            _("You play at table %(table)s: another judge records and corrects its result.")
            % {"table": match.table},
            {"table": match.table},
        )


def require_judge_of_match(user: Any, match: Match) -> None:
    """The judges and organisers of the event who do not play in ``match`` (or :data:`SYSTEM`).

    Raises:
        hkk_tournament.errors.PermissionDenied: ``permission_denied`` for anyone but the judges,
            ``own_match`` (:func:`refuse_own_match`) for one of them who plays in ``match``.
    """
    if _trusted(user):
        return
    require_judge(user, match.round.tournament)
    refuse_own_match(user, match)


def require_owner(user: Any, tournament: Tournament) -> None:
    """The owner (appointing and removing staff), or :data:`SYSTEM`.

    Raises:
        hkk_tournament.errors.PermissionDenied: ``permission_denied`` for anyone else.
    """
    if not _trusted(user) and not can_appoint_staff(user, tournament):
        raise _denied(_("Only the owner of this tournament may do this."))


def require_deck_submitter(user: Any, entry: Entry, player: Player | None = None) -> None:
    """Organisers submit any member's list; a player only their own (``player`` is the member
    whose list changes; ``None``: the check before the member is resolved).

    Raises:
        hkk_tournament.errors.PermissionDenied: ``permission_denied`` for anyone else.
    """
    if _trusted(user) or can_manage(user, entry.tournament):
        return
    if not is_player_of_entry(user, entry) or (player is not None and player.user_id != user.pk):
        raise _denied(_("You may change only your own deck list."))


def require_player_of_match(user: Any, match: Match) -> int:
    """The id of ``user``'s entry in ``match`` (only the players report their own results).

    Raises:
        hkk_tournament.errors.PermissionDenied: ``permission_denied`` when ``user`` does not
            play in ``match``.
    """
    ids = match_entry_ids_of_player(user, match)
    if not ids:
        raise _denied(_("You can report only the results of your own matches."))
    return min(ids)


def require_reporter(user: Any, match: Match, entry_id: int) -> None:
    """A result report for ``entry_id``'s side of ``match``: a member of that entry, or
    :data:`SYSTEM`.

    Raises:
        hkk_tournament.errors.PermissionDenied: ``permission_denied`` for anyone else (another
            table's player, the opponent, a judge, anonymous users).
    """
    if not _trusted(user) and entry_id not in match_entry_ids_of_player(user, match):
        raise _denied(_("You can report only the results of your own matches."))


def require_clock_change(user: Any, rnd: Round, match: Match | None) -> None:
    """The round clock: start, pause, resume and extend the whole round are the organisers';
    extending one table (``match``) is any judge's of the event who does not play in it.

    Raises:
        hkk_tournament.errors.PermissionDenied: ``permission_denied`` without the role,
            ``own_match`` for a judge's own table.
    """
    if match is None:
        require_manage(user, rnd.tournament)
    else:
        require_judge_of_match(user, match)


def require_judge_or_player_of_match(user: Any, match: Match) -> None:
    """Judges of the event, and the two sides of ``match`` (its result reports).

    Raises:
        hkk_tournament.errors.PermissionDenied: ``permission_denied`` for anyone else.
    """
    if can_judge(user, match.round.tournament) or match_entry_ids_of_player(user, match):
        return
    raise _denied(_("Only the judges and the players of this match may see this."))


def require_deck_list_viewer(user: Any, entry: Entry) -> None:
    """Whoever :func:`can_view_deck_lists_of` ``entry``.

    Raises:
        hkk_tournament.errors.PermissionDenied: ``permission_denied`` for anyone else.
    """
    if not can_view_deck_lists_of(user, entry):
        raise _denied(_("The deck lists of other players are not published yet."))
