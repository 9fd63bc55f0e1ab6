"""Account pages: sign-up and profile.

Login, logout, password change and password reset are Django's own views (wired in
``accounts.urls``); this module adds only what Django does not ship:

- ``signup_view``: a new account (username, e-mail, password twice), logged in at once. Each
  POST counts against the ``signup`` throttle scope (per client address); over it the 429 page.
- ``profile_view``: name and e-mail, and a button that issues a new API token
  (``rest_framework.authtoken``; the key is shown once).
- ``LoginView``: Django's, plus the signed known-device cookie a successful login sets
  (``accounts.security.remember_device``: that device keeps logging in while others' failures
  lock the username or the venue's address).
"""

from __future__ import annotations

from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User as AuthUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import ProfileForm, SignUpForm
from accounts.security import remember_device
from accounts.selectors import has_api_token
from accounts.services import api_token_regenerate
from hkk_tournament.throttling import check_page_rate

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
