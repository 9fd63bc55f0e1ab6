"""Meta statistics API: ``GET /api/meta/`` (the statistics of a filter, the pages' data) and
``GET``/``PUT /api/me/list-consent/`` (the player's consent). docs/rules.md §20 (Meta
statistics)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from hkk_tournament.web.schema import ErrorResponseSerializer
from tournaments.selectors.meta import MetaQuery, consent_of, meta_query_check, meta_view, view_dict
from tournaments.services.meta import consent_set


class MetaCardSerializer(serializers.Serializer):
    """One card's statistics: counts of lists and copies (main deck, sideboard, and among the
    top lists) and exact shares (``"9/38"``)."""

    name = serializers.CharField()
    kind = serializers.CharField()
    main_lists = serializers.IntegerField()
    main_copies = serializers.IntegerField()
    main_top_lists = serializers.IntegerField()
    main_top_copies = serializers.IntegerField()
    side_lists = serializers.IntegerField()
    side_copies = serializers.IntegerField()
    side_top_lists = serializers.IntegerField()
    side_top_copies = serializers.IntegerField()
    main_share = serializers.CharField(help_text=_("Main-deck lists / all lists, exact."))
    main_average = serializers.CharField(help_text=_("Copies / main-deck lists, exact."))
    main_top_share = serializers.CharField(help_text=_("Main-deck top lists / top lists."))
    main_top_of = serializers.CharField(help_text=_("Main-deck top lists / main-deck lists."))
    side_share = serializers.CharField()
    side_average = serializers.CharField()
    side_top_share = serializers.CharField()
    side_top_of = serializers.CharField()


class MetaFeatureSerializer(serializers.Serializer):
    """One value of a deck feature (rule card, hero, people …) with its match record; a
    ``win_rate`` of ``null`` means too few matches."""

    value = serializers.CharField()
    lists = serializers.IntegerField()
    share = serializers.CharField()
    top_lists = serializers.IntegerField()
    top_share = serializers.CharField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    win_rate = serializers.CharField(allow_null=True)


class MetaSerializer(serializers.Serializer):
    """The statistics of a filter (``selectors.meta.view_dict``)."""

    game = serializers.CharField()
    format = serializers.CharField(allow_null=True)
    date_from = serializers.DateField(allow_null=True)
    date_to = serializers.DateField(allow_null=True)
    tournament = serializers.IntegerField(allow_null=True)
    events = serializers.IntegerField()
    lists = serializers.IntegerField()
    top_lists = serializers.IntegerField()
    min_matches = serializers.IntegerField()
    cards = MetaCardSerializer(many=True)
    features = serializers.DictField(child=MetaFeatureSerializer(many=True))
    win_feature = serializers.CharField(allow_null=True)


class MetaFilterSerializer(serializers.Serializer):
    """The filter: a game (slug), optionally a format (slug) of it, an inclusive date range or
    one event."""

    game = serializers.CharField()
    format = serializers.CharField(required=False, allow_blank=True)
    date_from = serializers.DateField(required=False, allow_null=True)
    date_to = serializers.DateField(required=False, allow_null=True)
    tournament = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**31 - 1
    )


class MetaApi(APIView):
    """The meta statistics of published lists."""

    @extend_schema(
        operation_id="meta_statistics",
        parameters=[MetaFilterSerializer],
        responses={200: MetaSerializer, 400: OpenApiResponse(ErrorResponseSerializer)},
    )
    def get(self, request: Request) -> Response:
        """Statistics of the finished public events with published lists matching the filter
        (game, optionally format, inclusive date range, or one event). Errors:
        ``invalid_filter`` (400: unknown game or format, or a range ending before it starts)."""
        params = MetaFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        query = MetaQuery(
            game=data["game"],
            format=data.get("format") or None,
            date_from=data.get("date_from"),
            date_to=data.get("date_to"),
            tournament_id=data.get("tournament"),
        )
        meta_query_check(query)
        return Response(view_dict(meta_view(query)))


class ListConsentSerializer(serializers.Serializer):
    """Whether the user's published lists count in the meta statistics."""

    share_lists = serializers.BooleanField()


class ListConsentApi(APIView):
    """The signed-in player's consent to count in the meta statistics."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="list_consent_read", responses={200: ListConsentSerializer})
    def get(self, request: Request) -> Response:
        """The current choice."""
        return Response({"share_lists": consent_of(request.user)})

    @extend_schema(
        operation_id="list_consent_set",
        request=ListConsentSerializer,
        responses={200: ListConsentSerializer, 400: OpenApiResponse(ErrorResponseSerializer)},
    )
    def put(self, request: Request) -> Response:
        """Change the choice; the statistics of the player's finished events are recomputed."""
        data: Any = ListConsentSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        consent_set(user=request.user, share_lists=data.validated_data["share_lists"])
        return Response({"share_lists": consent_of(request.user)})
