"""Warming an app server process before it takes requests.

Gunicorn calls :func:`warm` from its ``post_worker_init`` hook (gunicorn.conf.py) in every new
worker, and so also in each worker it recycles after ``max_requests``: the URL patterns and
their reverse lookups (per language), the translation catalogues and number formats of every
language, and every template of the project are loaded once, before the worker accepts a
connection. Without it the first requests a fresh worker serves wait for that work (about
200 ms, and longer while its threads queue behind the same locks), which shows as the slowest
percent of a busy event's page loads. No database or cache access; a failure is logged and the
worker starts anyway.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.template import TemplateDoesNotExist, TemplateSyntaxError, engines
from django.template.loader import get_template
from django.urls import get_resolver
from django.utils import formats, translation

from hkk_tournament.web import page_cache

logger = logging.getLogger(__name__)

#: One page client per thread (:func:`_page_client`): building one loads the middleware chain,
#: and WhiteNoise's middleware scans every static file when it is built (about 40 ms at this
#: project's size, measured in a worker that rendered a page per task).
_CLIENTS = threading.local()


def project_templates() -> list[str]:
    """Names of the project's own templates (``.html`` under the ``DIRS`` of ``TEMPLATES``;
    the apps' own templates are left to be compiled when first used)."""
    names: list[str] = []
    for backend in engines.all():
        for folder in map(Path, backend.dirs):
            names += [str(p.relative_to(folder)) for p in sorted(folder.rglob("*.html"))]
    return names


def warm() -> int:
    """Load the URL patterns, every language's catalogue, reverse lookups and number formats,
    and compile the project's templates (the cached template loader keeps them). Returns the
    number of templates compiled; never raises (a failing step is logged as a warning)."""
    try:
        resolver = get_resolver()
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                translation.gettext("Standings")
                resolver.reverse_dict  # noqa: B018 - builds this language's reverse lookups
                formats.get_format("DECIMAL_SEPARATOR")
    except Exception:
        logger.warning("warm-up of URLs and languages failed", exc_info=True)
    compiled = 0
    for name in project_templates():
        try:
            get_template(name)
        except (TemplateDoesNotExist, TemplateSyntaxError):
            logger.warning("warm-up: template %s not compiled", name, exc_info=True)
        else:
            compiled += 1
    return compiled


def warm_pages(paths: list[str], languages: list[str] | None = None, pause: float = 0.0) -> int:
    """Render the public pages at ``paths`` (e.g. an event's standings, live and round pages
    right after a standings recompute or a publish) for an anonymous visitor in each of
    ``languages`` (default: every language), through the whole middleware stack, so the shared
    cache (``hkk_tournament.web.page_cache``) holds their new version before the visitors ask
    (rendered here: ``page_cache.rendering_inline``). A page already current or being rendered
    by another process is left alone. ``pause``: after each page, sleep that many times the CPU
    seconds it took (1.0: at most half a core, leaving the rest to the visitors' requests).
    Returns the number of answers with status 200; never raises (a failure is logged)."""
    client = _page_client()
    secure = bool(getattr(settings, "SECURE_SSL_REDIRECT", False))
    done = 0
    codes = languages if languages is not None else [code for code, _name in settings.LANGUAGES]
    for code in codes:
        for path in paths:
            client.cookies.clear()  # every page as a first-time anonymous visitor sees it
            started = time.thread_time()
            try:
                with page_cache.rendering_inline():
                    response = client.get(path, HTTP_ACCEPT_LANGUAGE=code, secure=secure)
            except Exception:
                logger.warning("warm-up of %s (%s) failed", path, code, exc_info=True)
                continue
            done += response.status_code == 200
            if pause > 0:
                time.sleep(pause * (time.thread_time() - started))
    return done


@dataclass(frozen=True)
class EventSize:
    """What a shared list's later pages depend on: the event (``tournament_id``), its
    ``entries`` (standings rows), the shown round's ``number`` (``None``: none published) and
    its ``tables``."""

    tournament_id: int
    entries: int
    number: int | None
    tables: int


#: A list's later pages: ``EventSize`` → the paths (with their query) a visitor pages through.
LaterPages = Callable[[EventSize], list[str]]
_LATER: dict[LaterPages, int] = {}


def register_later_pages(pages: LaterPages, *, rank: int = 0) -> None:
    """Declare ``pages`` as a shared list's pages beyond its first (the public pages and the
    API register theirs next to their fast path), warmed after a publish (:func:`later_pages`)
    in ``rank`` order (lower first: what a venue reads most and costs least)."""
    _LATER[pages] = rank


def later_pages(size: EventSize) -> list[str]:
    """Every registered list's later pages for an event of ``size``, by rank (then in
    registration order, which follows the order the views were imported in).
    Right after a publish every page of a round changes at once and a venue pages through all
    of them within seconds; rendered by a worker first, the first visitor of each finds it
    stored (else that visitor's request renders it: 10–50 ms of a web process's CPU each at
    4,096 entries, a hundred of them in the first second)."""
    get_resolver().url_patterns  # noqa: B018 - the views, and so their lists, are imported
    ranked = sorted(_LATER.items(), key=lambda item: item[1])
    return [path for pages, _rank in ranked for path in pages(size)]


def page_count(rows: int, size: int) -> int:
    """The pages of ``size`` rows that ``rows`` rows fill, counted by Django's paginator as
    the lists' pages are (``tournaments.selectors.paging.paginate``: at least 1)."""
    return Paginator(range(rows), size).num_pages


def _page_client() -> Any:
    """This thread's anonymous page client (Django's test ``Client``, which runs the whole
    middleware stack and the request signals), built once and kept: its middleware chain is
    loaded on its first request only. A change of the host list or of the middleware (tests'
    ``override_settings``) builds a new one."""
    host = next((h for h in settings.ALLOWED_HOSTS if h and "*" not in h), "localhost")
    key = (host.lstrip("."), tuple(settings.MIDDLEWARE))
    if getattr(_CLIENTS, "key", None) != key:
        # Imported here: the test client is only needed by the workers that warm pages.
        from django.test import Client

        _CLIENTS.client, _CLIENTS.key = Client(HTTP_HOST=key[0]), key
    return _CLIENTS.client
