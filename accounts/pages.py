"""Account pages: sign-up and profile.

Login, logout, password change and password reset are Django's own views (wired in
``accounts.urls``); this module adds only what Django does not ship:

- ``signup_view``: a new account (username, e-mail, password twice), logged in at once. Each
  POST counts against the ``signup`` throttle scope (per client address); over it the 429 page.
- ``profile_view``: name and e-mail, and a button that issues a new API token
  (``rest_framework.authtoken``; the key is shown once).
- ``PasswordResetView``: Django's, counted per target e-mail address and per client address
  (throttle scopes ``password_reset_email``, ``password_reset_address``; over either the form
  answers 429 with a translated message); on a server that delivers no e-mail it says so instead
  of pretending to send a link (which the console backend would print into the log).
- ``LoginView``: Django's, plus the signed known-device cookie a successful login sets
  (``accounts.security.remember_device``: that device keeps logging in while others' failures
  lock the username or the venue's address).
"""

from __future__ import annotations

import hashlib
import math
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User as AuthUser
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import ProfileForm, SignUpForm
from accounts.security import remember_device
from accounts.selectors import has_api_token
from accounts.services import api_token_regenerate
from hkk_tournament.errors import TooManyRequests
from hkk_tournament.mail import mail_delivers
from hkk_tournament.web.throttling import (
    KeyedRateThrottle,
    check_and_count,
    check_page_rate,
    client_address,
)

# The backend recorded in the session when a freshly signed-up user is logged in (several
# backends are configured, so ``login`` must be told which one vouched for the user).
_MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


class LoginView(auth_views.LoginView):
    """``/accounts/login/``: Django's login page; a successful login also marks the browser as
    a known device of the user (signed cookie, ``accounts.security.remember_device``)."""

    redirect_authenticated_user = True

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        remember_device(self.request, response, form.get_user().get_username())
        return response


class PasswordResetView(auth_views.PasswordResetView):
    """``/accounts/password_reset/``: Django's reset form, throttled and honest about e-mail."""

    email_template_name = "registration/password_reset_email.txt"
    html_email_template_name = "registration/password_reset_email.html"
    subject_template_name = "registration/password_reset_subject.txt"

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not mail_delivers():
            return render(request, "registration/password_reset_unavailable.html")
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        email = str(form.cleaned_data["email"]).strip().casefold()
        target = hashlib.sha256(email.encode()).hexdigest()
        budgets = [
            KeyedRateThrottle("password_reset_email", target),
            KeyedRateThrottle("password_reset_address", client_address(self.request)),
        ]
        try:
            check_and_count(budgets)
        except TooManyRequests as exc:
            wait = int(exc.params["wait"])
            form.add_error(
                None,
                _("Too many password reset requests. Try again in %(minutes)d minutes.")
                % {"minutes": max(1, math.ceil(wait / 60))},
            )
            response = self.render_to_response(self.get_context_data(form=form), status=429)
            response["Retry-After"] = str(wait)
            return response
        return super().form_valid(form)


@require_http_methods(["GET", "POST"])
def signup_view(request: HttpRequest) -> HttpResponse:
    """``/accounts/signup/``: create an account and log it in, then go to ``LOGIN_REDIRECT_URL``."""
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    if request.method == "POST":
        check_page_rate(request, "signup")  # TooManyRequests → the 429 error page
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
    user = cast(AuthUser, request.user)  # login_required: never anonymous here
    new_token = None
    form = ProfileForm(instance=user)
    if request.method == "POST":
        if request.POST.get("action") == "token":
            new_token = api_token_regenerate(user=user).key
        else:
            form = ProfileForm(request.POST, instance=user)
            if form.is_valid():
                form.save()
                messages.success(request, _("Your profile has been saved."))
                return redirect("profile")
    has_token = new_token is not None or has_api_token(user)
    return render(
        request,
        "registration/profile.html",
        {"form": form, "new_token": new_token, "has_token": has_token},
    )
