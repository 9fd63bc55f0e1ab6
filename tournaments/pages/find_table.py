""" "Find my table" without rendering a page per search: the live page (``?q=``, also its
``?partial=1`` fragment) and the standings page (``?q=``) of a public event answered from
*search parts* built once per version and language.

Right after a round is published the whole field looks for its table within seconds, each
player with a different name, so a cache of whole pages per search never hits. Instead the page
is rendered **once** by its normal templates with every table (resp. every standings row),
the search text as a marker and every request-specific value as a marker (the path in the
language form), then split into:

- ``found``: the page before the count sentence, between it and the first row, and after the
  last row; ``rows``: one HTML string per table (resp. row), ``gap``: what separates two rows;
- ``empty``: the page before and after the count sentence when nothing matches (rendered
  with no row, a second small render, because the templates leave out the table then);
- the index: each row's names in :func:`~tournaments.selectors.paging.search_needle` form as
  one string (rows separated by NUL), so a search is ``str.find`` over it.

A search then costs: find the matching rows, join them between the static parts, escape the
search text (``django.utils.html.escape``, as the template's autoescape does) and word the
count with ``ngettext`` and exactly the template's msgid, so the answer is byte-identical to
the full rendering (the tests hold both equal, 0, 1 and many matches, both languages). No
database query beyond the view's own version look-up and no template rendering per search.

The version is the view's own (``public.live``: the standings snapshot, the round's state and,
for the whole page, the clock; ``public.standings``: the snapshot), less the search's key.
With the shared cache down nobody takes a build lock, so every search renders as before.

The parts of a version live in the shared cache (one key per page kind, event and language;
the worker builds them in ``tournaments.tasks.pages_warm`` through a warm-up search right
after each publish) and in each process (:data:`PARTS_KEPT` sets, LRU by version). A request
that finds no current parts (a recompute moved the version on: rebuilding every page's parts
after each recompute would cost the worker seconds every 10 s for a few searches) answers from
the previous parts of the same round (older scores or standings, the same tables) and hands
the rebuild to a worker (``page_cache.hand_on``, once per refresh period); without such parts,
or without a worker, it builds them under a lock (``cache.add``, as
``hkk_tournament.web.page_cache`` does) while the others answer from the older parts or wait for
the new ones up to ``page_cache.WAIT_SECONDS`` and then render the page themselves.

Only anonymous visitors of public events, page 1, at most :data:`MAX_FOUND` matches take
this path; everyone else (signed-in users, private events, a search finding more than a page,
``?page=2``) gets the normal rendering (``None`` is returned to the view). The answer carries
the headers of a shared page (``page_cache.shared_response``: ETag of the bytes,
``Cache-Control: public``, ``Vary``, 304 for a matching ``If-None-Match``).

The fast path (``hkk_tournament.web.fast_path``) answers a search too, before the view, when
this process already keeps the current parts (:func:`fast_answer`): the version comes from the
event's public state in the shared cache, the headers from the stored rendering of the same
page without a search, so the answer equals the view's and costs no query at all.
"""

from __future__ import annotations

import bisect
import dataclasses
import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import quote_plus

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.core.paginator import Page
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.template.loader import render_to_string
from django.utils import formats
from django.utils.cache import get_conditional_response
from django.utils.html import escape
from django.utils.http import http_date
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext

from hkk_tournament.web import page_cache
from tournaments import selectors, services
from tournaments.models import Match, Round, StandingsSnapshot, Tournament
from tournaments.pages.common import page_refresher
from tournaments.selectors.paging import paginate, search_needle

logger = logging.getLogger(__name__)
T = TypeVar("T")

#: The most matches answered from the parts: one page of the live page and of the standings
#: (``public.LIVE_TABLES_PAGE_SIZE``, ``public.STANDINGS_PAGE_SIZE``; a test holds them equal).
#: A search finding more gets the normal, paged rendering.
MAX_FOUND = 100
#: Parts sets a process keeps (page kinds × languages × events; about 1 MB each at 2,048 tables).
PARTS_KEPT = 12
#: Seconds the shared cache keeps a parts set (renewed by each new version).
PARTS_SECONDS = page_cache.KEEP_SECONDS

