"""Circuits (seasons of events), the events asking to join them, their leagues and ratings,
and the players' profile setting (docs/rules.md §19 (Circuits, season standings and league
gates)). The computation is in :mod:`tournaments.domain.circuits`; writes go through
``tournaments.services.circuits``."""

from __future__ import annotations

from fractions import Fraction

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.domain.circuits import LeagueGate, PointsTable, SeasonRules, Tier
from tournaments.models.tournament import Tournament


class Circuit(models.Model):
    """A season grouping events of one game, owned by one organiser.

    ``points_table``: :meth:`PointsTable.to_json`; ``tiers``: ``[{"code", "label",
    "multiplier"}]`` (exact strings); ``best_n`` results counted (``None``: all);
    ``min_events`` to be ranked; ``tiebreaks``: codes of ``SEASON_TIEBREAKS`` in order;
    ``ratings_enabled``: OpenSkill ratings from the matches of its events;
    ``formulas_unpublished``: the page says the numbers are an editable stand-in (the HKK
    preset: the publisher's formulas are not public).
    """

    name = models.CharField(_("name"), max_length=200)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        on_delete=models.PROTECT,
        related_name="owned_circuits",
    )
    game = models.ForeignKey(
        "decks.Game", verbose_name=_("game"), on_delete=models.PROTECT, related_name="+"
    )
    description = models.TextField(_("description"), blank=True)
    season_start = models.DateField(_("season start"), null=True, blank=True)
    season_end = models.DateField(_("season end"), null=True, blank=True)
    points_table = models.JSONField(_("points table"), default=list)
    tiers = models.JSONField(_("event tiers"), default=list)
    best_n = models.PositiveSmallIntegerField(_("best results counted"), null=True, blank=True)
    min_events = models.PositiveSmallIntegerField(_("minimum events played"), default=0)
    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True)
    ratings_enabled = models.BooleanField(_("ratings"), default=False)
    is_public = models.BooleanField(_("public"), default=True)
    formulas_unpublished = models.BooleanField(_("numbers are a stand-in"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("circuit")
        verbose_name_plural = _("circuits")
        ordering = ["-created_at", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def table(self) -> PointsTable:
        """The points table as the domain reads it."""
        return PointsTable.from_json(self.points_table)

    @property
    def tier_list(self) -> tuple[Tier, ...]:
        """The event tiers as the domain reads them."""
        return tuple(
            Tier(str(t["code"]), str(t["label"]), Fraction(str(t["multiplier"])))
            for t in self.tiers
        )

    @property
    def rules(self) -> SeasonRules:
        """The season rules (table, best N, minimum events, tie-breaks)."""
        return SeasonRules(
            self.table, self.best_n, self.min_events, tuple(str(c) for c in self.tiebreaks)
        )


class League(models.Model):
    """A league of a circuit, with its gate measured on a season's standings (``measured_on``:
    the circuit whose points and events count, often the league's own): points and events
    played between the bounds (inclusive, empty: no bound), or on the explicit list
    (``listed_names``, one name a line, compared without case and accents)."""

    circuit = models.ForeignKey(
        Circuit, verbose_name=_("circuit"), on_delete=models.CASCADE, related_name="leagues"
    )
    name = models.CharField(_("name"), max_length=120)
    measured_on = models.ForeignKey(
        Circuit,
        verbose_name=_("points from"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    min_points = models.DecimalField(
        _("at least points"), max_digits=9, decimal_places=2, null=True, blank=True
    )
    max_points = models.DecimalField(
        _("at most points"), max_digits=9, decimal_places=2, null=True, blank=True
    )
    min_events = models.PositiveSmallIntegerField(_("at least events"), null=True, blank=True)
    max_events = models.PositiveSmallIntegerField(_("at most events"), null=True, blank=True)
    listed_only = models.BooleanField(_("only the listed players"), default=False)
    listed_names = models.TextField(_("listed players"), blank=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["circuit", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def gate(self) -> LeagueGate:
        """The gate as the domain reads it."""

        def frac(value: object) -> Fraction | None:
            return None if value is None else Fraction(str(value))

        return LeagueGate(
            frac(self.min_points),
            frac(self.max_points),
            self.min_events,
            self.max_events,
            self.listed_only,
        )


class CircuitEvent(models.Model):
    """An event's request to count in a circuit, and the owner's decision: its ``tier`` (a
    code of the circuit's tiers) and the ``league`` whose gate registration checks."""

    class Status(models.TextChoices):
        REQUESTED = "requested", _("requested")
        ACCEPTED = "accepted", _("accepted")
        REFUSED = "refused", _("refused")

    circuit = models.ForeignKey(
        Circuit, verbose_name=_("circuit"), on_delete=models.CASCADE, related_name="links"
    )
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="circuit_links",
    )
    tier = models.CharField(_("tier"), max_length=40)
    league = models.ForeignKey(
        League,
        verbose_name=_("league"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="links",
    )
    status = models.CharField(_("status"), max_length=16, choices=Status, default=Status.REQUESTED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        verbose_name = _("circuit event")
        verbose_name_plural = _("circuit events")
        ordering = ["circuit", "requested_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["circuit", "tournament"], name="circuit_event_once")
        ]

    def __str__(self) -> str:
        return f"{self.circuit} · {self.tournament}"


class CircuitRating(models.Model):
    """A person's OpenSkill rating in a circuit (recomputed whole from the matches of its
    accepted events; ``person`` as in the season standings)."""

    circuit = models.ForeignKey(
        Circuit, verbose_name=_("circuit"), on_delete=models.CASCADE, related_name="ratings"
    )
    person = models.CharField(_("person"), max_length=260)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    name = models.CharField(_("name"), max_length=200)
    mu = models.FloatField(_("skill estimate"))
    sigma = models.FloatField(_("uncertainty"))
    ordinal = models.FloatField(_("rating"))
    matches = models.PositiveIntegerField(_("matches"))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["circuit", "-ordinal", "id"]
        constraints = [
            models.UniqueConstraint(fields=["circuit", "person"], name="circuit_rating_once")
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.ordinal:.1f}"


class PlayerProfile(models.Model):
    """A user's profile setting: ``is_public`` lets anyone see their events, placements,
    match record and published lists (private by default: only they and the organisers of
    an event they register for see it)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="player_profile",
    )
    is_public = models.BooleanField(_("public profile"), default=False)

    class Meta:
        verbose_name = _("player profile")
        verbose_name_plural = _("player profiles")

    def __str__(self) -> str:
        return str(self.user)
