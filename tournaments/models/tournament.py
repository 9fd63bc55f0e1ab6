"""The event itself: format, kind, match structure, scoring, tiebreakers and state
(docs/rules.md §8 (HKK tournament structure and scoring))."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.domain.match_structure import MatchStructure


class Tournament(models.Model):
    """One event: format, kind, match structure, scoring, tiebreakers and state.

    ``tiebreakers`` is an ordered list of codes from ``tournaments.domain.standings``
    (HKK default ``["buchholz", "game_points"]``: docs/rules.md §8 (HKK tournament structure
    and scoring); the sources give the columns, not their order).
    ``late_entry_cutoff_round``: the last round a late entry may still
    join (``None`` = no late entries once running).

    ``match_structure`` is the JSON of a ``tournaments.domain.match_structure.MatchStructure``
    copied from the format at creation (first-player policy, games per match, best-of ending,
    draws, Blue Moon crystal score); :attr:`structure` reads it, and it is the only place the
    event's first-player policy and games per match live (docs/rules.md §6 (HKK first-player
    rights), §11 (WoW TCG matches and first player), §13 (Blue Moon matches)).
    """

    class Kind(models.TextChoices):
        INDIVIDUAL = "individual", _("individual")
        PAIR = "pair", _("pair")

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(_("name"), max_length=200)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organiser"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_tournaments",
    )
    format = models.ForeignKey(
        "decks.Format",
        verbose_name=_("format"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind, default=Kind.INDIVIDUAL)
    match_win_points = models.PositiveSmallIntegerField(_("match win points"), default=3)
    match_draw_points = models.PositiveSmallIntegerField(_("match draw points"), default=1)
    match_loss_points = models.PositiveSmallIntegerField(_("match loss points"), default=0)
    game_win_points = models.PositiveSmallIntegerField(_("game win points"), default=2)
    game_draw_points = models.PositiveSmallIntegerField(_("game draw points"), default=1)
    game_loss_points = models.PositiveSmallIntegerField(_("game loss points"), default=0)
    bye_games_won = models.PositiveSmallIntegerField(_("games credited for a bye"), default=2)
    planned_rounds = models.PositiveSmallIntegerField(_("planned rounds"), null=True, blank=True)
    tiebreakers = models.JSONField(_("tiebreakers"), default=list, blank=True)
    match_structure = models.JSONField(_("match structure"), default=dict, blank=True)
    late_entry_cutoff_round = models.PositiveSmallIntegerField(
        _("late entry cut-off round"), null=True, blank=True
    )
    deck_deadline = models.DateTimeField(_("deck list deadline"), null=True, blank=True)
    is_public = models.BooleanField(
        _("public"),
        default=True,
        help_text=_("Anyone may see the published pairings and standings."),
    )
    decklists_published = models.BooleanField(
        _("deck lists published"),
        default=False,
        help_text=_("Players may see the deck lists of the other players."),
    )

    class ListsPublished(models.TextChoices):
        AFTER_EVENT = "after_event", _("after the event")
        AT_CUT = "at_cut", _("at the top cut")

    decklists_published_at = models.CharField(
        _("lists become public"),
        max_length=16,
        choices=ListsPublished,
        default=ListsPublished.AFTER_EVENT,
        help_text=_(
            "When published lists become public and count in the meta statistics: once the "
            "event is finished, or once its top cut begins."
        ),
    )
    deck_check_percent = models.PositiveSmallIntegerField(
        _("deck checks per round (%)"),
        default=10,
        help_text=_("Share of the entries picked at random for a deck check each round."),
    )
    starts_at = models.DateTimeField(_("date and time"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    description = models.TextField(_("description"), blank=True)
    max_entries = models.PositiveIntegerField(
        _("player cap"),
        null=True,
        blank=True,
        help_text=_("Registration closes when this many entries have signed up (empty: no cap)."),
    )
    status = models.CharField(_("status"), max_length=16, choices=Status, default=Status.DRAFT)
    lists_locked_at = models.DateTimeField(_("lists locked at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_pair(self) -> bool:
        return self.kind == self.Kind.PAIR

    @property
    def structure(self) -> MatchStructure:
        """The match structure in force, read from ``match_structure`` (written at creation).
        Kept on the instance until that field changes (the structure is immutable).

        Raises:
            InvalidStructure: stored data that is not a valid structure (an empty one too:
                ``invalid_value``).
        """
        # Read once per instance and value: a round's page asks for it once per table.
        key = repr(self.match_structure)
        known = self.__dict__.get("_structure_read")
        if known is not None and known[0] == key:
            return known[1]
        structure = MatchStructure.from_dict(self.match_structure or {})
        self.__dict__["_structure_read"] = (key, structure)
        return structure
