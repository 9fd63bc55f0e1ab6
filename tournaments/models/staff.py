"""Tournament staff besides the owner: co-organisers and judges."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Tournament


class StaffRole(models.Model):
    """A user's role in one tournament besides its owner.

    ``organiser``: a co-organiser, with the owner's powers except appointing staff.
    ``judge``: records and corrects results, sees every deck list, runs deck checks.
    Players are not staff: a player is a user linked to an ``EntryMember``'s ``Player``.
    """

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("co-organiser")
        JUDGE = "judge", _("judge")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="staff"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="tournament_roles",
    )
    role = models.CharField(_("role"), max_length=16, choices=Role)
    appointed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("appointed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    appointed_at = models.DateTimeField(_("appointed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("staff role")
        verbose_name_plural = _("staff roles")
        ordering = ["tournament", "role", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="staffrole_one_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.user} ({self.role})"
