"""People added by the organiser: a one-time claim code (shown to the organiser, printable) or an
e-mail invitation with a link, with which the person links the player to their account and then
sees their table and reports results like a self-registered player.

A code is one-time (cleared when claimed) and expires ``settings.HKK_CLAIM_CODE_LIFETIME`` after
it is made (30 days by default); asking for the code of a player whose code expired makes a new
one. Nobody claims a player of an event they staff (owner, co-organiser or judge): they would
judge their own matches. Guessing is throttled by the views (failed attempts per user and per
address, ``hkk_tournament.web.throttling``).

Sources: docs/rules.md §16 (Deck checks, penalties and result reporting: players report their
own matches).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import (
    Conflict,
    InvalidState,
    NotFound,
    PermissionDenied,
    ValidationFailed,
)
from hkk_tournament.mail import mail_delivers
from tournaments.models import Entry, EntryMember, Player, StaffRole, Tournament
from tournaments.permissions import can_manage, is_player_of_entry, require_manage
from tournaments.services._common import lock_tournament

#: Letters of a claim code: no 0/O, 1/I/L, so it can be read aloud and typed from paper.
CLAIM_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CLAIM_LENGTH = 8


def _new_code() -> str:
    return "".join(secrets.choice(CLAIM_ALPHABET) for _ in range(CLAIM_LENGTH))


def _member(tournament: Tournament, entry: Entry, player_id: int | None) -> Player:
    members = entry.members.select_related("player")
    member = (
        members.filter(player_id=player_id).first() if player_id is not None else members.first()
    )
    if member is None or entry.tournament_id != tournament.pk:
        raise NotFound("not_a_member", _("That player is not in this entry."), {})
    return member.player


def _code_valid(player: Player) -> bool:
    expires = player.claim_code_expires_at
    return bool(player.claim_code) and expires is not None and expires > timezone.now()


def _require_entry_keeper(actor: Any, entry: Entry) -> None:
    """The organisers of ``entry``'s event (or ``SYSTEM``), or a player of ``entry`` itself."""
    if not is_player_of_entry(actor, entry):
        require_manage(actor, entry.tournament)


@transaction.atomic
def player_claim_code(*, actor: Any, entry: Entry, player_id: int | None = None) -> Player:
    """Give the entry's player (seat A, or ``player_id``) a one-time claim code valid for
    ``settings.HKK_CLAIM_CODE_LIFETIME``, unless the player already has an account; an existing
    unexpired code is kept (it may be printed), an expired one is replaced.

    ``actor``: an organiser of the event, or a player of ``entry`` (who registered a pair
    partner by name and hands the partner the code).

    Raises ``Conflict("player_has_account")``, ``NotFound("not_a_member")``,
    ``PermissionDenied`` for anyone else.
    """
    _require_entry_keeper(actor, entry)
    tournament = lock_tournament(entry.tournament_id)
    player = _member(tournament, entry, player_id)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.user_id is not None:
        raise Conflict(
            "player_has_account",
            _("%(name)s already has an account.") % {"name": player.shown_name},
            {"player": player.pk},
        )
    if not _code_valid(player):
        player.claim_code = _new_code()
        player.claim_code_expires_at = timezone.now() + settings.HKK_CLAIM_CODE_LIFETIME
        player.save(update_fields=["claim_code", "claim_code_expires_at"])
    return player


@transaction.atomic
def player_claim_codes_all(*, actor: Any, tournament: Tournament | int) -> list[Player]:
    """Give every player of the event without an account a one-time claim code in one step
    (the codes of :func:`player_claim_code`: an unexpired code is kept, a missing or expired one
    is made new, valid for ``settings.HKK_CLAIM_CODE_LIFETIME``); players with an account are
    left alone. All under the event's lock, all or nothing.

    Returns the players without an account, by entry name and seat (each with its code).
    Raises ``PermissionDenied("not_organiser")`` unless ``actor`` organises the event (owner or
    co-organiser).
    """
    locked = lock_tournament(tournament if isinstance(tournament, int) else tournament.pk)
    if not can_manage(actor, locked):
        raise PermissionDenied(
            "not_organiser", _("Only the organisers of this tournament may change it."), {}
        )
    players = list(
        Player.objects.select_for_update(of=("self",))
        .filter(memberships__tournament=locked, user=None)
        .order_by("memberships__entry__name", "memberships__seat")
    )
    expires = timezone.now() + settings.HKK_CLAIM_CODE_LIFETIME
    renewed = [p for p in players if not _code_valid(p)]
    for player in renewed:
        player.claim_code = _new_code()
        player.claim_code_expires_at = expires
    Player.objects.bulk_update(renewed, ["claim_code", "claim_code_expires_at"])
    return players


def _refuse_staff(user: Any, tournaments: list[Tournament]) -> None:
    staffed = [t for t in tournaments if t.owner_id == user.pk]
    staffed_ids = set(
        StaffRole.objects.filter(tournament__in=tournaments, user_id=user.pk).values_list(
            "tournament_id", flat=True
        )
    )
    staffed += [t for t in tournaments if t.pk in staffed_ids]
    if staffed:
        raise PermissionDenied(
            "staff_cannot_claim",
            _("You organise or judge %(event)s, so you cannot play in it.")
            % {"event": staffed[0].name},
            {"tournament": staffed[0].pk},
        )


