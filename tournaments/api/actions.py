"""The organiser action log API: the recorded actions of an event and restoring the results an
unpublish or discard deleted (organisers only; docs/rules.md §14 (Swiss pairing and byes))."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.api._common import ERRORS, ROLE_READ_ERRORS, TournamentApi
from tournaments.models import TournamentAction


class ActionOutputSerializer(serializers.Serializer):
    """One recorded organiser action (``id``: for ``.../actions/{id}/restore/``)."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=TournamentAction.Kind.choices)
    round_number = serializers.IntegerField(allow_null=True)
    entry = serializers.IntegerField(source="entry_id", allow_null=True)
    reason = serializers.CharField()
    params = serializers.DictField()
    by = serializers.CharField(source="by.username", allow_null=True, default=None)
    at = serializers.DateTimeField()


class TournamentActionsApi(TournamentApi):
    """GET .../actions/: the organiser action log, newest first."""

    @extend_schema(
        operation_id="tournaments_actions_list",
        summary="The recorded organiser actions",
        responses={200: ActionOutputSerializer(many=True), **ROLE_READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        actions = selectors.tournament_actions(tournament=tournament)
        return Response(ActionOutputSerializer(actions, many=True).data)


class ResultsRestoreApi(TournamentApi):
    """POST .../actions/{action_id}/restore/: put back the results that action (an unpublish
    or discard) deleted, into the round of the same number, published again. 201 with the
    ``results_restored`` action; 404 ``action_not_found``; 409 ``results_already_restored``,
    ``results_not_restorable`` (params ``tables``), ``round_not_published``,
    ``tournament_status``."""

    @extend_schema(
        operation_id="tournaments_actions_restore_results",
        summary="Restore the results an unpublish or discard deleted",
        request=None,
        responses={201: ActionOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, action_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        action = services.round_results_restore(
            tournament=tournament, action_id=action_id, actor=request.user
        )
        return Response(ActionOutputSerializer(action).data, status=status.HTTP_201_CREATED)
