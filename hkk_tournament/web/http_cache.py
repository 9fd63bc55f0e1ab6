"""HTTP caching of pages and API responses built from a stored snapshot (e.g. the standings).

A response read from a snapshot is identified by the snapshot's tag (its version, plus what
else the body depends on: for a paged list the page, limit, offset and search, so every page
has its own ETag) and dated by its ``computed_at``: :func:`not_modified` answers a conditional
GET (``If-None-Match`` / ``If-Modified-Since``) with 304 before anything is rendered, and
:func:`add_validators` sets ``ETag``, ``Last-Modified``, ``Cache-Control`` and ``Vary`` on the
full response. The ETag also covers the language and the visitor (an anonymous visitor's page
is the same for all of them), so a signed-in user never receives another user's page.
Anonymous responses of a public event may be kept by browsers and proxies for
``PUBLIC_MAX_AGE`` seconds (by the browser only when the response sets a cookie, such as the
pages' CSRF cookie: ``SecurityHeadersMiddleware`` makes those ``private``); others must
revalidate.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language

#: Seconds a public snapshot response may be reused without asking (the live page refreshes
#: every 30 s; a recompute follows a result within a few seconds).
PUBLIC_MAX_AGE = 10


def _etag(request: HttpRequest, tag: str) -> str:
    user = getattr(request, "user", None)
    who = str(user.pk) if user is not None and user.is_authenticated else "anon"
    digest = hashlib.sha256(f"{tag}|{get_language()}|{who}".encode()).hexdigest()[:32]
    return f'"{digest}"'


def not_modified(
    request: HttpRequest, *, tag: str | None, last_modified: datetime | None
) -> HttpResponseBase | None:
    """A 304 response when the client's copy (``If-None-Match`` / ``If-Modified-Since``) is
    current, else ``None``. ``tag`` ``None`` (no snapshot yet) never matches."""
    if tag is None or request.method not in ("GET", "HEAD"):
        return None
    timestamp = int(last_modified.timestamp()) if last_modified is not None else None
    response = get_conditional_response(request, etag=_etag(request, tag), last_modified=timestamp)
    if response is not None:
        add_validators(request, response, tag=tag, last_modified=last_modified, public=False)
    return response


def add_validators(
    request: HttpRequest,
    response: HttpResponse | HttpResponseBase,
    *,
    tag: str | None,
    last_modified: datetime | None,
    public: bool,
) -> HttpResponse | HttpResponseBase:
    """Set ``ETag`` / ``Last-Modified`` from the snapshot and the caching policy: ``public,
    max-age=PUBLIC_MAX_AGE`` for an anonymous visitor of a public event, ``private, no-cache``
    otherwise (also when there is no snapshot: ``tag`` ``None``). Returns ``response``."""
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    if tag is None:
        patch_cache_control(response, private=True, no_cache=True)
        return response
    response.headers["ETag"] = _etag(request, tag)
    if last_modified is not None:
        response.headers["Last-Modified"] = http_date(last_modified.timestamp())
    user = getattr(request, "user", None)
    if public and not (user is not None and user.is_authenticated):
        patch_cache_control(response, public=True, max_age=PUBLIC_MAX_AGE)
    else:
        patch_cache_control(response, private=True, no_cache=True)
    return response
