"""Accounts: sign-up, profile, API tokens and the login rate-limit hooks.

Login, logout, password change and password reset are Django's own views (wired in
``hkk_tournament.accounts_urls``); this module adds only what Django does not ship:

- ``SignUpForm`` / ``signup_view``: a new account (username, e-mail, password twice), logged in
  at once.
- ``ProfileForm`` / ``profile_view``: name and e-mail, and a button that issues a new API token
  (``rest_framework.authtoken``; the key is shown once).
- ``TokenObtainView`` / ``MeView``: ``POST /api/auth/token/`` exchanges a username and password for
  a token; ``GET /api/auth/me/`` tells who is authenticated (session or ``Authorization: Token``).
- ``lockout_response`` / ``client_ip``: django-axes callables (settings ``AXES_LOCKOUT_CALLABLE``,
  ``AXES_CLIENT_IP_CALLABLE``): a translated 429 page, or JSON under ``/api/``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

User = get_user_model()

# The backend recorded in the session when a freshly signed-up user is logged in (several
# backends are configured, so ``login`` must be told which one vouched for the user).
_MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


# --- services -------------------------------------------------------------------------------


@transaction.atomic
def account_create(*, username: str, email: str, password: str):
    """Create an active, non-staff user with a hashed password and return it.

    Args:
        username: already validated (unique, allowed characters) by ``SignUpForm``.
        email: already validated and normalised; used for password reset.
        password: raw password, already checked against ``AUTH_PASSWORD_VALIDATORS``.
    """
    return User.objects.create_user(username=username, email=email, password=password)


@transaction.atomic
def api_token_regenerate(*, user) -> Token:
    """Delete ``user``'s API token (if any) and issue a new one; return it.

    The old key stops working at once. Source: DRF ``rest_framework.authtoken`` (one token per
    user).
    """
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


# --- forms ----------------------------------------------------------------------------------


def _email_taken(email: str, *, exclude_pk: int | None = None) -> bool:
    users = User.objects.filter(email__iexact=email)
    if exclude_pk is not None:
        users = users.exclude(pk=exclude_pk)
    return users.exists()


class SignUpForm(UserCreationForm):
    """Username, e-mail (required, unique ignoring case: reset links go there), password twice."""

    email = forms.EmailField(
        label=gettext_lazy("E-mail address"),
        help_text=gettext_lazy("Needed if you forget your password."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = User.objects.normalize_email(self.cleaned_data["email"])
        if _email_taken(email):
            raise forms.ValidationError(
                gettext_lazy("An account with this e-mail address already exists."),
                code="email_taken",
            )
        return email

    def save(self, commit: bool = True):
        """Create the user through ``account_create`` (``commit`` must stay true)."""
        if not commit:
            raise ValueError("SignUpForm.save() always commits; use account_create directly.")
        return account_create(
            username=self.cleaned_data["username"],
            email=self.cleaned_data["email"],
            password=self.cleaned_data["password1"],
        )


class ProfileForm(forms.ModelForm):
    """The editable part of an account: first and last name, e-mail address."""

    class Meta:
        model = User
        fields = ("last_name", "first_name", "email")
        widgets = {"email": forms.EmailInput(attrs={"autocomplete": "email"})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True
        self.fields["email"].label = gettext_lazy("E-mail address")

    def clean_email(self) -> str:
        email = User.objects.normalize_email(self.cleaned_data["email"])
        if _email_taken(email, exclude_pk=self.instance.pk):
            raise forms.ValidationError(
                gettext_lazy("An account with this e-mail address already exists."),
                code="email_taken",
            )
        return email


# --- HTML views -----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def signup_view(request: HttpRequest) -> HttpResponse:
    """``/accounts/signup/``: create an account and log it in, then go to ``LOGIN_REDIRECT_URL``."""
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend=_MODEL_BACKEND)
        messages.success(
            request,
            _("Welcome, %(username)s! Your account is ready.") % {"username": user.get_username()},
        )
        return redirect(settings.LOGIN_REDIRECT_URL)
    return render(request, "registration/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def profile_view(request: HttpRequest) -> HttpResponse:
    """``/accounts/profile/``: edit name and e-mail; ``action=token`` issues a new API token.

    The new token key is rendered once in the response (not stored in a message cookie).
    """
    new_token = None
    form = ProfileForm(instance=request.user)
    if request.method == "POST":
        if request.POST.get("action") == "token":
            new_token = api_token_regenerate(user=request.user).key
        else:
            form = ProfileForm(request.POST, instance=request.user)
            if form.is_valid():
                form.save()
                messages.success(request, _("Your profile has been saved."))
                return redirect("profile")
    has_token = new_token is not None or Token.objects.filter(user=request.user).exists()
    return render(
        request,
        "registration/profile.html",
        {"form": form, "new_token": new_token, "has_token": has_token},
    )


# --- API views ------------------------------------------------------------------------------


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


class TokenObtainView(ObtainAuthToken):
    """``POST /api/auth/token/`` with ``{"username", "password"}`` → ``{"token": key}``.

    Goes through ``authenticate()``, so failed attempts count towards the django-axes lockout.
    """

    @extend_schema(
        request=inline_serializer(
            "TokenObtainRequest",
            {"username": serializers.CharField(), "password": serializers.CharField()},
        ),
        responses=inline_serializer("TokenObtainResponse", {"token": serializers.CharField()}),
        summary="Obtain an API token",
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            return super().post(request, *args, **kwargs)
        finally:
            # django-axes marks the request it was given (DRF's wrapper); its middleware looks at
            # Django's own request, so copy the lockout flag there.
            if getattr(request, "axes_locked_out", False):
                request._request.axes_locked_out = True
                request._request.axes_credentials = getattr(request, "axes_credentials", None)


# --- django-axes hooks ----------------------------------------------------------------------


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict | None = None,
) -> HttpResponse:
    """Answer a locked-out login attempt with HTTP 429 (settings ``AXES_LOCKOUT_CALLABLE``).

    ``/api/...`` gets ``{"detail", "code": "locked_out", "cooloff_minutes"}``; pages get the
    translated ``registration/lockout.html``.
    """
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    if request.path.startswith("/api/"):
        return JsonResponse(
            {
                "detail": _("Too many failed login attempts. Try again in %(minutes)d minutes.")
                % {"minutes": minutes},
                "code": "locked_out",
                "cooloff_minutes": minutes,
            },
            status=429,
        )
    return render(
        request,
        "registration/lockout.html",
        {"cooloff_minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT},
        status=429,
    )


def client_ip(request: HttpRequest) -> str:
    """The client's IP address for login rate limiting (settings ``AXES_CLIENT_IP_CALLABLE``).

    With ``HKK_TRUSTED_PROXY_COUNT = n > 0`` the n-th address from the right of
    ``X-Forwarded-For`` (the one the outermost trusted proxy saw); otherwise ``REMOTE_ADDR``.
    Addresses a client writes itself into the header are never trusted.
    """
    remote = request.META.get("REMOTE_ADDR", "") or ""
    count = getattr(settings, "HKK_TRUSTED_PROXY_COUNT", 0)
    if count <= 0:
        return remote
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    if len(hops) < count:
        return remote
    return hops[-count]
