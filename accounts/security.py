"""django-axes hooks: the lockout answer, the client address used for login rate limiting and the
handler that locks out a (username, address) pair and, with a higher limit, a whole address.

Settings: ``AXES_LOCKOUT_CALLABLE = "accounts.security.lockout_response"``,
``AXES_CLIENT_IP_CALLABLE = "accounts.security.client_ip"``,
``AXES_HANDLER = "accounts.security.PairAndAddressLockoutHandler"``.
"""

from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from hkk_tournament.error_views import json_error
from hkk_tournament.exceptions import ApiError, is_api_request


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict | None = None,
) -> HttpResponse:
    """Answer a locked-out login attempt with HTTP 429 and ``Retry-After`` (cool-off seconds).

    ``/api/...`` gets the project's JSON error: code ``locked_out``,
    ``params["cooloff_minutes"]``; pages get the translated ``registration/lockout.html``.
    """
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    retry_after = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    if is_api_request(request):
        message = _("Too many failed login attempts. Try again in %(minutes)d minutes.") % {
            "minutes": minutes
        }
        return json_error(
            ApiError(
                429,
                "locked_out",
                message,
                params={"cooloff_minutes": minutes},
                headers={"Retry-After": retry_after},
            )
        )
    response = render(
        request,
        "registration/lockout.html",
        {"cooloff_minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT},
        status=429,
    )
    response["Retry-After"] = retry_after
    return response


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


class PairAndAddressLockoutHandler(AxesDatabaseHandler):
    """django-axes handler with two limits (settings ``AXES_HANDLER``).

    ``AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]``:

    - one username from one address is locked out after ``AXES_FAILURE_LIMIT`` failures (5);
    - one address is locked out for every username after ``HKK_LOGIN_IP_FAILURE_LIMIT``
      failures summed over all usernames (50: password spraying; high because a venue puts
      every player behind one address).

    Both last ``AXES_COOLOFF_TIME`` after the last failure. django-axes compares a single count
    with a single limit, so :meth:`get_failures` reports the address's count scaled to that
    limit: ``max(pair, address * AXES_FAILURE_LIMIT // HKK_LOGIN_IP_FAILURE_LIMIT)`` reaches
    ``AXES_FAILURE_LIMIT`` exactly when ``pair ≥ AXES_FAILURE_LIMIT`` or
    ``address ≥ HKK_LOGIN_IP_FAILURE_LIMIT``. A successful login clears only that user's own
    failures from that address (``AXES_RESET_ON_SUCCESS``), never the whole address's: an
    attacker cannot wipe the spraying count by logging into an account of their own.
    """

    def get_failures(self, request: HttpRequest, credentials: dict | None = None) -> int:
        counts = [
            attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        ]
        pair = counts[0] if counts else 0
        address = max(counts[1:], default=0)
        limit = get_failure_limit(request, credentials)
        address_limit = max(1, int(settings.HKK_LOGIN_IP_FAILURE_LIMIT))
        return max(pair, address * limit // address_limit)

    def reset_user_attempts(self, request: HttpRequest, credentials: dict | None = None) -> int:
        attempts = self.filter_user_attempts(request, credentials)[:1]  # the pair only
        return sum(queryset.delete()[0] for queryset in attempts)
