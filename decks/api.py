"""REST API of the decks app (STYLE.md §5.6): one class per operation, explicit serializers.

- ``POST /api/decks/validate/`` (:class:`DeckValidateApi`): 200 with the validation result
  (legal or not); 400 for unusable input (unknown format, empty list, bad shape); 413 for a
  body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (the project's handler answers it).
- ``GET /api/formats/`` (:class:`FormatListApi`): the active formats.
- ``GET /api/cards/?game=&q=&kind=`` (:class:`CardListApi`): paginated card search.

Service errors become HTTP errors in one place, :func:`decks_exception_handler`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from decks.selectors import CardFilter, card_list, format_list_active
from decks.serializers import (
    DeckValidateInputSerializer,
    DeckValidateOutputSerializer,
    ErrorOutputSerializer,
)
from decks.services import DeckInputError, UnknownFormat, deck_validate, validation_result_dict


def decks_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """The decks service errors as 400 ``{"detail", "code"}``; everything else goes to the
    project's configured handler (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``), which also answers
    ``RequestDataTooBig`` with 413."""
    if isinstance(exc, UnknownFormat):
        return Response(
            {
                "detail": _("Unknown format: %(format)s.") % {"format": getattr(exc, "slug", "")},
                "code": "unknown_format",
            },
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, DeckInputError):
        return Response(
            {"detail": str(exc.message), "code": "invalid_deck_input"},
            status=status.HTTP_400_BAD_REQUEST,
        )
    return api_settings.EXCEPTION_HANDLER(exc, context)


class DecksApiView(APIView):
    """Base: the decks exception handler."""

    def get_exception_handler(self):
        return decks_exception_handler


class DeckValidateApi(DecksApiView):
    """Validate a deck list (text or structured) against a format."""

    @extend_schema(
        operation_id="decks_validate",
        summary="Validate a deck list",
        request=DeckValidateInputSerializer,
        responses={
            200: DeckValidateOutputSerializer,
            400: ErrorOutputSerializer,
            413: ErrorOutputSerializer,
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


class FormatListApi(DecksApiView):
    """The active formats: what each checks."""

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "FormatOutput"

        slug = serializers.SlugField()
        name = serializers.CharField()
        game = serializers.CharField(source="game.slug")
        game_name = serializers.CharField(source="game.name")
        rule_set = serializers.CharField()
        min_main = serializers.IntegerField(allow_null=True)
        max_main = serializers.IntegerField(allow_null=True)
        sideboard_mode = serializers.CharField()
        sideboard_size = serializers.IntegerField(allow_null=True)
        copy_limit = serializers.IntegerField(allow_null=True)
        colour_limit = serializers.IntegerField(allow_null=True)
        colours_not_counted = serializers.ListField(child=serializers.CharField())
        params = serializers.DictField()
        description = serializers.CharField()

    @extend_schema(
        operation_id="formats_list",
        summary="List active formats",
        responses={200: OutputSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer(format_list_active(), many=True).data)


class CardListApi(generics.ListAPIView):
    """Search the card catalogue: ``?game=wow&q=charge`` (paginated, limit/offset)."""

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "CardOutput"

        id = serializers.CharField(source="external_id")
        game = serializers.CharField(source="game.slug")
        name = serializers.CharField()
        kind = serializers.CharField()
        types = serializers.ListField(child=serializers.CharField())
        colours = serializers.ListField(child=serializers.CharField())
        class_icons = serializers.ListField(child=serializers.CharField())
        faction = serializers.CharField()
        rarity = serializers.CharField()
        unlimited = serializers.BooleanField()

    serializer_class = OutputSerializer
    filter_backends = [DjangoFilterBackend]
    filterset_class = CardFilter

    def get_queryset(self):
        return card_list()

    def get_exception_handler(self):
        return decks_exception_handler

    @extend_schema(operation_id="cards_list", summary="Search cards")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)
