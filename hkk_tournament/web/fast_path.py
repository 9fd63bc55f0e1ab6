"""The fast path: an anonymous visitor's GET or HEAD of a shared public page or API answer is
answered from its stored rendering (``hkk_tournament.web.page_cache``) before the view and the
middlewares inside this one run: no database query, no template, no session.

:class:`FastPathMiddleware` sits right inside ``LocaleMiddleware`` (settings ``MIDDLEWARE``):
the language is chosen and the middlewares outside it (request id, gzip, security headers,
CSP, ``Content-Language``) run on every answer as on any other; the headers that the view and
the middlewares inside it give a shared answer (``X-Frame-Options``, ``Vary``, ``Allow``…) are
captured with the rendering on its first slow answer (``page_cache.capture``) and given again
here, so a fast answer equals the slow one. A load-shedding middleware inside it never sheds a
fast answer (it costs less than the 503).

Only requests without a session cookie, a messages cookie and an ``Authorization`` header are
considered; the URL is resolved (``resolve``) and its view looked up among the *routes* the
views declare (:func:`register`). A route finds the stored rendering and the version its view
would answer with now (for a public event and a published round) or ``None``. A current
rendering is answered; a stale one too once its refresh went to a worker
(``page_cache.hand_on``: what the view would answer), else (eager mode) the view renders it.
Everything else goes on to the view as before (signed-in visitors, private events, draft
rounds, POSTs, searches, renderings not made yet).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.urls import Resolver404, ResolverMatch, get_urlconf, resolve
from django.utils.translation import get_language

from hkk_tournament.web import page_cache

#: A route: ``(request, URL kwargs) → the stored rendering and the current version, or None``.
Route = Callable[[HttpRequest, dict[str, Any]], "page_cache.Candidate | None"]

_ROUTES: dict[Any, Route] = {}

#: Paths resolved by this process, newest last: ``(URLconf, language, path)`` → the match, or
#: ``None`` for a path no URL pattern matches. Resolving walks the URL patterns (about 0.3 ms,
#: 8 % of a public worker's CPU at 200 reads a second); a venue asks for a few paths over and
#: over (a search is the same path with another query string).
_RESOLVED: OrderedDict[tuple[Any, str | None, str], ResolverMatch | None] = OrderedDict()
_RESOLVED_LOCK = threading.Lock()
RESOLVED_KEPT = 1024


def register(view: Any, route: Route) -> None:
    """Declare ``route`` as the fast path of ``view`` (a view function, or an ``APIView``
    class: its ``as_view()`` function is matched through ``view_class``)."""
    _ROUTES[view] = route


def _anonymous(request: HttpRequest) -> bool:
    """No session, no messages waiting, no credentials: the visitor is anonymous for sure."""
    cookies = request.COOKIES
    if settings.SESSION_COOKIE_NAME in cookies:
        return False
    if getattr(settings, "MESSAGE_COOKIE_NAME", "messages") in cookies:
        return False
    return "HTTP_AUTHORIZATION" not in request.META


def lookup(request: HttpRequest) -> page_cache.Stored | None:
    """The stored rendering that answers ``request``, or ``None`` (module docstring).
    Raises ``DisallowedHost`` for a host outside ``ALLOWED_HOSTS`` (as the slow path would)."""
    if request.method not in ("GET", "HEAD") or not _anonymous(request):
        return None
    match = _resolved(request.path_info)
    if match is None:
        return None
    route = _ROUTES.get(getattr(match.func, "view_class", match.func))
    if route is None:
        return None
    request.get_host()  # the host check of CommonMiddleware, which the fast path skips
    found = route(request, match.kwargs)
    if found is None or found.stored.headers is None:
        return None
    if found.stored.version == found.version:
        return found.stored
    # Stale: answered as the view would (the previous rendering) once a worker renders it.
    if page_cache.hand_on(found.key, found.version, found.refresh):
        return found.stored
    return None


def _resolved(path: str) -> ResolverMatch | None:
    """``resolve(path)`` (``None`` when no pattern matches), remembered per URLconf and active
    language (a language-prefixed pattern resolves per language) for :data:`RESOLVED_KEPT`
    paths. The route functions only read the match."""
    key = (get_urlconf() or settings.ROOT_URLCONF, get_language(), path)
    with _RESOLVED_LOCK:
        if key in _RESOLVED:
            _RESOLVED.move_to_end(key)
            return _RESOLVED[key]
    try:
        match: ResolverMatch | None = resolve(path)
    except Resolver404:
        match = None
    with _RESOLVED_LOCK:
        _RESOLVED[key] = match
        while len(_RESOLVED) > RESOLVED_KEPT:
            _RESOLVED.popitem(last=False)
    return match


class FastPathMiddleware:
    """Answer from :func:`lookup`'s rendering, else run the rest of the stack and capture the
    headers of a shared answer on the way out (``page_cache.capture``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        stored = lookup(request)
        if stored is not None:
            return page_cache.stored_answer(request, stored)
        response = self.get_response(request)
        page_cache.capture(request, response)
        return response
