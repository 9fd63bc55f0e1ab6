"""Meta statistics and the players' consent to them (docs/rules.md §20 (Meta statistics))."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.entries import Player
from tournaments.models.tournament import Tournament


class ListConsent(models.Model):
    """A player's choice whether their published lists count in the meta statistics.

    No row = the lists count (a player opts out). Written by ``services.meta.consent_set``,
    which recomputes the statistics of the player's finished events.
    """

    player = models.OneToOneField(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="list_consent"
    )
    share_lists = models.BooleanField(
        _("my lists count in the meta statistics"),
        default=True,
        help_text=_("Published lists only; an unpublished list never counts."),
    )
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        verbose_name = _("list consent")
        verbose_name_plural = _("list consents")

    def __str__(self) -> str:
        return f"{self.player} ({self.share_lists})"


class MetaSnapshot(models.Model):
    """Stored meta statistics: one event's (``tournament`` set) or one format's month
    (``tournament`` empty, ``period`` ``"YYYY-MM"``).

    ``tally`` is the JSON of ``tournaments.domain.meta.Tally`` (additive counts, so a date
    range sums the events in it); ``event_date`` is the event's date (the month's first day for
    a month). Written by ``services.meta.meta_recompute`` only.
    """

    format = models.ForeignKey(
        "decks.Format", verbose_name=_("format"), on_delete=models.CASCADE, related_name="+"
    )
    tournament = models.OneToOneField(
        Tournament,
        verbose_name=_("tournament"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="meta_snapshot",
    )
    period = models.CharField(_("period"), max_length=7, blank=True)
    event_date = models.DateField(_("date"))
    lists = models.PositiveIntegerField(_("lists"), default=0)
    tally = models.JSONField(_("counts"), default=dict)
    computed_at = models.DateTimeField(_("computed at"), auto_now=True)

    class Meta:
        verbose_name = _("meta statistics")
        verbose_name_plural = _("meta statistics")
        ordering = ["-event_date", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["format", "period"],
                condition=Q(tournament__isnull=True),
                name="metasnapshot_one_per_format_month",
            ),
        ]
        indexes = [models.Index(fields=["format", "event_date"], name="metasnapshot_format_date")]

    def __str__(self) -> str:
        return f"{self.format_id} {self.tournament_id or self.period}"
