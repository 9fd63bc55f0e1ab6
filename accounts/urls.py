"""Account routes: Django's own auth views plus sign-up and profile, and the auth API.

``urlpatterns`` is mounted under ``accounts/`` by the root URLconf, with Django's standard,
un-namespaced names (``login``, ``logout``, ``password_change``, ``password_reset``,
``password_reset_confirm``, ...) because the built-in views and e-mail templates reverse them.
``api_urlpatterns`` is mounted under ``api/auth/`` (namespace ``accounts_api``).
"""

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts.api import MeView, TokenObtainView
from accounts.pages import LoginView, PasswordResetView, profile_view, signup_view

urlpatterns = [
    path("signup/", signup_view, name="signup"),
    path("profile/", profile_view, name="profile"),
    path(
        "login/",
        LoginView.as_view(),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "password_reset/",
        PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]

api_urlpatterns = [
    path("token/", TokenObtainView.as_view(), name="token"),
    path("me/", MeView.as_view(), name="me"),
]
