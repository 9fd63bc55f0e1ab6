"""Circuits API: circuits and the HKK preset, season standings, events asking to join and the
owner's decisions; player profiles (``/api/circuits/…``, ``/api/players/…``).
docs/rules.md §19 (Circuits, season standings and league gates).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks.models import Game
from hkk_tournament.errors import NotFound
from tournaments import selectors
from tournaments.api._common import ERRORS, READ_ERRORS, require_authenticated
from tournaments.domain.circuits import SEASON_TIEBREAKS
from tournaments.models import Circuit, CircuitRating, League
from tournaments.selectors.circuits import (
    circuit_get_owned,
    circuit_get_visible,
    circuits_visible,
)
from tournaments.selectors.profiles import (
    can_view_profile,
    players_of_user,
    profile_is_public,
    user_display_name,
)
from tournaments.services import circuits as cs

# --- serializers --------------------------------------------------------------------------


class LeagueOutputSerializer(serializers.Serializer):
    """A league: bounds (decimal strings or null), the measured circuit, the list."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    measured_on = serializers.IntegerField(source="measured_on_id")
    min_points = serializers.DecimalField(max_digits=9, decimal_places=2, allow_null=True)
    max_points = serializers.DecimalField(max_digits=9, decimal_places=2, allow_null=True)
    min_events = serializers.IntegerField(allow_null=True)
    max_events = serializers.IntegerField(allow_null=True)
    listed_only = serializers.BooleanField()


class CircuitOutputSerializer(serializers.Serializer):
    """A circuit: game, points table (exact strings), tiers, best N, minimum events,
    tie-breaks, ratings, whether its numbers are a stand-in, leagues."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField(source="game.slug")
    owner = serializers.IntegerField(source="owner_id")
    description = serializers.CharField()
    points_table = serializers.JSONField()
    tiers = serializers.JSONField()
    best_n = serializers.IntegerField(allow_null=True)
    min_events = serializers.IntegerField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    ratings_enabled = serializers.BooleanField()
    is_public = serializers.BooleanField()
    formulas_unpublished = serializers.BooleanField()
    leagues = LeagueOutputSerializer(many=True, source="leagues.all")


class CircuitCreateInputSerializer(serializers.Serializer):
    """Body of POST /api/circuits/: ``game`` (slug) and ``name``, or ``hkk_preset`` with a
    ``season`` (the HSZ and profi circuits and the three leagues)."""

    game = serializers.SlugRelatedField(slug_field="slug", queryset=Game.objects.all())
    name = serializers.CharField(max_length=200, required=False, default="")
    hkk_preset = serializers.BooleanField(required=False, default=False)
    season = serializers.CharField(max_length=40, required=False, default="")


class SeasonResultSerializer(serializers.Serializer):
    """One event of a person's season: points (exact), counted among the best N or not."""

    event = serializers.IntegerField()
    placement = serializers.IntegerField()
    field_size = serializers.IntegerField()
    points = serializers.CharField()
    counted = serializers.BooleanField()


class SeasonRowSerializer(serializers.Serializer):
    """One person of the season standings (rank null: below the minimum attendance)."""

    rank = serializers.IntegerField(allow_null=True)
    person = serializers.CharField()
    name = serializers.CharField()
    user = serializers.IntegerField(allow_null=True)
    points = serializers.CharField()
    events_played = serializers.IntegerField()
    tiebreaks = serializers.DictField(child=serializers.CharField())
    results = SeasonResultSerializer(many=True)


class SeasonOutputSerializer(serializers.Serializer):
    """The season standings: the counted events (ids) and the rows."""

    events = serializers.ListField(child=serializers.IntegerField())
    tiebreaks = serializers.ListField(child=serializers.CharField())
    rows = SeasonRowSerializer(many=True)


class JoinInputSerializer(serializers.Serializer):
    """Body of POST /api/circuits/{id}/events/: the event, its tier code, optionally a league."""

    tournament = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    tier = serializers.CharField(max_length=40)
    league = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False)


class CircuitEventOutputSerializer(serializers.Serializer):
    """An event's request to count in a circuit and its state."""

    id = serializers.IntegerField()
    tournament = serializers.IntegerField(source="tournament_id")
    tier = serializers.CharField()
    league = serializers.IntegerField(source="league_id", allow_null=True)
    status = serializers.CharField(help_text="requested, accepted or refused")


