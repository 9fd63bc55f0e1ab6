"""Round clock API: read the time left of a round (or one table) and, for the organisers and
judges, start, pause, resume and extend it. Only facts are stored; the time left is computed
(``tournaments.domain.clock``; docs/rules.md §16 (Deck checks, penalties and result
reporting)).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from hkk_tournament.web.converters import SMALLINT_MAX
from hkk_tournament.web.schema import ErrorResponseSerializer
from tournaments import selectors, services
from tournaments.api._common import ERRORS, READ_ERRORS, TournamentApi
from tournaments.models import Round


class ClockOutputSerializer(serializers.Serializer):
    """The clock now: ``state`` (not_started, running, paused, over), ``seconds_left``,
    ``ends_at`` (while running), ``total_seconds`` (length plus extensions) and ``server_now``
    (to correct the client's own clock)."""

    state = serializers.CharField()
    seconds_left = serializers.IntegerField()
    ends_at = serializers.DateTimeField(allow_null=True)
    total_seconds = serializers.IntegerField()
    server_now = serializers.DateTimeField()
    table = serializers.IntegerField(allow_null=True)


class ClockQuerySerializer(serializers.Serializer):
    """The query of GET .../clock/: ``table`` (optional), a table number 1 … 32767 in ASCII or
    other Unicode decimal digits; anything else (``²``, ``1.5``, ``abc``, ``0``) answers 400
    ``invalid`` with ``fields["table"]``; an empty value counts as none."""

    table = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=SMALLINT_MAX,
        help_text=_("Add this table's extension to the clock."),
    )


class ClockInputSerializer(serializers.Serializer):
    """Body of POST .../clock/: ``action`` and, for ``start`` (optional, the round length) and
    ``extend`` (required), ``minutes``; ``table`` extends one table only (judges may do that;
    everything else needs an organiser)."""

    action = serializers.ChoiceField(choices=["start", "pause", "resume", "extend"])
    minutes = serializers.IntegerField(required=False, min_value=1, max_value=240)
    table = serializers.IntegerField(required=False, min_value=1, max_value=SMALLINT_MAX)

    def validate(self, attrs: dict) -> dict:
        if attrs["action"] == "extend" and "minutes" not in attrs:
            raise serializers.ValidationError({"minutes": _("How many minutes to add?")})
        return attrs


def clock_body(rnd: Round, table: int | None) -> dict:
    match = selectors.match_for_table(round=rnd, table=table) if table else None
    reading = services.clock_read(round=rnd, match=match)
    return {
        "state": reading.state,
        "seconds_left": reading.seconds_left,
        "ends_at": reading.ends_at,
        "total_seconds": reading.total_seconds,
        "server_now": timezone.now(),
        "table": table,
    }


class RoundClockApi(TournamentApi):
    """GET/POST /api/tournaments/{tournament_id}/rounds/{number}/clock/.

    GET: anyone who may see the round; ``?table=N`` adds that table's extension (400
    ``invalid`` for a value that is not a table number, :class:`ClockQuerySerializer`). POST: start,
    pause, resume or extend (organisers; judges may extend one table, never their own: 403
    ``own_match``). 404 ``round_not_found``,
    ``table_not_in_round``; 409 ``round_not_running``, ``clock_already_started``,
    ``clock_not_running``, ``clock_not_paused``; 400 ``invalid_value``.
    """

    @extend_schema(
        operation_id="tournaments_rounds_clock_retrieve",
        summary="The round clock (time left computed from the stored facts)",
        parameters=[ClockQuerySerializer],
        responses={200: ClockOutputSerializer, 400: ErrorResponseSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        query = ClockQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        tournament = self.visible_tournament(tournament_id)
        rnd = selectors.round_get_visible(tournament=tournament, number=number, user=request.user)
        table = query.validated_data.get("table")
        return Response(ClockOutputSerializer(clock_body(rnd, table)).data)

    @extend_schema(
        operation_id="tournaments_rounds_clock_update",
        summary="Start, pause, resume or extend the round clock",
        request=ClockInputSerializer,
        responses={200: ClockOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = ClockInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        table = data.get("table")
        rnd = selectors.round_get(tournament=tournament, number=number)
        action = data["action"]
        if action == "start":
            rnd = services.round_clock_start(
                actor=request.user, round=rnd, minutes=data.get("minutes")
            )
        elif action == "pause":
            rnd = services.round_clock_pause(actor=request.user, round=rnd)
        elif action == "resume":
            rnd = services.round_clock_resume(actor=request.user, round=rnd)
        else:
            rnd = services.round_clock_extend(
                actor=request.user, round=rnd, minutes=data["minutes"], table=table
            )
        return Response(ClockOutputSerializer(clock_body(rnd, table)).data)
