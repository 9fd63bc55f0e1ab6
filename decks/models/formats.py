"""Formats and ban lists: organiser-editable data, versioned and never constants.

A :class:`Format` becomes a ``decks.domain.types.FormatSpec`` in ``decks.selectors.formats``
(docs/rules.md §4 (HKK formats and ban lists (Retró, TM, Páros)), §10 (WoW TCG formats and ban
lists)).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from decks.domain.normalize import normalize_name
from decks.domain.types import SideboardMode
from decks.models.catalogue import Card, Game


class RuleSet(models.TextChoices):
    """Keys into the domain rule-set registry (``FormatSpec.rule_set``)."""

    HKK = "hkk", _("HKK")
    WOW_CONSTRUCTED = "wow-constructed", _("WoW TCG constructed")
    BLUEMOON_ADVANCED = "bluemoon-advanced", _("Blue Moon advanced")
    BLUEMOON_PEOPLE = "bluemoon-people", _("Blue Moon people deck")


class SideboardModeChoices(models.TextChoices):
    """Database choices mirroring :class:`decks.domain.types.SideboardMode`."""

    NONE = SideboardMode.NONE.value, _("no sideboard")
    EXACT = SideboardMode.EXACT.value, _("exactly N cards when used")
    MAX = SideboardMode.MAX.value, _("at most N cards")
    ANY = SideboardMode.ANY.value, _("any size")


class BanList(models.Model):
    """A named, shared ban list (e.g. the all-events test-print list, attached to every HKK
    format). Entries carry their own effective dates."""

    slug = models.SlugField(_("slug"), max_length=64, unique=True)
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="ban_lists",
        verbose_name=pgettext_lazy("card game", "game"),
    )
    name = models.CharField(_("name"), max_length=200)
    source = models.TextField(_("source"), blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("ban list")
        verbose_name_plural = _("ban lists")
        ordering = ["game", "slug"]

    def __str__(self) -> str:
        return self.name


class BanKind(models.TextChoices):
    """What a ban-list entry does to its card: ``banned`` (not allowed in the deck at all) or
    ``sideboard_only`` (allowed only in the sideboard; a card that is also banned counts as banned).
    """

    BANNED = "banned", _("banned")
    SIDEBOARD_ONLY = "sideboard_only", _("sideboard only")


class BanListEntry(models.Model):
    """One card on a ban list, effective from ``effective_from`` to ``effective_until``
    (both inclusive; no end date = still in force). Matched by normalised name."""

    ban_list = models.ForeignKey(
        BanList, on_delete=models.CASCADE, related_name="entries", verbose_name=_("ban list")
    )
    card_name = models.CharField(_("card name as printed"), max_length=200)
    normalized_name = models.CharField(_("normalised name"), max_length=200, editable=False)
    card = models.ForeignKey(
        Card,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ban_entries",
        verbose_name=_("card"),
    )
    kind = models.CharField(
        _("kind"), max_length=20, choices=BanKind.choices, default=BanKind.BANNED
    )
    effective_from = models.DateField(_("effective from"))
    effective_until = models.DateField(_("effective until"), null=True, blank=True)
    source = models.TextField(_("source"), blank=True)

    class Meta:
        verbose_name = _("ban-list entry")
        verbose_name_plural = _("ban-list entries")
        ordering = ["ban_list", "normalized_name", "effective_from"]
        indexes = [
            models.Index(fields=["ban_list", "normalized_name"], name="decks_banentry_name_idx")
        ]

    def __str__(self) -> str:
        return self.card_name

    def save(self, *args, **kwargs) -> None:
        self.card_name = self.card_name.strip()
        self.normalized_name = normalize_name(self.card_name)
        super().save(*args, **kwargs)

    def clean(self) -> None:
        if (
            self.effective_until
            and self.effective_from
            and self.effective_until < self.effective_from
        ):
            raise ValidationError(
                {"effective_until": _("The end date must not be before the start date.")}
            )


class FormatManager(models.Manager["Format"]):
    """Formats by their slug, the natural key (event backups name the format, not its id)."""

    def get_by_natural_key(self, slug: str) -> Format:
        return self.get(slug=slug)


class Format(models.Model):
    """A tournament format as the organiser set it up; becomes a ``FormatSpec``.

    ``colours_not_counted`` is a list of colour names; ``params`` a dict of rule-set specific
    numbers; ``default_tiebreakers`` an ordered list of tiebreaker codes. ``match_structure``
    is the format's match structure (first-player policy, games per match, best-of ending, Blue
    Moon crystal score) as the JSON of ``tournaments.domain.match_structure.MatchStructure``
    (validated by the tournaments admin; ``{}`` = the game's default preset), copied onto each
    tournament at creation (docs/rules.md §6 (HKK first-player rights), §11 (WoW TCG matches and
    first player), §13 (Blue Moon matches)).
    """

    slug = models.SlugField(_("slug"), max_length=64, unique=True)
    game = models.ForeignKey(
        Game,
        on_delete=models.PROTECT,
        related_name="formats",
        verbose_name=pgettext_lazy("card game", "game"),
    )
    name = models.CharField(_("name"), max_length=200)
    description = models.TextField(_("description"), blank=True)
    rule_set = models.CharField(_("rule set"), max_length=32, choices=RuleSet.choices)
    min_main = models.PositiveIntegerField(_("minimum main-deck size"), null=True, blank=True)
    max_main = models.PositiveIntegerField(_("maximum main-deck size"), null=True, blank=True)
    sideboard_mode = models.CharField(
        _("sideboard rule"),
        max_length=10,
        choices=SideboardModeChoices.choices,
        default=SideboardModeChoices.ANY,
    )
    sideboard_size = models.PositiveIntegerField(_("sideboard size"), null=True, blank=True)
    copy_limit = models.PositiveIntegerField(_("copy limit"), null=True, blank=True)
    colour_limit = models.PositiveIntegerField(_("colour limit"), null=True, blank=True)
    colours_not_counted = models.JSONField(_("colours not counted"), default=list, blank=True)
    params = models.JSONField(_("rule-set parameters"), default=dict, blank=True)
    match_structure = models.JSONField(
        _("match structure"),
        default=dict,
        blank=True,
        help_text=_(
            'First-player policy and games of a match as JSON, e.g. {"policy": "hkk", '
            '"games_per_match": 3, "ends_when_decided": false}. Keys: policy (hkk, wow, '
            "blue_moon, loser_chooses), games_per_match, ends_when_decided, later_games "
            "(loser_chooses, alternate), game_draws, game_score_unit, game_score_max, "
            "target_score. Copied onto each new tournament of the format."
        ),
    )
    default_tiebreakers = models.JSONField(_("default tiebreakers"), default=list, blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    ban_lists = models.ManyToManyField(
        BanList, blank=True, related_name="formats", verbose_name=_("ban lists")
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    objects = FormatManager()

    class Meta:
        verbose_name = _("format")
        verbose_name_plural = _("formats")
        ordering = ["game", "slug"]

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str]:
        """``(slug,)``: the format's name in backups and fixtures."""
        return (self.slug,)

    def clean(self) -> None:
        errors = {}
        if (
            self.min_main is not None
            and self.max_main is not None
            and self.max_main < self.min_main
        ):
            errors["max_main"] = _("The maximum must not be below the minimum.")
        needs_size = self.sideboard_mode in (SideboardModeChoices.EXACT, SideboardModeChoices.MAX)
        if needs_size and self.sideboard_size is None:
            errors["sideboard_size"] = _("This sideboard rule needs a size.")
        if not isinstance(self.colours_not_counted, list):
            errors["colours_not_counted"] = _("Enter a list of colour names.")
        if not isinstance(self.params, dict):
            errors["params"] = _("Enter an object of parameters.")
        if not isinstance(self.match_structure, dict):
            errors["match_structure"] = _("Enter an object describing the match structure.")
        if not isinstance(self.default_tiebreakers, list):
            errors["default_tiebreakers"] = _("Enter a list of tiebreaker codes.")
        if errors:
            raise ValidationError(errors)
