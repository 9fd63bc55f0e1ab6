"""The organiser's action log: every step that changes a round or the event after the fact
(discard a draft round, unpublish, a drop fixed with a re-pair or a bye, re-adding a dropped
entry, check-in drops, reopening a finished event), with who, when and why
(docs/rules.md §14 (Swiss pairing and byes), §16 (Deck checks, penalties and result reporting)).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.entries import Entry
from tournaments.models.tournament import Tournament


class TournamentAction(models.Model):
    """One recorded organiser action. ``round_number`` names the round it touched (the round row
    itself may be gone after a discard); ``params`` holds the details (tables before, …; the
    results an unpublish or discard deleted, restorable: ``services.results_archive``)."""

    class Kind(models.TextChoices):
        ROUND_DISCARDED = "round_discarded", _("draft round discarded")
        ROUND_UNPUBLISHED = "round_unpublished", _("round unpublished")
        DROP_REPAIRED = "drop_repaired", _("dropped and the round paired again")
        DROP_BYE = "drop_bye", _("dropped; the opponent got a bye")
        ENTRY_READDED = "entry_readded", _("dropped entry added back")
        NOT_CHECKED_IN_DROPPED = "not_checked_in_dropped", _("entries not checked in dropped")
        REOPENED = "reopened", _("finished event reopened")
        RESULTS_RESTORED = "results_restored", _("deleted results restored")
        LATE_ENTRY = "late_entry", _("late entry with its missed rounds")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="actions"
    )
    kind = models.CharField(_("action"), max_length=32, choices=Kind)
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    entry = models.ForeignKey(
        Entry,
        verbose_name=_("entry"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    reason = models.TextField(_("reason"), blank=True)
    params = models.JSONField(_("details"), default=dict, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("organiser action")
        verbose_name_plural = _("organiser actions")
        ordering = ["tournament", "at", "id"]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.kind}"
