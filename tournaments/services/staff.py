"""Per-tournament staff (co-organisers, judges) and players' self-registration.

Callers check the role first (``tournaments.permissions``: only the owner appoints or removes
staff; any signed-in user may register themselves). These services check the state and the
data, lock the tournament row like every other tournament write, and raise the typed errors
of ``hkk_tournament.errors``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import Conflict, InvalidState, NotFound, ValidationFailed
from tournaments.models import Entry, EntryMember, Player, StaffRole, Tournament
from tournaments.models.entries import name_from_text
from tournaments.permissions import acting_user, require_owner
from tournaments.services._common import lock_tournament
from tournaments.services.registration import add_entry, late_entry_round, require_kind

S = Tournament.Status


def _require_email(email: str) -> None:
    if email.strip():
        try:
            validate_email(email.strip())
        except DjangoValidationError:
            raise ValidationFailed(
                "invalid_value",
                _("This is not a valid e-mail address."),
                {"field": "partner_email"},
                fields={"partner_email": [_("This is not a valid e-mail address.")]},
            ) from None


def _require_user(user: Any, field: str) -> None:
    if user is None or not getattr(user, "is_authenticated", False) or not user.pk:
        raise ValidationFailed(
            "user_required", _("A registered user account is needed."), {"field": field}
        )


@transaction.atomic
def staff_appoint(*, tournament: Tournament, user: Any, role: str, actor: Any) -> StaffRole:
    """Make ``user`` a co-organiser (``role="organiser"``) or judge (``"judge"``) of
    ``tournament``; an existing appointment of the user changes to ``role``.

    The owner already has every power and cannot be appointed. ``by`` is recorded as
    ``appointed_by`` (the caller checks it is the owner: ``permissions.can_appoint_staff``).

    Raises:
        ValidationFailed: ``invalid_role``, ``user_required``, ``owner_is_organiser``.
    """
    require_owner(actor, tournament)
    tournament = lock_tournament(tournament)
    if role not in StaffRole.Role.values:
        raise ValidationFailed(
            "invalid_role",
            _("Unknown role: %(role)s.") % {"role": role},
            {"role": role, "allowed": list(StaffRole.Role.values)},
        )
    _require_user(user, "user")
    if tournament.owner_id == user.pk:
        raise ValidationFailed(
            "owner_is_organiser",
            _("The owner already organises this tournament."),
            {"user": user.pk},
        )
    staff, created = StaffRole.objects.select_for_update().get_or_create(
        tournament=tournament,
        user=user,
        defaults={"role": role, "appointed_by": acting_user(actor)},
    )
    if not created and staff.role != role:
        staff.role = role
        staff.appointed_by = acting_user(actor)
        staff.save(update_fields=["role", "appointed_by"])
    return staff


@transaction.atomic
def staff_remove(*, tournament: Tournament, user: Any, actor: Any) -> None:
    """Remove ``user``'s co-organiser or judge role in ``tournament`` (``by``: the owner, checked
    by the caller).

    Raises ``NotFound("staff_not_found")`` when the user has no role there.
    """
    require_owner(actor, tournament)
    tournament = lock_tournament(tournament)
    deleted, _rows = StaffRole.objects.filter(
        tournament=tournament, user_id=getattr(user, "pk", user)
    ).delete()
    if not deleted:
        raise NotFound(
            "staff_not_found",
            _("That user is not on the staff of this tournament."),
            {"user": getattr(user, "pk", user)},
        )


def _name_parts(user: Any) -> dict[str, str]:
    """The player's name from the account: family name = ``last_name``, given name =
    ``first_name`` (the sign-up asks both); the username when both are empty."""
    family = (getattr(user, "last_name", "") or "").strip()
    given = (getattr(user, "first_name", "") or "").strip()
    if family or given:
        return {"family_name": family, "given_name": given}
    return {"display_name": user.get_username()}


def player_for_user(user: Any) -> Player:
    """The user's :class:`Player` (the oldest linked one), created with the user's full name
    (or username) and e-mail when there is none. Needs an open transaction."""
    player = Player.objects.filter(user=user).order_by("id").first()
    if player is None:
        player = Player.objects.create(
            **_name_parts(user), user=user, email=getattr(user, "email", "") or ""
        )
    return player


@transaction.atomic
def entry_self_register(
    *,
    tournament: Tournament,
    user: Any,
    partner: Any = None,
    name: str = "",
    partner_name: str = "",
    partner_email: str = "",
) -> Entry:
    """A signed-in player registers themselves while registration is open (or, late, while the
    event runs).

    While the tournament is in ``registration`` the entry plays from round 1; while it is
    ``running`` the late-entry rules apply (the next round must not be after
    ``late_entry_cutoff_round``, else ``late_entry_closed``). The user's :class:`Player` is
    linked (created when missing, named after the user's full name or username). A pair event
    needs ``partner``, another ``User`` (seat B; the caller sits in seat A), or, for a
    partner without an account (or whose username the caller does not know), ``partner_name``
    (split in the active language's order) and optionally ``partner_email``: seat B is then a
    new player without an account with a one-time claim code (``people.player_claim_code``),
    which the caller hands over or the page mails as an invitation. ``name`` defaults to the
    player's name, or "A & B" for a team.

    Raises:
        InvalidState: ``registration_closed`` (draft or finished), ``late_entry_closed``.
        ValidationFailed: ``invalid_value`` (``partner_email``), ``user_required``,
            ``wrong_entry_kind`` (a partner in a single-player
            event), ``pair_needs_two_players`` (no partner, or the partner is the user).
        Conflict: ``already_registered`` (the user or the partner is in an entry already).
    """
    tournament = lock_tournament(tournament)
    _require_user(user, "user")
    if tournament.status == S.REGISTRATION:
        registered_round = 1
    elif tournament.status == S.RUNNING:
        registered_round = late_entry_round(tournament)
    else:
        raise InvalidState(
            "registration_closed",
            _("Registration for this tournament is not open."),
            {"status": tournament.status},
        )
    guest = partner is None and bool(partner_name.strip())
    if tournament.is_pair and not guest:
        if partner is None or getattr(partner, "pk", None) == user.pk:
            raise ValidationFailed(
                "pair_needs_two_players",
                _("A pair team has exactly two players, in seats A and B."),
                {"field": "partner"},
            )
        _require_user(partner, "partner")
    elif partner is not None or guest:
        require_kind(tournament, Tournament.Kind.PAIR)
    players = [player_for_user(user)]
    if partner is not None:
        players.append(player_for_user(partner))
    elif guest:
        _require_email(partner_email)
        parts = name_from_text(partner_name)
        players.append(
            Player.objects.create(
                family_name=parts.family, given_name=parts.given, email=partner_email.strip()
            )
        )
    taken = EntryMember.objects.filter(tournament=tournament, player__in=players)
    if taken.exists():
        mine = taken.filter(player=players[0]).exists()
        raise Conflict(
            "already_registered",
            _("You are already registered for this tournament.")
            if mine
            else _("Your partner is already registered for this tournament."),
            {"players": sorted(taken.values_list("player_id", flat=True))},
        )
    entry_name = (name or "").strip() or " & ".join(p.display_name for p in players)
    return add_entry(tournament, entry_name, players, registered_round)
