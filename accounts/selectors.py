"""Account reads."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User as AuthUser
from rest_framework.authtoken.models import Token

User = get_user_model()


def email_taken(email: str, *, exclude_pk: int | None = None) -> bool:
    """True if another account (not ``exclude_pk``) uses ``email``, ignoring case."""
    users = User.objects.filter(email__iexact=email)
    if exclude_pk is not None:
        users = users.exclude(pk=exclude_pk)
    return users.exists()


def has_api_token(user: AuthUser) -> bool:
    """True if ``user`` has an API token (``rest_framework.authtoken``)."""
    return Token.objects.filter(user=user).exists()
