"""Cached standings (docs/rules.md §15 (Match points and tiebreakers))."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Tournament


class StandingsSnapshot(models.Model):
    """Cached standings written by ``standings_recompute_task`` so pages read them fast.

    ``rows``: ``[{"rank", "entry", "name", "match_points", "game_points", "matches_played",
    "dropped", "tiebreakers": {code: "exact fraction string"}}]``; ``after_round`` = rounds
    finished. ``version`` grows by one with every recompute (the pages' ETag);
    ``recompute_requested_at`` is set by the first result after a recompute and cleared when
    the next recompute starts, so a burst of results queues one recompute (``services.jobs``).

    Whether the rows are current is known from two counters: ``inputs_generation`` grows by
    one in the transaction of every write under the event's lock that changes what the
    standings are computed from (a drop, a late entry, a round published, unpublished, finished
    or discarded, the desk's missed rounds …), and every result write bumps its match's
    ``Match.result_version`` (under the match's row lock only: results of different tables never
    wait for each other). ``rows_generation`` and ``rows_results`` are the generation and the
    event's sum of result versions read before the ``rows`` were computed (``None``: unknown);
    the rows are current exactly when both still equal the live values
    (``services.standings.standings_current_ranks``; pairing then reads them).
    """

    tournament = models.OneToOneField(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="standings_snapshot",
    )
    computed_at = models.DateTimeField(_("computed at"))
    after_round = models.PositiveSmallIntegerField(_("after round"), default=0)
    rows = models.JSONField(_("rows"), default=list)
    version = models.PositiveIntegerField(_("version"), default=0)
    recompute_requested_at = models.DateTimeField(
        _("recompute requested at"), null=True, blank=True
    )
    inputs_generation = models.PositiveBigIntegerField(_("inputs generation"), default=0)
    rows_generation = models.PositiveBigIntegerField(_("rows generation"), null=True, blank=True)
    rows_results = models.PositiveBigIntegerField(_("rows results"), null=True, blank=True)

    class Meta:
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")

    def __str__(self) -> str:
        return f"{self.tournament} ({self.after_round})"
