"""Test-only URLconf for tests/test_errors.py: the project's routes plus views that raise on demand.

- ``/api/test-errors/<kind>/`` (DRF view): GET raises ``RAISES[kind]``; POST validates
  ``_Input`` (or, for ``write_then_fail``, writes a user and then fails);
- ``/api/test-errors/plain/<kind>/`` and ``/test-errors/<kind>/``: a plain Django view raising
  ``RAISES[kind]`` (``read_body`` reads the body instead);
- ``/api/test-errors/token-only/`` (token auth only, so 401) and ``/api/test-errors/throttled/``;
- :class:`RaisingMiddleware` raises ``RAISES[<X-Raise header>]`` before any view.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import path
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.authentication import TokenAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from hkk_tournament import errors
from hkk_tournament import urls as project_urls

User = get_user_model()


class _Input(serializers.Serializer):
    name = serializers.CharField()
    games = serializers.ListField(child=serializers.DictField(child=serializers.IntegerField()))

    def validate(self, attrs: dict) -> dict:
        if attrs["name"] == "both":
            raise serializers.ValidationError("Name and games disagree.")
        return attrs


RAISES = {
    "validation_failed": lambda: errors.ValidationFailed(
        "bad_team", _("Invalid input."), {"size": 3}, fields={"players": _("Invalid input.")}
    ),
    "permission_denied": lambda: errors.PermissionDenied("not_organiser", "Only organisers."),
    "not_found": lambda: errors.NotFound("round_not_found", "No such round.", {"round": 9}),
    "conflict": lambda: errors.Conflict("game_already_recorded", "Already recorded."),
    "invalid_state": lambda: errors.InvalidState("round_finished", "The round is finished."),
    "django_validation": lambda: DjangoValidationError(
        {"deck": ["Too few cards."], "__all__": ["Broken deck."]}
    ),
    "does_not_exist": lambda: ObjectDoesNotExist("no row"),
    "http404": lambda: Http404("nothing here"),
    "django_permission": lambda: PermissionDenied(),
    "suspicious": lambda: SuspiciousOperation("odd"),
    "bug": lambda: RuntimeError("secret detail"),
}


class RaisingApi(APIView):
    """GET raises the exception named in the URL; POST validates ``_Input``."""

    def get(self, request: Request, kind: str) -> Response:
        raise RAISES[kind]()

    def post(self, request: Request, kind: str) -> Response:
        if kind == "write_then_fail":
            User.objects.create_user(username="rolled-back")
            raise RuntimeError("after a write")
        _Input(data=request.data).is_valid(raise_exception=True)
        return Response({"ok": True})


class TokenOnlyApi(APIView):
    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAuthenticated]

    def get(self, request: Request) -> Response:
        return Response({})


class _AlwaysThrottled(BaseThrottle):
    def allow_request(self, request: Request, view: APIView) -> bool:
        return False

    def wait(self) -> float:
        return 29.2


class ThrottledApi(APIView):
    throttle_classes = [_AlwaysThrottled]

    def get(self, request: Request) -> Response:
        return Response({})


def raising_view(request: HttpRequest, kind: str) -> HttpResponse:
    """A plain Django view (no DRF), under /api/ or not depending on the route."""
    if kind == "read_body":
        return HttpResponse(len(request.body))
    raise RAISES[kind]()


class RaisingMiddleware:
    """Raises before any view when the request carries ``X-Raise: <kind>``."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        kind = request.headers.get("X-Raise")
        if kind:
            raise RAISES[kind]()
        return self.get_response(request)


urlpatterns = [
    path("api/test-errors/token-only/", TokenOnlyApi.as_view()),
    path("api/test-errors/throttled/", ThrottledApi.as_view()),
    path("api/test-errors/plain/<str:kind>/", raising_view),
    path("api/test-errors/<str:kind>/", RaisingApi.as_view()),
    path("test-errors/<str:kind>/", raising_view),
    *project_urls.urlpatterns,
]
handler400 = project_urls.handler400
handler403 = project_urls.handler403
handler404 = project_urls.handler404
handler500 = project_urls.handler500