class DecisionInputSerializer(serializers.Serializer):
    """Body of POST …/events/{link}/decision/: accept (true) or refuse (false)."""

    accept = serializers.BooleanField()


class HistoryRowSerializer(serializers.Serializer):
    """One event of a player's history."""

    tournament = serializers.IntegerField(source="tournament.pk")
    name = serializers.CharField(source="tournament.name")
    entry = serializers.IntegerField(source="entry_id")
    placement = serializers.IntegerField(allow_null=True)
    field_size = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    lists_public = serializers.BooleanField()


class RatingSerializer(serializers.Serializer):
    """A rating in one circuit (OpenSkill: ordinal = mu − 3 sigma)."""

    circuit = serializers.IntegerField(source="circuit_id")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    matches = serializers.IntegerField()


class ProfileOutputSerializer(serializers.Serializer):
    """A player's profile: name (family name first in Hungarian), public or not, history,
    ratings."""

    user = serializers.IntegerField()
    name = serializers.CharField()
    is_public = serializers.BooleanField()
    history = HistoryRowSerializer(many=True)
    ratings = RatingSerializer(many=True)


class ProfileInputSerializer(serializers.Serializer):
    """Body of POST /api/players/{id}/: the player makes the profile public or private."""

    is_public = serializers.BooleanField()


# --- views ----------------------------------------------------------------------------------


