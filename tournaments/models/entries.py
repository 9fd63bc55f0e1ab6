"""Players and entries: a single player or a pair team in fixed seats A and B
(docs/rules.md §7 (HKK pair tournaments), §14 (Swiss pairing and byes))."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.domain.names import normalise_name
from tournaments.models.tournament import Tournament

#: Longest stored name key (a key longer than this is cut, the same way on both sides).
NAME_KEY_LENGTH = 240


def name_key(name: str) -> str:
    """The stored duplicate-check key of a person or entry name:
    :func:`tournaments.domain.names.normalise_name` (casefolded, accents removed, spaces
    collapsed), cut to :data:`NAME_KEY_LENGTH` characters."""
    return normalise_name(name or "")[:NAME_KEY_LENGTH]


def _with_key(update_fields: Any, source: str) -> Any:
    """``update_fields`` plus ``name_key`` when it names ``source`` (the key follows it)."""
    if update_fields is not None and source in update_fields:
        return {*update_fields, "name_key"}
    return update_fields


class Player(models.Model):
    """A person who plays; optionally linked to a user account."""

    display_name = models.CharField(_("display name"), max_length=120)
    #: :func:`name_key` of ``display_name``, set on every save (the duplicate check's index).
    name_key = models.CharField(
        _("name key"), max_length=NAME_KEY_LENGTH, editable=False, default=""
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    email = models.EmailField(_("e-mail"), blank=True)
    claim_code = models.CharField(
        _("claim code"),
        max_length=16,
        blank=True,
        db_index=True,
        help_text=_("One-time code with which the person links this player to an account."),
    )
    claim_code_expires_at = models.DateTimeField(
        _("claim code expires at"),
        null=True,
        blank=True,
        help_text=_("After this moment the claim code is refused; the organiser makes a new one."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["display_name", "id"]
        indexes = [models.Index(fields=["name_key"], name="player_name_key")]

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, keeping ``name_key`` in step with ``display_name``."""
        self.name_key = name_key(self.display_name)
        kwargs["update_fields"] = _with_key(kwargs.get("update_fields"), "display_name")
        super().save(*args, **kwargs)


class Entry(models.Model):
    """A participant of one tournament: a single player, or a pair team (seats A and B).

    ``registered_round``: the first round the entry can be paired in (1 for normal
    registration; later for a late entry, which joins with zero points).
    ``dropped_after_round``: the entry is not paired after this round (0 = dropped before the
    event began); a team drops as one (docs/rules.md §7 (HKK pair tournaments), §14 (Swiss
    pairing and byes); Magic Tournament Rules 8.2).
    ``pairing_override_reason``: the organiser lets the entry be paired without a legal list.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="entries"
    )
    name = models.CharField(_("name"), max_length=200)
    #: :func:`name_key` of ``name``, set on every save (the duplicate check's index).
    name_key = models.CharField(
        _("name key"), max_length=NAME_KEY_LENGTH, editable=False, default=""
    )
    registered_round = models.PositiveSmallIntegerField(_("registered for round"), default=1)
    dropped_after_round = models.PositiveSmallIntegerField(
        _("dropped after round"), null=True, blank=True
    )
    pairing_override_reason = models.TextField(_("deck override reason"), blank=True)
    pairing_override_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("deck override by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    pairing_override_at = models.DateTimeField(_("deck override at"), null=True, blank=True)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "id"]
        indexes = [
            models.Index(fields=["tournament", "name_key"], name="entry_tournament_name_key")
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, keeping ``name_key`` in step with ``name``."""
        self.name_key = name_key(self.name)
        kwargs["update_fields"] = _with_key(kwargs.get("update_fields"), "name")
        super().save(*args, **kwargs)

    def is_active_for_round(self, number: int) -> bool:
        """May this entry be paired in round ``number`` (registered, not yet dropped)?"""
        if self.registered_round > number:
            return False
        return self.dropped_after_round is None or self.dropped_after_round >= number


class EntryMember(models.Model):
    """A player in a fixed seat of an entry: ``A`` (a single entry has only A), or A and B.

    ``tournament`` repeats ``entry.tournament`` so the database can refuse the same player
    in two entries of one event.
    """

    class Seat(models.TextChoices):
        A = "A", "A"
        B = "B", "B"

    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="members"
    )
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="+"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="memberships"
    )
    seat = models.CharField(_("seat"), max_length=1, choices=Seat)

    class Meta:
        verbose_name = _("entry member")
        verbose_name_plural = _("entry members")
        ordering = ["entry", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "seat"], name="entrymember_one_per_seat"),
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entrymember_player_once_per_tournament"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry} ({self.seat}): {self.player}"