#: The msgids of the count sentences, exactly as ``blocktranslate count`` forms them from
#: ``_live_tables.html`` and ``_standings_table.html`` (so the translation is the same).
LIVE_SENTENCE = (
    "%(counter)s table has a player whose name contains “%(q)s”.",
    "%(counter)s tables have a player whose name contains “%(q)s”.",
)
STANDINGS_SENTENCE = ("%(counter)s entry matches “%(q)s”.", "%(counter)s entries match “%(q)s”.")

# Markers rendered in place of the visitor's values: letters and digits only, so escaping and
# URL-encoding leave them unchanged and they are found as they are in the rendering.
Q_HTML = "hkkfindq7c21e0html"  # the search text in HTML (form value, count sentence)
Q_URL = "hkkfindq7c21e0url"  # the search text URL-encoded (the live page's refresh URL)
PATH = "hkkfindpath7c21e0"  # request.get_full_path (the language form's "next")
_MARKERS = re.compile(f"({Q_HTML}|{Q_URL}|{PATH})")
#: Where the rows of each page's table start (the table's ``data-testid``).
_ANCHORS = {"live": 'data-testid="live-pairings"', "standings": 'data-testid="standings"'}
_ROW_START = "\n  <tr"
_ROW_END = "</tr>"

#: Static text split at the markers: even items literal, odd items marker names.
Pieces = tuple[str, ...]


class PartsError(Exception):
    """The rendering could not be split (a template changed its rows' shape): the search is
    rendered normally instead (logged)."""


@dataclass(frozen=True)
class SearchParts:
    """One page's search parts at one version (module docstring); ``data``: what must not
    change for these parts to answer while newer ones are built (the live page's round: a
    search never finds a table of another round).

    ``found``: (before the count, count → first row, after the last row); ``empty``: (before,
    after the count) with no match; ``sentence``: the count's msgids (``None``: the page shows
    no count, e.g. no round published); ``haystack``/``starts``: the rows' normalised names,
    NUL-separated, and where each row's names start in it."""

    version: str
    rows: tuple[str, ...]
    gap: str
    found: tuple[Pieces, Pieces, Pieces]
    empty: tuple[Pieces, Pieces]
    sentence: tuple[str, str] | None
    haystack: str
    starts: tuple[int, ...]
    data: str | None = None

    def matching(self, needle: str, limit: int) -> list[int] | None:
        """Indexes of the rows whose names contain ``needle`` (in order); ``None`` when more
        than ``limit`` do."""
        found: list[int] = []
        at = self.haystack.find(needle)
        while at >= 0:
            row = bisect.bisect_right(self.starts, at) - 1
            found.append(row)
            if len(found) > limit:
                return None
            if row + 1 >= len(self.starts):
                break
            at = self.haystack.find(needle, self.starts[row + 1])
        return found

    def html(self, q: str, rows: Sequence[int], full_path: str) -> str:
        """The page for search ``q`` showing ``rows``, with ``full_path`` in the language form
        ."""
        values = {Q_HTML: escape(q), Q_URL: quote_plus(q), PATH: escape(full_path)}
        count = ""
        if self.sentence is not None:
            singular, plural = self.sentence
            data = {"counter": formats.localize(len(rows)), "q": escape(q)}
            count = ngettext(singular, plural, len(rows)) % data
        if not rows:
            before, after = self.empty
            return _fill(before, values) + count + _fill(after, values)
        head, mid, tail = self.found
        shown = self.gap.join(self.rows[i] for i in rows)
        return _fill(head, values) + count + _fill(mid, values) + shown + _fill(tail, values)


