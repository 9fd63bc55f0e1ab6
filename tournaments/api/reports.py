"""Result reports API: players report their own match results, judges confirm a report and see
the disputed matches. Serializers and views of ``/api/tournaments/{id}/matches/{m}/reports/``,
``…/reports/{r}/confirm/`` and ``…/disputes/``.

Rules: docs/rules.md §16 (Deck checks, penalties and result reporting).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from hkk_tournament.web.converters import ID_MAX, SMALLINT_MAX
from tournaments import selectors, services
from tournaments.access import own_entry_in_match, require_report_reader
from tournaments.api._common import ERRORS, ROLE_READ_ERRORS, TournamentApi
from tournaments.models import Match, Tournament

# --- serializers --------------------------------------------------------------------------


class ReportGameSerializer(serializers.Serializer):
    """One reported game: ``winner`` entry id (null = draw), ``first`` entry id, ``waived``."""

    number = serializers.IntegerField(min_value=1, max_value=9)
    winner = serializers.IntegerField(
        allow_null=True, min_value=1, max_value=ID_MAX, help_text=_("Entry id; null for a draw.")
    )
    first = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text=_("Entry id of the entry that went first.")
    )
    waived = serializers.BooleanField(
        default=False, help_text=_("The right holder let the opponent go first.")
    )
    score = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=SMALLINT_MAX,
        help_text=_("The winner's score where the format keeps one (Blue Moon crystals)."),
    )


class ReportSubmitInputSerializer(serializers.Serializer):
    """Body of POST .../matches/{match_id}/reports/: ``games``, 1–9 reported games
    (:class:`ReportGameSerializer`).
    """

    # What ``ReportGameSerializer(many=True, ...)`` builds, spelled out so the length limits
    # type-check (the stubs' ``Serializer.__init__`` does not take the list-only arguments).
    games: serializers.ListSerializer[Any] = serializers.ListSerializer(
        child=ReportGameSerializer(), min_length=1, max_length=9
    )


class ReportOutputSerializer(serializers.Serializer):
    """A player's result report (``ResultReport``): match, entry, reporter, reported games, status
    (pending, accepted, disputed, superseded) and who resolved it when (reports, confirm and
    disputes endpoints).
    """

    id = serializers.IntegerField()
    match = serializers.IntegerField(source="match_id")
    entry = serializers.IntegerField(source="entry_id")
    reported_by = serializers.CharField(
        source="reported_by.get_username", allow_null=True, default=None
    )
    games = ReportGameSerializer(many=True)
    status = serializers.CharField(
        help_text=_("pending, accepted, disputed or superseded (see status_label).")
    )
    status_label = serializers.CharField(source="get_status_display")
    created_at = serializers.DateTimeField()
    resolved_by = serializers.CharField(
        source="resolved_by.get_username", allow_null=True, default=None
    )
    resolved_at = serializers.DateTimeField(allow_null=True)


class DisputeOutputSerializer(serializers.Serializer):
    """A match with disputed result reports (``selectors.DisputeView``): round, table, both
    entries and names, and the disputed reports (GET .../disputes/).
    """

    match = serializers.IntegerField(source="match.pk")
    round = serializers.IntegerField()
    table = serializers.IntegerField(source="match.table")
    entry_a = serializers.IntegerField(source="match.entry_a_id")
    entry_b = serializers.IntegerField(source="match.entry_b_id", allow_null=True)
    a_name = serializers.CharField()
    b_name = serializers.CharField()
    reports = ReportOutputSerializer(many=True)


# --- views --------------------------------------------------------------------------------


class MatchReportListCreateApi(TournamentApi):
    """A match's result reports: its players report, judges and the players read."""

    throttle_scope = "result_report"

    def visible_match(self, tournament: Tournament, match_id: int) -> Match:
        """The match; ``NotFound`` for a match of a draft round unless the caller organises."""
        match = selectors.match_get(tournament=tournament, match_id=match_id)
        selectors.round_get_visible(
            tournament=tournament, number=match.round.number, user=self.request.user
        )
        return match

    @extend_schema(
        operation_id="tournaments_matches_reports_list",
        summary="Result reports of a match (its players and the judges)",
        responses={200: ReportOutputSerializer(many=True), **ROLE_READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = self.member_tournament(tournament_id)
        match = self.visible_match(tournament, match_id)
        require_report_reader(request.user, match)
        return Response(
            ReportOutputSerializer(selectors.match_reports(match=match), many=True).data
        )

    @extend_schema(
        operation_id="tournaments_matches_reports_submit",
        summary="Report your own match result (counts once both sides agree or a judge "
        "confirms; a disagreement is flagged to the judges)",
        request=ReportSubmitInputSerializer,
        responses={201: ReportOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = self.member_tournament(tournament_id)
        match = self.visible_match(tournament, match_id)
        entry_id = own_entry_in_match(request.user, match)
        serializer = ReportSubmitInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        report = services.result_report_submit(
            match=match,
            entry=entry_id,
            actor=request.user,
            games=[dict(g) for g in serializer.validated_data["games"]],
        )
        report = selectors.report_get(tournament=tournament, report_id=report.pk)
        return Response(ReportOutputSerializer(report).data, status=status.HTTP_201_CREATED)


class ReportConfirmApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/reports/{report_id}/confirm/ (no body): accept a
    player's result report.

    Judges and organisers (``require_judge``), never for a match they play in (403
    ``own_match``). The report's games are recorded (differing ones corrected), it becomes
    ``accepted`` and the match's other open reports ``superseded``. 200 with the report; 404
    ``report_not_found``; 409 ``report_closed`` and ``game_record``'s state errors;
    400 its rule errors.
    """

    throttle_scope = "result_report"

    @extend_schema(
        operation_id="tournaments_reports_confirm",
        summary="Confirm a result report (judges): its games are recorded or corrected",
        request=None,
        responses={200: ReportOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, report_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        report = selectors.report_get(tournament=tournament, report_id=report_id)
        report = services.result_report_confirm(report=report, actor=request.user)
        report = selectors.report_get(tournament=tournament, report_id=report.pk)
        return Response(ReportOutputSerializer(report).data)


class DisputeListApi(TournamentApi):
    """GET /api/tournaments/{tournament_id}/disputes/: matches with disputed result reports (round
    and table order), each with those reports.

    Judges and organisers (``require_judge``); 403 otherwise.
    """

    @extend_schema(
        operation_id="tournaments_disputes_list",
        summary="Matches whose players reported different results (judges)",
        responses={200: DisputeOutputSerializer(many=True), **ROLE_READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        matches = services.match_disputes(tournament=tournament)
        views = selectors.dispute_views(tournament=tournament, matches=matches)
        return Response(DisputeOutputSerializer(views, many=True).data)
