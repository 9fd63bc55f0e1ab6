"""Standings and exports API: the standings (JSON and CSV), a round's pairings as CSV and the
whole event as JSON. Serializers and views of ``/api/tournaments/{id}/standings/``,
``…/standings.csv``, ``…/rounds/{n}/pairings.csv`` and ``…/export/``.

Rules: docs/rules.md §15 (Match points and tiebreakers).
"""

from __future__ import annotations

import hashlib
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from hkk_tournament.web import fast_path, http_cache, page_cache
from hkk_tournament.web.downloads import csv_response
from hkk_tournament.web.pagination import BoundedLimitOffsetPagination
from hkk_tournament.web.schema import ErrorResponseSerializer
from tournaments import selectors, services
from tournaments.access import can_manage
from tournaments.api._common import READ_ERRORS, TournamentApi, accepts_json
from tournaments.models import Round
from tournaments.services.jobs import enqueue_page_refresh

#: Standings rows per answer without ``?limit=``.
STANDINGS_DEFAULT_LIMIT = 100
#: Most standings rows one answer gives (a larger ``?limit=`` is clamped to it).
STANDINGS_MAX_LIMIT = 1000

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


class StandingsPagination(BoundedLimitOffsetPagination):
    """``?limit=&offset=`` of the standings: ``STANDINGS_DEFAULT_LIMIT`` rows by default, at
    most ``STANDINGS_MAX_LIMIT`` (a larger limit is clamped to it, DRF's ``max_limit``);
    ``offset`` as every list (``hkk_tournament.web.pagination``). The ``next`` / ``previous``
    links are built from the canonical parameters (:meth:`envelope`), so equal requests get
    equal bytes whatever else their query string held."""

    default_limit = STANDINGS_DEFAULT_LIMIT

    def __init__(self) -> None:
        super().__init__()
        self.max_limit = STANDINGS_MAX_LIMIT

    def window(self, request: Request) -> tuple[int, int]:
        """``(limit, offset)`` asked for by ``request`` within the bounds above; an offset past
        ``HKK_API_MAX_OFFSET`` raises DRF's ``ValidationError`` (400 ``invalid``)."""
        limit = self.get_limit(request)
        return (limit if limit is not None else self.default_limit), self.get_offset(request)

    def envelope(
        self,
        *,
        base_url: str,
        params: dict[str, Any],
        window: tuple[int, int],
        count: int,
        results: Any,
    ) -> dict[str, Any]:
        """``{"count", "next", "previous", "results"}`` for ``results`` at ``window`` (limit,
        offset) of ``count`` rows; the links are ``base_url`` with ``params`` (the filters) and
        the paging parameters."""
        limit, offset = window

        def link(at: int) -> str:
            query = {**params, self.limit_query_param: limit}
            if at > 0:
                query[self.offset_query_param] = at
            return f"{base_url}?{urlencode(query)}"

        return {
            "count": count,
            "next": link(offset + limit) if offset + limit < count else None,
            "previous": link(max(0, offset - limit)) if offset > 0 else None,
            "results": results,
        }


class StandingsQuerySerializer(serializers.Serializer):
    """The filters of ``GET …/standings/``: ``entry`` (one entry's row) and ``q`` (names
    containing this text, case- and accent-insensitive); both keep the real ranks."""

    entry = serializers.IntegerField(
        required=False, min_value=1, max_value=2**31 - 1, help_text=_("Only this entry's row.")
    )
    q = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=selectors.SEARCH_MAX_CHARS,
        help_text=_("Only the entries whose name contains this (case and accents ignored)."),
    )


