"""Top-cut API: the bracket, and (organisers) starting the top cut or pairing the next bracket
round (docs/rules.md §14 (Swiss pairing and byes))."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.api._common import ERRORS, READ_ERRORS, TournamentApi
from tournaments.api.matches import MatchOutputSerializer
from tournaments.models import Round, Tournament


class BracketRoundOutputSerializer(serializers.Serializer):
    """One bracket round: number, status, size, seeds (entry id → seed) and its tables."""

    number = serializers.IntegerField(source="round.number")
    status = serializers.CharField(source="round.status")
    seeds = serializers.DictField(child=serializers.IntegerField())
    matches = MatchOutputSerializer(many=True)


class TopCutOutputSerializer(serializers.Serializer):
    """The bracket so far, the suggested size for the game and the champion (entry id)."""

    default_size = serializers.IntegerField()
    champion = serializers.IntegerField(allow_null=True)
    rounds = BracketRoundOutputSerializer(many=True)


class TopCutInputSerializer(serializers.Serializer):
    """Body of POST .../top-cut/: ``action`` ``start`` (with ``size`` 4/8/16 and
    ``higher_seed_chooses``, default true) or ``next``."""

    action = serializers.ChoiceField(choices=["start", "next"])
    size = serializers.ChoiceField(choices=[4, 8, 16], required=False)
    higher_seed_chooses = serializers.BooleanField(default=True)

    def validate(self, attrs: dict) -> dict:
        if attrs["action"] == "start" and "size" not in attrs:
            raise serializers.ValidationError({"size": "4, 8 or 16"})
        return attrs


def _body(tournament: Tournament, user: Any) -> dict:
    return {
        "default_size": services.top_cut_default_size(tournament),
        "champion": services.top_cut_champion(tournament=tournament),
        "rounds": [
            {
                "round": b.round,
                "seeds": {str(k): v for k, v in b.seeds.items()},
                "matches": b.matches,
            }
            for b in selectors.top_cut_rounds(tournament=tournament, user=user)
        ],
    }


class TopCutApi(TournamentApi):
    """GET/POST /api/tournaments/{tournament_id}/top-cut/.

    GET: anyone who may see the event. POST (organisers): start (201) or next bracket round
    (201; 200 after the final). 400 ``invalid_value``, ``top_cut_too_few_entries``; 409
    ``round_in_progress``, ``top_cut_started``, ``top_cut_not_started``,
    ``top_cut_needs_winner``, ``no_rounds``.
    """

    @extend_schema(
        operation_id="tournaments_top_cut_retrieve",
        summary="The top-cut bracket",
        responses={200: TopCutOutputSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.visible_tournament(tournament_id)
        return Response(TopCutOutputSerializer(_body(tournament, request.user)).data)

    @extend_schema(
        operation_id="tournaments_top_cut_update",
        summary="Start the top cut or pair its next round",
        request=TopCutInputSerializer,
        responses={201: TopCutOutputSerializer, 200: TopCutOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        serializer = TopCutInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        made: Round | None
        if data["action"] == "start":
            made = services.top_cut_start(
                tournament=tournament,
                size=int(data["size"]),
                higher_seed_chooses=data["higher_seed_chooses"],
                actor=request.user,
            )
        else:
            made = services.top_cut_next(tournament=tournament, actor=request.user)
        code = status.HTTP_201_CREATED if made is not None else status.HTTP_200_OK
        return Response(TopCutOutputSerializer(_body(tournament, request.user)).data, status=code)