def _fill(pieces: Pieces, values: dict[str, str]) -> str:
    return "".join(p if i % 2 == 0 else values[p] for i, p in enumerate(pieces))


def _pieces(text: str) -> Pieces:
    return tuple(_MARKERS.split(text))


# --- splitting a rendering ------------------------------------------------------------------


def _sentence_at(text: str, sentence: tuple[str, str] | None, count: int) -> tuple[int, int]:
    """Where the count sentence for ``count`` matches (search text as :data:`Q_HTML`) stands
    in ``text``: ``(start, end)``; ``(len, len)`` for a page without one."""
    if sentence is None:
        return len(text), len(text)
    data = {"counter": formats.localize(count), "q": Q_HTML}
    words = ngettext(sentence[0], sentence[1], count) % data
    start = text.find(words)
    if start < 0 or text.find(words, start + 1) >= 0:
        raise PartsError(f"count sentence {words!r} not found once")
    return start, start + len(words)


def _row_spans(text: str, anchor: str, count: int) -> list[tuple[int, int]]:
    """``(start, end)`` of each of the ``count`` rows in the table after ``anchor``."""
    at = text.find(anchor)
    body = text.find("<tbody>", at) if at >= 0 else -1
    close = text.find("</tbody>", body) if body >= 0 else -1
    if close < 0:
        raise PartsError(f"table {anchor} not found")
    starts = []
    pos = text.find(_ROW_START, body, close)
    while pos >= 0:
        starts.append(pos)
        pos = text.find(_ROW_START, pos + 1, close)
    if len(starts) != count:
        raise PartsError(f"{len(starts)} rows found in {anchor}, {count} rendered")
    ends = [*starts[1:], close]
    return [
        (s, text.rfind(_ROW_END, s, e) + len(_ROW_END)) for s, e in zip(starts, ends, strict=True)
    ]


def split_rendering(
    *,
    version: str,
    every: str,
    none: str,
    kind: str,
    names: Sequence[str],
    sentence: tuple[str, str] | None,
) -> SearchParts:
    """The parts of one page from its rendering with every row (``every``, the count sentence
    for all ``names``) and with none (``none``, count 0); ``names``: each row's normalised
    names joined by NUL, in row order. Raises :class:`PartsError` when the renderings do not
    have that shape."""
    spans = _row_spans(every, _ANCHORS[kind], len(names)) if names else []
    head_end, mid_start = _sentence_at(every, sentence, len(names))
    gaps = {every[spans[i][1] : spans[i + 1][0]] for i in range(len(spans) - 1)}
    if len(gaps) > 1 or (spans and spans[0][0] < mid_start):
        raise PartsError("rows are not evenly separated or precede the count")
    first, last = (spans[0][0], spans[-1][1]) if spans else (mid_start, mid_start)
    none_start, none_end = _sentence_at(none, sentence, 0)
    starts, offset = [], 0
    for n in names:
        starts.append(offset)
        offset += len(n) + 1
    return SearchParts(
        version=version,
        rows=tuple(every[s:e] for s, e in spans),
        gap=gaps.pop() if gaps else "",
        found=(_pieces(every[:head_end]), _pieces(every[mid_start:first]), _pieces(every[last:])),
        empty=(_pieces(none[:none_start]), _pieces(none[none_end:])),
        sentence=sentence,
        haystack="\x00".join(names),
        starts=tuple(starts),
    )


# --- building ---------------------------------------------------------------------------


