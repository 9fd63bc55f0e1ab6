"""Rounds API: list rounds, pair the next Swiss round (at once or as a Celery task), read a
round's tables, swap seats in a draft, publish and finish a round. Serializers and views of
``/api/tournaments/{id}/rounds/…``.

Rules: docs/rules.md §14 (Swiss pairing and byes), §6 (HKK first-player rights).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from hkk_tournament.web import fast_path, page_cache, warmup
from hkk_tournament.web.converters import SMALLINT_MAX
from tournaments import selectors, services
from tournaments.api._common import (
    ERRORS,
    READ_ERRORS,
    ReasonInputSerializer,
    TournamentApi,
    _reason,
    accepts_json,
)
from tournaments.api.matches import MatchOutputSerializer
from tournaments.models import Round, Tournament
from tournaments.services.jobs import enqueue_page_refresh

# --- serializers --------------------------------------------------------------------------


class RoundSummaryOutputSerializer(serializers.Serializer):
    """A round without its tables: number, status, seed and timestamps (GET .../rounds/); the base
    of :class:`RoundDetailOutputSerializer`.
    """

    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    seed = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    published_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class RelaxationOutputSerializer(serializers.Serializer):
    """A pairing rule the Swiss engine had to relax for a round (``services.round_relaxations``):
    stable ``code``, the entries concerned, ``params`` and a translated ``message``.
    """

    code = serializers.CharField()
    entries = serializers.ListField(child=serializers.IntegerField())
    params = serializers.DictField()
    message = serializers.CharField()


class ByNameOutputSerializer(serializers.Serializer):
    """A row of a round's alphabetical pairings list (``selectors.pairings_by_name``): the
    entry, its table and seat, and its opponent (``opponent`` null for a bye).
    """

    entry = serializers.IntegerField()
    name = serializers.CharField()
    table = serializers.IntegerField()
    seat = serializers.CharField()
    opponent = serializers.IntegerField(allow_null=True)
    opponent_name = serializers.CharField()


class RoundDetailOutputSerializer(RoundSummaryOutputSerializer):
    """A round with its relaxations, pair-down count, tables and by-name list: the base of the
    paged GET .../rounds/{number}/ (:class:`RoundPageOutputSerializer`).
    """

    relaxations = RelaxationOutputSerializer(many=True)
    pair_downs = serializers.IntegerField()
    matches = MatchOutputSerializer(many=True)
    by_name = ByNameOutputSerializer(many=True)


class RoundPageOutputSerializer(RoundDetailOutputSerializer):
    """GET .../rounds/{number}/: the round with one page of its tables (``matches``) and the
    by-name rows of those tables, plus ``count`` (tables matching the search), ``page`` and
    ``pages``."""

    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()


class RoundChangedOutputSerializer(serializers.Serializer):
    """The answer of a change to a round (pair the next one, swap, publish, finish, unpublish,
    discard and pair again, drop after pairing): the round's ``number``, ``status``, number of
    ``tables`` (byes included) and the ``url`` of its paged tables (GET .../rounds/{number}/,
    100 tables a page), not the tables themselves (2,048 at 4,096 entries: megabytes of JSON
    nobody reads at once)."""

    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    tables = serializers.IntegerField()
    url = serializers.URLField()


class RoundQueuedOutputSerializer(serializers.Serializer):
    """The 202 body of POST .../rounds/?async=1: ``queued`` (true) and the tournament id."""

    queued = serializers.BooleanField()
    tournament = serializers.IntegerField()


class SwapInputSerializer(serializers.Serializer):
    """Body of POST .../rounds/{number}/swap/: two table numbers (≥ 1), the seat to swap (``a`` or
    ``b``) and an optional reason (at most 2000 characters).
    """

    table_x = serializers.IntegerField(min_value=1, max_value=SMALLINT_MAX)
    table_y = serializers.IntegerField(min_value=1, max_value=SMALLINT_MAX)
    swap = serializers.ChoiceField(choices=["a", "b"], help_text=_("Seat to swap: a or b."))
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


# --- helpers ------------------------------------------------------------------------------

ASYNC_PARAM = OpenApiParameter(
    "async",
    OpenApiTypes.INT,
    OpenApiParameter.QUERY,
    required=False,
    description="1: enqueue the pairing as a Celery task and answer 202 at once.",
)


def round_changed(request: Request, tournament: Tournament, rnd: Round) -> dict[str, Any]:
    """The :class:`RoundChangedOutputSerializer` shape of ``rnd``: number, status, tables
    (one query) and the absolute URL of its paged tables."""
    path = reverse(
        "tournaments-round", kwargs={"tournament_id": tournament.pk, "number": rnd.number}
    )
    return {
        "number": rnd.number,
        "status": rnd.status,
        "tables": selectors.round_table_count(round=rnd),
        "url": request.build_absolute_uri(path),
    }


#: Tables per page of GET .../rounds/{number}/.
ROUND_API_PAGE_SIZE = 100

PAGE_PARAMS = [
    OpenApiParameter(
        "page",
        OpenApiTypes.INT,
        OpenApiParameter.QUERY,
        required=False,
        description="Page of 100 tables (default 1; past the last: the last).",
    ),
    OpenApiParameter(
        "q",
        OpenApiTypes.STR,
        OpenApiParameter.QUERY,
        required=False,
        description="Only the tables where an entry's name contains this text.",
    ),
]


def round_page_body(tournament: Tournament, rnd: Round, page: int, q: str) -> bytes:
    """The JSON of :class:`RoundPageOutputSerializer`: page ``page`` of ``ROUND_API_PAGE_SIZE``
    tables of ``rnd`` matching the search ``q`` (``selectors.round_tables_page``)."""
    rnd.tournament = tournament
    tables = selectors.round_tables_page(round=rnd, number=page, size=ROUND_API_PAGE_SIZE, q=q)
    payload = {
        "number": rnd.number,
        "status": rnd.status,
        "seed": rnd.seed,
        "created_at": rnd.created_at,
        "published_at": rnd.published_at,
        "finished_at": rnd.finished_at,
        "relaxations": services.round_relaxations(rnd) if rnd.relaxations else [],
        "pair_downs": rnd.pair_downs,
        "matches": tables.matches,
        "by_name": selectors.pairings_by_name(tables.matches, tables.order),
        "count": tables.page.paginator.count,
        "page": tables.page.number,
        "pages": tables.page.paginator.num_pages,
    }
    return bytes(JSONRenderer().render(RoundPageOutputSerializer(payload).data))


def round_response(
    request: Request, tournament: Tournament, rnd: Round, code: int = status.HTTP_200_OK
) -> Response:
    """The changed round as :class:`RoundChangedOutputSerializer` with status ``code``."""
    return Response(
        RoundChangedOutputSerializer(round_changed(request, tournament, rnd)).data, status=code
    )


# --- views --------------------------------------------------------------------------------


class RoundListCreateApi(TournamentApi):
    """GET, POST /api/tournaments/{tournament_id}/rounds/: list the rounds; pair the next one.

    GET: anyone who may see the event (draft rounds for the organisers only). POST (organisers, no
    body): pair the next Swiss round as a draft, 201 with its summary
    (:class:`RoundChangedOutputSerializer`: number, status, tables, the URL of its tables);
    ``?async=1`` queues the pairing
    and answers 202 at once. 409 ``tournament_status``, ``round_in_progress``,
    ``planned_rounds_reached``, ``not_enough_entries``; 400 ``entries_without_legal_list``.
    """

    @extend_schema(
        operation_id="tournaments_rounds_list",
        summary="List rounds (drafts for the organisers only)",
        responses={200: RoundSummaryOutputSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.visible_tournament(tournament_id)
        rounds = selectors.rounds_visible(tournament=tournament, user=request.user)
        return Response(RoundSummaryOutputSerializer(rounds, many=True).data)

    @extend_schema(
        operation_id="tournaments_rounds_pair_next",
        summary="Pair the next round (a draft); ?async=1 enqueues it and answers 202",
        parameters=[ASYNC_PARAM],
        request=None,
        responses={
            201: RoundChangedOutputSerializer,
            202: RoundQueuedOutputSerializer,
            **ERRORS,
        },
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        if request.query_params.get("async") in ("1", "true", "yes"):
            services.round_pair_next_async(tournament=tournament, actor=request.user)
            return Response(
                RoundQueuedOutputSerializer({"queued": True, "tournament": tournament.pk}).data,
                status=status.HTTP_202_ACCEPTED,
            )
        rnd = services.round_pair_next(tournament=tournament, actor=request.user)
        return round_response(request, tournament, rnd, status.HTTP_201_CREATED)


class RoundDetailApi(TournamentApi):
    """GET /api/tournaments/{tournament_id}/rounds/{number}/: a round's tables with their games, the
    first-player holder of each match and the by-name rows of those tables, paged:
    ``ROUND_API_PAGE_SIZE`` tables a page (``?page=``), ``?q=`` for the tables where an entry's
    name contains the text (case and accents ignored); ``count``, ``page`` and ``pages`` say
    where the page is. The pairings CSV has every table.

    For an anonymous reader a published or finished round's answer is kept in the shared cache
    per page and search and renewed with the standings version and the round's status
    (``hkk_tournament.web.page_cache``: one process renders a new version while the others answer
    with the previous one; the ``ETag`` is a hash of the body, so a conditional GET of an
    unchanged page answers 304). Signed-in readers get it rendered afresh (die rolls and games
    at once).
    Anyone who may see the event; a draft round is 404 ``round_not_found`` for all but organisers.
    """

    @extend_schema(
        operation_id="tournaments_rounds_retrieve",
        summary="A round's pairings (100 tables a page) with the first-player holder of each match",
        parameters=PAGE_PARAMS,
        responses={200: RoundPageOutputSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, number: int) -> HttpResponseBase:
        tournament = self.visible_tournament(tournament_id)
        rnd = selectors.round_get_visible(tournament=tournament, number=number, user=request.user)
        page = selectors.page_number(request.query_params.get("page"))
        q = selectors.search_text(request.query_params.get("q"))

        def render() -> HttpResponse:
            body = round_page_body(tournament, rnd, page, q)
            return HttpResponse(body, content_type="application/json")

        if rnd.status == Round.Status.DRAFT or request.user.is_authenticated:
            return render()  # the staff and players see die rolls and games at once
        path, language = request.get_full_path(), get_language()
        return page_cache.shared_response(
            request,
            key=round_api_key(tournament.pk, rnd.number, page, q),
            version=round_api_version(selectors.standings_snapshot(tournament), rnd),
            render=render,
            public=tournament.is_public,
            refresh=lambda: enqueue_page_refresh(path, language),
        )


def round_api_key(tournament_id: int, number: int, page: int, q: str) -> str:
    """The shared cache key of a round's answer (page ``page``, search ``q``) in the active
    language (the names are shown in its order: family name first in Hungarian)."""
    return f"api-round:{tournament_id}:{number}:{page}:{selectors.search_key(q)}:{get_language()}"


def round_api_version(snapshot: Any, rnd: Any) -> str:
    """The shared round answer's version: the standings version and the round's status
    (``snapshot`` / ``rnd``: the models or the public state's facts)."""
    return f"{selectors.snapshot_tag(snapshot, 'round-api')}-{rnd.pk}{rnd.status}"


def _fast_round(request: HttpRequest, kwargs: dict[str, Any]) -> page_cache.Candidate | None:
    """The fast path (``hkk_tournament.web.fast_path``) of :class:`RoundDetailApi` for an
    anonymous reader of a public event's published or finished round, no search; its stored
    answer and current version, ``None`` without them."""
    if not set(request.GET) <= {"page"} or not accepts_json(request):
        return None  # a search or DRF's ?format= goes to the view
    tournament_id, number = kwargs["tournament_id"], kwargs["number"]
    page = selectors.page_number(request.GET.get("page"))
    key = round_api_key(tournament_id, number, page, "")
    state, found = selectors.public_state(tournament_id, also=[key], need_also=True)
    rnd = state.round(number) if state is not None and state.anonymous_visible else None
    stored = found.get(key)
    if state is None or rnd is None or not isinstance(stored, page_cache.Stored):
        return None
    path, language = request.get_full_path(), get_language()
    return page_cache.Candidate(
        key,
        stored,
        round_api_version(state.snapshot, rnd),
        lambda: enqueue_page_refresh(path, language),
    )


fast_path.register(RoundDetailApi, _fast_round)


def _later_pages(size: warmup.EventSize) -> list[str]:
    """The round API's pages of the shown round (``warmup.later_pages``; its first page too:
    the round's first page warmed after each recompute is the round page's)."""
    if size.number is None:
        return []
    url = reverse("tournaments-round", args=[size.tournament_id, size.number])
    pages = warmup.page_count(size.tables, ROUND_API_PAGE_SIZE)
    return [f"{url}?page={n}" for n in range(1, pages + 1)]


warmup.register_later_pages(_later_pages, rank=1)  # after the pages: 35 ms each, read less


class RoundSwapApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/rounds/{number}/swap/: swap the seat-a or seat-b
    entries of two tables of a draft round (the change is recorded with its reason).

    Organisers only (``require_manage``). Body ``SwapInputSerializer``. 200 with the round's
    summary; 404 ``round_not_found``, ``table_not_in_round``; 409 ``round_not_draft``; 400
    ``invalid_value``.
    """

    @extend_schema(
        operation_id="tournaments_rounds_swap",
        summary="Swap the a- or b-seat entries of two tables in a draft round",
        request=SwapInputSerializer,
        responses={200: RoundChangedOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        serializer = SwapInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        rnd = selectors.round_get(tournament=tournament, number=number)
        rnd = services.round_swap_pairings(
            round=rnd,
            table_x=data["table_x"],
            table_y=data["table_y"],
            swap=data["swap"],
            actor=request.user,
            reason=data.get("reason", ""),
        )
        return round_response(request, tournament, rnd)


class RoundPublishApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/rounds/{number}/publish/ (no body): draft → published.

    Organisers only (``require_manage``). The pairings become final and results may be recorded.
    200 with the round's summary; 404 ``round_not_found``; 409 ``round_not_draft``.
    """

    @extend_schema(
        operation_id="tournaments_rounds_publish",
        summary="Publish a draft round (pairings become final)",
        request=None,
        responses={200: RoundChangedOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        rnd = services.round_publish(
            actor=request.user, round=selectors.round_get(tournament=tournament, number=number)
        )
        return round_response(request, tournament, rnd)


class RoundFinishApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/rounds/{number}/finish/ (no body): finish a round.

    Organisers only (``require_manage``). published → finished once every match is complete;
    standings are recomputed. 200 with the round's summary; 404 ``round_not_found``; 409
    ``round_not_published``, ``matches_incomplete`` (params ``tables``).
    """

    @extend_schema(
        operation_id="tournaments_rounds_finish",
        summary="Finish a published round once every match is complete",
        request=None,
        responses={200: RoundChangedOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        rnd = services.round_finish(
            actor=request.user, round=selectors.round_get(tournament=tournament, number=number)
        )
        return round_response(request, tournament, rnd)


class UnpublishInputSerializer(ReasonInputSerializer):
    """``delete_results``: confirm deleting the round's results (kept in the action log,
    restorable); without it a round with results is refused (409 ``round_has_results``)."""

    delete_results = serializers.BooleanField(required=False, default=False)


class DiscardInputSerializer(UnpublishInputSerializer):
    """Discard a draft round; ``pair_again`` pairs it anew at once."""

    pair_again = serializers.BooleanField(required=False, default=False)


class RoundDiscardApi(TournamentApi):
    """POST .../rounds/{number}/discard/: delete a draft round (``pair_again``: pair anew;
    ``delete_results``: confirm deleting its results). 200 with the new round's summary, 204
    without;
    409 ``round_not_draft``, ``round_not_last``, ``round_has_results``; 400
    ``reason_required``."""

    @extend_schema(
        operation_id="tournaments_rounds_discard",
        summary="Discard a draft round (and pair it again)",
        request=DiscardInputSerializer,
        responses={200: RoundChangedOutputSerializer, 204: None, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        data = _reason(request, DiscardInputSerializer)
        rnd = selectors.round_get(tournament=tournament, number=number)
        new = services.round_discard(round=rnd, actor=request.user, **data)
        if new is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return round_response(request, tournament, new)


class RoundUnpublishApi(TournamentApi):
    """POST .../rounds/{number}/unpublish/: a published round back to draft; one with results
    only with ``delete_results`` (they go to the action log, restorable). 200 with the round's
    summary; 409
    ``round_has_results`` (params ``games``, ``reports``, ``rolls``), ``round_not_published``;
    400 ``reason_required``."""

    @extend_schema(
        operation_id="tournaments_rounds_unpublish",
        summary="Unpublish a round (deleting its results only when confirmed)",
        request=UnpublishInputSerializer,
        responses={200: RoundChangedOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        data = _reason(request, UnpublishInputSerializer)
        rnd = selectors.round_get(tournament=tournament, number=number)
        return round_response(
            request, tournament, services.round_unpublish(round=rnd, actor=request.user, **data)
        )
