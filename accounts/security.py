"""django-axes hooks: login protection that a venue's shared address survives.

Settings: ``AXES_HANDLER = "accounts.security.VenueSafeLockoutHandler"``,
``AXES_LOCKOUT_CALLABLE = "accounts.security.lockout_response"``,
``AXES_CLIENT_IP_CALLABLE = "accounts.security.client_ip"``.

Three rules (docs/production.md, "Rate limits and lockout"):

1. **Per username, exponential back-off.** ``AXES_FAILURE_LIMIT`` (5) failed logins for one
   username, from any address, lock that username for ``HKK_LOGIN_BACKOFF_BASE`` (1 min); every
   further failure doubles the wait (2, 4, 8 … min) up to ``HKK_LOGIN_BACKOFF_MAX`` (60 min).
   Failures are remembered for ``AXES_COOLOFF_TIME`` (24 h) after the last one.
2. **Per address only above a high threshold.** ``HKK_LOGIN_IP_FAILURE_LIMIT`` (500) failures
   from one address within ``HKK_LOGIN_IP_COOLOFF`` (15 min), summed over all usernames, lock
   the address for that long after the last failure (password spraying). A venue behind one
   NAT address makes a few dozen typos an hour; it never comes near.
3. **Known devices.** A successful login (page or token API) sets a signed cookie naming the
   device and the usernames that logged in on it (:func:`remember_device`). That device is
   exempt from both locks for those usernames, so nobody else's failures — an attacker's
   guesses at the username, the venue's typos — block its correct password. Its own failures
   count: after ``AXES_FAILURE_LIMIT`` of them it is treated like any other device until they
   are forgotten.

Failed attempts during a lockout are not counted (``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT
= False``): they never restart or lengthen the wait. A successful login forgives that
username's failures from that address only.
"""

from __future__ import annotations

import logging
import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.core.cache import cache
from django.db.models import Max, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from hkk_tournament.web.error_views import json_error
from hkk_tournament.web.exceptions import ApiError, is_api_request

logger = logging.getLogger(__name__)

#: Salt of the known-device cookie's signature (``settings.HKK_KNOWN_DEVICE_COOKIE``).
DEVICE_COOKIE_SALT = "accounts.security.known-device"
#: At most this many usernames are remembered per device (a shared family tablet).
DEVICE_MAX_USERNAMES = 5


@dataclass(frozen=True)
class KnownDevice:
    """A signed known-device cookie: a random ``device_id`` and the usernames that logged in."""

    device_id: str
    usernames: tuple[str, ...]


def backoff(failures: int, limit: int) -> timedelta:
    """Lock duration after ``failures`` failed logins of one username (``limit`` = the first
    that locks): ``HKK_LOGIN_BACKOFF_BASE × 2^(failures − limit)``, at most
    ``HKK_LOGIN_BACKOFF_MAX``; zero below the limit."""
    if failures < limit:
        return timedelta(0)
    base: timedelta = settings.HKK_LOGIN_BACKOFF_BASE
    ceiling: timedelta = settings.HKK_LOGIN_BACKOFF_MAX
    steps = min(failures - limit, 32)  # 2^32 × base is far past any ceiling
    return min(base * (2**steps), ceiling)


def known_device(request: HttpRequest) -> KnownDevice | None:
    """The request's valid known-device cookie, else ``None`` (missing, tampered, expired)."""
    value = request.get_signed_cookie(
        settings.HKK_KNOWN_DEVICE_COOKIE,
        default=None,
        salt=DEVICE_COOKIE_SALT,
        max_age=settings.HKK_KNOWN_DEVICE_AGE,
    )
    if not value or ":" not in value:
        return None
    device_id, _sep, names = value.partition(":")
    return KnownDevice(device_id, tuple(n for n in names.split(",") if n))


