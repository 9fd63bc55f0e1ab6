"""REST API of the tournaments app (STYLE.md §5.6): one ``<Entity><Action>Api`` class per
operation, explicit input/output serializers, no ORM in the views.

Permissions (issue 4 §2) are checked on the object, with the predicates of
``tournaments.permissions``, in every view:

- reading: anyone for public events; private events and drafts are 404 for outsiders
  (``api_selectors.tournament_get_visible``); draft rounds are 404 for all but the organisers;
  deck lists of others need the judge role or published lists;
- organisers (owner and co-organisers): tournament changes, registrations by the organiser,
  overrides, drops, rounds (pair, swap, publish, finish); only the owner appoints staff;
- judges (and organisers): recording and correcting games, die rolls, confirming result
  reports, disputes, deck checks;
- players: self-registration, their own deck list before the lock, their own result reports.

Anonymous callers get 403 (``not_authenticated``; 401 with token auth headers) on anything
that needs a role; signed-in callers without the role get 403.

Service errors (``tournaments.errors``) become HTTP in one place,
:func:`tournaments_exception_handler`, with the body ``{"code", "message", "params"}``:

- ``NotFound`` → 404,
- ``Conflict`` → 409 (duplicate or concurrent write),
- ``InvalidState`` → 409: the request is well-formed but conflicts with the current state of
  the tournament, round or match (RFC 9110 §15.5.10); retrying after the state changes may work,
- ``ValidationFailed`` → 400 (the input itself is wrong).

Everything else goes on to the project handler (``hkk_tournament.exceptions``).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView, set_rollback

from hkk_tournament.exceptions import api_exception_handler
from tournaments import api_selectors, selectors, services
from tournaments.errors import Conflict, InvalidState, NotFound, ServiceError, ValidationFailed
from tournaments.models import Round, Tournament
from tournaments.permissions import (
    can_judge,
    can_manage,
    is_player_of_entry,
    player_entry_ids,
    require_authenticated,
    require_deck_list_viewer,
    require_deck_submitter,
    require_judge,
    require_judge_or_player_of_match,
    require_manage,
    require_owner,
    require_player_of_match,
)
from tournaments.serializers import (
    DeckCheckAddInputSerializer,
    DeckCheckOutputSerializer,
    DeckCheckPickInputSerializer,
    DeckCheckRecordInputSerializer,
    DeckSubmissionOutputSerializer,
    DeckSubmitInputSerializer,
    DieRollInputSerializer,
    DisputeOutputSerializer,
    DropInputSerializer,
    EntryCreateInputSerializer,
    EntryOutputSerializer,
    EntryStateOutputSerializer,
    ExportOutputSerializer,
    Game3RollInputSerializer,
    GameRecordInputSerializer,
    GameRecordOutputSerializer,
    MatchOutputSerializer,
    MeOutputSerializer,
    OverrideInputSerializer,
    ReportOutputSerializer,
    ReportSubmitInputSerializer,
    RoundDetailOutputSerializer,
    RoundQueuedOutputSerializer,
    RoundSummaryOutputSerializer,
    SelfRegisterInputSerializer,
    ServiceErrorOutputSerializer,
    StaffAppointInputSerializer,
    StaffOutputSerializer,
    StandingOutputSerializer,
    SwapInputSerializer,
    TournamentCreateInputSerializer,
    TournamentOutputSerializer,
)

#: HTTP status of each service error class (most specific first).
SERVICE_ERROR_STATUS: tuple[tuple[type[ServiceError], int], ...] = (
    (NotFound, status.HTTP_404_NOT_FOUND),
    (Conflict, status.HTTP_409_CONFLICT),
    (InvalidState, status.HTTP_409_CONFLICT),
    (ValidationFailed, status.HTTP_400_BAD_REQUEST),
)


def service_error_status(exc: ServiceError) -> int:
    """The HTTP status for a service error (400 for an unknown subclass)."""
    for cls, code in SERVICE_ERROR_STATUS:
        if isinstance(exc, cls):
            return code
    return status.HTTP_400_BAD_REQUEST


def tournaments_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Service errors → ``{"code", "message", "params"}`` with the status above; anything else
    → the project handler (DRF errors, 413, Django validation errors)."""
    if isinstance(exc, ServiceError):
        set_rollback()
        return Response(exc.as_dict(), status=service_error_status(exc))
    return api_exception_handler(exc, context)


