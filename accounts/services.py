"""Account writes: creating a user and issuing an API token. Each owns its transaction."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User as AuthUser
from django.db import transaction
from rest_framework.authtoken.models import Token

User = get_user_model()


@transaction.atomic
def account_create(
    *, username: str, email: str, password: str, first_name: str = "", last_name: str = ""
) -> AuthUser:
    """Create an active, non-staff user with a hashed password and return it.

    ``first_name`` and ``last_name`` are the person's real name: pairings, standings and result
    slips show it (the username only when it is missing).

    Args:
        username: already validated (unique, allowed characters) by ``SignUpForm``.
        email: already validated and normalised; used for password reset.
        password: raw password, already checked against ``AUTH_PASSWORD_VALIDATORS``.
    """
    return User.objects.create_user(
        username=username,
        email=email,
        password=password,
        first_name=first_name.strip(),
        last_name=last_name.strip(),
    )


@transaction.atomic
def api_token_regenerate(*, user: AuthUser) -> Token:
    """Delete ``user``'s API token (if any) and issue a new one; return it.

    The old key stops working at once. Source: DRF ``rest_framework.authtoken`` (one token per
    user).
    """
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)
