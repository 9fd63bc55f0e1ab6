"""The penalty log: every penalty a judge gives, for any infraction (docs/rules.md §16 (Deck
checks, penalties and result reporting))."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.entries import Entry
from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament


class Penalty(models.Model):
    """One penalty: the entry, the round (if any), the infraction category, the penalty, the
    judge and notes. A deck check's penalty is logged here too (``deck_check`` set)."""

    class Category(models.TextChoices):
        DECK_PROBLEM = "deck_problem", _("deck or deck list problem")
        GAME_PLAY_ERROR = "game_play_error", _("game play error")
        PROCEDURAL_ERROR = "procedural_error", _("procedural error")
        TARDINESS = "tardiness", _("tardiness")
        SLOW_PLAY = "slow_play", _("slow play")
        UNSPORTING_CONDUCT = "unsporting_conduct", _("unsporting conduct")
        CHEATING = "cheating", _("cheating")
        OTHER = "other", _("other")

    class Kind(models.TextChoices):
        WARNING = "warning", _("warning")
        GAME_LOSS = "game_loss", _("game loss")
        MATCH_LOSS = "match_loss", _("match loss")
        DISQUALIFICATION = "disqualification", _("disqualification")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="penalties"
    )
    round = models.ForeignKey(
        Round,
        verbose_name=_("round"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="penalties",
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="penalties"
    )
    category = models.CharField(_("infraction"), max_length=24, choices=Category)
    kind = models.CharField(_("penalty"), max_length=20, choices=Kind)
    notes = models.TextField(_("notes"), blank=True)
    deck_check = models.OneToOneField(
        "tournaments.DeckCheck",
        verbose_name=_("deck check"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="logged_penalty",
    )
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("judge"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("given at"), auto_now_add=True)

    class Meta:
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        ordering = ["tournament", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.entry}: {self.kind} ({self.category})"