class _BuildRequest(HttpRequest):
    """An anonymous GET of ``path`` whose full path renders as :data:`PATH`."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.method = "GET"
        self.path = self.path_info = path
        self.user = AnonymousUser()

    def get_full_path(self, force_append_slash: bool = False) -> str:
        return PATH


def _searched_page(cls: type, items: list[Any], total: int, size: int, **fields: Any) -> Any:
    """A one-page :class:`~tournaments.selectors.paging.SearchedPage` (``cls``) of ``items``
    with the search text as :data:`Q_HTML`."""
    page = paginate(items, number=1, size=max(size, len(items), 1))
    return cls(page=page, total=total, q=Q_HTML, **fields)


def build_live(
    request: HttpRequest,
    context: dict[str, Any],
    page_context: Callable[..., dict[str, Any]],
    *,
    version: str,
    partial: bool,
) -> SearchParts:
    """The live page's parts (``partial``: its refresh fragment) at ``version`` in the active
    language: ``context`` is the view's context (tournament, round, standings…), completed
    here with every table of the round; ``page_context(request, tournament, round, page, q)``
    the view's additions for the whole page. Three queries for the tables
    (``selectors.round_match_views``) plus the page's own; raises :class:`PartsError`."""
    rnd: Round | None = context["round"]
    views = []
    if rnd is not None:
        matches = _round_matches(rnd, context["standings_key"])
        views = selectors.round_match_views(round=rnd, matches=matches)
    fake = _BuildRequest(request.path)
    base = {
        **context,
        "q": Q_HTML,
        "pager_query": "&q=" + Q_URL,
        "fragment_key": None,
    }
    if not partial:
        base.update(page_context(fake, context["tournament"], rnd, 1, Q_URL))
    template = (
        "tournaments/public/_live_content.html" if partial else "tournaments/public/live.html"
    )
    renders = []
    for shown in (views, []):
        tables = (
            _searched_page(
                selectors.TablesPage, shown, len(views), MAX_FOUND, matches=shown, order={}
            )
            if rnd is not None
            else None
        )
        renders.append(render_to_string(template, {**base, "tables": tables}, request=fake))
    names = ["\x00".join(search_needle(n) for n in (v.a_name, v.b_name)) for v in views]
    return split_rendering(
        version=version,
        every=renders[0],
        none=renders[1],
        kind="live",
        names=names,
        sentence=LIVE_SENTENCE if rnd is not None else None,
    )


#: The tables of the last rounds this process built live parts of: ``(round, its status, the
#: standings version)`` → the matches with their games (``selectors.round_matches``).
_MATCHES: OrderedDict[tuple[int, str, str], list[Match]] = OrderedDict()
_MATCHES_LOCK = threading.Lock()
MATCHES_KEPT = 2


def _round_matches(rnd: Round, standings: str | None) -> list[Match]:
    """The tables of ``rnd`` as read for the first parts built at the ``standings`` version
    (``context["standings_key"]``, the snapshot's tag): the live page and its fragment, in
    every language, show the results of one moment (a result shows on the live page with the
    standings that follow it, ``public.live``), and the 2,048 matches and their games of a
    4,096 event are read and made into objects once per version, not once per page kind and
    language (a fifth of a worker's CPU while results arrive)."""
    key = (rnd.pk, str(rnd.status), standings or "")
    with _MATCHES_LOCK:
        kept = _MATCHES.get(key)
    if kept is not None:
        return kept
    return _remember(_MATCHES, _MATCHES_LOCK, MATCHES_KEPT, key, selectors.round_matches(round=rnd))


def build_standings(
    request: HttpRequest, tournament: Tournament, snapshot: StandingsSnapshot | None, version: str
) -> SearchParts:
    """The standings page's parts at ``version`` in the active language: every row of
    ``snapshot`` (or of the standings computed without one) rendered once by
    ``standings.html`` with the context of ``public.standings``; raises :class:`PartsError`."""
    rows = services.standings_stored_rows(tournament=tournament, snapshot=snapshot)
    views = selectors.stored_row_views(tournament=tournament, rows=rows)
    fake = _BuildRequest(request.path)
    base = {
        "tournament": tournament,
        "pager_query": "&q=" + Q_URL,
        "fragment_key": None,
        "tiebreaker_columns": selectors.tiebreaker_columns(tournament),
        "rounds": selectors.rounds_visible(tournament=tournament, user=fake.user),
        "judge": False,
    }
    renders = []
    for shown in (views, []):
        table = _searched_page(selectors.StandingsPage, shown, len(views), MAX_FOUND, rows=shown)
        context = {**base, "table": table}
        renders.append(render_to_string("tournaments/public/standings.html", context, fake))
    return split_rendering(
        version=version,
        every=renders[0],
        none=renders[1],
        kind="standings",
        names=[search_needle(v.name) for v in views],
        sentence=STANDINGS_SENTENCE,
    )


