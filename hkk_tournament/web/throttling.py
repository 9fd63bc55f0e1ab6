"""Rate limits for the expensive and sensitive endpoints only (DRF throttles, named scopes).

``REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] = [ScopedWriteRateThrottle]``: an API view is
throttled only when it names a scope (``throttle_scope = "deck_validation"``), and only its
writes (``POST``, ``PUT``, ``PATCH``, ``DELETE``): reading — public pages, live pairings,
standings, exports — is never throttled, so a whole venue behind one address can refresh as
often as it likes. A signed-in caller is counted per user, an anonymous one per client IP
(``REST_FRAMEWORK["NUM_PROXIES"]`` = ``HKK_TRUSTED_PROXY_COUNT``). The rates live in
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (environment ``HKK_THROTTLE_*``) and are read at
request time. The counters live in the default cache: with several app server processes set
``HKK_CACHE_URL`` to Redis so that they share them. While that Redis is unreachable the
throttles **fail open** (:mod:`hkk_tournament.web.cache` answers "no count yet" and drops the
write); the login stays guarded by the django-axes lockout in the database.

Over the limit the API answers 429 ``throttled`` with ``Retry-After`` and ``params["wait"]``
(``hkk_tournament.web.exceptions``); a page view calls :func:`check_page_rate` and gets
``hkk_tournament.errors.TooManyRequests`` (the 429 error page, ``Retry-After`` too).

Attempts that guess a secret (claim codes) or send mail (invitations, password reset) are
counted twice, per user (or target) and per address, with :func:`attempt_budgets`,
:func:`check_budgets` and :func:`check_and_count`; a claim counts only its failed attempts, so
a venue's players claiming their own codes never use up the address's budget.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from django.utils.translation import gettext as _
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from hkk_tournament.errors import ApplicationError, TooManyRequests

#: Methods never throttled.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _rate_of(scope: str) -> str | None:
    try:
        rate = api_settings.DEFAULT_THROTTLE_RATES[scope]
    except KeyError:
        raise ImproperlyConfigured(f"No throttle rate set for the scope {scope!r}.") from None
    return None if rate is None else str(rate)


class ScopedWriteRateThrottle(ScopedRateThrottle):
    """DRF's ``ScopedRateThrottle`` for writes only, rates read at request time."""

    def get_rate(self) -> str | None:
        return _rate_of(str(self.scope))

    def allow_request(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)


class PageRateThrottle(SimpleRateThrottle):
    """The same counter for a plain Django view: ``PageRateThrottle("signup")``.

    Shares keys with :class:`ScopedWriteRateThrottle` (``throttle_<scope>_<user id or IP>``).
    """

    def __init__(self, scope: str) -> None:
        self.scope = scope
        super().__init__()

    def get_rate(self) -> str | None:
        return _rate_of(str(self.scope))

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        ident = self.get_ident(request)
        if user is not None and user.is_authenticated:
            ident = str(user.pk)
        return self.cache_format % {"scope": self.scope, "ident": ident}


def check_page_rate(request: HttpRequest, scope: str) -> None:
    """Count one write of ``request`` against ``scope``.

    Raises:
        TooManyRequests: over the scope's rate; ``params["wait"]`` = seconds until the next
            request is allowed (at least 1).
    """
    throttle = PageRateThrottle(scope)
    # DRF's throttles only read ``request.META`` and ``request.user``: a Django request will do.
    if throttle.allow_request(cast(Any, request), cast(Any, None)):
        return
    wait = max(1, math.ceil(throttle.wait() or 1))
    raise TooManyRequests(
        "throttled",
        _("Too many requests. Try again in %(wait)d seconds.") % {"wait": wait},
        {"wait": wait},
    )


def client_address(request: Any) -> str:
    """The client's address as the throttles see it (``REST_FRAMEWORK["NUM_PROXIES"]``)."""
    return str(PageRateThrottle("signup").get_ident(cast(Any, request)))


class KeyedRateThrottle(SimpleRateThrottle):
    """A scope's rate counted under a key the caller chooses (a user id, an address, a hashed
    e-mail address), so that a view can count only what it wants — e.g. failed attempts.

    :meth:`blocked` reads the count without adding to it; :meth:`record` adds one.
    """

    num_requests: int | None  # set by SimpleRateThrottle from the scope's rate
    duration: int | None

    def __init__(self, scope: str, ident: str) -> None:
        self.scope = scope
        self.ident = ident
        super().__init__()

    def get_rate(self) -> str | None:
        return _rate_of(str(self.scope))

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.ident}

    def blocked(self) -> int | None:
        """Seconds until the next attempt is allowed (at least 1) when the count is at the rate,
        else ``None``."""
        if self.rate is None or self.num_requests is None or self.duration is None:
            return None
        self.key = self.get_cache_key(None, None)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        if len(self.history) < self.num_requests:
            return None
        return max(1, math.ceil(self.wait() or 1))

    def record(self) -> None:
        """Count one more event now."""
        if self.rate is None:
            return
        self.blocked()  # reads the current history
        self.history.insert(0, self.now)
        self.cache.set(self.key, self.history, self.duration)


def _too_many(wait: int) -> TooManyRequests:
    return TooManyRequests(
        "throttled",
        _("Too many requests. Try again in %(wait)d seconds.") % {"wait": wait},
        {"wait": wait},
    )


def attempt_budgets(request: Any, scope: str) -> list[KeyedRateThrottle]:
    """The two counters of ``scope`` for ``request``: ``scope`` per signed-in user (per address
    when anonymous) and ``<scope>_address`` per client address."""
    user = getattr(request, "user", None)
    address = client_address(request)
    who = f"user-{user.pk}" if user is not None and user.is_authenticated else f"ip-{address}"
    return [KeyedRateThrottle(scope, who), KeyedRateThrottle(f"{scope}_address", address)]


def check_budgets(budgets: list[KeyedRateThrottle]) -> None:
    """Raise ``TooManyRequests`` (``params["wait"]`` seconds) when any counter is at its rate."""
    waits = [wait for wait in (b.blocked() for b in budgets) if wait is not None]
    if waits:
        raise _too_many(max(waits))


def check_and_count(budgets: list[KeyedRateThrottle]) -> None:
    """:func:`check_budgets`, then count one event on every counter.

    Raises:
        TooManyRequests: a counter is at its rate (nothing counted).
    """
    check_budgets(budgets)
    for budget in budgets:
        budget.record()


@contextmanager
def failures_counted(request: Any, scope: str) -> Iterator[None]:
    """Run the block as one attempt of ``scope`` that counts only when it fails: refused
    up front when the user's or the address's failures are at their rates
    (:func:`attempt_budgets`); an ``ApplicationError`` raised inside counts one failure on both
    and propagates. ``request``: a Django or DRF request.

    Raises:
        TooManyRequests: over either rate (``params["wait"]`` seconds).
    """
    budgets = attempt_budgets(request, scope)
    check_budgets(budgets)
    try:
        yield
    except ApplicationError:
        for budget in budgets:
            budget.record()
        raise
