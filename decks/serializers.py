"""Input and output serializers of the decks API (STYLE.md §5.6). No ``save()`` here."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from decks.domain.parser import MAX_TEXT_LENGTH

#: Structured-input keys that hold one card (a name) rather than a list.
SINGLE_CARD_KEYS = ("rule_card", "follower", "hero", "leader", "inquisitor", "emissary")
LIST_KEYS = ("main", "sideboard")


class DeckValidateInputSerializer(serializers.Serializer):
    """Either ``text`` (the list as typed) or the structured sections, plus ``format``."""

    format = serializers.SlugField(max_length=100, help_text=_("Format slug, e.g. hkk."))
    text = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        max_length=MAX_TEXT_LENGTH,
        help_text=_("The deck list as text: one card per line, e.g. “3 Card name”."),
    )
    main = serializers.ListField(
        child=serializers.JSONField(),
        required=False,
        help_text=_('Main deck: items are “Name”, “3 Name” or {"name": …, "count": 3}.'),
    )
    sideboard = serializers.ListField(
        child=serializers.JSONField(), required=False, help_text=_("Sideboard, like main.")
    )
    rule_card = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=200
    )
    follower = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=200
    )
    hero = serializers.CharField(required=False, allow_null=True, allow_blank=True, max_length=200)
    leader = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=200
    )
    inquisitor = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=200
    )
    emissary = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=200
    )

    def structured(self) -> dict | None:
        """The structured sections given (``None`` when the client sent none of them)."""
        data = self.validated_data
        present = {key: data[key] for key in (*LIST_KEYS, *SINGLE_CARD_KEYS) if key in data}
        return present or None


class ViolationOutputSerializer(serializers.Serializer):
    """One error or warning of a deck validation: stable ``code``, translated ``message``, the
    ``card`` and input ``line`` it concerns (null when none) and ``params``.
    """

    code = serializers.CharField(help_text=_("Stable violation code, e.g. too_many_copies."))
    message = serializers.CharField(help_text=_("Translated message (Accept-Language)."))
    card = serializers.CharField(allow_null=True)
    line = serializers.IntegerField(allow_null=True)
    params = serializers.DictField(help_text=_("Values the message was built from."))


class DeckCountsOutputSerializer(serializers.Serializer):
    """Card counts of a validated deck: ``main`` and ``sideboard``."""

    main = serializers.IntegerField()
    sideboard = serializers.IntegerField()


class DeckValidateOutputSerializer(serializers.Serializer):
    """The 200 body of POST /api/decks/validate/: format slug, ``legal``, the counts, the rule card,
    follower and hero found, and the errors and warnings (:class:`ViolationOutputSerializer`).
    """

    format = serializers.CharField()
    legal = serializers.BooleanField()
    counts = DeckCountsOutputSerializer()
    rule_card = serializers.CharField(allow_null=True)
    follower = serializers.CharField(allow_null=True)
    hero = serializers.CharField(allow_null=True)
    errors = ViolationOutputSerializer(many=True)
    warnings = ViolationOutputSerializer(many=True)


class ErrorOutputSerializer(serializers.Serializer):
    """Error body ``{"detail", "code"}`` of the decks and game-setup APIs, e.g. ``unknown_format``,
    ``invalid_deck_input`` (400) or ``request_too_large`` (413).
    """

    detail = serializers.CharField()
    code = serializers.CharField()
