"""Whole public responses kept in the shared cache, renewed outside the visitors' requests.

A public page or API answer that is the same for every visitor who may see it (an anonymous
visitor's standings, live and round pages; the standings and round API) is stored once in the
shared cache (``HKK_CACHE_URL``: Redis in production, the per-process memory cache in the
embedded default) under a key that does not change with the event's data, together with the
*version* it was rendered from (the standings snapshot's tag, the round and its clock…), a
gzip-compressed copy (made once, when stored) and the headers of the first answer that left the
fast path's middleware with it (:func:`capture`; ``hkk_tournament.web.fast_path`` answers
from them without running the view). :func:`shared_response` then answers:

- the stored rendering when its version is the current one (one cache read);
- when the version moved on (a recompute, a publish, the clock): the previous rendering, and a
  refresh of the key is handed to a worker (the ``refresh`` callable, e.g. a Celery task that
  renders the URL again) at most once per ``HKK_PAGE_REFRESH_SECONDS`` per key (``cache.add``
  of the key's refresh mark); the worker renders under the key's lock (``cache.add``, held at
  most ``LOCK_SECONDS``). Without a worker (eager mode, no broker: ``refresh`` answers
  ``False``) the process that takes the lock renders in its request while the others answer
  with the previous rendering (stale-while-revalidate);
- when nothing is stored yet: the lock holder renders in its request; the others wait up to
  ``WAIT_SECONDS`` for its rendering while the lock is held, then render themselves.

**Staleness bound.** A stale rendering is answered for at most ``HKK_PAGE_REFRESH_SECONDS``
(15 s) + the worker's queue wait + one rendering after the first request that finds it stale:
the refresh mark lets one refresh through per period, and a refresh renders the then-current
version. A page nobody asks for is not refreshed (its next visitor gets the old rendering once
and asks for the refresh). With the workers down (the broker up), pages stay at their last
rendering until a worker runs again; with the broker down ``hkk_tournament.jobs`` runs the
refresh in the request (the eager behaviour).

The ``ETag`` is a hash of the stored bytes, not of the version: a recompute that changes
nothing on a page keeps its ETag, so clients keep getting 304. The stored bytes are the same
for every visitor (no CSRF token: the language switch needs none, docs/production.md), so the
compressed copy carries no secret (no BREACH padding needed). With the cache down every
request renders (``hkk_tournament.web.cache``).
"""

from __future__ import annotations

import contextlib
import contextvars
import gzip
import hashlib
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date

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
#: Bodies shorter than this are not compressed (as ``GZipMiddleware``).
GZIP_MIN_BYTES = 200
#: Headers of a captured answer that are not stored (set per answer).
#: Not kept with a rendering: the length and encoding follow the answer, ``X-Accel-Expires``
#: the setting of the moment (:func:`stored_answer` gives it again).
_NOT_STORED = frozenset({"content-length", "content-encoding", "x-accel-expires"})
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
#: Set while a worker renders (``rendering_inline``): a stale key is rendered, not handed on.
_INLINE: contextvars.ContextVar[bool] = contextvars.ContextVar("page_cache_inline", default=False)
#: The request attribute that tells :func:`capture` which rendering an answer came from.
_MARK = "_hkk_shared_rendering"


@dataclass(frozen=True)
class Stored:
    """One stored rendering: the ``version`` it was rendered from, its ``body`` (bytes, the
    same for every visitor), ``content_type``, ``etag`` (quoted hash of the body), ``gzipped``
    (the body compressed once, ``None`` when too short or not smaller) and ``headers`` (the
    whole header list of a 200 answer as it left the fast path's middleware, ``None`` until
    :func:`capture` saw one)."""

    version: str
    body: bytes
    content_type: str
    etag: str
    gzipped: bytes | None = None
    headers: tuple[tuple[str, str], ...] | None = None


@dataclass(frozen=True)
class Candidate:
    """What a fast-path route found for a request: the ``stored`` rendering under ``key``,
    the ``version`` the view would answer with now, and how to hand a refresh of the key to a
    worker (``refresh``, :func:`current`)."""

    key: str
    stored: Stored
    version: str
    refresh: Callable[[], bool] | None