# --- keeping ------------------------------------------------------------------------------

#: Parts kept in this process, newest last: cache key → parts.
_KEPT: OrderedDict[str, SearchParts] = OrderedDict()
_KEPT_LOCK = threading.Lock()


def _remember(
    kept: OrderedDict[Any, Any], lock: threading.Lock, limit: int, key: Any, value: T
) -> T:
    """Put ``value`` under ``key`` as the newest of ``kept`` (under ``lock``), dropping the
    oldest beyond ``limit``; returns ``value``."""
    with lock:
        kept[key] = value
        kept.move_to_end(key)
        while len(kept) > limit:
            kept.popitem(last=False)
    return value


def _keep(key: str, parts: SearchParts) -> SearchParts:
    return _remember(_KEPT, _KEPT_LOCK, PARTS_KEPT, key, parts)


def _stored(key: str, version: str, data: str | None = None) -> SearchParts | None:
    """The parts of ``key`` at ``version`` from this process or the shared cache; with
    ``data``, else parts of another version showing the same ``data`` (only the clock moved)."""
    with _KEPT_LOCK:
        parts = _KEPT.get(key)
    if parts is not None and parts.version == version:
        return parts
    shared = cache.get(key)
    if isinstance(shared, SearchParts) and shared.version == version:
        return _keep(key, shared)
    if data is not None:
        for other in (parts, shared):
            if isinstance(other, SearchParts) and other.data == data:
                return other
    return None


def current_parts(
    key: str,
    version: str,
    build: Callable[[], SearchParts],
    data: str | None = None,
    refresh: Callable[[], bool] | None = None,
) -> SearchParts | None:
    """The parts of ``key`` at ``version``: kept (process, then shared cache); else, when parts
    of an older version with the same ``data`` exist and ``refresh()`` hands the build to a
    worker (``page_cache.hand_on``: at most once per ``HKK_PAGE_REFRESH_SECONDS``), those, so
    no web request spends the build's half second; else built by this process if it takes the
    key's lock, else (while another process builds them) the older parts with the same
    ``data`` when there are any (``None``: never), else another process's build waited for (up
    to ``page_cache.WAIT_SECONDS``). ``None`` when none came in time or the build failed (the
    caller renders the page normally)."""
    parts = _stored(key, version)
    if parts is not None:
        return parts
    if data is not None and refresh is not None:
        older = _stored(key, version, data)
        if older is not None and page_cache.hand_on(key, version, refresh):
            return older
    lock = f"{key}:lock"
    if cache.add(lock, 1, page_cache.LOCK_SECONDS):
        try:
            parts = dataclasses.replace(build(), data=data)
        except PartsError:
            logger.warning("search parts of %s not built", key, exc_info=True)
            return None
        finally:
            cache.delete(lock)
        cache.set_many({key: parts, version_key(key): parts.version}, PARTS_SECONDS)
        return _keep(key, parts)
    parts = _stored(key, version, data)
    if parts is not None:
        return parts
    deadline = time.monotonic() + page_cache.WAIT_SECONDS
    while time.monotonic() < deadline and cache.has_key(lock):
        time.sleep(0.05)
        parts = _stored(key, version)
        if parts is not None:
            return parts
    return None


# --- answering ----------------------------------------------------------------------------


def parts_key(kind: str, tournament_id: int) -> str:
    """The cache key of the parts of ``kind`` (``live``, ``live-partial``, ``standings``) of
    ``tournament_id`` in the active language."""
    return f"find-parts:{kind}:{tournament_id}:{get_language()}"


