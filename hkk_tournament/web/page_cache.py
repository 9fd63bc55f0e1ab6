"""Whole public responses kept in the shared cache, renewed by one process at a time.

A public page or API answer that is the same for every visitor who may see it (an anonymous
visitor's standings, live and round pages; the standings and round API) is stored once in the
shared cache (``HKK_CACHE_URL``: Redis in production, the per-process memory cache in the
embedded default) under a key that does not change with the event's data, together with the
*version* it was rendered from (the standings snapshot's tag, the round and its clock…).
:func:`shared_response` then answers:

- the stored rendering when its version is the current one (one cache read);
- when the version moved on (a recompute, a publish): the process that takes the key's lock
  (``cache.add``, held at most ``LOCK_SECONDS``) renders the new version and stores it; every
  other request meanwhile gets the previous rendering (stale-while-revalidate), so a new
  version never leaves the hot pages cold for every worker at once;
- when nothing is stored yet: the lock holder renders; the others wait up to ``WAIT_SECONDS``
  for its rendering while the lock is held, then render themselves.

The ``ETag`` is a hash of the stored bytes, not of the version: a recompute that changes
nothing on a page keeps its ETag, so clients keep getting 304. A page's CSRF token (the language
switch form) is stored as :data:`CSRF_MARKER` (the view renders with ``csrf_token`` set to it)
and replaced by the visitor's own masked token on the way out, so no visitor ever receives
another's token. With the cache down every request renders (``hkk_tournament.web.cache``).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.csrf import get_token
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date

#: Stands for the visitor's CSRF token in a stored page (replaced per request).
CSRF_MARKER = "hkk-csrf-token-placeholder-4f1c9e"
#: Seconds a renderer holds a key's lock (a crashed renderer frees it after this).
LOCK_SECONDS = 30
#: Seconds a request waits for another process's first rendering of a key.
WAIT_SECONDS = 2.0
#: Seconds a stored rendering is kept (renewed each time a new version is rendered).
KEEP_SECONDS = 3600
#: Seconds a search's rendering is kept (a name is looked for a few times, not all day).
SEARCH_KEEP_SECONDS = 300
#: Seconds a public answer may be reused by browsers and proxies without asking.
PUBLIC_MAX_AGE = 10


@dataclass(frozen=True)
class Stored:
    """One stored rendering: the ``version`` it was rendered from, its ``body`` (bytes, the CSRF
    token as :data:`CSRF_MARKER`), ``content_type`` and ``etag`` (quoted hash of the body)."""

    version: str
    body: bytes
    content_type: str
    etag: str


def _store(
    key: str, version: str, render: Callable[[], HttpResponse], keep: int = KEEP_SECONDS
) -> Stored | None:
    """Render and keep ``key``'s ``version`` for ``keep`` seconds (only a 200 is kept; ``None``
    otherwise)."""
    response = render()
    if response.status_code != 200:
        return None
    body = bytes(response.content)
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    stored = Stored(version, body, response["Content-Type"], etag)
    cache.set(key, stored, keep)
    return stored


def current(
    key: str, version: str, render: Callable[[], HttpResponse], keep: int = KEEP_SECONDS
) -> Stored | None:
    """The rendering of ``key`` to answer with: the stored one when its version is
    ``version``, else rendered by this process if it gets the key's lock, else the previous
    rendering (or, with none, another process's first rendering, waited for). ``None`` when
    the render did not answer 200 (the caller answers with the render's own response). A new
    rendering is kept ``keep`` seconds."""
    stored = cache.get(key)
    if isinstance(stored, Stored) and stored.version == version:
        return stored
    lock = f"{key}:lock"
    if cache.add(lock, 1, LOCK_SECONDS):
        try:
            return _store(key, version, render, keep)
        finally:
            cache.delete(lock)
    if isinstance(stored, Stored):
        return stored  # stale while one process renders the new version
    deadline = time.monotonic() + WAIT_SECONDS
    # Wait only while another process holds the lock (with the cache down nobody does).
    while time.monotonic() < deadline and cache.has_key(lock):
        time.sleep(0.05)
        stored = cache.get(key)
        if isinstance(stored, Stored):
            return stored
    return _store(key, version, render, keep)


def refresh(key: str, version: str, render: Callable[[], HttpResponse]) -> bool:
    """Render ``key``'s ``version`` now unless it is stored or being rendered (the warm-up after
    a recompute or a publish). Returns whether this call rendered it."""
    stored = cache.get(key)
    if isinstance(stored, Stored) and stored.version == version:
        return False
    lock = f"{key}:lock"
    if not cache.add(lock, 1, LOCK_SECONDS):
        return False
    try:
        return _store(key, version, render) is not None
    finally:
        cache.delete(lock)


def shared_response(
    request: HttpRequest,
    *,
    key: str,
    version: str,
    render: Callable[[], HttpResponse],
    public: bool,
    last_modified: datetime | None = None,
    keep: int = KEEP_SECONDS,
) -> HttpResponseBase:
    """Answer ``request`` from the shared rendering of ``key`` at ``version`` (module
    docstring): 304 when ``If-None-Match`` holds the stored body's ETag (or, without it,
    ``If-Modified-Since`` is not before ``last_modified``), else the body with the visitor's
    CSRF token put in. ``public``: ``Cache-Control: public, max-age=PUBLIC_MAX_AGE`` (a public
    event's anonymous answer), else ``private, no-cache``. ``last_modified`` (the data's time,
    e.g. the snapshot's) is sent as ``Last-Modified``; ``keep``: seconds a new rendering is
    kept (``SEARCH_KEEP_SECONDS`` for a search)."""
    stored = current(key, version, render, keep)
    if stored is None:
        return render()
    stamp = int(last_modified.timestamp()) if last_modified is not None else None
    response: HttpResponseBase | None = get_conditional_response(
        request, etag=stored.etag, last_modified=stamp
    )
    if response is None:
        body = stored.body
        if CSRF_MARKER.encode() in body:
            body = body.replace(CSRF_MARKER.encode(), get_token(request).encode())
        response = HttpResponse(body, content_type=stored.content_type)
    response.headers["ETag"] = stored.etag
    if stamp is not None:
        response.headers["Last-Modified"] = http_date(stamp)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    if public:
        patch_cache_control(response, public=True, max_age=PUBLIC_MAX_AGE)
    else:
        patch_cache_control(response, private=True, no_cache=True)
    return response