def refresh_seconds() -> int:
    """``HKK_PAGE_REFRESH_SECONDS``: at most one refresh of a key is handed on per period."""
    return int(getattr(settings, "HKK_PAGE_REFRESH_SECONDS", 15))


def inline() -> bool:
    """Inside :func:`rendering_inline`: this is a worker's (or the warm-up's) rendering."""
    return _INLINE.get()


@contextlib.contextmanager
def rendering_inline() -> Iterator[None]:
    """Within this block a stale key is rendered at once under its lock instead of handed to
    a worker (the worker's own renders, the warm-up)."""
    token = _INLINE.set(True)
    try:
        yield
    finally:
        _INLINE.reset(token)


def _compress(body: bytes) -> bytes | None:
    if len(body) < GZIP_MIN_BYTES:
        return None
    packed = gzip.compress(body, compresslevel=6, mtime=0)
    return packed if len(packed) < len(body) else None


def body_etag(body: bytes) -> str:
    """The quoted ``ETag`` of a shared answer's bytes (a hash of the body, not of a version,
    so an unchanged page keeps its tag)."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _store(
    key: str, version: str, render: Callable[[], HttpResponse], keep: int = KEEP_SECONDS
) -> Stored | None:
    """Render and keep ``key``'s ``version`` for ``keep`` seconds (only a 200 is kept; ``None``
    otherwise)."""
    response = render()
    if response.status_code != 200:
        return None
    body = bytes(response.content)
    etag = body_etag(body)
    stored = Stored(version, body, response["Content-Type"], etag, _compress(body))
    cache.set(key, stored, keep)
    return stored


def hand_on(key: str, version: str, refresh: Callable[[], bool] | None) -> bool:
    """Whether a stale rendering of ``key`` may answer now because the rendering of
    ``version`` went to a worker (``refresh()``; or one went there in the last
    ``refresh_seconds()``); ``False``: render here (no worker, or within a worker)."""
    if refresh is None or _INLINE.get():
        return False
    mark = f"{key}:refresh"
    if not cache.add(mark, version, refresh_seconds()):
        return True
    if refresh():
        return True
    cache.delete(mark)
    return False


def current(
    key: str,
    version: str,
    render: Callable[[], HttpResponse],
    keep: int = KEEP_SECONDS,
    refresh: Callable[[], bool] | None = None,
) -> Stored | None:
    """The rendering of ``key`` to answer with: the stored one when its version is
    ``version``; else, with a previous rendering, that one while ``refresh()`` hands the new
    rendering to a worker (module docstring; ``refresh`` answers ``False`` when it could not,
    and this process renders if it gets the key's lock); with none, rendered by this process if
    it gets the lock, else another process's first rendering, waited for. ``None`` when the
    render did not answer 200 (the caller answers with the render's own response). A new
    rendering is kept ``keep`` seconds."""
    stored = cache.get(key)
    if isinstance(stored, Stored) and stored.version == version:
        return stored
    if isinstance(stored, Stored) and hand_on(key, version, refresh):
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
    refresh: Callable[[], bool] | None = None,
) -> HttpResponseBase:
    """Answer ``request`` from the shared rendering of ``key`` at ``version`` (module
    docstring): 304 when ``If-None-Match`` holds the stored body's ETag (or, without it,
    ``If-Modified-Since`` is not before ``last_modified``), else the body. ``public``:
    ``Cache-Control: public, max-age=PUBLIC_MAX_AGE`` (a public event's anonymous answer; its
    headers are then captured for the fast path), else ``private, no-cache``.
    ``last_modified`` (the data's time, e.g. the snapshot's) is sent as ``Last-Modified``;
    ``keep``: seconds a new rendering is kept (``SEARCH_KEEP_SECONDS`` for a search);
    ``refresh``: hands a stale key's rendering to a worker (:func:`current`)."""
    stored = current(key, version, render, keep, refresh)
    if stored is None:
        return render()
    stamp = int(last_modified.timestamp()) if last_modified is not None else None
    response: HttpResponseBase | None = get_conditional_response(
        request, etag=stored.etag, last_modified=stamp
    )
    if response is None:
        response = HttpResponse(stored.body, content_type=stored.content_type)
        if public and stored.version == version and stored.headers is None:
            setattr(getattr(request, "_request", request), _MARK, (key, stored, keep))
    response.headers["ETag"] = stored.etag
    if stamp is not None:
        response.headers["Last-Modified"] = http_date(stamp)
    mark_shared(response, public=public)
    return response


def mark_shared(response: HttpResponseBase, *, public: bool) -> None:
    """Give a shared answer its caching headers: ``Vary: Accept-Language, Cookie`` always;
    ``public``: ``Cache-Control: public, max-age=PUBLIC_MAX_AGE`` and, unless
    ``HKK_PROXY_CACHE_SECONDS`` is 0, ``X-Accel-Expires`` with those seconds (the reverse
    proxy's micro-cache keeps the answer that long for the same URL's next visitors:
    deploy/nginx/hkk-tournament.conf; nginx does not pass the header on to the browser);
    otherwise ``Cache-Control: private, no-cache``."""
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    if not public:
        patch_cache_control(response, private=True, no_cache=True)
        return
    patch_cache_control(response, public=True, max_age=PUBLIC_MAX_AGE)
    _proxy_expires(response)


def _proxy_expires(response: HttpResponseBase) -> None:
    """``X-Accel-Expires: HKK_PROXY_CACHE_SECONDS`` on a shared public answer (none at 0)."""
    seconds = int(getattr(settings, "HKK_PROXY_CACHE_SECONDS", 1))
    if seconds > 0:
        response.headers["X-Accel-Expires"] = str(seconds)


def capture(request: HttpRequest, response: HttpResponseBase) -> None:
    """Keep the headers of ``response`` with the rendering it carries (marked by
    :func:`shared_response` on a current public rendering whose headers are not stored yet):
    the fast path answers with them. Called by the fast path's middleware on the way out, so
    the headers the middlewares inside it add are included. One cache write per rendering;
    skipped when the key holds another rendering by now."""
    marked = getattr(request, _MARK, None)
    if marked is None or response.status_code != 200 or response.streaming:
        return
    key, stored, keep = marked
    now = cache.get(key)
    if not isinstance(now, Stored) or (now.version, now.etag) != (stored.version, stored.etag):
        return
    headers = tuple((k, v) for k, v in response.items() if k.lower() not in _NOT_STORED)
    cache.set(key, replace(now, headers=headers), keep)


def stored_answer(request: HttpRequest, stored: Stored) -> HttpResponseBase:
    """The answer the fast path gives from ``stored`` (its captured headers; the caller checked
    they are there): 304 when ``If-None-Match`` holds its ETag; the compressed copy with
    ``Content-Encoding: gzip`` (and a weak ETag, as ``GZipMiddleware`` would) when the client
    accepts gzip; the body otherwise (``GZipMiddleware`` adds ``Vary: Accept-Encoding``). A
    HEAD is answered as a GET, as the views answer it (the server sends no body)."""
    headers = stored.headers or ()
    if get_conditional_response(request, etag=stored.etag) is not None:
        response: HttpResponseBase = HttpResponseNotModified()
        for name, value in headers:
            if name.lower() != "content-type":
                response.headers[name] = value
        response.headers["Content-Length"] = "0"  # as CommonMiddleware sets it on the view's
        _proxy_expires(response)
        return response
    body = stored.body
    packed = stored.gzipped is not None and bool(
        _ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", ""))
    )
    if packed and stored.gzipped is not None:
        body = stored.gzipped
    response = HttpResponse(body)
    for name, value in headers:
        response.headers[name] = value
    response.headers["Content-Length"] = str(len(body))
    _proxy_expires(response)
    if packed:
        response.headers["Content-Encoding"] = "gzip"
        patch_vary_headers(response, ("Accept-Encoding",))
        if stored.etag.startswith('"'):
            response.headers["ETag"] = "W/" + stored.etag
    return response