def remember_device(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """Set (or extend) the signed known-device cookie after ``username`` logged in successfully
    and forget the device's own failures. HttpOnly, ``SameSite=Lax``, secure when sessions are;
    lasts ``HKK_KNOWN_DEVICE_AGE``."""
    device = known_device(request)
    device_id = device.device_id if device else secrets.token_urlsafe(16)
    names = [username] + [n for n in (device.usernames if device else ()) if n != username]
    response.set_signed_cookie(
        settings.HKK_KNOWN_DEVICE_COOKIE,
        f"{device_id}:{','.join(names[:DEVICE_MAX_USERNAMES])}",
        salt=DEVICE_COOKIE_SALT,
        max_age=int(settings.HKK_KNOWN_DEVICE_AGE.total_seconds()),
        httponly=True,
        secure=settings.SESSION_COOKIE_SECURE,
        samesite="Lax",
    )
    _device_failures_forget(device_id)


def _device_key(device_id: str) -> str:
    return f"hkk:login-device-failures:{device_id}"


def _device_failures(device_id: str) -> int | None:
    """The device's own recent failures; ``None`` when the cache cannot be read (the device is
    then treated as unknown: the ordinary locks apply)."""
    try:
        return int(cache.get(_device_key(device_id), 0))
    except Exception:  # any cache outage: fall back to the ordinary locks
        logger.warning("Known-device failure count unavailable; ordinary lockout applies.")
        return None


def _device_failures_add(device_id: str) -> None:
    timeout = int(settings.AXES_COOLOFF_TIME.total_seconds())
    try:
        cache.add(_device_key(device_id), 0, timeout)
        cache.incr(_device_key(device_id))
    except Exception:  # a cache outage: the failure still counts for the username
        logger.warning("Known-device failure not counted (cache unavailable).")


def _device_failures_forget(device_id: str) -> None:
    try:
        cache.delete(_device_key(device_id))
    except Exception:  # a cache outage: the count expires on its own
        logger.warning("Known-device failures not forgotten (cache unavailable).")


def trusted_device(request: HttpRequest, username: str | None) -> KnownDevice | None:
    """The request's known device when it may skip the locks for ``username``: its cookie names
    that username and the device itself failed fewer than ``AXES_FAILURE_LIMIT`` times."""
    device = known_device(request)
    if device is None or not username or username not in device.usernames:
        return None
    failures = _device_failures(device.device_id)
    if failures is None or failures >= int(settings.AXES_FAILURE_LIMIT):
        return None
    return device


def _summary(attempts: QuerySet[AccessAttempt]) -> tuple[int, datetime | None]:
    row = attempts.aggregate(total=Sum("failures_since_start"), last=Max("attempt_time"))
    return int(row["total"] or 0), row["last"]


def lockout_wait(request: HttpRequest, credentials: dict | None = None) -> timedelta:
    """How long logins for the request's username from its address stay refused (zero: allowed).

    The larger of the username's back-off (rule 1) and the address's lock (rule 2), both
    measured from the last failure; zero for a trusted known device (rule 3).
    """
    username = get_client_username(request, credentials)
    if trusted_device(request, username) is not None:
        return timedelta(0)
    now = getattr(request, "axes_attempt_time", None) or timezone.now()
    wait = timedelta(0)
    if username:
        remembered = now - settings.AXES_COOLOFF_TIME
        failures, last = _summary(
            AccessAttempt.objects.filter(username=username, attempt_time__gte=remembered)
        )
        limit = get_failure_limit(request, credentials)
        if last is not None and failures >= limit:
            wait = max(wait, last + backoff(failures, limit) - now)
    # The token API's lockout answer gets Django's request, which django-axes did not annotate.
    address = getattr(request, "axes_ip_address", None) or client_ip(request)
    if address:
        window: timedelta = settings.HKK_LOGIN_IP_COOLOFF
        failures, last = _summary(
            AccessAttempt.objects.filter(ip_address=address, attempt_time__gte=now - window)
        )
        if last is not None and failures >= int(settings.HKK_LOGIN_IP_FAILURE_LIMIT):
            wait = max(wait, last + window - now)
    return max(wait, timedelta(0))


class VenueSafeLockoutHandler(AxesDatabaseHandler):
    """django-axes database handler with the three rules of the module docstring
    (settings ``AXES_HANDLER``; ``AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]`` stores
    one row per username, address and user agent, as django-axes always does)."""

    def get_failures(self, request: HttpRequest, credentials: dict | None = None) -> int:
        """``AXES_FAILURE_LIMIT`` while :func:`lockout_wait` is positive, else 0: django-axes
        compares this one number with the limit to decide a lockout."""
        if lockout_wait(request, credentials) > timedelta(0):
            return get_failure_limit(request, credentials)
        return 0

    def user_login_failed(
        self, sender: Any, credentials: dict, request: HttpRequest | None = None, **kwargs: Any
    ) -> None:
        """Record the failure (django-axes), and count it against a known device's own budget."""
        if request is not None and not getattr(request, "axes_locked_out", False):
            device = known_device(request)
            if device is not None and get_client_username(request, credentials) in device.usernames:
                _device_failures_add(device.device_id)
        super().user_login_failed(sender, credentials, request, **kwargs)

    def reset_user_attempts(self, request: HttpRequest, credentials: dict | None = None) -> int:
        """After a successful login: forget that username's failures from that address only (an
        attacker elsewhere stays slowed down; the address's count of others stays)."""
        username = get_client_username(request, credentials)
        address = getattr(request, "axes_ip_address", None)
        return AccessAttempt.objects.filter(username=username, ip_address=address).delete()[0]


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict | None = None,
) -> HttpResponse:
    """Answer a locked-out login attempt with HTTP 429 and ``Retry-After`` (seconds left).

    ``/api/...`` gets the project's JSON error: code ``locked_out``,
    ``params["cooloff_minutes"]`` (rounded up); pages get the translated
    ``registration/lockout.html``.
    """
    seconds = max(1, math.ceil(lockout_wait(request, credentials).total_seconds()))
    minutes = math.ceil(seconds / 60)
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
                headers={"Retry-After": str(seconds)},
            )
        )
    response = render(
        request,
        "registration/lockout.html",
        {"cooloff_minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT},
        status=429,
    )
    response["Retry-After"] = str(seconds)
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