class CircuitListApi(APIView):
    """GET, POST /api/circuits/: the circuits one may see; create one (signed in) or the HKK
    preset (201 with the first circuit)."""

    @extend_schema(
        operation_id="circuits_list",
        summary="Public circuits and one's own",
        responses={200: CircuitOutputSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        circuits = circuits_visible(user=request.user).prefetch_related("leagues")
        return Response(CircuitOutputSerializer(circuits, many=True).data)

    @extend_schema(
        operation_id="circuits_create",
        summary="Create a circuit, or the HKK preset (signed in)",
        request=CircuitCreateInputSerializer,
        responses={201: CircuitOutputSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        require_authenticated(request.user)
        serializer = CircuitCreateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if data["hkk_preset"]:
            circuit = cs.circuit_create_hkk_preset(
                owner=request.user, game=data["game"], season=data["season"]
            )[0]
        else:
            circuit = cs.circuit_create(
                owner=request.user, game=data["game"], data=cs.CircuitSettings(name=data["name"])
            )
        return Response(CircuitOutputSerializer(circuit).data, status=status.HTTP_201_CREATED)


class CircuitDetailApi(APIView):
    """GET /api/circuits/{circuit_id}/: one circuit's settings and leagues."""

    @extend_schema(
        operation_id="circuits_detail",
        summary="A circuit",
        responses={200: CircuitOutputSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, circuit_id: int) -> Response:
        circuit = circuit_get_visible(circuit_id=circuit_id, user=request.user)
        return Response(CircuitOutputSerializer(circuit).data)


def season_payload(circuit: Circuit) -> dict[str, Any]:
    """The season standings of ``circuit`` in the API's shape (exact number strings)."""
    season = cs.circuit_season(circuit=circuit)
    rows = [
        {
            "rank": r.rank,
            "person": r.person,
            "name": season.names.get(r.person, r.person),
            "user": season.users.get(r.person),
            "points": str(r.points),
            "events_played": r.events_played,
            "tiebreaks": {k: str(v) for k, v in r.tiebreaks.items()},
            "results": [
                {
                    "event": s.result.event,
                    "placement": s.result.placement,
                    "field_size": s.result.field_size,
                    "points": str(s.points),
                    "counted": s.counted,
                }
                for s in r.results
            ],
        }
        for r in season.rows
    ]
    codes = [c for c in circuit.rules.tiebreaks if c in SEASON_TIEBREAKS]
    return {"events": [t.pk for t in season.events], "tiebreaks": codes, "rows": rows}


class CircuitStandingsApi(APIView):
    """GET /api/circuits/{circuit_id}/standings/: the season standings (the CSV is
    ``/circuits/{id}/standings.csv``)."""

    @extend_schema(
        operation_id="circuits_standings",
        summary="Season standings",
        responses={200: SeasonOutputSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, circuit_id: int) -> Response:
        circuit = circuit_get_visible(circuit_id=circuit_id, user=request.user)
        return Response(SeasonOutputSerializer(season_payload(circuit)).data)


class CircuitEventsApi(APIView):
    """GET, POST /api/circuits/{circuit_id}/events/: the events and requests; an organiser of
    an event asks for it to join (accepted at once for the circuit's owner)."""

    @extend_schema(
        operation_id="circuits_events",
        summary="Events and join requests of a circuit",
        responses={200: CircuitEventOutputSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, circuit_id: int) -> Response:
        circuit = circuit_get_visible(circuit_id=circuit_id, user=request.user)
        links = circuit.links.order_by("requested_at", "id")
        return Response(CircuitEventOutputSerializer(links, many=True).data)

    @extend_schema(
        operation_id="circuits_events_request",
        summary="Ask for an event to count in the circuit (an organiser of the event)",
        request=JoinInputSerializer,
        responses={201: CircuitEventOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, circuit_id: int) -> Response:
        require_authenticated(request.user)
        circuit = circuit_get_visible(circuit_id=circuit_id, user=request.user)
        serializer = JoinInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        tournament = selectors.tournament_get_visible(
            tournament_id=data["tournament"], user=request.user
        )
        league = None
        if data.get("league"):
            league = League.objects.filter(pk=data["league"], circuit=circuit).first()
            if league is None:
                raise NotFound("league_not_found", _("No such league in this circuit."))
        link = cs.circuit_event_request(
            circuit=circuit,
            tournament=tournament,
            actor=request.user,
            tier=data["tier"],
            league=league,
        )
        return Response(CircuitEventOutputSerializer(link).data, status=status.HTTP_201_CREATED)


class CircuitDecisionApi(APIView):
    """POST /api/circuits/{circuit_id}/events/{link_id}/decision/: the owner accepts or
    refuses."""

    @extend_schema(
        operation_id="circuits_events_decide",
        summary="Accept or refuse an event (the circuit's owner)",
        request=DecisionInputSerializer,
        responses={200: CircuitEventOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, circuit_id: int, link_id: int) -> Response:
        require_authenticated(request.user)
        circuit = circuit_get_owned(circuit_id=circuit_id, user=request.user)
        link = circuit.links.filter(pk=link_id).first()
        if link is None:
            raise NotFound("circuit_event_not_found", _("No such request."))
        serializer = DecisionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        link = cs.circuit_event_decide(
            link=link, actor=request.user, accept=serializer.validated_data["accept"]
        )
        return Response(CircuitEventOutputSerializer(link).data)


class PlayerProfileApi(APIView):
    """GET, POST /api/players/{user_id}/: a player's profile (public, or one's own; 404
    otherwise); POST (the player) makes it public or private."""

    def _user(self, user_id: int) -> Any:
        user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
        if user is None or not can_view_profile(self.request.user, user):
            raise NotFound("profile_not_found", _("No such player profile."))
        return user

    @extend_schema(
        operation_id="players_profile",
        summary="A player's events, placements, match record, lists and ratings",
        responses={200: ProfileOutputSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, user_id: int) -> Response:
        user = self._user(user_id)
        own = request.user.is_authenticated and request.user.pk == user.pk
        payload = {
            "user": user.pk,
            "name": user_display_name(user),
            "is_public": profile_is_public(user),
            "history": cs.person_history(players=players_of_user(user), public_only=not own),
            "ratings": CircuitRating.objects.filter(user=user),
        }
        return Response(ProfileOutputSerializer(payload).data)

    @extend_schema(
        operation_id="players_profile_visibility",
        summary="Make one's profile public or private",
        request=ProfileInputSerializer,
        responses={200: ProfileInputSerializer, **ERRORS},
    )
    def post(self, request: Request, user_id: int) -> Response:
        require_authenticated(request.user)
        serializer = ProfileInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        profile = cs.profile_set_public(
            actor=request.user,
            user=get_user_model().objects.filter(pk=user_id).first(),
            is_public=serializer.validated_data["is_public"],
        )
        return Response({"is_public": profile.is_public})