def version_key(key: str) -> str:
    """The shared cache key holding the version of the parts stored under ``key`` (a few bytes,
    set with them: the fast path reads it with the event's public state instead of the parts'
    megabyte)."""
    return f"{key}:version"


#: What must not change for older standings parts to answer while new ones are built: nothing
#: (the previous standings answer, as ``page_cache`` does).
STANDINGS_DATA = "standings"


def live_data(rnd: Round | selectors.RoundFacts | None) -> str:
    """What must not change for older live parts to answer while new ones are built: the
    round shown (the same tables; only the scores, the standings or the clock may be older),
    never another round."""
    return f"round:{rnd.pk}{rnd.status}" if rnd is not None else "round:none"


def _eligible(request: HttpRequest, tournament: Tournament, q: str, version: str | None) -> bool:
    """An anonymous GET/HEAD of page 1 of a public event's search with a version."""
    return (
        bool(q)
        and version is not None
        and request.method in ("GET", "HEAD")
        and not request.user.is_authenticated
        and tournament.is_public
        and selectors.page_number(request.GET.get("page")) == 1
    )


def _base_version(version: str, q: str) -> str:
    """The view's version without the search (the parts serve every search)."""
    return version.replace(selectors.search_key(q), "")


def _search_body(request: HttpRequest, parts: SearchParts, q: str) -> tuple[bytes, str] | None:
    """The page for search ``q`` from ``parts`` and its ETag (``page_cache.body_etag``);
    ``None`` when more than :data:`MAX_FOUND` rows match."""
    rows = parts.matching(search_needle(q), MAX_FOUND)
    if rows is None:
        return None
    body = parts.html(q, rows, request.get_full_path()).encode()
    return body, page_cache.body_etag(body)


def respond(
    request: HttpRequest, parts: SearchParts, q: str, snapshot: StandingsSnapshot | None
) -> HttpResponseBase | None:
    """The answer to search ``q`` from ``parts`` with the headers of a shared page (module
    docstring); ``None`` when more than :data:`MAX_FOUND` rows match."""
    found = _search_body(request, parts, q)
    if found is None:
        return None
    body, etag = found
    stamp = int(snapshot.computed_at.timestamp()) if snapshot is not None else None
    response = get_conditional_response(request, etag=etag, last_modified=stamp)
    if response is None:
        response = HttpResponse(body, content_type="text/html; charset=utf-8")
    response.headers["ETag"] = etag
    if stamp is not None:
        response.headers["Last-Modified"] = http_date(stamp)
    page_cache.mark_shared(response, public=True)
    return response


def live_search(
    request: HttpRequest,
    context: dict[str, Any],
    version: str | None,
    snapshot: StandingsSnapshot | None,
    page_context: Callable[..., dict[str, Any]],
) -> HttpResponseBase | None:
    """The live page's (or with ``?partial=1`` its fragment's) answer to an anonymous search
    ``context["q"]`` from the search parts at the view's ``version`` (``None``: render as
    usual). ``context``: the view's context; ``page_context``: ``public._live_page_context``."""
    q, tournament = context["q"], context["tournament"]
    if not _eligible(request, tournament, q, version):
        return None
    assert version is not None
    partial = request.GET.get("partial") == "1"
    kind = "live-partial" if partial else "live"
    key = parts_key(kind, tournament.pk)
    base = _base_version(version, q)
    parts = current_parts(
        key,
        base,
        lambda: build_live(request, context, page_context, version=base, partial=partial),
        data=live_data(context["round"]),
        refresh=page_refresher(request),
    )
    return respond(request, parts, q, snapshot) if parts is not None else None


