"""Card catalogue, formats and ban lists (facts only; rules text is never stored).

``decks.catalogue`` turns these rows into the pure domain types (``decks.domain.types``).
Formats and ban lists are organiser-editable data (RULES.md: "store format rules and ban lists
as versioned, organiser-editable data, never as constants").

Every save or delete of a catalogue row bumps :class:`CatalogueVersion` (signals at the end of
this module; bulk loaders bump it themselves), which invalidates the in-process card index.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from decks.domain.normalize import normalize_name
from decks.domain.types import CardKind, SideboardMode


class Game(models.Model):
    """A card game: ``hkk``, ``wow`` or ``bluemoon``."""

    slug = models.SlugField(_("slug"), max_length=32, unique=True)
    name = models.CharField(_("name"), max_length=100)

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

    class Meta:
        verbose_name = _("edition")
        verbose_name_plural = _("editions")
        ordering = ["game", "code"]
        constraints = [
            models.UniqueConstraint(fields=["game", "code"], name="decks_edition_game_code_uniq")
        ]

    def __str__(self) -> str:
        return self.name or self.code


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


class FirstPlayerPolicy(models.TextChoices):
    """Default first-player policy codes (tournaments.domain.first_player)."""

    HKK = "hkk", _("HKK: die roll, then alternate (S000)")
    LOSER_CHOOSES = "loser_chooses", _("loser of the previous game chooses")


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


class Format(models.Model):
    """A tournament format as the organiser set it up; becomes a ``FormatSpec``.

    ``colours_not_counted`` is a list of colour names; ``params`` a dict of rule-set specific
    numbers; ``default_tiebreakers`` an ordered list of tiebreaker codes.
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
    first_player_policy = models.CharField(
        _("default first-player policy"),
        max_length=32,
        choices=FirstPlayerPolicy.choices,
        default=FirstPlayerPolicy.HKK,
    )
    games_per_match = models.PositiveSmallIntegerField(_("default games per match"), default=3)
    default_tiebreakers = models.JSONField(_("default tiebreakers"), default=list, blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    ban_lists = models.ManyToManyField(
        BanList, blank=True, related_name="formats", verbose_name=_("ban lists")
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("format")
        verbose_name_plural = _("formats")
        ordering = ["game", "slug"]

    def __str__(self) -> str:
        return self.name

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
        if not isinstance(self.default_tiebreakers, list):
            errors["default_tiebreakers"] = _("Enter a list of tiebreaker codes.")
        if errors:
            raise ValidationError(errors)


class CatalogueVersion(models.Model):
    """Singleton row (pk 1) whose ``version`` grows on every catalogue change; readers cache
    the card index and format specs against it (``decks.catalogue``)."""

    version = models.PositiveBigIntegerField(_("version"), default=0)
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now)

    class Meta:
        verbose_name = _("catalogue version")
        verbose_name_plural = _("catalogue versions")

    def __str__(self) -> str:
        return str(self.version)

    @classmethod
    def bump(cls) -> None:
        """Increase the version (creating the row if needed). Safe inside any transaction."""
        now = timezone.now()
        updated = cls.objects.filter(pk=1).update(version=F("version") + 1, changed_at=now)
        if not updated:
            cls.objects.get_or_create(pk=1, defaults={"version": 1, "changed_at": now})

    @classmethod
    def current(cls) -> int:
        """The current version number (0 when nothing was ever loaded)."""
        return cls.objects.filter(pk=1).values_list("version", flat=True).first() or 0

    @classmethod
    def token(cls) -> tuple[int, object]:
        """``(version, changed_at)``: changes on every bump, also after a rolled-back
        transaction reused a version number (one cheap query)."""
        row = cls.objects.filter(pk=1).values_list("version", "changed_at").first()
        return row or (0, None)


_VERSIONED = (
    Game,
    Edition,
    Card,
    BanList,
    BanListEntry,
    Format,
    Format.ban_lists.through,  # saved directly by the admin inline
    Card.editions.through,
)


@receiver(post_save)
@receiver(post_delete)
def _catalogue_changed(sender, **kwargs) -> None:
    if sender in _VERSIONED and not kwargs.get("raw"):
        CatalogueVersion.bump()


@receiver(m2m_changed, sender=Format.ban_lists.through)
@receiver(m2m_changed, sender=Card.editions.through)
def _catalogue_m2m_changed(sender, action, **kwargs) -> None:
    if action in ("post_add", "post_remove", "post_clear"):
        CatalogueVersion.bump()


# --- Game-start effects (issue 5) ---
class GameStartEffectKind(models.TextChoices):
    """Database choices mirroring :class:`decks.domain.game_start.EffectKind`."""

    RULE_CARD = "rule_card", _("rule card")
    FOLLOWER = "follower", _("follower")
    EPIC_FOLLOWER = "epic_follower", _("epic follower")
    HORDE_COMMANDER = "horde_commander", _("horde commander")


class GameStartEffectScope(models.TextChoices):
    """Database choices mirroring :class:`decks.domain.game_start.Scope`."""

    EVERYONE = "everyone", _("everyone at the table")
    USER = "user", _("its user only")


class GameStartEffect(models.Model):
    """The HKK game-start effect of one rule card or follower (organiser-editable data).

    Read by ``decks.game_setup`` and turned into :class:`decks.domain.game_start.Effect`;
    the rules that apply the values are in that domain module (RULES.md §1.4, §1.5; S000).
    Empty numbers mean "does not do this". ``values_known`` False: the card is known to act
    at game start but its values are not (S000 names it without a number); the calculator
    then warns that the figures may be incomplete.
    """

    name = models.CharField(_("card name as printed"), max_length=200)
    normalized_name = models.CharField(
        _("normalised name"), max_length=200, unique=True, editable=False
    )
    kind = models.CharField(
        _("kind"),
        max_length=20,
        choices=GameStartEffectKind.choices,
        default=GameStartEffectKind.RULE_CARD,
    )
    scope = models.CharField(
        _("applies to"),
        max_length=10,
        choices=GameStartEffectScope.choices,
        default=GameStartEffectScope.USER,
    )
    fixed_max_ep = models.PositiveSmallIntegerField(
        _("fixed maximum ÉP"),
        null=True,
        blank=True,
        help_text=_("Sets the maximum and starting ÉP to this value; the larger fixed value wins."),
    )
    ep_change = models.SmallIntegerField(
        _("ÉP change"),
        null=True,
        blank=True,
        help_text=_("Signed change of the maximum and starting ÉP, e.g. -2."),
    )
    hand_change = models.SmallIntegerField(
        _("hand change"),
        null=True,
        blank=True,
        help_text=_("Signed change of the opening hand in cards, e.g. 3."),
    )
    start_ep = models.PositiveSmallIntegerField(
        _("starting ÉP"),
        null=True,
        blank=True,
        help_text=_("The player starts with exactly this ÉP; the maximum does not change."),
    )
    horde_hand = models.PositiveSmallIntegerField(
        _("horde commander's opening hand"),
        null=True,
        blank=True,
        help_text=_("Only for a horde commander: the number of cards it prints."),
    )
    works_at_start = models.BooleanField(
        _("works at game start"),
        default=True,
        help_text=_(
            "Untick for an epic follower or horde commander that does not work at game start; "
            "it then counts as a normal follower."
        ),
    )
    values_known = models.BooleanField(
        _("values known"),
        default=True,
        help_text=_(
            "Untick when the card affects the game start but its values are not known yet; "
            "results using it then carry a warning."
        ),
    )
    source = models.TextField(_("source"), blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("game-start effect")
        verbose_name_plural = _("game-start effects")
        ordering = ["normalized_name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        from decks.domain.game_start import normalise_name

        self.name = self.name.strip()
        self.normalized_name = normalise_name(self.name)
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "normalized_name"}
        super().save(*args, **kwargs)

    def clean(self) -> None:
        if self.horde_hand is not None and self.kind != GameStartEffectKind.HORDE_COMMANDER:
            raise ValidationError(
                {"horde_hand": _("Only a horde commander has its own opening hand.")}
            )


# --- end of game-start effects (issue 5) ---
