"""Players' own match result reports (docs/rules.md §16 (Deck checks, penalties and result
reporting))."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.entries import Entry
from tournaments.models.rounds import Match


class ResultReport(models.Model):
    """A player's own report of their match (docs/rules.md §16 (Deck checks, penalties and
    result reporting)).

    ``games``: ``[{"number", "winner" (entry id or null for a draw), "first" (entry id),
    "waived" (bool)}]``. A report counts once both sides reported the same games
    (``accepted``, the games are then recorded) or a judge confirms it; two different
    reports are both ``disputed`` and flagged to the judges. ``superseded``: replaced by a
    newer report of the same side or overruled by a judge.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for the opponent")
        ACCEPTED = "accepted", _("accepted")
        DISPUTED = "disputed", _("disputed")
        SUPERSEDED = "superseded", _("superseded")

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="reports"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("reporting entry"), on_delete=models.CASCADE, related_name="+"
    )
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reported by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    games = models.JSONField(_("games"))
    status = models.CharField(_("status"), max_length=16, choices=Status, default=Status.PENDING)
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("resolved by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)

    class Meta:
        verbose_name = _("result report")
        verbose_name_plural = _("result reports")
        ordering = ["match", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "entry"],
                condition=Q(status__in=["pending", "disputed"]),
                name="resultreport_one_open_per_side",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.entry} ({self.status})"