class StandingsApi(TournamentApi):
    """GET /api/tournaments/{tournament_id}/standings/: per entry the rank, match and game points
    and each tiebreaker (exact fraction and a 4-decimal value); only complete matches count.
    Paged: ``{"count", "next", "previous", "results"}`` with ``?limit=`` (default 100, at most
    1,000) and ``?offset=``; ``?entry=<id>`` gives that entry's row and ``?q=<text>`` the rows
    whose name contains the text (case and accents ignored), with their real ranks. The JSON
    export and the CSV have every row.

    Read from the stored snapshot (recomputed when results are recorded, never on read). Each
    answer is kept in the shared cache per parameters and renewed when the snapshot's version
    changes (``hkk_tournament.web.page_cache``: one process renders the new version while the
    others answer with the previous one), so a repeated request never loads the snapshot's
    rows; its ``ETag`` is a hash of the body (an unchanged page keeps answering 304 to a
    conditional GET across recomputes) and ``Last-Modified`` the snapshot's time;
    ``Cache-Control: public, max-age=10`` for anonymous readers of a public event. Anyone who
    may see the event; 404 ``tournament_not_found`` otherwise; a bad filter or an offset past
    1,000,000 is 400 ``invalid`` with the field.
    """

    pagination_class = StandingsPagination

    @extend_schema(
        operation_id="tournaments_standings",
        summary="Standings (paged): match points, game points and the tiebreakers",
        parameters=[StandingsQuerySerializer],
        responses={
            200: StandingOutputSerializer(many=True),
            304: OpenApiResponse(description="Not modified (If-None-Match / If-Modified-Since)."),
            400: ErrorResponseSerializer,
            **READ_ERRORS,
        },
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponseBase:
        tournament = self.visible_tournament(tournament_id)
        query = StandingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        entry: int | None = query.validated_data.get("entry")
        q = selectors.search_text(query.validated_data.get("q"))
        paginator = StandingsPagination()
        limit, offset = window = paginator.window(request)
        params: dict[str, Any] = {"entry": entry} if entry is not None else {}
        if q:
            params["q"] = q
        snapshot = selectors.standings_snapshot(tournament)
        tag = selectors.snapshot_tag(snapshot, "api")
        modified = snapshot.computed_at if snapshot is not None else None
        base_url = request.build_absolute_uri(request.path)

        def render() -> HttpResponse:
            rows = selectors.standings_matching(
                services.standings_stored_rows(tournament=tournament, snapshot=snapshot),
                q=q,
                entry=entry,
            )
            chosen = rows[offset : offset + limit]
            views = selectors.stored_row_views(tournament=tournament, rows=chosen)
            data = paginator.envelope(
                base_url=base_url,
                params=params,
                window=window,
                count=len(rows),
                results=StandingOutputSerializer(views, many=True).data,
            )
            return HttpResponse(JSONRenderer().render(data), content_type="application/json")

        if tag is None:
            return http_cache.add_validators(
                request, render(), tag=None, last_modified=None, public=False
            )
        public = tournament.is_public and not request.user.is_authenticated
        path, language = request.get_full_path(), get_language()
        return page_cache.shared_response(
            request,
            key=standings_api_key(base_url, window, entry, q),
            version=tag,
            render=render,
            public=public,
            last_modified=modified,
            refresh=(lambda: enqueue_page_refresh(path, language)) if public else None,
        )


def standings_api_key(base_url: str, window: tuple[int, int], entry: int | None, q: str) -> str:
    """The shared cache key of a standings answer: the language, the URL without its query,
    the ``(limit, offset)`` window and the filters."""
    limit, offset = window
    identity = (
        f"{get_language()}|{base_url}|{limit}|{offset}|{entry or 0}|{selectors.search_key(q)}"
    )
    return "api-standings:" + hashlib.sha256(identity.encode()).hexdigest()


#: The query parameters the fast path of the standings answer reads itself.
_FAST_STANDINGS_PARAMS = frozenset({"limit", "offset"})


def _fast_standings(request: HttpRequest, kwargs: dict[str, Any]) -> page_cache.Candidate | None:
    """The fast path (``hkk_tournament.web.fast_path``) of :class:`StandingsApi` for an
    anonymous reader of a public event: only ``?limit=`` and ``?offset=`` (filters go to the
    view); its stored answer and current version, ``None`` without them."""
    if not set(request.GET) <= _FAST_STANDINGS_PARAMS or not accepts_json(request):
        return None
    try:
        window = StandingsPagination().window(SimpleNamespace(query_params=request.GET))  # type: ignore[arg-type]
    except ValidationError:
        return None
    key = standings_api_key(request.build_absolute_uri(request.path), window, None, "")
    state, found = selectors.public_state(kwargs["tournament_id"], also=[key], need_also=True)
    if state is None or not state.anonymous_visible:
        return None
    stored = found.get(key)
    version = selectors.snapshot_tag(state.snapshot, "api")
    if not isinstance(stored, page_cache.Stored) or version is None:
        return None
    path, language = request.get_full_path(), get_language()
    return page_cache.Candidate(key, stored, version, lambda: enqueue_page_refresh(path, language))


fast_path.register(StandingsApi, _fast_standings)


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
