"""Staff API: the co-organisers and judges of an event (the owner appoints and removes them) and
the caller's own roles, entries and matches. Serializers and views of
``/api/tournaments/{id}/staff/…`` and ``…/me/``.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.access import player_entry_ids
from tournaments.api._common import ERRORS, ROLE_READ_ERRORS, TournamentApi
from tournaments.api.matches import MatchOutputSerializer
from tournaments.models import StaffRole

# --- serializers --------------------------------------------------------------------------


class StaffAppointInputSerializer(serializers.Serializer):
    """Body of POST .../staff/: the ``username`` to appoint and the ``role`` (``organiser`` or
    ``judge``).
    """

    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=StaffRole.Role.choices)


class StaffOutputSerializer(serializers.Serializer):
    """A staff appointment (``StaffRole``): user id and username, role and its translated label,
    appointment time (GET/POST .../staff/).
    """

    user = serializers.IntegerField(source="user_id")
    username = serializers.CharField(source="user.get_username")
    role = serializers.ChoiceField(choices=StaffRole.Role.choices)
    role_label = serializers.CharField(source="get_role_display")
    appointed_at = serializers.DateTimeField()


class MeOutputSerializer(serializers.Serializer):
    """The caller's roles in the event, their entries and their matches."""

    roles = serializers.ListField(
        child=serializers.ChoiceField(choices=["owner", "organiser", "judge", "player"])
    )
    entries = serializers.ListField(child=serializers.IntegerField())
    matches = MatchOutputSerializer(many=True)


# --- views --------------------------------------------------------------------------------


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
        staff = selectors.staff_list(tournament=tournament)
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
        user = selectors.user_get(username=data["username"])
        staff = services.staff_appoint(
            tournament=tournament, user=user, role=data["role"], actor=request.user
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
        user = selectors.user_get(user_id=user_id)
        services.staff_remove(tournament=tournament, user=user, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


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
            "roles": selectors.my_roles(tournament=tournament, user=request.user),
            "entries": sorted(player_entry_ids(request.user, tournament)),
            "matches": selectors.my_matches(tournament=tournament, user=request.user),
        }
        return Response(MeOutputSerializer(payload).data)
