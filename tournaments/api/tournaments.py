"""Tournaments API: list, create and read events and move them through their states
(draft → registration → running → finished; docs/rules.md §8 (HKK tournament structure and
scoring)). Serializers and views of ``/api/tournaments/`` and ``/api/tournaments/{id}/``.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from hkk_tournament.web.converters import SMALLINT_MAX
from tournaments import selectors, services
from tournaments.api._common import (
    ERRORS,
    READ_ERRORS,
    ReasonInputSerializer,
    TournamentApi,
    _reason,
    require_authenticated,
)
from tournaments.models import Tournament

# --- serializers --------------------------------------------------------------------------


class TournamentCreateInputSerializer(serializers.Serializer):
    """Body of POST /api/tournaments/: name, format slug, kind and optional settings.

    Shapes only (games per match 1–9, planned rounds 1–50, ``scoring``: point setting → integer
    ≥ 0); ``services.tournament_create`` fills the defaults from the format and rejects unknown
    tiebreakers, policies or scoring keys (400).
    """

    name = serializers.CharField(max_length=200)
    format = serializers.SlugField(max_length=64, help_text=_("Format slug, e.g. hkk."))
    kind = serializers.ChoiceField(
        choices=Tournament.Kind.choices,
        required=False,
        help_text=_("Optional: the format decides it (a pair format makes a pair event)."),
    )
    games_per_match = serializers.IntegerField(min_value=1, max_value=9, required=False)
    ends_when_decided = serializers.BooleanField(
        required=False,
        help_text=_(
            "Best of: the match stops once its winner can no longer change (false: every game "
            "is played). Omitted: the format's match structure decides."
        ),
    )
    planned_rounds = serializers.IntegerField(min_value=1, max_value=50, required=False)
    tiebreakers = serializers.ListField(child=serializers.CharField(), required=False)
    first_player_policy = serializers.CharField(max_length=32, required=False)
    late_entry_cutoff_round = serializers.IntegerField(
        min_value=1, max_value=SMALLINT_MAX, required=False
    )
    deck_deadline = serializers.DateTimeField(required=False)
    scoring = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=SMALLINT_MAX), required=False
    )
    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    venue = serializers.CharField(required=False, allow_blank=True, max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, max_length=20000)
    max_entries = serializers.IntegerField(required=False, allow_null=True, min_value=2)


#: The point settings of a tournament, as keys of ``TournamentOutputSerializer.scoring``.
SCORING_FIELDS = (
    "match_win_points",
    "match_draw_points",
    "match_loss_points",
    "game_win_points",
    "game_draw_points",
    "game_loss_points",
    "bye_games_won",
)


class TournamentOutputSerializer(serializers.Serializer):
    """A tournament in the responses of the tournament list, create, detail and state-transition
    endpoints; ``scoring`` maps the seven point settings (``match_win_points`` … ``bye_games_won``).
    """

    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.CharField(source="format.slug")
    format_name = serializers.CharField(source="format.name")
    kind = serializers.CharField()
    status = serializers.CharField()
    owner = serializers.CharField(source="owner.get_username", allow_null=True, default=None)
    games_per_match = serializers.IntegerField(source="structure.games_per_match")
    ends_when_decided = serializers.BooleanField(
        source="structure.ends_when_decided",
        help_text=_("Best of: the match stops once its winner can no longer change."),
    )
    planned_rounds = serializers.IntegerField(allow_null=True)
    tiebreakers = serializers.ListField(child=serializers.CharField())
    starts_at = serializers.DateTimeField(allow_null=True)
    venue = serializers.CharField()
    description = serializers.CharField()
    max_entries = serializers.IntegerField(allow_null=True)
    first_player_policy = serializers.CharField(source="structure.policy")
    match_structure = serializers.DictField(
        source="structure.to_dict",
        help_text=_("First-player policy and games of a match (copied from the format)."),
    )
    late_entry_cutoff_round = serializers.IntegerField(allow_null=True)
    deck_deadline = serializers.DateTimeField(allow_null=True)
    scoring = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_scoring(self, obj: Tournament) -> dict[str, int]:
        return {key: getattr(obj, key) for key in SCORING_FIELDS}


# --- views --------------------------------------------------------------------------------


class TournamentListCreateApi(TournamentApi):
    """List visible tournaments; create one (the caller becomes its owner)."""

    @extend_schema(
        operation_id="tournaments_list",
        summary="List tournaments",
        responses={200: TournamentOutputSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        qs = selectors.tournament_list_visible(user=request.user)
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
        details = {
            k: data.pop(k)
            for k in ("starts_at", "venue", "description", "max_entries")
            if k in data
        }
        tournament = services.tournament_create(
            owner=request.user,
            name=data.pop("name"),
            format_slug=data.pop("format"),
            kind=data.pop("kind", None),
            settings=services.TournamentSettings(**data),
            details=details,
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
        return services.tournament_open_registration(actor=self.request.user, tournament=tournament)

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
        return services.tournament_start(actor=self.request.user, tournament=tournament)

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
        return services.tournament_finish(actor=self.request.user, tournament=tournament)

    @extend_schema(
        operation_id="tournaments_finish",
        summary="Finish the tournament (running → finished)",
        request=None,
        responses={200: TournamentOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)


class DetailsInputSerializer(serializers.Serializer):
    """Any of the event's details (absent fields stay as they are)."""

    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    venue = serializers.CharField(required=False, allow_blank=True, max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, max_length=20000)
    max_entries = serializers.IntegerField(required=False, allow_null=True, min_value=2)


class DetailsOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    starts_at = serializers.DateTimeField(allow_null=True)
    venue = serializers.CharField()
    description = serializers.CharField()
    max_entries = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()


class TournamentReopenApi(TournamentApi):
    """POST .../reopen/: finished → running to correct results; ``reason`` required."""

    @extend_schema(
        operation_id="tournaments_reopen",
        summary="Reopen a finished event for corrections (recorded reason)",
        request=ReasonInputSerializer,
        responses={200: DetailsOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        data = _reason(request, ReasonInputSerializer)
        tournament = services.tournament_reopen(tournament=tournament, actor=request.user, **data)
        return Response(DetailsOutputSerializer(tournament).data)


class TournamentDetailsApi(TournamentApi):
    """PATCH .../details/: date and time, venue, description, player cap (≥ 2 or null)."""

    @extend_schema(
        operation_id="tournaments_details_update",
        summary="Change the event's date, venue, description or player cap",
        request=DetailsInputSerializer,
        responses={200: DetailsOutputSerializer, **ERRORS},
    )
    def patch(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        data = _reason(request, DetailsInputSerializer)
        tournament = services.tournament_set_details(
            actor=request.user, tournament=tournament, **data
        )
        return Response(DetailsOutputSerializer(tournament).data)


class TournamentDuplicateApi(TournamentApi):
    """POST .../duplicate/: a new draft event with the same settings (no entries); 201."""

    @extend_schema(
        operation_id="tournaments_duplicate",
        summary="Use the event as a template: a new draft with its settings",
        request=None,
        responses={201: DetailsOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        copy = services.tournament_duplicate(tournament=tournament, owner=request.user)
        return Response(DetailsOutputSerializer(copy).data, status=status.HTTP_201_CREATED)
