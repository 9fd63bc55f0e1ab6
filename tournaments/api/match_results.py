"""Match-level results API: record a whole match from its result slip (2-0, 2-1, 1-1, a
draw, a no-show; docs/rules.md §6 (HKK first-player rights), §16 (Deck checks, penalties and
result reporting))."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.api._common import ERRORS, TournamentApi
from tournaments.api.matches import MatchOutputSerializer, match_response


class MatchResultInputSerializer(serializers.Serializer):
    """Body of POST .../matches/{match_id}/result/: ``result`` seen from seat A (``"2-1-0"``:
    game wins of A and B and drawn games; ``"2-1"`` works too), or ``"no_show_a"`` /
    ``"no_show_b"``; ``die_roll_winner`` (entry id) when the policy needs a roll not yet
    recorded.
    """

    result = serializers.CharField(max_length=16, help_text=_('e.g. "2-0", "2-1-0", "no_show_b"'))
    die_roll_winner = serializers.IntegerField(required=False, allow_null=True)


class MatchResultApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/matches/{match_id}/result/: record a whole match from
    its result slip (``services.match_result_record``): the games it stands for, each with the
    right holder of the first-player policy; a no-show is a match loss for the absent side.

    Judges and organisers (``require_judge``), never for a match they play in (403
    ``own_match``, refused by the service). 201 with the match; 404 ``match_not_found``; 409
    ``games_already_recorded``, ``round_not_published``, ``round_finished``, ``bye_match``; 400
    ``invalid_result``, ``roll_not_recorded``, ``not_in_match``.
    """

    @extend_schema(
        operation_id="tournaments_matches_result_record",
        summary="Record a whole match from its slip (2-0, 2-1, 1-1, draw, no-show)",
        request=MatchResultInputSerializer,
        responses={201: MatchOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = MatchResultInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        match = selectors.match_get(tournament=tournament, match_id=match_id)
        services.match_result_record(
            match=match,
            result=data["result"],
            die_roll_winner=data.get("die_roll_winner"),
            recorded_by=request.user,
        )
        response = match_response(tournament, match_id)
        response.status_code = status.HTTP_201_CREATED
        return response
