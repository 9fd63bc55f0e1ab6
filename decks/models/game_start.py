"""The HKK game-start effects of rule cards and followers (organiser-editable data).

Read by ``decks.selectors.game_start_effects``; the rules that apply the values are in
``decks.domain.game_start`` (docs/rules.md §5 (HKK game start: opening hand and life points),
§7 (HKK pair tournaments)).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from decks.domain.game_start import normalise_name


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

    Read by ``decks.selectors.game_start_effects`` and turned into
    :class:`decks.domain.game_start.Effect`; the rules that apply the values are in that domain
    module (docs/rules.md §5 (HKK game start: opening hand and life points), §7 (HKK pair
    tournaments)). Empty numbers mean "does not do this". ``values_known`` False: the card is
    known to act at game start but its values are not (the HKK FAQ on rule cards and
    first-player rights names it without a number); the calculator then warns that the figures
    may be incomplete.
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
