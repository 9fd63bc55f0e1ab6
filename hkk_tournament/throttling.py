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
throttles **fail open** (:mod:`hkk_tournament.cache` answers "no count yet" and drops the
write); the login stays guarded by the django-axes lockout in the database.

Over the limit the API answers 429 ``throttled`` with ``Retry-After`` and ``params["wait"]``
(``hkk_tournament.exceptions``); a page view calls :func:`check_page_rate` and gets
``hkk_tournament.errors.TooManyRequests`` (the 429 error page, ``Retry-After`` too).
"""

from __future__ import annotations

import math
from typing import Any, cast

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from django.utils.translation import gettext as _
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from hkk_tournament.errors import TooManyRequests

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
