"""Deck checks and penalties (docs/rules.md §16 (Deck checks, penalties and result
reporting))."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.entries import Entry
from tournaments.models.rounds import Round


class DeckCheck(models.Model):
    """A deck check of one entry in one round (docs/rules.md §16 (Deck checks, penalties and
    result reporting)): picked at random (with the stored ``seed``) or by a judge; the outcome
    and any penalty are recorded.
    """

    class Outcome(models.TextChoices):
        PENDING = "pending", _("pending")
        OK = "ok", _("deck matches the list")
        PROBLEM = "problem", _("problem found")

    class Penalty(models.TextChoices):
        NONE = "none", _("none")
        WARNING = "warning", _("warning")
        GAME_LOSS = "game_loss", _("game loss")
        MATCH_LOSS = "match_loss", _("match loss")
        DISQUALIFICATION = "disqualification", _("disqualification")

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="deck_checks"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="deck_checks"
    )
    random_pick = models.BooleanField(_("picked at random"), default=True)
    seed = models.BigIntegerField(_("selection seed"), null=True, blank=True)
    outcome = models.CharField(
        _("outcome"), max_length=16, choices=Outcome, default=Outcome.PENDING
    )
    penalty = models.CharField(_("penalty"), max_length=20, choices=Penalty, default=Penalty.NONE)
    notes = models.TextField(_("notes"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("checked by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    checked_at = models.DateTimeField(_("checked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("deck check")
        verbose_name_plural = _("deck checks")
        ordering = ["round", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="deckcheck_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.entry} ({self.outcome})"
