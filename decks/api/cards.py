"""``GET /api/cards/?game=&q=&kind=``: paginated card search (limit/offset).

Card data and its sources: docs/rules.md §17 (Card data sources and coverage).
"""

from __future__ import annotations

from typing import Any

from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from decks.selectors.cards import CardFilter, card_list


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

    @extend_schema(operation_id="cards_list", summary="Search cards")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)
