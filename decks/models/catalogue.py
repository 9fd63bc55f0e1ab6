"""The card catalogue: games, editions and printed cards (facts only; rules text is never stored).

``decks.selectors.cards`` turns :class:`Card` rows into the pure domain type
``decks.domain.types.Card`` (docs/rules.md §1 (HKK card identity, colours and editions), §17
(Card data sources and coverage)).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from decks.domain.editions import parse_partial_date
from decks.domain.normalize import normalize_name
from decks.domain.types import CardKind, Coverage


class CoverageChoices(models.TextChoices):
    """Database choices mirroring :class:`decks.domain.types.Coverage` (docs/rules.md §17 (Card
    data sources and coverage))."""

    COMPLETE = Coverage.COMPLETE.value, _("complete")
    PARTIAL = Coverage.PARTIAL.value, _("partial")


class Game(models.Model):
    """A card game: ``hkk``, ``wow`` or ``bluemoon``, with what its card catalogue covers.

    ``coverage``: ``complete`` = every card of the game is in the catalogue, so an unknown name
    is an error; ``partial`` = a sample, so a list naming a card it lacks is ``unverified``.
    ``catalogue_source`` says where the cards came from; ``last_synced_at`` is the end of the
    last publisher sync (``None``: never). docs/rules.md §17 (Card data sources and coverage).
    """

    slug = models.SlugField(_("slug"), max_length=32, unique=True)
    name = models.CharField(_("name"), max_length=100)
    coverage = models.CharField(
        _("catalogue coverage"),
        max_length=16,
        choices=CoverageChoices.choices,
        default=CoverageChoices.COMPLETE,
        help_text=_(
            "Complete: every card of the game is loaded, an unknown name makes a list illegal. "
            "Partial: a sample, a list naming a card it lacks is unverified."
        ),
    )
    catalogue_source = models.CharField(_("catalogue source"), max_length=300, blank=True)
    last_synced_at = models.DateTimeField(_("last sync"), null=True, blank=True)

    class Meta:
        verbose_name = pgettext_lazy("card game", "game")
        verbose_name_plural = pgettext_lazy("card game", "games")
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.name or self.slug


class Edition(models.Model):
    """An edition / set / series of one game; ``code`` is the source's id (HKK edition id,
    WoW series name)."""

    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="editions",
        verbose_name=pgettext_lazy("card game", "game"),
    )
    code = models.CharField(_("code"), max_length=100)
    name = models.CharField(_("name"), max_length=200, blank=True)
    released = models.CharField(
        _("released"),
        max_length=10,
        blank=True,
        help_text=_("Release date as far as known: YYYY, YYYY-MM or YYYY-MM-DD; empty if unknown."),
    )
    released_after = models.DateField(
        _("released on or after"),
        null=True,
        blank=True,
        help_text=_("Lower bound, if only that is known."),
    )
    released_before = models.DateField(
        _("released before"),
        null=True,
        blank=True,
        help_text=_("Upper bound, if only that is known."),
    )
    block = models.CharField(_("block"), max_length=100, blank=True)
    block_order = models.PositiveSmallIntegerField(_("block order"), null=True, blank=True)
    group = models.CharField(_("set group"), max_length=32, blank=True)
    kind = models.CharField(_("set kind"), max_length=32, blank=True)

    class Meta:
        verbose_name = _("edition")
        verbose_name_plural = _("editions")
        ordering = ["game", "code"]
        constraints = [
            models.UniqueConstraint(fields=["game", "code"], name="decks_edition_game_code_uniq")
        ]

    def __str__(self) -> str:
        return self.name or self.code

    def clean(self) -> None:
        try:
            parse_partial_date(self.released or "")
        except ValueError:
            raise ValidationError({"released": _("Use YYYY, YYYY-MM or YYYY-MM-DD.")}) from None


class CardKindChoices(models.TextChoices):
    """Database choices mirroring :class:`decks.domain.types.CardKind`."""

    CARD = CardKind.CARD.value, _("card")
    RULE_CARD = CardKind.RULE_CARD.value, _("rule card")
    FOLLOWER = CardKind.FOLLOWER.value, _("follower")
    EPIC_FOLLOWER = CardKind.EPIC_FOLLOWER.value, _("epic follower")
    HORDE_COMMANDER = CardKind.HORDE_COMMANDER.value, _("horde commander")
    GUILD = CardKind.GUILD.value, _("guild")
    HERO = CardKind.HERO.value, _("hero")
    LEADER = CardKind.LEADER.value, _("leader")
    INQUISITOR = CardKind.INQUISITOR.value, _("inquisitor")
    EMISSARY = CardKind.EMISSARY.value, _("emissary")


class Card(models.Model):
    """One printed card: facts for deck rules, never rules text.

    JSON shapes: ``types`` list[str] (main type first); ``colours`` list[str] (meaningless when
    ``colours_unknown``); ``class_icons`` list[str]; ``hero_traits`` / ``requires``
    dict[str, list[str]]; ``attributes`` dict of game-specific facts. ``copy_group`` blank =
    the card's own normalised name (judge-editable; loaders never overwrite a set value).
    ``source_hash`` fingerprints what the loader last wrote: reloading rewrites a card only
    when its source record changed, so organiser edits in the admin survive a reload of
    unchanged data.
    """

    game = models.ForeignKey(
        Game,
        on_delete=models.PROTECT,
        related_name="cards",
        verbose_name=pgettext_lazy("card game", "game"),
    )
    external_id = models.CharField(_("external id"), max_length=64)
    name = models.CharField(_("printed name"), max_length=200)
    normalized_name = models.CharField(_("normalised name"), max_length=200, editable=False)
    kind = models.CharField(
        _("kind"), max_length=32, choices=CardKindChoices.choices, default=CardKindChoices.CARD
    )
    types = models.JSONField(_("types and subtypes"), default=list, blank=True)
    colours = models.JSONField(_("colours"), default=list, blank=True)
    colours_unknown = models.BooleanField(
        _("colours unknown"),
        default=False,
        help_text=_("The data does not say which colours the card has."),
    )
    class_icons = models.JSONField(_("class icons"), default=list, blank=True)
    faction = models.CharField(_("faction icon"), max_length=32, blank=True)
    hero_traits = models.JSONField(_("hero traits"), default=dict, blank=True)
    requires = models.JSONField(_("hero requirements"), default=dict, blank=True)
    unlimited = models.BooleanField(_("unlimited copies"), default=False)
    rarity = models.CharField(_("rarity"), max_length=32, blank=True)
    copy_group = models.CharField(
        _("copy-limit group"),
        max_length=200,
        blank=True,
        help_text=_("Cards with the same group share the copy limit. Empty: the card's own name."),
    )
    attributes = models.JSONField(_("game-specific facts"), default=dict, blank=True)
    editions = models.ManyToManyField(
        Edition, blank=True, related_name="cards", verbose_name=_("editions")
    )
    source_hash = models.CharField(
        _("source fingerprint"),
        max_length=64,
        blank=True,
        editable=False,
        help_text=_(
            "Fingerprint of the loaded source facts; a reload rewrites the card only "
            "when its source record changed."
        ),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("card")
        verbose_name_plural = _("cards")
        ordering = ["game", "normalized_name", "external_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "external_id"], name="decks_card_game_external_id_uniq"
            )
        ]
        indexes = [
            models.Index(fields=["game", "normalized_name"], name="decks_card_game_name_idx")
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name = self.name.strip()
        self.normalized_name = normalize_name(self.name)
        self.copy_group = normalize_name(self.copy_group) if self.copy_group else ""
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "normalized_name"}
        super().save(*args, **kwargs)


class CatalogueSyncStatus(models.TextChoices):
    """Where a :class:`CatalogueSyncRun` stands."""

    PENDING = "pending", _("waiting")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class CatalogueSyncRun(models.Model):
    """One sync of a game's catalogue from the publisher, started from the admin and run as a
    background job; its progress is stored here and shown in the admin.

    ``requests_done`` / ``requests_total``: HTTP requests answered (from the cache or the
    server) out of those planned so far (the total grows when a year is split by edition).
    ``message``: the counts when done, the error when failed. docs/rules.md §17 (Card data
    sources and coverage).
    """

    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="sync_runs",
        verbose_name=pgettext_lazy("card game", "game"),
    )
    status = models.CharField(
        _("status"),
        max_length=16,
        choices=CatalogueSyncStatus.choices,
        default=CatalogueSyncStatus.PENDING,
    )
    requests_done = models.PositiveIntegerField(_("requests done"), default=0)
    requests_total = models.PositiveIntegerField(_("requests planned"), default=0)
    message = models.TextField(_("message"), blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("catalogue sync")
        verbose_name_plural = _("catalogue syncs")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.game} {self.created_at:%Y-%m-%d %H:%M}"
