"""``GET /api/formats/``: the active formats and what each checks.

Formats: docs/rules.md §4 (HKK formats and ban lists (Retró, TM, Páros)), §10 (WoW TCG formats
and ban lists) and §12 (Blue Moon decks).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks.selectors.formats import format_list_active


class FormatListApi(APIView):
    """The active formats: what each checks (home game first)."""

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
