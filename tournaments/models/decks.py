"""Versioned deck lists of entry members, locked at the deadline (docs/rules.md §7 (HKK pair
tournaments), §16 (Deck checks, penalties and result reporting))."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.entries import EntryMember


class DeckSubmission(models.Model):
    """One version of one member's deck list, kept with its validation result, legal or not.

    ``result`` is the full ``decks.services.validation.validation_result_dict`` output;
    ``extra_errors`` are tournament-level errors added on top (``pair_rule_card_mismatch``,
    docs/rules.md §7 (HKK pair tournaments)). ``status`` is the validator's verdict (legal,
    illegal, unverified); ``legal`` = the verdict is legal, or an unverified list the organiser
    approved with a recorded reason (``approval_reason``, ``approved_by``, ``approved_at``;
    docs/rules.md §17 (Card data sources and coverage)), and there is no extra error.
    ``is_current`` marks the member's latest version; ``locked`` marks the snapshot the
    tournament accepted when lists locked (its ``text``/``data``/``result`` never change
    afterwards).
    """

    member = models.ForeignKey(
        EntryMember, verbose_name=_("member"), on_delete=models.CASCADE, related_name="decks"
    )
    version = models.PositiveIntegerField(_("version"))
    text = models.TextField(_("text"), blank=True)
    data = models.JSONField(_("structured list"), null=True, blank=True)
    format_slug = models.CharField(_("format"), max_length=64)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("submitted by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    submitted_at = models.DateTimeField(_("submitted at"), auto_now_add=True)
    validated_at = models.DateTimeField(_("validated at"))
    validator_legal = models.BooleanField(_("legal per the deck rules"))
    status = models.CharField(
        _("verdict"),
        max_length=16,
        choices=[
            ("legal", _("legal")),
            ("illegal", _("not legal")),
            ("unverified", _("unverified")),
        ],
        default="legal",
        help_text=_(
            "The deck validator's verdict. Unverified: nothing checked is broken, but some rule "
            "could not be checked (e.g. a card the partial catalogue lacks)."
        ),
    )
    legal = models.BooleanField(_("legal"))
    approval_reason = models.TextField(
        _("approval reason"),
        blank=True,
        help_text=_("Why the organiser accepted an unverified list."),
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("approved by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    approved_at = models.DateTimeField(_("approved at"), null=True, blank=True)
    result = models.JSONField(_("validation result"), default=dict)
    extra_errors = models.JSONField(_("tournament errors"), default=list, blank=True)
    rule_card = models.CharField(_("rule card"), max_length=200, blank=True)
    follower = models.CharField(_("follower"), max_length=200, blank=True)
    hero = models.CharField(_("hero"), max_length=200, blank=True)
    is_current = models.BooleanField(_("current"), default=True)
    locked = models.BooleanField(_("locked"), default=False)
    locked_at = models.DateTimeField(_("locked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("deck submission")
        verbose_name_plural = _("deck submissions")
        ordering = ["member", "version"]
        constraints = [
            models.UniqueConstraint(fields=["member", "version"], name="decksubmission_version"),
            models.UniqueConstraint(
                fields=["member"], condition=Q(is_current=True), name="decksubmission_one_current"
            ),
            models.UniqueConstraint(
                fields=["member"], condition=Q(locked=True), name="decksubmission_one_locked"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} v{self.version}"

    @property
    def verdict(self) -> str:
        """The list's verdict as every page and export shows it: ``"illegal"`` when the
        validator found a broken rule or the event adds an error (``extra_errors``), else the
        validator's ``status`` (``"legal"`` or ``"unverified"``; an unverified list the
        organiser approved stays unverified, with ``approval_reason`` shown beside it).
        docs/rules.md §17 (Card data sources and coverage)."""
        if self.extra_errors or self.status == "illegal":
            return "illegal"
        return "unverified" if self.status == "unverified" else "legal"

    @property
    def unknown_cards(self) -> list[str]:
        """Names the partial card catalogue lacks (``result["unknown_cards"]``), in list
        order; ``[]`` when none or for results stored before the field existed."""
        names = (self.result or {}).get("unknown_cards") or []
        return [str(name) for name in names] if isinstance(names, list) else []
