"""The log of pushed live events (``tournaments.services.push``): what a page that lost its
connection reads again when it reconnects with the last event id it saw."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Tournament


class PushEvent(models.Model):
    """One live event of a tournament, written in the transaction of the change it announces
    and sent to the open pages after the commit.

    ``id``: the Server-Sent Events id (grows across all events); ``kind``: ``round``,
    ``results``, ``standings`` or ``clock``; ``data``: the JSON the pages receive;
    ``tables``: ``{"<entry id>": {"table", "opponent"}}`` of a published round, each part sent
    only to that entry's players; ``staff_only``: sent only to the event's staff.
    """

    id = models.BigAutoField(primary_key=True)
    # No database constraint: inserting a row with one would take a KEY SHARE lock on the
    # tournament row inside a result's transaction (which holds only its round FOR SHARE), and
    # deadlock with an unpublish or a finish that locks the tournament, then the round.
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="push_events",
        db_constraint=False,
    )
    kind = models.CharField(_("kind"), max_length=16)
    data = models.JSONField(_("data"), default=dict)
    tables = models.JSONField(_("tables"), default=dict, blank=True)
    staff_only = models.BooleanField(_("staff only"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("live event")
        verbose_name_plural = _("live events")
        indexes = [models.Index(fields=["tournament", "id"], name="push_event_tournament_id")]

    def __str__(self) -> str:
        return f"{self.tournament_id} #{self.pk} {self.kind}"