ERRORS = {
    400: ServiceErrorOutputSerializer,
    403: OpenApiResponse(description="Not logged in, or without the role this needs."),
    404: ServiceErrorOutputSerializer,
    409: ServiceErrorOutputSerializer,
}
READ_ERRORS = {404: ServiceErrorOutputSerializer}
ROLE_READ_ERRORS = {
    403: OpenApiResponse(description="Not logged in, or without the role this needs."),
    404: ServiceErrorOutputSerializer,
}
ASYNC_PARAM = OpenApiParameter(
    "async",
    OpenApiTypes.INT,
    OpenApiParameter.QUERY,
    required=False,
    description="1: enqueue the pairing as a Celery task and answer 202 at once.",
)


class TournamentApi(APIView):
    """Base: the tournaments exception handler and the role-checked tournament lookups.

    Each lookup first refuses anonymous callers where a role is needed (403/401), then
    answers 404 for a tournament the caller may not see, then 403 without the role.
    """

    def get_exception_handler(self):
        return tournaments_exception_handler

    def visible_tournament(self, tournament_id: int) -> Tournament:
        """For reading: public events for anyone, private ones and drafts for their people."""
        return api_selectors.tournament_get_visible(
            tournament_id=tournament_id, user=self.request.user
        )

    def member_tournament(self, tournament_id: int) -> Tournament:
        """A visible tournament for a signed-in caller (the finer check comes after)."""
        require_authenticated(self.request.user)
        return self.visible_tournament(tournament_id)

    def managed_tournament(self, tournament_id: int) -> Tournament:
        """For organiser actions: the owner and co-organisers."""
        tournament = self.member_tournament(tournament_id)
        require_manage(self.request.user, tournament)
        return tournament

    def judged_tournament(self, tournament_id: int) -> Tournament:
        """For judge actions: the organisers and the judges of this event."""
        tournament = self.member_tournament(tournament_id)
        require_judge(self.request.user, tournament)
        return tournament

    def owner_tournament(self, tournament_id: int) -> Tournament:
        """For staff appointments: the owner only."""
        tournament = self.member_tournament(tournament_id)
        require_owner(self.request.user, tournament)
        return tournament


def round_payload(tournament: Tournament, rnd: Round) -> dict[str, Any]:
    """A round with its tables (first-player holder per match) and the by-name list."""
    rnd.tournament = tournament
    views = api_selectors.round_match_views(round=rnd)
    return {
        "number": rnd.number,
        "status": rnd.status,
        "seed": rnd.seed,
        "created_at": rnd.created_at,
        "published_at": rnd.published_at,
        "finished_at": rnd.finished_at,
        "relaxations": services.round_relaxations(rnd) if rnd.relaxations else [],
        "pair_downs": rnd.pair_downs,
        "matches": views,
        "by_name": api_selectors.pairings_by_name(views),
    }


