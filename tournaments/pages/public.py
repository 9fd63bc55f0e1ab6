"""Public pages of an event: the list of events, the event page, pairings by table and by name,
the standings and the live page. Anyone may see a public event; a private one only its staff
and players; drafts and draft rounds only its organisers (``can_view_tournament`` and the
visible-round selectors, 404 otherwise). The event and round pages also carry the organiser's
and judge's controls for those who hold the role.

The first-player holder shown per match follows docs/rules.md §6 (HKK first-player rights); the
standings columns §15 (Match points and tiebreakers).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from hkk_tournament.web import fast_path, http_cache, page_cache, warmup
from tournaments import selectors, services
from tournaments.access import (
    can_appoint_staff,
    can_judge,
    can_manage,
    can_see_override_notes,
    player_entry_ids,
)
from tournaments.models import Round, StandingsSnapshot, Tournament, TournamentAction
from tournaments.pages import find_table
from tournaments.pages.common import page_refresher, visible_round, visible_tournament
from tournaments.pages.organiser_forms import (
    DetailsForm,
    EntryAddForm,
    SwapForm,
    TournamentOptionsForm,
)
from tournaments.selectors import current_round, own_membership

#: Seconds between two refreshes of the live page.
REFRESH_SECONDS = 30
#: Rows per page of the public standings page (the CSV and the PDF have them all).
STANDINGS_PAGE_SIZE = 100
#: Tables per page of the live page.
LIVE_TABLES_PAGE_SIZE = 100
#: Rows of the standings the live page shows (the top; the standings page has the rest).
LIVE_STANDINGS_ROWS = 16
#: Tables per page of the round page (with a search by name, like the live page).
ROUND_TABLES_PAGE_SIZE = 100
#: Seconds a shared rendering with a running clock is shown before it is rendered again (the
#: page's script keeps the clock in step in between).
CLOCK_STEP_SECONDS = 30


def _page_key(parts: tuple[object, ...]) -> str:
    """The shared cache key of an anonymous page: its ``parts`` and the active language."""
    return "page:" + ":".join(str(p) for p in (*parts, get_language()))


def _shared(
    request: HttpRequest,
    tournament: Tournament,
    parts: tuple[object, ...],
    version: str | None,
    render: Callable[[dict[str, Any]], HttpResponse],
    modified: datetime | None = None,
) -> HttpResponseBase | None:
    """An anonymous visitor's page of a public event from the shared cache
    (``hkk_tournament.web.page_cache``): stored per ``parts`` and language, renewed when
    ``version`` changes (by a worker when a previous rendering exists); ``render(extra)``
    renders it. ``None`` for anyone else (signed-in users get their own page)."""
    if request.method not in ("GET", "HEAD") or version is None:
        return None
    if request.user.is_authenticated or not tournament.is_public:
        return None
    searched = bool(request.GET.get("q"))
    return page_cache.shared_response(
        request,
        key=_page_key(parts),
        version=version,
        render=lambda: render({}),
        public=True,
        last_modified=modified,
        keep=page_cache.SEARCH_KEEP_SECONDS if searched else page_cache.KEEP_SECONDS,
        refresh=page_refresher(request),
    )


def _fast_state(
    request: HttpRequest, tournament_id: int, parts: tuple[object, ...], search: str = ""
) -> tuple[selectors.PublicState | None, Any, str | None]:
    """The fast path's reads for an anonymous page (``hkk_tournament.web.fast_path``): the
    event's public state (``None`` unless an anonymous visitor may see it), the stored
    rendering of ``parts`` and, with ``search`` (a kind of ``find_table.parts_key``), the
    version of that kind's search parts in the shared cache (``None``: none), in one cache
    read."""
    key = _page_key(parts)
    also = [key]
    if search:
        also.append(find_table.version_key(find_table.parts_key(search, tournament_id)))
    state, found = selectors.public_state(tournament_id, also=also, need_also=True)
    if state is None or not state.anonymous_visible:
        return None, None, None
    return state, found.get(key), found.get(also[-1]) if search else None


def _candidate(
    request: HttpRequest, parts: tuple[object, ...], stored: Any, version: str | None
) -> page_cache.Candidate | None:
    """The fast path's find: ``stored`` (a rendering of ``parts``) and the ``version`` the view
    would answer with now; ``None`` without either."""
    if version is None or not isinstance(stored, page_cache.Stored):
        return None
    return page_cache.Candidate(_page_key(parts), stored, version, page_refresher(request))


def _search_candidate(
    kind: str,
    request: HttpRequest,
    tournament_id: int,
    search: tuple[str, str | None],
    version: str | None,
    q: str,
    page_one: Any,
) -> page_cache.Candidate | None:
    """The fast path's answer to an anonymous search of page 1 (``find_table.fast_answer``),
    ``page_one`` being the stored rendering of the same page without a search (its headers),
    ``search`` what older parts must show (``data``) and the version of the shared cache's
    parts; ``None`` (the view answers) without it, on a later page or without parts to
    answer from."""
    if version is None or not isinstance(page_one, page_cache.Stored):
        return None
    if selectors.page_number(request.GET.get("page")) != 1:
        return None
    data, shared_version = search
    return find_table.fast_answer(
        kind, tournament_id, version, q, request, page_one, data=data, shared_version=shared_version
    )


def _clock_part(rnd: Round | None) -> str:
    """What a page's clock depends on: the round's clock facts, and while the clock runs the
    current ``CLOCK_STEP_SECONDS`` step (the display is rendered in the page)."""
    if rnd is None or rnd.clock_started_at is None:
        return "noclock"
    running = rnd.clock_paused_at is None
    step = int(time.time() // CLOCK_STEP_SECONDS) if running else 0
    facts = (
        rnd.clock_minutes,
        rnd.clock_started_at.timestamp(),
        rnd.clock_paused_seconds,
        rnd.clock_paused_at.timestamp() if rnd.clock_paused_at else 0,
        rnd.clock_extension_seconds,
        step,
    )
    return "c" + "/".join(str(f) for f in facts)


def tournament_list(request: HttpRequest) -> HttpResponse:
    """GET /tournaments/: the tournaments the visitor may see (``tournament_list_visible``: public
    non-draft events for anyone, plus one's own, staffed and played events when signed in).
    """
    tournaments = selectors.tournament_list_visible(user=request.user)
    return render(request, "tournaments/public/list.html", {"tournaments": tournaments})


def _desk_counts(entries: list[Any]) -> dict[str, int]:
    """The desk's counts of ``entries`` (``EntryView``): registered (all), checked in and lists
    approved (legal or overridden) among those still playing, and dropped."""
    playing = [e for e in entries if not e.dropped]
    return {
        "registered": len(entries),
        "checked_in": sum(1 for e in playing if e.entry.checked_in_at),
        "lists": sum(1 for e in playing if e.deck_status in ("legal", "override")),
        "dropped": len(entries) - len(playing),
    }


def _last_reopening(tournament: Tournament) -> dict[str, Any] | None:
    """The last reopening of ``tournament`` while it is running again (who, when, why)."""
    if tournament.status != Tournament.Status.RUNNING:
        return None
    rows = selectors.event_history(tournament=tournament)
    return next((r for r in rows if r["kind"] == TournamentAction.Kind.REOPENED), None)


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/: the event page for whoever may see it (404 otherwise): entries with
    their deck status, the visible rounds, and the visitor's own membership; organisers also get
    the add-entry and options forms and their actions, judges the links to their pages.
    """
    tournament = visible_tournament(request, tournament_id)
    manage = can_manage(request.user, tournament)
    rounds = selectors.rounds_visible(tournament=tournament, user=request.user)
    user = request.user
    membership = own_membership(tournament=tournament, user=user)
    entries = selectors.entry_views(tournament=tournament, user=user)
    context = {
        "tournament": tournament,
        "entries": entries,
        "counts": _desk_counts(entries) if manage else None,
        "reopened": _last_reopening(tournament) if manage else None,
        "rounds": rounds,
        "manage": manage,
        "judge": manage or can_judge(user, tournament),
        "override_notes": can_see_override_notes(user, tournament),
        "appoint": can_appoint_staff(user, tournament),
        "membership": membership,
        "own_entry_ids": player_entry_ids(user, tournament) if membership else set(),
        "entry_form": EntryAddForm(
            pair=tournament.is_pair, late=tournament.status == tournament.Status.RUNNING
        )
        if manage
        else None,
        "options_form": TournamentOptionsForm(
            initial={
                "is_public": tournament.is_public,
                "decklists_published": tournament.decklists_published,
                "decklists_published_at": tournament.decklists_published_at,
                "deck_check_percent": tournament.deck_check_percent,
            }
        )
        if manage
        else None,
        "details_form": DetailsForm(
            initial={
                "starts_at": tournament.starts_at,
                "venue": tournament.venue,
                "description": tournament.description,
                "max_entries": tournament.max_entries,
            }
        )
        if manage and tournament.status != Tournament.Status.FINISHED
        else None,
        "last_round": rounds[-1] if rounds else None,
    }
    return render(request, "tournaments/public/detail.html", context)


def round_detail(request: HttpRequest, tournament_id: int, number: int) -> HttpResponseBase:
    """GET /tournaments/<id>/rounds/<number>/: pairings by table, ``ROUND_TABLES_PAGE_SIZE``
    tables a page (``?page=``) with a search by name (``?q=``), each match with the current
    first-player holder and why, and the round clock; organisers of a draft round also get the
    swap form and the relaxations the pairing needed (docs/rules.md §14 (Swiss pairing and
    byes)); judges of a published round get the fast result entry (one row per table of the
    page, one button per result) and organisers the clock controls.

    An anonymous visitor of a public event gets the shared rendering
    (``hkk_tournament.web.page_cache``) of the round, page and search, renewed with the standings
    version (results show once the standings that follow them are recomputed, as on the live
    page) and the clock.
    """
    tournament = visible_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    page, q = _list_params(request)

    def round_page(extra: dict[str, Any]) -> HttpResponse:
        return render(
            request,
            "tournaments/public/round.html",
            {**_round_context(request, tournament, rnd, page, q), **extra},
        )

    if rnd.status != Round.Status.DRAFT:
        version = _round_version(selectors.standings_snapshot(tournament), rnd)
        parts = ("round", tournament.pk, rnd.number, page, selectors.search_key(q))
        shared = _shared(request, tournament, parts, version, round_page)
        if shared is not None:
            return shared
    return round_page({})


def _round_version(snapshot: Any, rnd: Any) -> str:
    """The shared round page's version: the standings version (results show with the
    standings that follow them), the round and its clock. ``snapshot``: a ``StandingsSnapshot``
    or the public state's facts; ``rnd``: a ``Round`` or its facts."""
    tag = selectors.snapshot_tag(snapshot, "round")
    return f"{tag}-{rnd.pk}{rnd.status}-{_clock_part(rnd)}"


def _fast_round(request: HttpRequest, kwargs: dict[str, Any]) -> page_cache.Candidate | None:
    """The fast path of :func:`round_detail` (a published or finished round, no search)."""
    if request.GET.get("q"):
        return None  # a search of the round page renders (its page-1 answer is not it)
    tournament_id, number = kwargs["tournament_id"], kwargs["number"]
    page = selectors.page_number(request.GET.get("page"))
    parts = ("round", tournament_id, number, page, selectors.search_key(""))
    state, stored, _ = _fast_state(request, tournament_id, parts)
    rnd = state.round(number) if state is not None else None
    if state is None or rnd is None:
        return None
    return _candidate(request, parts, stored, _round_version(state.snapshot, rnd))


def _round_context(
    request: HttpRequest, tournament: Tournament, rnd: Round, page: int, q: str
) -> dict[str, Any]:
    """The context of the round page (:func:`round_detail`) for page ``page`` and search ``q``."""
    manage = can_manage(request.user, tournament)
    judge = manage or can_judge(request.user, tournament)
    tables = selectors.round_tables_page(round=rnd, number=page, size=ROUND_TABLES_PAGE_SIZE, q=q)
    matches = tables.matches
    fast = judge and rnd.status == Round.Status.PUBLISHED
    own = player_entry_ids(request.user, tournament) if fast else set()
    open_tables = [
        m.table
        for m in matches
        if not m.is_bye and not m.games and not own & {m.match.entry_a_id, m.match.entry_b_id}
    ]
    return {
        "tournament": tournament,
        "round": rnd,
        "tables": tables,
        "matches": matches,
        "q": q,
        "pager_query": _pager_query(q),
        "manage": manage,
        "judge": judge,
        "clock": selectors.clock_view(round=rnd) if rnd.status != Round.Status.DRAFT else None,
        "outcomes": services.match_outcomes(tournament=tournament) if fast else [],
        # Nobody judges a match they play in: their own tables get no result buttons.
        "own_entry_ids": own,
        "open_tables": open_tables,
        "swap_form": SwapForm() if manage and rnd.status == Round.Status.DRAFT else None,
        "relaxations": services.round_relaxations(rnd) if manage and rnd.relaxations else [],
        "rounds": selectors.rounds_visible(tournament=tournament, user=request.user),
        "history": selectors.round_history(tournament=tournament, number=rnd.number)
        if manage
        else [],
    }


def round_by_name(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """GET /tournaments/<id>/rounds/<number>/by-name/: alphabetical list of entries → table, seat
    and opponent (for the wall).
    """
    tournament = visible_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    views = selectors.round_match_views(round=rnd)
    context = {
        "tournament": tournament,
        "round": rnd,
        "rows": selectors.pairings_by_name(views),
        "rounds": selectors.rounds_visible(tournament=tournament, user=request.user),
    }
    return render(request, "tournaments/public/round_by_name.html", context)


def _list_params(request: HttpRequest) -> tuple[int, str]:
    """``(page, q)`` of a paged public list: ``?page=`` (1 by default) and the search text."""
    return (
        selectors.page_number(request.GET.get("page")),
        selectors.search_text(request.GET.get("q")),
    )


def _kept_params(page: int, q: str) -> dict[str, Any]:
    """The query parameters that keep the page and the search across the live page's
    refreshes (``{}`` for the first page without a search)."""
    params: dict[str, Any] = {}
    if page > 1:
        params["page"] = page
    if q:
        params["q"] = q
    return params


def _pager_query(q: str) -> str:
    """What the page links add after ``?page=N`` to keep the search (``"&q=kov"`` or ``""``)."""
    return "&" + urlencode({"q": q}) if q else ""


def _stored_rows(tournament: Tournament, snapshot: StandingsSnapshot | None) -> list[dict]:
    """The standings rows to page (the snapshot's, loaded now, or computed without one)."""
    return services.standings_stored_rows(tournament=tournament, snapshot=snapshot)


@require_safe  # GET and HEAD (a HEAD answers as the fast path does)
def standings(request: HttpRequest, tournament_id: int) -> HttpResponseBase:
    """GET /tournaments/<id>/standings/: the standings (rank, points, the tournament's tiebreaker
    columns; docs/rules.md §15 (Match points and tiebreakers)) for whoever may see the event
    (404 otherwise), ``STANDINGS_PAGE_SIZE`` rows per page (``?page=``, page links when there
    is more than one page) and a search by name (``?q=``: case- and accent-insensitive, the
    matching rows with their real rank). The CSV and the PDF stay complete.

    Read from the stored snapshot (recomputed when results are recorded), with ``ETag`` /
    ``Last-Modified`` from it and the page and search (a conditional GET answers 304); the table
    is kept in the cache per snapshot version, page, search and language, so a repeated request
    never loads the snapshot's rows.
    """
    tournament = visible_tournament(request, tournament_id)
    page_number, q = _list_params(request)
    snapshot = selectors.standings_snapshot(tournament)
    tag = _standings_version(snapshot, page_number, q)
    modified = snapshot.computed_at if snapshot is not None else None
    if request.user.is_authenticated or not tournament.is_public:
        unchanged = http_cache.not_modified(request, tag=tag, last_modified=modified)
        if unchanged is not None:
            return unchanged

    def page(extra: dict[str, Any]) -> HttpResponse:
        table = SimpleLazyObject(
            lambda: selectors.standings_page(
                tournament=tournament,
                rows=_stored_rows(tournament, snapshot),
                number=page_number,
                size=STANDINGS_PAGE_SIZE,
                q=q,
            )
        )
        context = {
            "tournament": tournament,
            "table": table,
            "pager_query": _pager_query(q),
            "fragment_key": tag,
            "tiebreaker_columns": selectors.tiebreaker_columns(tournament),
            "rounds": selectors.rounds_visible(tournament=tournament, user=request.user),
            "judge": can_judge(request.user, tournament),
            **extra,
        }
        if not q:
            _cut_standings_rows(request, context, snapshot, page_number)
        return render(request, "tournaments/public/standings.html", context)

    if found := find_table.standings_search(request, tournament, snapshot, tag):
        return found  # "find my table" from the search parts (None: render as usual)
    parts = ("standings", tournament.pk, page_number, selectors.search_key(q))
    shared = _shared(request, tournament, parts, tag, page, modified)
    if shared is not None:
        return shared
    response = page({})
    return http_cache.add_validators(
        request, response, tag=tag, last_modified=modified, public=tournament.is_public
    )


def _cut_standings_rows(
    request: HttpRequest, context: dict[str, Any], snapshot: Any, number: int
) -> None:
    """Put page ``number`` of the standings rows, cut from the search parts of this version
    (``find_table.page_rows``; built first when a worker renders a later page), into the view's
    ``context`` (``table`` without row views and ``table_rows``); without such parts
    ``context`` is left as it is (rows rendered)."""
    tournament = context["tournament"]
    version = _standings_version(snapshot, 1, "")
    build = None
    if _builds_parts(number):
        build = lambda: find_table.build_standings(request, tournament, snapshot, version or "")  # noqa: E731
    rows = find_table.page_rows(
        "standings",
        tournament.pk,
        version,
        number=number,
        size=STANDINGS_PAGE_SIZE,
        build=build,
        data=find_table.STANDINGS_DATA,
    )
    if rows is not None:
        numbers, context["table_rows"] = rows
        context["table"] = selectors.StandingsPage(
            rows=[], page=numbers, total=numbers.paginator.count, q=""
        )


def _builds_parts(number: int) -> bool:
    """Whether rendering page ``number`` of a list builds the version's search parts first: in a
    worker (``page_cache.rendering_inline``, a stale page or the warm-up) and for a later page
    only. The build renders every row once (about 0.6 s at 2,048 tables), which pays when a
    list has more pages than the first: after a recompute every page visitors look at is
    rendered again, and the searches use the same parts. Page 1 alone (the warm-up after
    every recompute, in every language) is rendered as usual."""
    return number > 1 and page_cache.inline()


def _standings_version(snapshot: Any, page: int, q: str) -> str | None:
    """The standings page's ETag tag and shared version (``None`` without standings);
    ``snapshot``: a ``StandingsSnapshot`` or the public state's facts."""
    return selectors.snapshot_tag(snapshot, "standings", page, selectors.search_key(q))


def _fast_standings(request: HttpRequest, kwargs: dict[str, Any]) -> page_cache.Candidate | None:
    """The fast path of :func:`standings` (no search)."""
    tournament_id = kwargs["tournament_id"]
    page = selectors.page_number(request.GET.get("page"))
    parts = ("standings", tournament_id, page, selectors.search_key(""))
    q = selectors.search_text(request.GET.get("q"))
    state, stored, shared = _fast_state(request, tournament_id, parts, "standings" if q else "")
    if state is None:
        return None
    if q:  # "find my table": from this process's search parts, headers from page 1
        version = _standings_version(state.snapshot, page, q)
        search = (find_table.STANDINGS_DATA, shared)
        return _search_candidate("standings", request, tournament_id, search, version, q, stored)
    return _candidate(request, parts, stored, _standings_version(state.snapshot, page, ""))


@require_safe  # GET and HEAD (a HEAD answers as the fast path does)
def live(request: HttpRequest, tournament_id: int) -> HttpResponseBase:
    """GET /tournaments/<id>/live/: the tables of the latest published or finished round
    (``LIVE_TABLES_PAGE_SIZE`` per page, ``?page=``, and ``?q=`` to find one's table by name)
    and the top ``LIVE_STANDINGS_ROWS`` of the standings with a link to the full standings, for
    whoever may see the event (404 otherwise); draft rounds are never shown here, not even to
    organisers. ``?partial=1`` returns only the content fragment the page's script swaps in
    every ``REFRESH_SECONDS`` (its URL keeps the page and the search); without JavaScript a
    ``<noscript>`` meta refresh reloads the page.

    The standings come from the stored snapshot; the tables are kept in the cache per snapshot
    version, round, page, search and language, the top of the standings per snapshot version
    and language (a result shows once the standings that follow it are recomputed), and
    ``ETag`` / ``Last-Modified`` let a client revalidate (304).
    """
    tournament = visible_tournament(request, tournament_id)
    page, q = _list_params(request)
    rnd = current_round(tournament=tournament)
    partial = request.GET.get("partial") == "1"
    snapshot = selectors.standings_snapshot(tournament)
    fragment_key = _live_fragment_key(snapshot, rnd, page, q)
    tag = f"{fragment_key}-{int(partial)}" if fragment_key is not None else None
    modified = snapshot.computed_at if snapshot is not None else None
    if request.user.is_authenticated or not tournament.is_public:
        unchanged = http_cache.not_modified(request, tag=tag, last_modified=modified)
        if unchanged is not None:
            return unchanged
    context: dict[str, Any] = {
        "tournament": tournament,
        "round": rnd,
        "tables": SimpleLazyObject(
            lambda: (
                selectors.round_tables_page(round=rnd, number=page, size=LIVE_TABLES_PAGE_SIZE, q=q)
                if rnd is not None
                else None
            )
        ),
        "standings_top": SimpleLazyObject(
            lambda: selectors.standings_page(
                tournament=tournament,
                rows=_stored_rows(tournament, snapshot),
                number=1,
                size=LIVE_STANDINGS_ROWS,
            )
        ),
        "q": q,
        "pager_query": _pager_query(q),
        "fragment_key": fragment_key,
        "standings_key": selectors.snapshot_tag(snapshot, "live-standings"),
        "tiebreaker_columns": selectors.tiebreaker_columns(tournament),
        "refresh": REFRESH_SECONDS,
    }

    def live_page(extra: dict[str, Any]) -> HttpResponse:
        context.update(extra)
        if not q and rnd is not None:
            _cut_live_rows(request, context, snapshot, page, partial)
        if partial:
            return render(request, "tournaments/public/_live_content.html", context)
        context.update(_live_page_context(request, tournament, rnd, page, q))
        return render(request, "tournaments/public/live.html", context)

    parts = ("live", tournament.pk, page, selectors.search_key(q), int(partial))
    version = _live_version(tag, rnd, partial)
    if found := find_table.live_search(request, context, version, snapshot, _live_page_context):
        return found  # "find my table" from the search parts (None: render as usual)
    shared = _shared(request, tournament, parts, version, live_page, modified)
    if shared is not None:
        return shared
    response = live_page({})
    return http_cache.add_validators(
        request, response, tag=tag, last_modified=modified, public=tournament.is_public
    )


def _cut_live_rows(
    request: HttpRequest, context: dict[str, Any], snapshot: Any, number: int, partial: bool
) -> None:
    """Put page ``number`` of the live page's tables (``partial``: of its fragment), cut from
    the search parts of this version (``find_table.page_rows``; built first when a worker
    renders a later page), into the view's ``context`` (``tables`` without match views and
    ``table_rows``); without such parts ``context`` is left as it is (rows rendered)."""
    rnd = context["round"]
    key = _live_fragment_key(snapshot, rnd, 1, "")
    version = _live_version(f"{key}-{int(partial)}" if key is not None else None, rnd, partial)
    build = None
    if _builds_parts(number):
        build = lambda: find_table.build_live(  # noqa: E731
            request, context, _live_page_context, version=version or "", partial=partial
        )
    rows = find_table.page_rows(
        "live-partial" if partial else "live",
        context["tournament"].pk,
        version,
        number=number,
        size=LIVE_TABLES_PAGE_SIZE,
        build=build,
        data=find_table.live_data(rnd),
    )
    if rows is not None:
        numbers, context["table_rows"] = rows
        context["tables"] = selectors.TablesPage(
            matches=[], page=numbers, total=numbers.paginator.count, q="", order={}
        )


def _live_fragment_key(snapshot: Any, rnd: Any, page: int, q: str) -> str | None:
    """The live page's fragment key: the standings version, the shown round, page and search
    (``None`` without standings). ``snapshot`` / ``rnd``: the models or the public state's
    facts."""
    round_part = f"{rnd.pk}{rnd.status}" if rnd is not None else "none"
    return selectors.snapshot_tag(snapshot, "live", round_part, page, selectors.search_key(q))


def _live_version(tag: str | None, rnd: Any, partial: bool) -> str | None:
    """The shared live page's version: its ETag ``tag`` and, for the whole page, the clock."""
    return f"{tag}-{_clock_part(rnd)}" if tag is not None and not partial else tag


def _fast_live(request: HttpRequest, kwargs: dict[str, Any]) -> page_cache.Candidate | None:
    """The fast path of :func:`live` (the page or its fragment, no search)."""
    tournament_id = kwargs["tournament_id"]
    page = selectors.page_number(request.GET.get("page"))
    partial = request.GET.get("partial") == "1"
    parts = ("live", tournament_id, page, selectors.search_key(""), int(partial))
    q = selectors.search_text(request.GET.get("q"))
    kind = "live-partial" if partial else "live"
    state, stored, shared = _fast_state(request, tournament_id, parts, kind if q else "")
    if state is None:
        return None
    rnd = state.current_round
    fragment_key = _live_fragment_key(state.snapshot, rnd, page, q)
    tag = f"{fragment_key}-{int(partial)}" if fragment_key is not None else None
    if q:  # "find my table": from this process's search parts, headers from page 1
        version = _live_version(tag, rnd, partial)
        search = (find_table.live_data(rnd), shared)
        return _search_candidate(kind, request, tournament_id, search, version, q, stored)
    return _candidate(request, parts, stored, _live_version(tag, rnd, partial))


fast_path.register(standings, _fast_standings)
fast_path.register(live, _fast_live)
fast_path.register(round_detail, _fast_round)


def _later_pages(size: warmup.EventSize) -> list[str]:
    """The public pages' pages beyond the first (``warmup.later_pages``): the standings, the
    live page and its refresh fragment, and the shown round's page."""
    standings_url = reverse("tournaments:standings", args=[size.tournament_id])
    paths = [
        f"{standings_url}?page={n}"
        for n in range(2, warmup.page_count(size.entries, STANDINGS_PAGE_SIZE) + 1)
    ]
    if size.number is None:
        return paths
    live_url = reverse("tournaments:live", args=[size.tournament_id])
    round_url = reverse("tournaments:round", args=[size.tournament_id, size.number])
    for n in range(2, warmup.page_count(size.tables, LIVE_TABLES_PAGE_SIZE) + 1):
        paths += [f"{live_url}?page={n}", f"{live_url}?partial=1&page={n}"]
    pages = warmup.page_count(size.tables, ROUND_TABLES_PAGE_SIZE)
    return paths + [f"{round_url}?page={n}" for n in range(2, pages + 1)]


warmup.register_later_pages(_later_pages)


def _live_page_context(
    request: HttpRequest, tournament: Tournament, rnd: Round | None, page: int, q: str
) -> dict[str, Any]:
    """What the whole live page adds to its refresh fragment's context: the rounds, the clock,
    the refresh URL (keeping ``page`` and ``q``) and whether to offer the table search."""
    query = urlencode({"partial": 1, **_kept_params(page, q)})
    return {
        "rounds": selectors.rounds_visible(tournament=tournament, user=request.user),
        "clock": selectors.clock_view(round=rnd) if rnd is not None else None,
        "live_url": f"{reverse('tournaments:live', args=[tournament.pk])}?{query}",
        "search_tables": rnd is not None
        and (bool(q) or rnd.matches.count() > LIVE_TABLES_PAGE_SIZE),
    }
