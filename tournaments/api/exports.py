"""Standings and exports API: the standings (JSON and CSV), a round's pairings as CSV and the
whole event as JSON. Serializers and views of ``/api/tournaments/{id}/standings/``,
``…/standings.csv``, ``…/rounds/{n}/pairings.csv`` and ``…/export/``.

Rules: docs/rules.md §15 (Match points and tiebreakers).
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpResponse, HttpResponseBase
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from hkk_tournament import http_cache
from tournaments import selectors, services
from tournaments.api._common import READ_ERRORS, TournamentApi, csv_response
from tournaments.models import Round, StandingsSnapshot, Tournament
from tournaments.permissions import can_manage

#: Seconds a rendered standings body is kept (a new snapshot version has a new key anyway).
CACHE_SECONDS = 600

# --- serializers --------------------------------------------------------------------------


class TiebreakerOutputSerializer(serializers.Serializer):
    """One tiebreaker of a standings row: ``code``, exact ``value`` (e.g. ``7/3``) and ``decimal``
    (4 places, e.g. ``2.3333``).
    """

    code = serializers.CharField()
    value = serializers.CharField(help_text=_("Exact value, e.g. 7/3."))
    decimal = serializers.CharField(help_text=_("Rounded to 4 decimals, e.g. 2.3333."))


class StandingOutputSerializer(serializers.Serializer):
    """A standings row (``selectors.StandingView``): rank, entry and name, match and game
    points, matches played, dropped, and the tiebreakers in the tournament's order.
    """

    rank = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()
    match_points = serializers.IntegerField()
    game_points = serializers.IntegerField()
    matches_played = serializers.IntegerField()
    dropped = serializers.BooleanField()
    tiebreakers = TiebreakerOutputSerializer(many=True)


class ExportOutputSerializer(serializers.Serializer):
    """The whole event (``services.tournament_export``)."""

    format = serializers.CharField()
    kind = serializers.CharField()
    policy = serializers.CharField()
    games_per_match = serializers.IntegerField()
    tiebreakers = serializers.ListField(child=serializers.CharField())
    entries = serializers.ListField(child=serializers.DictField())
    rounds = serializers.ListField(child=serializers.DictField())
    drops = serializers.ListField(child=serializers.DictField())
    standings = serializers.ListField(child=serializers.DictField())


# --- views --------------------------------------------------------------------------------


class StandingsApi(TournamentApi):
    """GET /api/tournaments/{tournament_id}/standings/: per entry the rank, match and game points
    and each tiebreaker (exact fraction and a 4-decimal value); only complete matches count.

    Read from the stored snapshot (recomputed when results are recorded, never on read) with
    ``ETag`` / ``Last-Modified`` from it: a conditional GET answers 304; ``Cache-Control:
    public, max-age=10`` for anonymous readers of a public event. Anyone who may see the event;
    404 ``tournament_not_found`` otherwise.
    """

    @extend_schema(
        operation_id="tournaments_standings",
        summary="Standings: match points, game points and the tiebreakers (exact and decimal)",
        responses={200: StandingOutputSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponseBase:
        tournament = self.visible_tournament(tournament_id)
        snapshot = selectors.standings_snapshot(tournament)
        tag = selectors.snapshot_tag(snapshot)
        modified = snapshot.computed_at if snapshot is not None else None
        unchanged = http_cache.not_modified(request, tag=tag, last_modified=modified)
        if unchanged is not None:
            return unchanged
        if snapshot is None or tag is None:
            views = services.standings_views(tournament=tournament, snapshot=None)
            response: HttpResponseBase = Response(StandingOutputSerializer(views, many=True).data)
        else:
            response = HttpResponse(
                self._snapshot_json(tournament, snapshot, tag), content_type="application/json"
            )
        return http_cache.add_validators(
            request, response, tag=tag, last_modified=modified, public=tournament.is_public
        )

    @staticmethod
    def _snapshot_json(tournament: Tournament, snapshot: StandingsSnapshot, tag: str) -> bytes:
        """The JSON body of a stored snapshot, rendered once per snapshot version (cache)."""
        key = f"api-standings:{tag}"
        body = cache.get(key)
        if body is None:
            views = services.standings_views(tournament=tournament, snapshot=snapshot)
            data = StandingOutputSerializer(views, many=True).data
            body = JSONRenderer().render(data)
            cache.set(key, body, CACHE_SECONDS)
        return bytes(body)


class StandingsCsvApi(TournamentApi):
    """GET /api/tournaments/{tournament_id}/standings.csv: the standings as CSV (UTF-8 with a BOM):
    rank, entry, match and game points, each tiebreaker's exact value, dropped.

    Anyone who may see the event; 404 ``tournament_not_found`` otherwise.
    """

    @extend_schema(
        operation_id="tournaments_standings_csv",
        summary="Standings as CSV",
        responses={(200, "text/csv"): OpenApiTypes.STR, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        tournament = self.visible_tournament(tournament_id)
        return csv_response(
            services.standings_csv(tournament), f"tournament-{tournament.pk}-standings.csv"
        )


class RoundPairingsCsvApi(TournamentApi):
    """GET /api/tournaments/{tournament_id}/rounds/{number}/pairings.csv: a round's tables, game
    wins, draws and match points as CSV (UTF-8 with a BOM).

    Anyone who may see the event; a draft round is 404 ``round_not_found`` for all but organisers.
    """

    @extend_schema(
        operation_id="tournaments_rounds_pairings_csv",
        summary="A round's pairings and results as CSV",
        responses={(200, "text/csv"): OpenApiTypes.STR, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, number: int) -> HttpResponse:
        tournament = self.visible_tournament(tournament_id)
        rnd = selectors.round_get_visible(tournament=tournament, number=number, user=request.user)
        return csv_response(
            services.pairings_csv(rnd), f"tournament-{tournament.pk}-round-{rnd.number}.csv"
        )


class TournamentExportApi(TournamentApi):
    """GET /api/tournaments/{tournament_id}/export/: the whole event as JSON
    (``services.tournament_export``: entries, rounds with pairings and games, drops, standings).

    Anyone who may see the event; draft rounds are left out for all but the organisers.
    """

    @extend_schema(
        operation_id="tournaments_export",
        summary="The whole event as JSON (entries, rounds, games, standings)",
        responses={200: ExportOutputSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.visible_tournament(tournament_id)
        data = services.tournament_export(tournament=tournament)
        if not can_manage(request.user, tournament):
            data["rounds"] = [r for r in data["rounds"] if r["status"] != Round.Status.DRAFT]
        return Response(data)
