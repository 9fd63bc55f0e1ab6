"""Account writes: creating a user and issuing an API token. Each owns its transaction."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User as AuthUser
from django.db import transaction
from rest_framework.authtoken.models import Token

User = get_user_model()


@transaction.atomic
def account_create(*, username: str, email: str, password: str) -> AuthUser:
    """Create an active, non-staff user with a hashed password and return it.

    Args:
        username: already validated (unique, allowed characters) by ``SignUpForm``.
        email: already validated and normalised; used for password reset.
        password: raw password, already checked against ``AUTH_PASSWORD_VALIDATORS``.
    """
    return User.objects.create_user(username=username, email=email, password=password)


@transaction.atomic
def api_token_regenerate(*, user: AuthUser) -> Token:
    """Delete ``user``'s API token (if any) and issue a new one; return it.

    The old key stops working at once. Source: DRF ``rest_framework.authtoken`` (one token per
    user).
    """
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)
