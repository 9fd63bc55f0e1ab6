"""Shared pieces of the tournaments API views: the base class with the role-checked tournament
lookups, the documented error responses and the CSV response.

Errors are rendered by the project's one DRF handler (``hkk_tournament.web.exceptions``, settings
``REST_FRAMEWORK["EXCEPTION_HANDLER"]``) with the body of
``hkk_tournament.web.schema.ErrorResponseSerializer``: ``{"error": {"code", "message", "fields",
"params"}}``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.views import APIView

from hkk_tournament.web.schema import ErrorResponseSerializer
from tournaments import selectors
from tournaments.access import Role, require_role
from tournaments.models import Tournament

#: 403 for a missing login or role (the body is the project's error body).
FORBIDDEN = OpenApiResponse(
    response=ErrorResponseSerializer,
    description="Not logged in, or without the role this needs.",
)
#: Error responses of a write: bad input, missing role, not found, state conflict.
ERRORS = {
    400: ErrorResponseSerializer,
    403: FORBIDDEN,
    404: ErrorResponseSerializer,
    409: ErrorResponseSerializer,
}
#: Error responses of a read anyone may do.
READ_ERRORS = {404: ErrorResponseSerializer}
#: Error responses of a read that needs a role.
ROLE_READ_ERRORS = {403: FORBIDDEN, 404: ErrorResponseSerializer}


def require_authenticated(user: Any) -> None:
    """DRF ``NotAuthenticated`` (401 with ``WWW-Authenticate``) for an anonymous caller: signing
    in is the API's concern; what a signed-in caller may do is the services' (their ``actor``)."""
    if not (user is not None and user.is_authenticated):
        raise NotAuthenticated()


def accepts_json(request: Any) -> bool:
    """Whether ``request``'s ``Accept`` header lets DRF answer JSON (absent, ``*/*`` or a JSON
    type): the fast path (``hkk_tournament.web.fast_path``) leaves any other to the view, whose
    content negotiation answers 406."""
    accept = request.META.get("HTTP_ACCEPT", "") or "*/*"
    return "*/*" in accept or "application/*" in accept or "json" in accept


class TournamentApi(APIView):
    """Base of every tournaments API view: the role-checked tournament lookups.

    Each lookup first refuses anonymous callers where a role is needed (403/401), then
    answers 404 for a tournament the caller may not see, then 403 without the role.
    """

    def visible_tournament(self, tournament_id: int) -> Tournament:
        """For reading: public events for anyone, private ones and drafts for their people."""
        return selectors.tournament_get_visible(tournament_id=tournament_id, user=self.request.user)

    def member_tournament(self, tournament_id: int) -> Tournament:
        """A visible tournament for a signed-in caller (the finer check comes after)."""
        require_authenticated(self.request.user)
        return self.visible_tournament(tournament_id)

    def role_tournament(self, tournament_id: int, role: Role) -> Tournament:
        """A visible tournament in which the signed-in caller holds ``role``
        (:func:`tournaments.access.require_role`: 403 ``permission_denied`` otherwise). The
        early answer of a read, or of a write before its input is read; the service behind a
        write checks its ``actor`` again, on the object it changes."""
        tournament = self.member_tournament(tournament_id)
        require_role(self.request.user, tournament, role)
        return tournament

    def managed_tournament(self, tournament_id: int) -> Tournament:
        """For organiser actions: the owner and co-organisers."""
        return self.role_tournament(tournament_id, "manage")

    def judged_tournament(self, tournament_id: int) -> Tournament:
        """For judge actions: the organisers and the judges of this event."""
        return self.role_tournament(tournament_id, "judge")

    def owner_tournament(self, tournament_id: int) -> Tournament:
        """For staff appointments: the owner only."""
        return self.role_tournament(tournament_id, "owner")


class ReasonInputSerializer(serializers.Serializer):
    """A recorded reason (required by the services where results change)."""

    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000, default="")


def _reason(request: Request, serializer_class: type[serializers.Serializer]) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
