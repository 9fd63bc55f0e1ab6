"""``POST /api/decks/validate/``: validate a deck list (text or structured) against a format.

200 with the validation result (legal or not); 400 for unusable input (unknown format, empty
list, bad shape); 413 for a body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (the project's
handler answers it). Deck rules: docs/rules.md §3 (HKK deck construction (Hagyományos)), §9
(WoW TCG constructed decks) and §12 (Blue Moon decks).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks.domain.parser import MAX_TEXT_LENGTH
from decks.domain.sections import DECK_SECTIONS, section_codes
from decks.services.validation import deck_validate, validation_result_dict
from hkk_tournament.web.schema import ErrorResponseSerializer


def _card_name_field() -> serializers.CharField:
    return serializers.CharField(required=False, allow_null=True, allow_blank=True, max_length=200)


class DeckValidateInputSerializer(serializers.Serializer):
    """Either ``text`` (the list as typed) or the structured sections, plus ``format``: one key
    per deck section (``decks.domain.sections.DECK_SECTIONS``), a list for a ``many`` section
    (main deck, sideboard), else one card name."""

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

    def get_fields(self) -> dict[str, serializers.Field]:
        """The declared fields plus one per registered deck section not declared here."""
        fields = super().get_fields()
        for code, section in DECK_SECTIONS.items():
            if code not in fields:
                fields[code] = (
                    serializers.ListField(child=serializers.JSONField(), required=False)
                    if section.many
                    else _card_name_field()
                )
        return fields

    def structured(self) -> dict | None:
        """The structured sections given (``None`` when the client sent none of them)."""
        data = self.validated_data
        present = {key: data[key] for key in section_codes() if key in data}
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
    """The 200 body of POST /api/decks/validate/: format slug, the verdict (``status``;
    ``legal`` true only when ``status`` is ``legal``), the names a partial catalogue lacks,
    the counts, the rule card, follower and hero found, and the errors and warnings
    (:class:`ViolationOutputSerializer`). docs/rules.md §17 (Card data sources and coverage).
    """

    format = serializers.CharField()
    status = serializers.CharField(
        help_text=_(
            "legal: every rule checked and none broken; illegal: a rule is broken; unverified: "
            "nothing checked is broken, but some rule could not be checked (e.g. a card the "
            "partial catalogue lacks)."
        ),
    )
    legal = serializers.BooleanField(help_text=_("True only when status is legal."))
    unknown_cards = serializers.ListField(
        child=serializers.CharField(),
        help_text=_("Names the partial card catalogue lacks, in list order."),
    )
    counts = DeckCountsOutputSerializer()
    rule_card = serializers.CharField(allow_null=True)
    follower = serializers.CharField(allow_null=True)
    hero = serializers.CharField(allow_null=True)
    # The output key is "errors"; it shadows ``Serializer.errors``, unused on an output serializer.
    errors = ViolationOutputSerializer(many=True)  # type: ignore[assignment]
    warnings = ViolationOutputSerializer(many=True)


class DeckValidateApi(APIView):
    """Validate a deck list (text or structured) against a format."""

    throttle_scope = "deck_validation"

    @extend_schema(
        operation_id="decks_validate",
        summary="Validate a deck list",
        request=DeckValidateInputSerializer,
        responses={
            200: DeckValidateOutputSerializer,
            400: ErrorResponseSerializer,
            413: ErrorResponseSerializer,
        },
        examples=[
            OpenApiExample(
                "Text",
                value={"format": "hkk", "text": "3 Gigaököl\n3 Garokk\nSzabálylap: Ősi rúna"},
                request_only=True,
            ),
            OpenApiExample(
                "Structured",
                value={
                    "format": "wow-constructed",
                    "hero": "Gorebelly",
                    "main": ["4 Charge", {"name": "Cleave", "count": 4}],
                    "sideboard": [],
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        length = request.META.get("CONTENT_LENGTH") or "0"
        if length.isdigit() and int(length) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            # Also guarded by middleware; DRF's JSON parser reads the stream without
            # Django's size check, so never rely on that alone.
            raise RequestDataTooBig()
        serializer = DeckValidateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result = deck_validate(
            format_slug=data["format"], text=data.get("text"), data=serializer.structured()
        )
        # validation_result_dict already has exactly DeckValidateOutputSerializer's shape (a
        # test asserts it); serialising it again would only cost time (about 2 ms a request).
        return Response(validation_result_dict(result))
