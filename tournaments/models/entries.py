"""Players and entries: a single player or a pair team in fixed seats A and B
(docs/rules.md §7 (HKK pair tournaments), §14 (Swiss pairing and byes))."""

from __future__ import annotations

from typing import Any, Self

from django.conf import settings
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from tournaments.domain.names import PersonName, family_first, normalise_name, split_name
from tournaments.models.tournament import Tournament

#: Longest stored name key (a key longer than this is cut, the same way on both sides).
NAME_KEY_LENGTH = 240


def name_key(name: str) -> str:
    """The stored duplicate-check key of a person or entry name:
    :func:`tournaments.domain.names.normalise_name` (casefolded, accents removed, spaces
    collapsed), cut to :data:`NAME_KEY_LENGTH` characters."""
    return normalise_name(name or "")[:NAME_KEY_LENGTH]


def _with_key(update_fields: Any, source: str) -> Any:
    """``update_fields`` plus the fields that follow ``source`` (``name_key``, and the name
    parts and the stored name) when it names ``source`` or a name part."""
    if update_fields is None:
        return None
    names = {source, "family_name", "given_name"}
    if names & set(update_fields):
        return {*update_fields, *names, "name_key"}
    return update_fields


def names_family_first() -> bool:
    """Whether the active language writes the family name first (Hungarian, the default:
    ``tournaments.domain.names.family_first``)."""
    return family_first(get_language())


def person_name(family: str, given: str, fallback: str = "") -> str:
    """The one formatting of a person's name: ``family`` and ``given`` in the active language's
    order (Hungarian "Kovács Anna", English "Anna Kovács"); ``fallback`` (a team name, a name
    stored in one string) when both parts are empty. Used by pages, printouts, API display
    fields and CSV exports alike."""
    if not family and not given:
        return fallback
    return PersonName(family, given).shown(family_first=names_family_first())


def name_from_text(text: str) -> PersonName:
    """A name typed or imported as one string, split in the active language's order
    (``tournaments.domain.names.split_name``)."""
    return split_name(text or "", family_first=names_family_first())


class _NamedPerson(models.Model):
    """A stored name in two parts (family, given) beside its stored one-string form ``field``
    (family name first), kept in step on save: the parts win when set; otherwise the string is
    split family first (the stored order)."""

    family_name = models.CharField(_("family name"), max_length=120, blank=True, default="")
    given_name = models.CharField(_("given name"), max_length=120, blank=True, default="")

    NAME_FIELD = "name"

    class Meta:
        abstract = True

    @classmethod
    def from_db(cls, *args: Any, **kwargs: Any) -> Self:
        """Load, remembering the stored name and its parts (:meth:`_sync_name` sees which of
        them changed)."""
        instance = super().from_db(*args, **kwargs)
        instance._loaded = instance._name_state()
        return instance

    def _name_state(self) -> tuple[Any, Any, Any]:
        state = self.__dict__  # deferred fields stay unloaded (None)
        return (state.get(self.NAME_FIELD), state.get("family_name"), state.get("given_name"))

    def _sync_name(self, *, split_alone: bool) -> None:
        """Keep the stored name and the parts in step. Parts set (new, or changed since
        loading) win: the stored name becomes their family-first form. When only the stored
        name changed (or it alone was given), it is split family first (``split_alone``: a
        player) or the parts are cleared (an entry renamed: a name of its own)."""
        field = self.NAME_FIELD
        text = getattr(self, field)
        loaded: tuple[Any, Any, Any] | None = getattr(self, "_loaded", None)
        has_parts = bool(self.family_name or self.given_name)
        parts_changed = loaded is None or (self.family_name, self.given_name) != loaded[1:]
        if has_parts and (parts_changed or (loaded is not None and text == loaded[0])):
            setattr(self, field, PersonName(self.family_name, self.given_name).stored)
        elif split_alone:
            parts = split_name(text, family_first=True)
            self.family_name, self.given_name = parts.family, parts.given
        else:
            self.family_name = self.given_name = ""
        self._loaded = self._name_state()

    @property
    def shown_name(self) -> str:
        """The name in the active language's order (:func:`person_name`)."""
        return person_name(self.family_name, self.given_name, getattr(self, self.NAME_FIELD))

    @property
    def name_sort_key(self) -> tuple[str, str]:
        """Family name, then given name (a name without parts: its stored string)."""
        if self.family_name or self.given_name:
            return PersonName(self.family_name, self.given_name).sort_key()
        return (normalise_name(getattr(self, self.NAME_FIELD)), "")


class Player(_NamedPerson):
    """A person who plays; optionally linked to a user account. ``family_name`` and
    ``given_name`` are the name's parts; ``display_name`` its stored one-string form, family
    name first (set from the parts on save; a player saved with ``display_name`` alone gets
    it split family first). Show it with :attr:`shown_name` (the active language's order)."""

    NAME_FIELD = "display_name"

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
        ordering = ["family_name", "given_name", "display_name", "id"]
        indexes = [models.Index(fields=["name_key"], name="player_name_key")]

    def __str__(self) -> str:
        return self.shown_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, keeping ``display_name`` (family first) and ``name_key`` in step with the
        name parts (or the parts with ``display_name`` when only that was given)."""
        self._sync_name(split_alone=True)
        self.name_key = name_key(self.display_name)
        kwargs["update_fields"] = _with_key(kwargs.get("update_fields"), "display_name")
        super().save(*args, **kwargs)


class Entry(_NamedPerson):
    """A participant of one tournament: a single player, or a pair team (seats A and B).

    ``family_name``/``given_name``: the player's name parts when the entry is named after its
    one player (then ``name`` is their stored family-first form); empty for a team or an
    entry with a name of its own. Show it with :attr:`shown_name`.

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
        return self.shown_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, keeping ``name`` (from the name parts, when set) and ``name_key`` in step."""
        self._sync_name(split_alone=False)
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