@transaction.atomic
def player_claim(*, user: Any, code: str) -> Player:
    """Link the player holding ``code`` to ``user`` (signed in); the code is used up. The user
    then sees the entry's table and reports results like a self-registered player.

    Takes the lock of every event the player plays in (the one staff appointments take), so a
    claim and an appointment of the same user cannot both succeed.

    Raises:
        NotFound: ``claim_code_unknown`` (no such code, or already used).
        InvalidState: ``claim_code_expired``.
        PermissionDenied: ``staff_cannot_claim`` (the user owns, co-organises or judges one of
            the player's events).
        Conflict: ``already_registered`` (the user already plays in that event).
    """
    code = "".join(str(code or "").upper().split())
    player = Player.objects.filter(claim_code=code).exclude(claim_code="").first() if code else None
    if player is None or player.user_id is not None:
        raise NotFound("claim_code_unknown", _("This code is not valid (or already used)."), {})
    event_ids = sorted(
        set(EntryMember.objects.filter(player=player).values_list("tournament_id", flat=True))
    )
    tournaments = [lock_tournament(pk) for pk in event_ids]  # in id order: no deadlock
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.claim_code != code or player.user_id is not None:
        raise NotFound("claim_code_unknown", _("This code is not valid (or already used)."), {})
    if not _code_valid(player):
        raise InvalidState(
            "claim_code_expired",
            _("This code has expired. Ask the organiser for a new one."),
            {},
        )
    _refuse_staff(user, tournaments)
    if EntryMember.objects.filter(tournament_id__in=event_ids, player__user=user).exists():
        raise Conflict(
            "already_registered",
            _("You already play in this tournament with your own entry."),
            {},
        )
    player.user = user
    player.claim_code = ""
    player.claim_code_expires_at = None
    if not player.email:
        player.email = getattr(user, "email", "") or ""
    player.save(update_fields=["user", "claim_code", "claim_code_expires_at", "email"])
    return player


def _refuse_without_mail() -> None:
    if not mail_delivers():
        raise InvalidState(
            "mail_unavailable",
            _("This server sends no e-mail. Give the player the code from the printable list."),
            {},
        )


def _invitation(tournament: Tournament, player: Player, claim_url: str) -> EmailMessage:
    """The invitation mail of ``player`` (with an e-mail address and a code) in the active
    language; ``claim_url`` is the absolute link with the code."""
    return EmailMessage(
        subject=gettext("Your entry in %(event)s") % {"event": tournament.name},
        body=gettext(
            "You are registered in %(event)s. Open this link, sign in or create an account, and "
            "the entry is yours: you will see your table and can report your results.\n\n"
            "%(url)s\n\nYour code: %(code)s"
        )
        % {"event": tournament.name, "url": claim_url, "code": player.claim_code},
        to=[player.email],
    )


def player_invite(
    *, actor: Any, entry: Entry, claim_url: str, player_id: int | None = None
) -> Player:
    """E-mail the entry's player (it needs an e-mail address) a link to claim the entry: the
    code is created when missing and ``claim_url`` (absolute, with the code) goes in the mail.

    Raises ``InvalidState("mail_unavailable")`` when this server delivers no mail
    (``hkk_tournament.mail.mail_delivers``: the code would only reach the log; the organiser
    hands it over from the printable list instead), ``ValidationFailed("email_missing")`` and
    the errors of :func:`player_claim_code` (who may: as there).
    """
    _require_entry_keeper(actor, entry)
    _refuse_without_mail()
    player = player_claim_code(actor=actor, entry=entry, player_id=player_id)
    if not player.email:
        raise ValidationFailed(
            "email_missing",
            _("%(name)s has no e-mail address.") % {"name": player.shown_name},
            {"player": player.pk},
        )
    _invitation(entry.tournament, player, claim_url).send()
    return player


@dataclass(frozen=True)
class InvitationCount:
    """What :func:`player_invite_all` did: ``sent`` invitations (one per player without an
    account who has an e-mail address), ``skipped`` players without an account and without an
    e-mail address (their codes are on the printable list)."""

    sent: int
    skipped: int


def player_invite_all(
    *, actor: Any, tournament: Tournament | int, claim_url: str
) -> InvitationCount:
    """Claim codes for every player of the event without an account
    (:func:`player_claim_codes_all`, in its own transaction) and then one invitation e-mail to
    each of them who has an address, all over one mail connection. ``claim_url`` is the
    absolute address of the claim page; each mail links ``<claim_url>?code=<code>``.

    Sending runs in the request: a venue's 64 players are 64 messages over one SMTP
    connection, seconds at most (no background job needed). A mail server that refuses
    midway leaves the codes made (the printable list shows them) and raises.

    Raises ``InvalidState("mail_unavailable")`` (this server delivers no mail) and the errors
    of :func:`player_claim_codes_all` (``PermissionDenied("not_organiser")``).
    """
    _refuse_without_mail()
    players = player_claim_codes_all(actor=actor, tournament=tournament)
    event = Tournament.objects.get(pk=tournament if isinstance(tournament, int) else tournament.pk)
    mails = [_invitation(event, p, f"{claim_url}?code={p.claim_code}") for p in players if p.email]
    if mails:
        with get_connection() as connection:
            connection.send_messages(mails)
    return InvitationCount(sent=len(mails), skipped=len(players) - len(mails))