def standings_search(
    request: HttpRequest,
    tournament: Tournament,
    snapshot: StandingsSnapshot | None,
    version: str | None,
) -> HttpResponseBase | None:
    """The standings page's answer to an anonymous search ``?q=`` from the search parts at the
    view's ``version`` (its ETag tag; ``None``: render as usual)."""
    q = selectors.search_text(request.GET.get("q"))
    if not _eligible(request, tournament, q, version):
        return None
    assert version is not None
    key = parts_key("standings", tournament.pk)
    base = _base_version(version, q)
    build = lambda: build_standings(request, tournament, snapshot, base)  # noqa: E731
    parts = current_parts(key, base, build, data=STANDINGS_DATA, refresh=page_refresher(request))
    return respond(request, parts, q, snapshot) if parts is not None else None


def page_rows(
    kind: str,
    tournament_id: int,
    version: str | None,
    *,
    number: int,
    size: int,
    build: Callable[[], SearchParts] | None = None,
    data: str | None = None,
) -> tuple[Page, SafeString] | None:
    """Page ``number`` (clamped to the last) of ``size`` rows of the list of ``kind`` (``live``,
    ``live-partial``, ``standings``) of ``tournament_id`` in the active language, cut from its
    search parts at exactly ``version`` (the view's version of page 1 without a search) instead
    of rendering the rows: Django's page over the row numbers (for the pager) and that page's
    rows as the template's loop writes them (each row and the gap after it), marked safe (they
    are the template's own output). From the parts this process or the shared cache keeps;
    with ``build`` (a worker rendering a stale page: one build serves every page and every
    search of the version, :func:`current_parts` with ``data``) built or waited for first.
    ``None`` when there are none: the view renders its rows as usual."""
    if version is None:
        return None
    key = parts_key(kind, tournament_id)
    parts = current_parts(key, version, build, data) if build else _stored(key, version)
    if parts is None or parts.version != version:  # older parts answer searches, not pages
        return None
    page = paginate(range(len(parts.rows)), number=number, size=size)
    start = page.start_index() - 1 if parts.rows else 0
    shown = parts.rows[start : start + len(page.object_list)]
    return page, mark_safe("".join(row + parts.gap for row in shown))


def fast_answer(
    kind: str,
    tournament_id: int,
    version: str,
    q: str,
    request: HttpRequest,
    template: page_cache.Stored,
    *,
    data: str,
    shared_version: str | None,
) -> page_cache.Candidate | None:
    """The fast path's answer (``hkk_tournament.web.fast_path``) to an anonymous search ``q``
    of page 1 of ``kind`` (``live``, ``live-partial``, ``standings``) of ``tournament_id`` at
    the view's ``version`` (the search key still in it), as a candidate whose rendering has the
    headers of ``template`` (the stored answer of the same page without a search: the headers
    the middlewares add) and its own ETag. Only from the parts this process keeps (no parts
    read, no build, no wait):

    - at exactly that version: the current answer;
    - else of an older version showing the same ``data`` (:func:`live_data`,
      :data:`STANDINGS_DATA`) while the shared cache holds no parts of that version
      (``shared_version``: the version stored under :func:`version_key`, ``None``: none): a
      stale answer, given once the build went to a worker (``page_cache.hand_on`` under the
      parts' key, as :func:`current_parts` does for the view), so the view's own answer.

    ``None`` otherwise or beyond :data:`MAX_FOUND` matches (the view answers: it also loads
    current parts the shared cache holds)."""
    if template.headers is None:
        return None
    key = parts_key(kind, tournament_id)
    with _KEPT_LOCK:
        parts = _KEPT.get(key)
    base = _base_version(version, q)
    if parts is None:
        return None
    current = parts.version == base
    if not current and (parts.data != data or shared_version == base):
        return None
    found = _search_body(request, parts, q)
    if found is None:
        return None
    body, etag = found
    headers = tuple((k, etag if k.lower() == "etag" else v) for k, v in template.headers)
    stored = page_cache.Stored(
        version if current else parts.version, body, template.content_type, etag, None, headers
    )
    return page_cache.Candidate(key, stored, version, None if current else page_refresher(request))