def csv_response(content: str, filename: str) -> HttpResponse:
    """CSV with a UTF-8 BOM (so spreadsheet programs read the Hungarian accents right)."""
    response = HttpResponse("\ufeff" + content, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# --- tournaments --------------------------------------------------------------------------


class TournamentListCreateApi(TournamentApi):
    """List visible tournaments; create one (the caller becomes its owner)."""

    @extend_schema(
        operation_id="tournaments_list",
        summary="List tournaments",
        responses={200: TournamentOutputSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        qs = api_selectors.tournament_list_visible(user=request.user)
        return Response(TournamentOutputSerializer(qs, many=True).data)

    @extend_schema(
        operation_id="tournaments_create",
        summary="Create a tournament",
        request=TournamentCreateInputSerializer,
        responses={201: TournamentOutputSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        require_authenticated(request.user)
        serializer = TournamentCreateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        tournament = services.tournament_create(
            owner=request.user, format_slug=data.pop("format"), **data
        )
        tournament = selectors.tournament_get(tournament_id=tournament.pk)
        return Response(TournamentOutputSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailApi(TournamentApi):
    """GET /api/tournaments/{tournament_id}/: one tournament (``TournamentOutputSerializer``).

    Anyone for a public event past the draft; a private one for its staff and players; a draft
    for its organisers and judges only. Everyone else gets 404 ``tournament_not_found``.
    """

    @extend_schema(
        operation_id="tournaments_retrieve",
        summary="Get a tournament",
        responses={200: TournamentOutputSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(TournamentOutputSerializer(self.visible_tournament(tournament_id)).data)


class _TournamentTransitionApi(TournamentApi):
    """POST without a body: one state transition of the tournament."""

    def transition(self, tournament: Tournament) -> Tournament:
        raise NotImplementedError

    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        self.transition(tournament)
        tournament = selectors.tournament_get(tournament_id=tournament.pk)
        return Response(TournamentOutputSerializer(tournament).data)


class TournamentOpenRegistrationApi(_TournamentTransitionApi):
    """POST /api/tournaments/{tournament_id}/open-registration/ (no body): draft → registration.

    Organisers only (``require_manage``; 403 otherwise). 200 with the tournament; 404
    ``tournament_not_found``; 409 ``tournament_status`` unless the tournament is a draft.
    """

    def transition(self, tournament: Tournament) -> Tournament:
        return services.tournament_open_registration(tournament=tournament)

    @extend_schema(
        operation_id="tournaments_open_registration",
        summary="Open registration (draft → registration)",
        request=None,
        responses={200: TournamentOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)


class TournamentStartApi(_TournamentTransitionApi):
    """POST /api/tournaments/{tournament_id}/start/ (no body): registration → running.

    Organisers only (``require_manage``). Locks every active entry's current deck list. 200 with the
    tournament; 409 ``tournament_status``, ``not_enough_entries`` (fewer than two active entries);
    400 ``entries_without_legal_list`` (nothing is locked then).
    """

    def transition(self, tournament: Tournament) -> Tournament:
        return services.tournament_start(tournament=tournament)

    @extend_schema(
        operation_id="tournaments_start",
        summary="Start (lock lists; registration → running)",
        request=None,
        responses={200: TournamentOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)


class TournamentFinishApi(_TournamentTransitionApi):
    """POST /api/tournaments/{tournament_id}/finish/ (no body): running → finished.

    Organisers only (``require_manage``). 200 with the tournament; 409 ``tournament_status``,
    ``no_rounds``, ``round_not_finished`` (every round must be finished first).
    """

    def transition(self, tournament: Tournament) -> Tournament:
        return services.tournament_finish(tournament=tournament)

    @extend_schema(
        operation_id="tournaments_finish",
        summary="Finish the tournament (running → finished)",
        request=None,
        responses={200: TournamentOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)


# --- entries and decks --------------------------------------------------------------------


class EntryListCreateApi(TournamentApi):
    """GET, POST /api/tournaments/{tournament_id}/entries/: list the entries; register one.

    GET: anyone who may see the event; a member's ``deck.rule_card`` is blank where the caller may
    not see that list. POST: organisers only, body ``EntryCreateInputSerializer`` (one name, or two
    for a pair); a late entry while running. 201 with the entry; 400 ``wrong_entry_kind``,
    ``pair_needs_two_players``, ``invalid_value``; 409 ``player_already_registered``,
    ``tournament_status``, ``late_entry_closed``.
    """

    @extend_schema(
        operation_id="tournaments_entries_list",
        summary="List entries with their deck status",
        responses={200: EntryOutputSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.visible_tournament(tournament_id)
        views = api_selectors.entry_views(tournament=tournament, user=request.user)
        return Response(EntryOutputSerializer(views, many=True).data)

    @extend_schema(
        operation_id="tournaments_entries_create",
        summary="Register a player or a pair team (a late entry while running)",
        request=EntryCreateInputSerializer,
        responses={201: EntryOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        serializer = EntryCreateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        entry = entry_register(
            tournament, data["players"], data.get("name", ""), data.get("email", "")
        )
        return entry_created_response(tournament, entry)


def entry_created_response(tournament: Tournament, entry: Any) -> Response:
    """201 with the new entry as :class:`EntryOutputSerializer`."""
    views = [v for v in api_selectors.entry_views(tournament=tournament) if v.id == entry.pk]
    return Response(EntryOutputSerializer(views[0]).data, status=status.HTTP_201_CREATED)


class SelfRegisterApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/register/: the signed-in caller registers themselves.

    Any signed-in user who may see the event. Body ``SelfRegisterInputSerializer`` (``partner``:
    the teammate's username in a pair event). 201 with the entry; 404 ``user_not_found``; 409
    ``registration_closed``, ``late_entry_closed``, ``already_registered``; 400
    ``pair_needs_two_players``, ``wrong_entry_kind``.
    """

    @extend_schema(
        operation_id="tournaments_register_self",
        summary="Register yourself (while registration is open, or as a late entry)",
        request=SelfRegisterInputSerializer,
        responses={201: EntryOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.member_tournament(tournament_id)
        serializer = SelfRegisterInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        partner = api_selectors.user_get(username=data["partner"]) if data.get("partner") else None
        entry = services.entry_self_register(
            tournament=tournament, user=request.user, partner=partner, name=data.get("name", "")
        )
        return entry_created_response(tournament, entry)


def entry_register(tournament: Tournament, players: list[str], name: str, email: str):
    """Pick the registration service for the tournament's kind and status (the services
    refuse a wrong team size: ``wrong_entry_kind``, ``pair_needs_two_players``)."""
    second = players[1] if len(players) > 1 else None
    pair = tournament.is_pair or second is not None
    if tournament.status == Tournament.Status.RUNNING:
        if pair:
            return services.entry_register_late(
                tournament=tournament, name=name, player_a=players[0], player_b=second
            )
        return services.entry_register_late(
            tournament=tournament, player=players[0], name=name, email=email
        )
    if pair:
        return services.entry_register_pair(
            tournament=tournament, name=name, player_a=players[0], player_b=second
        )
    return services.entry_register_player(
        tournament=tournament, player_name=players[0], email=email
    )


class EntryDeckSubmitApi(TournamentApi):
    """GET, POST /api/tournaments/{tournament_id}/entries/{entry_id}/decks/: an entry's deck lists.

    GET (``require_deck_list_viewer``): every version for judges and the entry's players, the
    current lists for other players once published; 403 otherwise. POST
    (``require_deck_submitter``; ``DeckSubmitInputSerializer``): organisers any member, players
    their own; illegal lists are stored too. 201; 404 ``entry_not_found``, ``not_a_member``; 409
    ``lists_locked``, ``deck_deadline_passed``, ``tournament_status``; 400 ``deck_input``.
    """

    @extend_schema(
        operation_id="tournaments_entries_decks_list",
        summary="An entry's deck lists (judges and the entry's players; others once published)",
        responses={200: DeckSubmissionOutputSerializer(many=True), **ROLE_READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = self.member_tournament(tournament_id)
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
        require_deck_list_viewer(request.user, entry)
        history = can_judge(request.user, tournament) or is_player_of_entry(request.user, entry)
        decks = api_selectors.entry_deck_lists(entry=entry, history=history)
        return Response(DeckSubmissionOutputSerializer(decks, many=True).data)

    @extend_schema(
        operation_id="tournaments_entries_decks_submit",
        summary="Submit a member's deck list (organisers: any member; players: their own, "
        "before the lock). Illegal lists are stored too.",
        request=DeckSubmitInputSerializer,
        responses={201: DeckSubmissionOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = self.member_tournament(tournament_id)
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
        require_deck_submitter(request.user, entry)
        serializer = DeckSubmitInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        player = api_selectors.member_player_for(
            entry=entry, user=request.user, player_id=data.get("player"), seat=data.get("seat")
        )
        require_deck_submitter(request.user, entry, player)
        submission = services.deck_submit(
            tournament=tournament,
            entry=entry,
            player=player,
            text=data.get("text"),
            data=data.get("data"),
            by=request.user,
        )
        return Response(
            DeckSubmissionOutputSerializer(submission).data, status=status.HTTP_201_CREATED
        )


class EntryOverrideApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/entries/{entry_id}/override/: let an entry be paired
    without a legal deck list.

    Organisers only (``require_manage``). Body ``OverrideInputSerializer`` (``reason``, stored with
    the organiser and time). 200 with ``EntryStateOutputSerializer``; 404 ``entry_not_found``;
    400 for a blank reason.
    """

    @extend_schema(
        operation_id="tournaments_entries_override",
        summary="Let an entry be paired without a legal list (reason recorded)",
        request=OverrideInputSerializer,
        responses={200: EntryStateOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        serializer = OverrideInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
        entry = services.entry_override_deck(
            entry=entry, reason=serializer.validated_data["reason"], by=request.user
        )
        return Response(EntryStateOutputSerializer(entry).data)


class EntryDropApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/entries/{entry_id}/drop/: drop an entry (a pair team
    drops as one) from the next round on.

    Organisers only (``require_manage``). Body ``DropInputSerializer`` (``after_round``, default
    the last round paired). 200 with ``EntryStateOutputSerializer``; 404 ``entry_not_found``; 409
    ``already_dropped``, ``tournament_status`` (finished); 400 ``drop_in_past``.
    """

    @extend_schema(
        operation_id="tournaments_entries_drop",
        summary="Drop an entry (effective from the next round)",
        request=DropInputSerializer,
        responses={200: EntryStateOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        serializer = DropInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
        entry = services.entry_drop(
            entry=entry, after_round=serializer.validated_data.get("after_round")
        )
        return Response(EntryStateOutputSerializer(entry).data)


# --- rounds -------------------------------------------------------------------------------


class RoundListCreateApi(TournamentApi):
    """GET, POST /api/tournaments/{tournament_id}/rounds/: list the rounds; pair the next one.

    GET: anyone who may see the event (draft rounds for the organisers only). POST (organisers, no
    body): pair the next Swiss round as a draft, 201 with the round; ``?async=1`` queues the pairing
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
        rounds = api_selectors.rounds_visible(tournament=tournament, user=request.user)
        return Response(RoundSummaryOutputSerializer(rounds, many=True).data)

    @extend_schema(
        operation_id="tournaments_rounds_pair_next",
        summary="Pair the next round (a draft); ?async=1 enqueues it and answers 202",
        parameters=[ASYNC_PARAM],
        request=None,
        responses={
            201: RoundDetailOutputSerializer,
            202: RoundQueuedOutputSerializer,
            **ERRORS,
        },
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        if request.query_params.get("async") in ("1", "true", "yes"):
            services.round_pair_next_async(tournament=tournament, requested_by=request.user)
            return Response(
                RoundQueuedOutputSerializer({"queued": True, "tournament": tournament.pk}).data,
                status=status.HTTP_202_ACCEPTED,
            )
        rnd = services.round_pair_next(tournament=tournament, requested_by=request.user)
        payload = round_payload(tournament, rnd)
        return Response(RoundDetailOutputSerializer(payload).data, status=status.HTTP_201_CREATED)


class RoundDetailApi(TournamentApi):
    """GET /api/tournaments/{tournament_id}/rounds/{number}/: a round's tables with their games, the
    first-player holder of each match and the by-name list.

    Anyone who may see the event; a draft round is 404 ``round_not_found`` for all but organisers.
    """

    @extend_schema(
        operation_id="tournaments_rounds_retrieve",
        summary="A round's pairings with the first-player holder of every match",
        responses={200: RoundDetailOutputSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.visible_tournament(tournament_id)
        rnd = api_selectors.round_get_visible(
            tournament=tournament, number=number, user=request.user
        )
        return Response(RoundDetailOutputSerializer(round_payload(tournament, rnd)).data)


class RoundSwapApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/rounds/{number}/swap/: swap the seat-a or seat-b
    entries of two tables of a draft round (the change is recorded with its reason).

    Organisers only (``require_manage``). Body ``SwapInputSerializer``. 200 with the round; 404
    ``round_not_found``, ``table_not_in_round``; 409 ``round_not_draft``; 400 ``invalid_value``.
    """

    @extend_schema(
        operation_id="tournaments_rounds_swap",
        summary="Swap the a- or b-seat entries of two tables in a draft round",
        request=SwapInputSerializer,
        responses={200: RoundDetailOutputSerializer, **ERRORS},
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
            by=request.user,
            reason=data.get("reason", ""),
        )
        return Response(RoundDetailOutputSerializer(round_payload(tournament, rnd)).data)


class RoundPublishApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/rounds/{number}/publish/ (no body): draft → published.

    Organisers only (``require_manage``). The pairings become final and results may be recorded.
    200 with the round; 404 ``round_not_found``; 409 ``round_not_draft``.
    """

    @extend_schema(
        operation_id="tournaments_rounds_publish",
        summary="Publish a draft round (pairings become final)",
        request=None,
        responses={200: RoundDetailOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        rnd = services.round_publish(
            round=selectors.round_get(tournament=tournament, number=number)
        )
        return Response(RoundDetailOutputSerializer(round_payload(tournament, rnd)).data)


class RoundFinishApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/rounds/{number}/finish/ (no body): finish a round.

    Organisers only (``require_manage``). published → finished once every match is complete;
    standings are recomputed. 200 with the round; 404 ``round_not_found``; 409
    ``round_not_published``, ``matches_incomplete`` (params ``tables``).
    """

    @extend_schema(
        operation_id="tournaments_rounds_finish",
        summary="Finish a published round once every match is complete",
        request=None,
        responses={200: RoundDetailOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        rnd = services.round_finish(round=selectors.round_get(tournament=tournament, number=number))
        return Response(RoundDetailOutputSerializer(round_payload(tournament, rnd)).data)


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
        rnd = api_selectors.round_get_visible(
            tournament=tournament, number=number, user=request.user
        )
        return csv_response(
            services.pairings_csv(rnd), f"tournament-{tournament.pk}-round-{rnd.number}.csv"
        )


# --- matches and games --------------------------------------------------------------------


class MatchDetailApi(TournamentApi):
    """GET /api/tournaments/{tournament_id}/matches/{match_id}/: a match with its games, score and
    the first-player holder of the next game.

    Anyone who may see the event. 404 ``match_not_found``; ``round_not_found`` for a match of a
    draft round unless the caller is an organiser.
    """

    @extend_schema(
        operation_id="tournaments_matches_retrieve",
        summary="A match with its games and the first-player holder of the next game",
        responses={200: MatchOutputSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = self.visible_tournament(tournament_id)
        match = api_selectors.match_get(tournament=tournament, match_id=match_id)
        api_selectors.round_get_visible(
            tournament=tournament, number=match.round.number, user=request.user
        )
        return Response(MatchOutputSerializer(api_selectors.match_view(match=match)).data)


class MatchDieRollApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/matches/{match_id}/die-roll/: record the game-1 die
    roll winner ("player 1") and whether a game-3 re-roll was agreed (RULES.md §1.4).

    Judges and organisers (``require_judge``). Body ``DieRollInputSerializer``. 200 with the match;
    404 ``match_not_found``; 409 ``round_not_published``, ``round_finished``, ``bye_match``,
    ``games_already_recorded``; 400 ``not_in_match``.
    """

    @extend_schema(
        operation_id="tournaments_matches_die_roll",
        summary="Record the game-1 die roll winner (player 1) and the game-3 re-roll agreement",
        request=DieRollInputSerializer,
        responses={200: MatchOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = DieRollInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        match = api_selectors.match_get(tournament=tournament, match_id=match_id)
        services.match_set_die_roll(
            match=match,
            winner_entry=data["winner"],
            reroll_game3_agreed=data["reroll_game3_agreed"],
        )
        match = api_selectors.match_get(tournament=tournament, match_id=match_id)
        return Response(MatchOutputSerializer(api_selectors.match_view(match=match)).data)


class MatchGame3RollApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/matches/{match_id}/game3-roll/: record the winner of
    the agreed game-3 re-roll (RULES.md §1.4).

    Judges and organisers (``require_judge``). Body ``Game3RollInputSerializer``. 200 with the
    match; 404 ``match_not_found``; 409 ``no_reroll_agreed``, ``not_game_3`` (not exactly two games
    recorded), ``round_not_published``, ``round_finished``, ``bye_match``; 400 ``not_in_match``.
    """

    @extend_schema(
        operation_id="tournaments_matches_game3_roll",
        summary="Record the winner of the agreed game-3 re-roll",
        request=Game3RollInputSerializer,
        responses={200: MatchOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = Game3RollInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        match = api_selectors.match_get(tournament=tournament, match_id=match_id)
        services.match_set_game3_roll(match=match, winner_entry=serializer.validated_data["winner"])
        match = api_selectors.match_get(tournament=tournament, match_id=match_id)
        return Response(MatchOutputSerializer(api_selectors.match_view(match=match)).data)


def _record_game(request: Request, match_kwargs: dict[str, Any]) -> dict[str, Any]:
    serializer = GameRecordInputSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    data = serializer.validated_data
    return {
        "game": services.game_record(
            number=data["number"],
            winner_entry=data["winner"],
            first_entry=data["first"],
            waived=data["waived"],
            right_holder_entry=data.get("right_holder"),
            correction=data["correction"],
            reason=data.get("reason", ""),
            expected_version=data.get("expected_version"),
            recorded_by=request.user,
            **match_kwargs,
        ),
    }


class MatchGameRecordApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/matches/{match_id}/games/: record one game, or correct
    it (``correction`` with a ``reason``; ``expected_version`` guards against a concurrent edit).

    Judges and organisers (``require_judge``). Body ``GameRecordInputSerializer``. 201 for a new
    game, 200 for a correction (game and match). 404 ``match_not_found``, ``game_not_recorded``;
    409 ``game_already_recorded``, ``stale_version``, ``match_complete``, ``round_finished`` …;
    400 ``first_player_mismatch``, ``wrong_game_number``, ``roll_not_recorded`` ….
    """

    @extend_schema(
        operation_id="tournaments_matches_games_record",
        summary="Record (or, with correction=true and a reason, correct) one game",
        request=GameRecordInputSerializer,
        responses={201: GameRecordOutputSerializer, 200: GameRecordOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        match = api_selectors.match_get(tournament=tournament, match_id=match_id)
        payload = _record_game(request, {"match": match})
        return game_response(tournament, payload)


class TableGameRecordApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/rounds/{number}/tables/{table}/games/: record or
    correct one game, addressing the match by round number and table.

    Judges and organisers (``require_judge``). Body, responses and errors as for
    ``.../matches/{match_id}/games/``, plus 404 ``round_not_found`` and ``table_not_in_round``.
    """

    @extend_schema(
        operation_id="tournaments_rounds_tables_games_record",
        summary="Record one game by round and table number",
        request=GameRecordInputSerializer,
        responses={201: GameRecordOutputSerializer, 200: GameRecordOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int, table: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        rnd = selectors.round_get(tournament=tournament, number=number)
        payload = _record_game(request, {"round": rnd, "table": table})
        return game_response(tournament, payload)


def game_response(tournament: Tournament, payload: dict[str, Any]) -> Response:
    """201 for a new game, 200 for a correction (version > 1), with the updated match."""
    game = payload["game"]
    match = api_selectors.match_get(tournament=tournament, match_id=game.match_id)
    body = {"game": game, "match": api_selectors.match_view(match=match)}
    code = status.HTTP_201_CREATED if game.version == 1 else status.HTTP_200_OK
    return Response(GameRecordOutputSerializer(body).data, status=code)


# --- standings and export -----------------------------------------------------------------


class StandingsApi(TournamentApi):
    """GET /api/tournaments/{tournament_id}/standings/: per entry the rank, match and game points
    and each tiebreaker (exact fraction and a 4-decimal value); only complete matches count.

    Anyone who may see the event; 404 ``tournament_not_found`` otherwise.
    """

    @extend_schema(
        operation_id="tournaments_standings",
        summary="Standings: match points, game points and the tiebreakers (exact and decimal)",
        responses={200: StandingOutputSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.visible_tournament(tournament_id)
        rows = services.standings_compute(tournament=tournament)
        views = api_selectors.standing_views(tournament=tournament, rows=rows)
        return Response(StandingOutputSerializer(views, many=True).data)


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


# --- staff --------------------------------------------------------------------------------


class StaffListCreateApi(TournamentApi):
    """GET, POST /api/tournaments/{tournament_id}/staff/: the co-organisers and judges; appoint one.

    GET: organisers (``require_manage``). POST: the owner only (``require_owner``), body
    ``StaffAppointInputSerializer``; appointing someone already on the staff changes their role.
    201 with the staff row; 404 ``user_not_found``; 400 ``owner_is_organiser``.
    """

    @extend_schema(
        operation_id="tournaments_staff_list",
        summary="Co-organisers and judges (organisers may see them)",
        responses={200: StaffOutputSerializer(many=True), **ROLE_READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        staff = api_selectors.staff_list(tournament=tournament)
        return Response(StaffOutputSerializer(staff, many=True).data)

    @extend_schema(
        operation_id="tournaments_staff_appoint",
        summary="Appoint a co-organiser or judge, or change their role (owner only)",
        request=StaffAppointInputSerializer,
        responses={201: StaffOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.owner_tournament(tournament_id)
        serializer = StaffAppointInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = api_selectors.user_get(username=data["username"])
        staff = services.staff_appoint(
            tournament=tournament, user=user, role=data["role"], by=request.user
        )
        return Response(StaffOutputSerializer(staff).data, status=status.HTTP_201_CREATED)


class StaffRemoveApi(TournamentApi):
    """DELETE /api/tournaments/{tournament_id}/staff/{user_id}/: remove a co-organiser or judge.

    The owner only (``require_owner``). 204; 404 ``user_not_found`` (no active user with that id),
    ``staff_not_found`` (the user has no role in this event).
    """

    @extend_schema(
        operation_id="tournaments_staff_remove",
        summary="Remove a co-organiser or judge (owner only)",
        request=None,
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, tournament_id: int, user_id: int) -> Response:
        tournament = self.owner_tournament(tournament_id)
        user = api_selectors.user_get(user_id=user_id)
        services.staff_remove(tournament=tournament, user=user, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- result reports and disputes ----------------------------------------------------------


class MatchReportListCreateApi(TournamentApi):
    """A match's result reports: its players report, judges and the players read."""

    def visible_match(self, tournament: Tournament, match_id: int):
        match = api_selectors.match_get(tournament=tournament, match_id=match_id)
        api_selectors.round_get_visible(
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
        require_judge_or_player_of_match(request.user, match)
        return Response(
            ReportOutputSerializer(api_selectors.match_reports(match=match), many=True).data
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
        entry_id = require_player_of_match(request.user, match)
        serializer = ReportSubmitInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        report = services.result_report_submit(
            match=match,
            entry=entry_id,
            user=request.user,
            games=[dict(g) for g in serializer.validated_data["games"]],
        )
        report = api_selectors.report_get(tournament=tournament, report_id=report.pk)
        return Response(ReportOutputSerializer(report).data, status=status.HTTP_201_CREATED)


class ReportConfirmApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/reports/{report_id}/confirm/ (no body): accept a
    player's result report.

    Judges and organisers (``require_judge``). The report's games are recorded (differing ones
    corrected), it becomes ``accepted`` and the match's other open reports ``superseded``. 200 with
    the report; 404 ``report_not_found``; 409 ``report_closed`` and ``game_record``'s state errors;
    400 its rule errors.
    """

    @extend_schema(
        operation_id="tournaments_reports_confirm",
        summary="Confirm a result report (judges): its games are recorded or corrected",
        request=None,
        responses={200: ReportOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, report_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        report = api_selectors.report_get(tournament=tournament, report_id=report_id)
        report = services.result_report_confirm(report=report, by=request.user)
        report = api_selectors.report_get(tournament=tournament, report_id=report.pk)
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
        views = api_selectors.dispute_views(tournament=tournament, matches=matches)
        return Response(DisputeOutputSerializer(views, many=True).data)


# --- deck checks --------------------------------------------------------------------------


class RoundDeckCheckListAddApi(TournamentApi):
    """GET, POST /api/tournaments/{tournament_id}/rounds/{number}/deck-checks/: a round's deck
    checks; pick one entry by hand.

    Judges and organisers (``require_judge``). POST body ``DeckCheckAddInputSerializer``: 201 with
    the check; 404 ``round_not_found``, ``entry_not_found``; 409 ``round_not_published``,
    ``round_finished``, ``deck_check_exists``; 400 ``not_in_round``.
    """

    @extend_schema(
        operation_id="tournaments_rounds_deck_checks_list",
        summary="Deck checks of a round (judges)",
        responses={200: DeckCheckOutputSerializer(many=True), **ROLE_READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        rnd = selectors.round_get(tournament=tournament, number=number)
        checks = api_selectors.deck_checks_of_round(round=rnd)
        return Response(DeckCheckOutputSerializer(checks, many=True).data)

    @extend_schema(
        operation_id="tournaments_rounds_deck_checks_add",
        summary="Pick a specific entry for a deck check (judges)",
        request=DeckCheckAddInputSerializer,
        responses={201: DeckCheckOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = DeckCheckAddInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rnd = selectors.round_get(tournament=tournament, number=number)
        entry = selectors.entry_get(
            tournament=tournament, entry_id=serializer.validated_data["entry"]
        )
        check = services.deck_check_add(round=rnd, entry=entry, by=request.user)
        check = api_selectors.deck_check_get(tournament=tournament, check_id=check.pk)
        return Response(DeckCheckOutputSerializer(check).data, status=status.HTTP_201_CREATED)


class RoundDeckCheckPickApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/rounds/{number}/deck-checks/pick/: pick the round's
    random deck checks (``deck_check_percent`` of the entries playing, sampled with a stored seed).

    Judges and organisers (``require_judge``). Body ``DeckCheckPickInputSerializer``. A repeat
    returns the first pick. 200 with the picked checks; 404 ``round_not_found``; 409
    ``round_not_published``, ``round_finished``, ``no_entries_to_check``.
    """

    @extend_schema(
        operation_id="tournaments_rounds_deck_checks_pick",
        summary="Pick the round's random deck checks (judges; idempotent: the first pick stays)",
        request=DeckCheckPickInputSerializer,
        responses={200: DeckCheckOutputSerializer(many=True), **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = DeckCheckPickInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rnd = selectors.round_get(tournament=tournament, number=number)
        services.deck_checks_pick(
            round=rnd, by=request.user, seed=serializer.validated_data.get("seed")
        )
        checks = [c for c in api_selectors.deck_checks_of_round(round=rnd) if c.seed is not None]
        return Response(DeckCheckOutputSerializer(checks, many=True).data)


class DeckCheckRecordApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/deck-checks/{check_id}/record/: record (or re-record) a
    deck check's outcome, penalty and notes.

    Judges and organisers (``require_judge``). Body ``DeckCheckRecordInputSerializer``. 200 with the
    check; 404 ``deck_check_not_found``; 400 ``penalty_without_problem``; 409
    ``round_not_published``.
    """

    @extend_schema(
        operation_id="tournaments_deck_checks_record",
        summary="Record a deck check's outcome, penalty and notes (judges)",
        request=DeckCheckRecordInputSerializer,
        responses={200: DeckCheckOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, check_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = DeckCheckRecordInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        check = api_selectors.deck_check_get(tournament=tournament, check_id=check_id)
        services.deck_check_record(
            check=check,
            outcome=data["outcome"],
            penalty=data["penalty"],
            notes=data.get("notes", ""),
            by=request.user,
        )
        check = api_selectors.deck_check_get(tournament=tournament, check_id=check_id)
        return Response(DeckCheckOutputSerializer(check).data)


# --- the caller's own view ----------------------------------------------------------------


class MeApi(TournamentApi):
    """GET /api/tournaments/{tournament_id}/me/: the caller's roles in the event (``owner``,
    ``organiser``, ``judge``, ``player``), their entry ids and their matches (drafts left out).

    Any signed-in user who may see the event (403 when anonymous, 404 otherwise).
    """

    @extend_schema(
        operation_id="tournaments_me",
        summary="Your roles in the event, your entries and your matches",
        responses={200: MeOutputSerializer, **ROLE_READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.member_tournament(tournament_id)
        payload = {
            "roles": api_selectors.my_roles(tournament=tournament, user=request.user),
            "entries": sorted(player_entry_ids(request.user, tournament)),
            "matches": api_selectors.my_matches(tournament=tournament, user=request.user),
        }
        return Response(MeOutputSerializer(payload).data)
