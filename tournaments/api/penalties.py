"""Penalty log API: list and record penalties for any infraction, and the log as CSV
(docs/rules.md §16 (Deck checks, penalties and result reporting)). Judges and organisers."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from hkk_tournament.web.downloads import csv_response
from tournaments import selectors, services
from tournaments.api._common import ERRORS, ROLE_READ_ERRORS, TournamentApi
from tournaments.models import Penalty


class PenaltyOutputSerializer(serializers.Serializer):
    """One logged penalty (codes plus translated labels)."""

    id = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry_id")
    round = serializers.IntegerField(source="round.number", allow_null=True, default=None)
    category = serializers.CharField()
    category_label = serializers.CharField(source="get_category_display")
    kind = serializers.CharField()
    kind_label = serializers.CharField(source="get_kind_display")
    notes = serializers.CharField()
    judge = serializers.CharField(source="judge.username", allow_null=True, default=None)
    deck_check = serializers.IntegerField(source="deck_check_id", allow_null=True)
    created_at = serializers.DateTimeField()


class PenaltyInputSerializer(serializers.Serializer):
    """Body of POST .../penalties/: ``entry``, ``category``, ``kind``, optional ``round``
    (number) and ``notes``."""

    entry = serializers.IntegerField()
    category = serializers.ChoiceField(choices=Penalty.Category.choices)
    kind = serializers.ChoiceField(choices=Penalty.Kind.choices)
    round = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    notes = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class PenaltyListCreateApi(TournamentApi):
    """GET/POST /api/tournaments/{tournament_id}/penalties/: the penalty log; record one.

    Judges and organisers. 400 ``invalid_value``; 404 ``round_not_found``.
    """

    @extend_schema(
        operation_id="tournaments_penalties_list",
        summary="The penalty log",
        responses={200: PenaltyOutputSerializer(many=True), **ROLE_READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        rows = services.penalties_of(tournament=tournament)
        return Response(PenaltyOutputSerializer(rows, many=True).data)

    @extend_schema(
        operation_id="tournaments_penalties_create",
        summary="Record a penalty for any infraction",
        request=PenaltyInputSerializer,
        responses={201: PenaltyOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = PenaltyInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        rnd = (
            selectors.round_get(tournament=tournament, number=data["round"])
            if data.get("round")
            else None
        )
        penalty = services.penalty_record(
            tournament=tournament,
            entry=data["entry"],
            category=data["category"],
            kind=data["kind"],
            round=rnd,
            notes=data.get("notes", ""),
            actor=request.user,
        )
        return Response(PenaltyOutputSerializer(penalty).data, status=status.HTTP_201_CREATED)


class PenaltyCsvApi(TournamentApi):
    """GET /api/tournaments/{tournament_id}/penalties.csv: the penalty log as CSV (headers in the
    request's language). Judges and organisers."""

    @extend_schema(
        operation_id="tournaments_penalties_csv",
        summary="The penalty log as CSV",
        responses={(200, "text/csv"): OpenApiTypes.STR, **ROLE_READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        tournament = self.judged_tournament(tournament_id)
        return csv_response(
            services.penalties_csv(tournament), f"tournament-{tournament.pk}-penalties.csv"
        )
