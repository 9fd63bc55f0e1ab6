"""Auth API: ``POST /api/auth/token/`` (username and password → token) and ``GET /api/auth/me/``.

Errors have the project's one JSON shape (``hkk_tournament.web.exceptions``); a locked-out login
answers 429 ``locked_out`` (``accounts.security.lockout_response``), more than the ``login``
throttle rate of attempts per client address answers 429 ``throttled``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.security import remember_device
from hkk_tournament.web.parsers import SafeJSONParser
from hkk_tournament.web.throttling import ScopedWriteRateThrottle


class MeSerializer(serializers.Serializer):
    """The authenticated user as the API shows it."""

    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.EmailField()
    is_staff = serializers.BooleanField()


class MeView(APIView):
    """``GET /api/auth/me/``: the user behind the session or the ``Authorization: Token`` header."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=MeSerializer, summary="Who am I")
    def get(self, request: Request) -> Response:
        return Response(MeSerializer(request.user).data)


class TokenObtainInputSerializer(AuthTokenSerializer):
    """DRF's credentials serializer with bounded fields: an over-long username is refused before
    ``authenticate()`` (django-axes would otherwise try to store it in a 255-character column)."""

    username = serializers.CharField(label=_("Username"), max_length=150, write_only=True)
    password = serializers.CharField(
        label=_("Password"),
        max_length=4096,
        style={"input_type": "password"},
        trim_whitespace=False,
        write_only=True,
    )


class TokenObtainView(ObtainAuthToken):
    """``POST /api/auth/token/`` with ``{"username", "password"}`` → ``{"token": key}``.

    Goes through ``authenticate()``, so failed attempts count towards the django-axes lockout;
    a success sets the known-device cookie (``accounts.security``) like the login page.
    Throttle scope ``login``; the project's parsers (DRF's own view lists its plain ones).
    """

    throttle_classes = [ScopedWriteRateThrottle]
    throttle_scope = "login"
    parser_classes = [SafeJSONParser, FormParser, MultiPartParser]
    serializer_class = TokenObtainInputSerializer

    @extend_schema(
        request=inline_serializer(
            "TokenObtainRequest",
            {
                "username": serializers.CharField(max_length=150),
                "password": serializers.CharField(max_length=4096),
            },
        ),
        responses=inline_serializer("TokenObtainResponse", {"token": serializers.CharField()}),
        summary="Obtain an API token",
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            serializer = self.get_serializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            user = serializer.validated_data["user"]
            token, _created = Token.objects.get_or_create(user=user)
            # A token login is a login: django-axes forgives this user's failures from this
            # address, and the caller's device becomes known (accounts.security).
            user_logged_in.send(sender=user.__class__, request=request._request, user=user)
            response = Response({"token": token.key})
            remember_device(request._request, response, user.get_username())
            return response
        finally:
            # django-axes marks the request it was given (DRF's wrapper); its middleware looks at
            # Django's own request, so copy the lockout flag there.
            if getattr(request, "axes_locked_out", False):
                setattr(request._request, "axes_locked_out", True)  # noqa: B010 (not a declared attribute)
                credentials = getattr(request, "axes_credentials", None)
                setattr(request._request, "axes_credentials", credentials)  # noqa: B010
