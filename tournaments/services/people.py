"""People added by the organiser: a one-time claim code (shown to the organiser, printable) or an
e-mail invitation with a link, with which the person links the player to their account and then
sees their table and reports results like a self-registered player.

Sources: docs/rules.md §16 (Deck checks, penalties and result reporting: players report their
own matches).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.core.mail import send_mail
from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import Conflict, NotFound, ValidationFailed
from tournaments.models import Entry, EntryMember, Player, Tournament
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


@transaction.atomic
def player_claim_code(*, entry: Entry, player_id: int | None = None) -> Player:
    """Give the entry's player (seat A, or ``player_id``) a one-time claim code, unless the
    player already has an account; an existing unused code is kept (it may be printed).

    Raises ``Conflict("player_has_account")``, ``NotFound("not_a_member")``.
    """
    tournament = lock_tournament(entry.tournament_id)
    player = _member(tournament, entry, player_id)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.user_id is not None:
        raise Conflict(
            "player_has_account",
            _("%(name)s already has an account.") % {"name": player.display_name},
            {"player": player.pk},
        )
    if not player.claim_code:
        player.claim_code = _new_code()
        player.save(update_fields=["claim_code"])
    return player


@transaction.atomic
def player_claim(*, user: Any, code: str) -> Player:
    """Link the player holding ``code`` to ``user`` (signed in); the code is used up. The user
    then sees the entry's table and reports results like a self-registered player.

    Raises:
        NotFound: ``claim_code_unknown``.
        Conflict: ``already_registered`` (the user already plays in that event).
    """
    code = "".join(str(code or "").upper().split())
    player = (
        Player.objects.select_for_update().filter(claim_code=code).exclude(claim_code="").first()
    )
    if player is None or player.user_id is not None:
        raise NotFound("claim_code_unknown", _("This code is not valid (or already used)."), {})
    events = EntryMember.objects.filter(player=player).values_list("tournament_id", flat=True)
    if EntryMember.objects.filter(tournament_id__in=list(events), player__user=user).exists():
        raise Conflict(
            "already_registered",
            _("You already play in this tournament with your own entry."),
            {},
        )
    player.user = user
    player.claim_code = ""
    if not player.email:
        player.email = getattr(user, "email", "") or ""
    player.save(update_fields=["user", "claim_code", "email"])
    return player


def player_invite(*, entry: Entry, claim_url: str, player_id: int | None = None) -> Player:
    """E-mail the entry's player (it needs an e-mail address) a link to claim the entry: the
    code is created when missing and ``claim_url`` (absolute, with the code) goes in the mail.

    Raises ``ValidationFailed("email_missing")`` and the errors of :func:`player_claim_code`.
    """
    player = player_claim_code(entry=entry, player_id=player_id)
    if not player.email:
        raise ValidationFailed(
            "email_missing",
            _("%(name)s has no e-mail address.") % {"name": player.display_name},
            {"player": player.pk},
        )
    tournament = entry.tournament
    send_mail(
        subject=gettext("Your entry in %(event)s") % {"event": tournament.name},
        message=gettext(
            "You are registered in %(event)s. Open this link, sign in or create an account, and "
            "the entry is yours: you will see your table and can report your results.\n\n"
            "%(url)s\n\nYour code: %(code)s"
        )
        % {"event": tournament.name, "url": claim_url, "code": player.claim_code},
        from_email=None,
        recipient_list=[player.email],
    )
    return player
