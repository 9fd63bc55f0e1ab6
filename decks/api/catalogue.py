"""``GET /api/catalogue/``: what each game's card catalogue covers.

A game's ``coverage`` is ``complete`` (an unknown name makes a list illegal) or ``partial``
(it makes the list unverified). docs/rules.md §17 (Card data sources and coverage).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks.selectors.coverage import catalogue_coverage_list


class CatalogueCoverageApi(APIView):
    """Each game's card catalogue: source, cards, editions, last sync, complete or partial."""

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "CatalogueCoverageOutput"

        game = serializers.SlugField()
        game_name = serializers.CharField()
        coverage = serializers.ChoiceField(
            choices=["complete", "partial"],
            help_text=_(
                "complete: an unknown card name makes a list illegal; partial: unverified."
            ),
        )
        source = serializers.CharField()  # type: ignore[assignment]
        cards = serializers.IntegerField(help_text=_("Cards in the catalogue."))
        name_only = serializers.IntegerField(
            help_text=_("Of them, names whose facts (types, colours, editions) are unknown.")
        )
        editions = serializers.IntegerField()
        editions_with_cards = serializers.IntegerField()
        last_synced_at = serializers.DateTimeField(allow_null=True)
        last_sync_status = serializers.CharField()

    @extend_schema(
        operation_id="catalogue_coverage",
        summary="Card catalogue coverage per game",
        responses={200: OutputSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer(catalogue_coverage_list(), many=True).data)
