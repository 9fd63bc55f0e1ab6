""" "Find my table" from the search parts (``tournaments.pages.find_table``): an anonymous search
of the live page, its fragment and the standings page answers with exactly the bytes the full
rendering gives (0, 1 and many matches, accents and case, HTML in the search, both languages,
a bye, no round published), without a template rendering or a query beyond the view's own once
the parts exist; signed-in visitors, private events, later pages and searches finding more
than a page render as before."""

from __future__ import annotations

import dataclasses
import datetime as dt
import gzip
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.test.signals import template_rendered

from tests.factories import make_tournament
from tournaments import services
from tournaments.models import Entry
from tournaments.pages import find_table, public
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db

NAMES = [
    ("Kovács", "Péter"),
    ("Kovacs", "Anna"),
    ("Szabó", "Éva"),
    ("O'Brien & <Co>", "Zoé"),
    ("Nagy", "Kovácsné"),
]


class _FixedNow(dt.datetime):
    """``{% now %}`` at a fixed moment, so two renderings can be compared byte for byte."""

    @classmethod
    def now(cls, tz=None):
        return cls(2026, 11, 26, 12, 0, 0, tzinfo=tz)


@pytest.fixture(autouse=True)
def _fixed_clock(monkeypatch):
    import django.template.defaulttags as defaulttags

    monkeypatch.setattr(defaulttags, "datetime", _FixedNow)
    find_table._KEPT.clear()
    find_table._MATCHES.clear()
    cache.clear()
    yield
    find_table._KEPT.clear()
    find_table._MATCHES.clear()


def _event(*, entries: int = 11, publish: bool = True):
    """A public event of ``entries`` players (11: five tables and a bye), some with accents,
    one with HTML in the name, its round 1 published and the standings stored."""
    t, made = make_tournament(entries=entries, decks=False)
    services.tournament_set_options(actor=SYSTEM, tournament=t, is_public=True)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    for e, (family, given) in zip(made, NAMES, strict=False):
        Entry.objects.filter(pk=e.pk).update(
            name=f"{family} {given}", family_name=family, given_name=given
        )
    if publish:
        services.round_publish(
            actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=3)
        )
    services.standings_refresh(tournament_id=t.pk)
    return t


@pytest.fixture
def event():
    return _event()


_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def _body(response) -> str:
    assert response.status_code == 200
    return _TOKEN.sub('name="csrfmiddlewaretoken" value="-"', response.content.decode())


def _both(monkeypatch, url: str, language: str = "hu") -> tuple[str, str, object, object]:
    """The answer to ``url`` from the parts and from the full rendering (hooks switched off)."""
    fast = Client().get(url, HTTP_ACCEPT_LANGUAGE=language)
    with monkeypatch.context() as m:
        m.setattr(find_table, "live_search", lambda *a, **kw: None)
        m.setattr(find_table, "standings_search", lambda *a, **kw: None)
        full = Client().get(url, HTTP_ACCEPT_LANGUAGE=language)
    return _body(fast), _body(full), fast, full


def _parts_built() -> bool:
    return any(k.startswith("find-parts:") for k in find_table._KEPT)


@pytest.mark.parametrize("language", ["hu", "en"])
@pytest.mark.parametrize(
    "q",
    [
        "kovacs",  # accents and case: Kovács Péter, Kovacs Anna, Nagy Kovácsné
        "KOVÁCS péter",  # one table
        "nobody here",  # no match
        "o'brien & <co>",  # HTML-special characters in the search and the name
        "<script>alert('x')</script>",  # escaped, no match
        "p1",  # P10, P11…: more than one
    ],
)
@pytest.mark.parametrize("path", ["live/", "live/?partial=1&", "standings/"])
def test_a_search_answers_the_bytes_of_the_full_rendering(event, monkeypatch, language, q, path):
    from urllib.parse import urlencode

    sep = "" if path.endswith("&") else "?"
    url = f"/tournaments/{event.pk}/{path}{sep}{urlencode({'q': q})}"
    fast, full, fast_response, full_response = _both(monkeypatch, url, language)
    assert _parts_built()
    assert fast == full
    assert fast_response["ETag"] == full_response["ETag"]
    assert fast_response["Cache-Control"] == full_response["Cache-Control"]
    assert "<script>alert" not in fast


def test_the_counts_and_rows_differ_with_the_search(event, monkeypatch):
    base = f"/tournaments/{event.pk}/live/?q="
    many, _, _, _ = _both(monkeypatch, base + "kovacs", "en")
    one, _, _, _ = _both(monkeypatch, base + "szabo", "en")
    none, _, _, _ = _both(monkeypatch, base + "zzz", "en")
    assert "tables have a player whose name contains “kovacs”" in many
    assert many.count('<td class="num">') > one.count('<td class="num">') > 0
    assert "1 table has a player whose name contains “szabo”" in one
    assert "0 tables have" in none and 'data-testid="live-pairings"' not in none
    assert "Éva Szabó" in one  # English: given name first
    hu, _, _, _ = _both(monkeypatch, base + "szabo", "hu")
    assert "Szabó Éva" in hu and "table has a player" not in hu


def test_a_bye_is_found_like_any_table(event, monkeypatch):
    bye = event.rounds.get(number=1).matches.get(entry_b__isnull=True)
    name = Entry.objects.get(pk=bye.entry_a_id).name
    fast, full, _, _ = _both(monkeypatch, f"/tournaments/{event.pk}/live/?q={name}")
    assert fast == full and f'<td class="num">{bye.table}</td>' in fast


def test_no_round_published_answers_the_page_without_tables(monkeypatch):
    t = _event(entries=4, publish=False)
    fast, full, _, _ = _both(monkeypatch, f"/tournaments/{t.pk}/live/?q=kovacs")
    assert _parts_built()
    assert fast == full and 'data-testid="live-no-round"' in fast


def test_once_built_a_search_renders_no_template(event, django_assert_max_num_queries):
    url = f"/tournaments/{event.pk}/live/?q="
    Client().get(url + "kovacs")  # builds the parts
    rendered: list[str] = []

    def seen(sender, template, **kw):
        rendered.append(template.name)

    template_rendered.connect(seen)
    try:
        with django_assert_max_num_queries(3):  # the event, its round, the snapshot
            response = Client().get(url + "szabo")
    finally:
        template_rendered.disconnect(seen)
    assert response.status_code == 200 and "Szabó Éva" in response.content.decode()
    assert rendered == []


def test_a_conditional_search_answers_304(event):
    url = f"/tournaments/{event.pk}/standings/?q=kovacs"
    first = Client().get(url)
    again = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_a_new_version_rebuilds_the_parts(event, monkeypatch):
    url = f"/tournaments/{event.pk}/live/?q=szabo"
    Client().get(url)
    Entry.objects.filter(family_name="Szabó").update(
        name="Szabó Évi", family_name="Szabó", given_name="Évi"
    )
    services.standings_refresh(tournament_id=event.pk)  # a new snapshot version
    fast, full, _, _ = _both(monkeypatch, url)
    assert fast == full and "Szabó Évi" in fast


@pytest.mark.parametrize(
    "url",
    [
        "/tournaments/{pk}/live/?q=p&page=2",  # a later page
        "/tournaments/{pk}/live/?q=p",  # more than a page (MAX_FOUND = 2 below)
        "/tournaments/{pk}/standings/?q=p",
    ],
)
def test_later_pages_and_long_answers_render_as_before(event, monkeypatch, url):
    monkeypatch.setattr(find_table, "MAX_FOUND", 2)
    monkeypatch.setattr(public, "LIVE_TABLES_PAGE_SIZE", 2)
    monkeypatch.setattr(public, "STANDINGS_PAGE_SIZE", 2)
    calls: list[str] = []
    real = find_table.respond
    monkeypatch.setattr(find_table, "respond", lambda *a: calls.append("parts") or real(*a))
    response = Client().get(url.format(pk=event.pk))
    assert response.status_code == 200
    assert 'class="t-pager' in response.content.decode()  # the normal, paged rendering
    assert "page=2" in url or calls == ["parts"]  # tried the parts, found too many


def test_signed_in_visitors_and_private_events_render_as_before(event, django_user_model):
    user = django_user_model.objects.create_user("visitor", password="pw")
    client = Client()
    client.force_login(user)
    assert client.get(f"/tournaments/{event.pk}/live/?q=kovacs").status_code == 200
    assert not _parts_built()
    services.tournament_set_options(actor=SYSTEM, tournament=event, is_public=False)
    assert Client().get(f"/tournaments/{event.pk}/live/?q=kovacs").status_code == 404
    assert not _parts_built()


def test_the_parts_serve_one_page_of_each_list():
    assert find_table.MAX_FOUND == public.LIVE_TABLES_PAGE_SIZE == public.STANDINGS_PAGE_SIZE


def test_a_rendering_of_another_shape_is_refused():
    with pytest.raises(find_table.PartsError):
        find_table.split_rendering(
            version="v",
            every="<p>no table</p>",
            none="<p>no table</p>",
            kind="live",
            names=["a", "b"],
            sentence=find_table.LIVE_SENTENCE,
        )


def test_the_warm_up_after_a_publish_builds_the_parts_in_every_language(event):
    from tournaments import tasks

    assert tasks.pages_warm(event.pk) == 4 * 2  # after a recompute: the pages only
    assert not any(k.startswith("find-parts:") for k in find_table._KEPT)
    # and three searches, then the later pages: here only the round API's first page
    assert tasks.pages_warm_task(event.pk)["pages"] == 7 * 2 + 1 * 2
    for kind in ("live", "live-partial", "standings"):
        for language in ("hu", "en"):
            key = f"find-parts:{kind}:{event.pk}:{language}"
            assert isinstance(cache.get(key), find_table.SearchParts), key
    cache.clear()
    # Run in the publishing request (the broker down): not the later pages.
    assert tasks.pages_warm_task.apply(args=[event.pk]).result["pages"] == 7 * 2


def test_after_a_publish_every_page_of_every_list_is_warmed():
    from hkk_tournament.web import warmup

    size = warmup.EventSize(tournament_id=7, entries=250, number=3, tables=125)
    assert warmup.later_pages(size) == [
        "/tournaments/7/standings/?page=2",
        "/tournaments/7/standings/?page=3",
        "/tournaments/7/live/?page=2",
        "/tournaments/7/live/?partial=1&page=2",
        "/tournaments/7/rounds/3/?page=2",
        "/api/tournaments/7/rounds/3/?page=1",
        "/api/tournaments/7/rounds/3/?page=2",
    ]
    no_round = warmup.EventSize(tournament_id=7, entries=100, number=None, tables=0)
    assert warmup.later_pages(no_round) == []


def test_while_new_parts_are_built_only_a_clock_change_answers_with_the_old_ones(
    event, monkeypatch
):
    from hkk_tournament.web import page_cache

    Client().get(f"/tournaments/{event.pk}/live/?q=kovacs")
    key = f"find-parts:live:{event.pk}:hu"
    old = find_table._KEPT[key]
    assert old.data is not None
    cache.add(f"{key}:lock", 1, 30)  # another process is building the new version

    def never() -> find_table.SearchParts:
        raise AssertionError("built while another process holds the lock")

    assert find_table.current_parts(key, old.version + "-c2", never, data=old.data) is old
    monkeypatch.setattr(page_cache, "WAIT_SECONDS", 0.1)
    # Another round or other standings: no stale answer; the page is rendered instead.
    assert find_table.current_parts(key, "next round", never, data="other") is None


def test_the_round_name_index_is_kept_per_language(event, monkeypatch):
    """Names are shown, and so searched, family name first in Hungarian and given name first
    in English: an index built for one language must not answer the other."""
    monkeypatch.setattr(find_table, "live_search", lambda *a, **kw: None)
    url = f"/tournaments/{event.pk}/live/?q="
    hu = Client().get(url + "kovacs peter", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    en = Client().get(url + "peter kovacs", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 asztalnál" in hu
    assert "1 table has a player" in en and "Péter Kovács" in en


@pytest.mark.parametrize("path", ["live/", "live/?partial=1&", "standings/"])
def test_the_fast_path_answers_a_search_without_a_query(
    event, monkeypatch, path, django_assert_num_queries
):
    """Once this process keeps the parts and page 1 without a search is stored (its headers),
    the fast path (``hkk_tournament.web.fast_path``) answers a search before the view: no
    query, and status, body and every header equal to the view's own answer."""
    sep = "" if path.endswith("&") else "?"
    base = f"/tournaments/{event.pk}/{path}"
    plain = base.rstrip("&").rstrip("?") if sep == "" else base
    Client().get(plain)  # page 1 without a search: stored, its headers captured
    Client().get(plain)
    Client().get(f"{base}{sep}q=kovacs")  # builds the parts in this process
    url = f"{base}{sep}q=szabo"
    with django_assert_num_queries(0):
        fast = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
    with monkeypatch.context() as m:
        m.setattr(find_table, "fast_answer", lambda *a, **kw: None)
        slow = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert fast.status_code == slow.status_code == 200
    # GZipMiddleware pads each compressed body at random (BREACH): compare what it carries.
    text = gzip.decompress(fast.content).decode()
    assert text == gzip.decompress(slow.content).decode() and "Szabó Éva" in text
    skip = {"date", "x-request-id", "content-length"}
    assert {k.lower(): v for k, v in fast.items() if k.lower() not in skip} == {
        k.lower(): v for k, v in slow.items() if k.lower() not in skip
    }
    again = Client().get(url, HTTP_IF_NONE_MATCH=fast["ETag"])
    assert again.status_code == 304


@pytest.mark.parametrize(
    ("path", "kind"),
    [("live/?", "live"), ("live/?partial=1&", "live-partial"), ("standings/?", "standings")],
)
def test_the_fast_path_answers_from_older_parts_while_a_worker_builds_the_new_ones(
    event, monkeypatch, path, kind, django_assert_num_queries
):
    """A new standings version: while only this process's older parts (same round) exist and
    the build went to a worker, the fast path answers the search from them without a query,
    as the view would (equal body and headers, one refresh handed on per period); once the
    shared cache holds the new parts it leaves the search to the view, which loads them."""
    handed: list[str] = []

    def refresher(request):
        handed.append(request.get_full_path())
        return lambda: True  # a worker took it

    base = f"/tournaments/{event.pk}/{path}"
    plain = base.rstrip("&").rstrip("?")
    Client().get(plain)  # page 1 without a search: stored, its headers captured
    Client().get(plain)
    Client().get(f"{base}q=kovacs")  # builds the parts (process and shared cache)
    key = f"find-parts:{kind}:{event.pk}:hu"
    old = find_table._KEPT[key]
    assert cache.get(find_table.version_key(key)) == old.version
    services.standings_refresh(tournament_id=event.pk)  # a new snapshot version
    Client().get(plain)  # the event's new public state read (three queries), page 1 again
    monkeypatch.setattr(find_table, "page_refresher", refresher)
    url = f"{base}q=szabo"
    with django_assert_num_queries(0):
        fast = Client().get(url)
    assert fast.status_code == 200 and "Szabó Éva" in fast.content.decode()
    assert len(handed) == 1 and find_table._KEPT[key] is old  # handed on, nothing built here
    with monkeypatch.context() as m:
        m.setattr(find_table, "fast_answer", lambda *a, **kw: None)
        slow = Client().get(url)
    assert fast.content == slow.content
    skip = {"date", "x-request-id", "content-length"}
    assert {k.lower(): v for k, v in fast.items() if k.lower() not in skip} == {
        k.lower(): v for k, v in slow.items() if k.lower() not in skip
    }
    # The worker stored the new version's parts: the fast path leaves the search to the
    # view, which loads them (and keeps them for the fast path's next answers).
    built = dataclasses.replace(old, version="new")
    monkeypatch.setattr(find_table, "_base_version", lambda version, q: "new")
    template = find_table.page_cache.Stored("v", b"", "text/html", "", None, ())
    args = (kind, event.pk, "v", "szabo", fast.wsgi_request, template)
    assert find_table.fast_answer(*args, data=old.data, shared_version="new") is None
    # (with only older parts anywhere it answers from them)
    assert find_table.fast_answer(*args, data=old.data, shared_version=old.version) is not None
    assert find_table.fast_answer(*args, data="round:another", shared_version=None) is None
    find_table._keep(key, built)
    assert find_table.fast_answer(*args, data=old.data, shared_version="new") is not None


def test_the_live_parts_of_one_version_read_the_tables_once(event):
    """The live page's and its fragment's parts, in both languages, at one standings version
    read the round's matches and games once in a process (``find_table._round_matches``); a
    new standings version reads them again."""
    reads: list[int] = []
    real = find_table.selectors.round_matches

    def counting(*, round):
        reads.append(round.pk)
        return real(round=round)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(find_table.selectors, "round_matches", counting)
        for language in ("hu", "en"):
            for path in ("live/?q=kovacs", "live/?partial=1&q=kovacs"):
                Client().get(f"/tournaments/{event.pk}/{path}", HTTP_ACCEPT_LANGUAGE=language)
        assert len(find_table._KEPT) == 4 and len(reads) == 1
        services.standings_refresh(tournament_id=event.pk)
        Client().get(f"/tournaments/{event.pk}/live/?q=kovacs")
        assert len(reads) == 2


def test_with_a_worker_a_new_version_is_built_there_and_the_old_parts_answer(event):
    """With a broker, a search that finds only the same round's older parts answers from them
    and hands the build to a worker (once per refresh period), so no web request spends the
    build; the worker's own request (rendering inline) builds them."""
    from hkk_tournament.web import page_cache

    Client().get(f"/tournaments/{event.pk}/live/?q=kovacs")
    key = f"find-parts:live:{event.pk}:hu"
    old = find_table._KEPT[key]
    handed: list[str] = []

    def to_worker() -> bool:
        handed.append("refresh")
        return True

    def never() -> find_table.SearchParts:
        raise AssertionError("built in the web request")

    new = old.version + "-s2"
    assert find_table.current_parts(key, new, never, data=old.data, refresh=to_worker) is old
    assert find_table.current_parts(key, new, never, data=old.data, refresh=to_worker) is old
    assert handed == ["refresh"]  # once per period
    built = dataclasses.replace(old, version=new)
    with page_cache.rendering_inline():  # the worker: builds
        got = find_table.current_parts(key, new, lambda: built, data=old.data, refresh=to_worker)
    assert got is not None and got.version == new and handed == ["refresh"]


# --- list pages cut from the parts ----------------------------------------------------------


def _page_bodies(monkeypatch, url: str, language: str) -> tuple[str, str, list[str]]:
    """``url`` rendered with its rows as usual, then (the page and fragment caches cleared,
    the parts kept) with its rows cut from the parts; and which lists were cut."""
    cut: list[str] = []
    real = find_table.page_rows
    with monkeypatch.context() as m:
        m.setattr(find_table, "page_rows", lambda *a, **kw: None)
        full = _body(Client().get(url, HTTP_ACCEPT_LANGUAGE=language))
    cache.clear()

    def spy(kind, *args, **kwargs):
        rows = real(kind, *args, **kwargs)
        if rows is not None:
            cut.append(kind)
        return rows

    monkeypatch.setattr(find_table, "page_rows", spy)
    fast = _body(Client().get(url, HTTP_ACCEPT_LANGUAGE=language))
    return fast, full, cut


@pytest.mark.parametrize("language", ["hu", "en"])
@pytest.mark.parametrize(
    ("path", "kind"),
    [("live/?", "live"), ("live/?partial=1&", "live-partial"), ("standings/?", "standings")],
)
@pytest.mark.parametrize("page", [1, 2, 3, 99])  # 99: past the last page, shows the last
def test_a_list_page_cut_from_the_parts_is_the_full_rendering(
    event, monkeypatch, language, path, kind, page
):
    """Issue 22: a page of the live tables or of the standings is the search parts' rows of
    that page between a rendering without rows: the same bytes as rendering every row."""
    monkeypatch.setattr(public, "LIVE_TABLES_PAGE_SIZE", 2)
    monkeypatch.setattr(public, "STANDINGS_PAGE_SIZE", 2)
    base = f"/tournaments/{event.pk}/{path}"
    Client().get(base + "q=kov", HTTP_ACCEPT_LANGUAGE=language)  # a search builds the parts
    assert _parts_built()
    fast, full, cut = _page_bodies(monkeypatch, f"{base}page={page}", language)
    assert cut == [kind]
    assert fast == full
    assert 'class="t-pager' in fast  # paged: 11 entries, 6 tables, 2 per page
    assert "<tr" in fast.split("<tbody>", 1)[1]  # with the page's rows


def test_without_parts_a_list_page_renders_its_rows(event, monkeypatch):
    monkeypatch.setattr(public, "STANDINGS_PAGE_SIZE", 2)
    fast, full, cut = _page_bodies(monkeypatch, f"/tournaments/{event.pk}/standings/?page=2", "hu")
    assert cut == [] and not _parts_built()
    assert fast == full


def test_a_worker_rendering_a_list_page_builds_the_parts_first(event, monkeypatch):
    """A stale page rendered by the worker (``page_cache.rendering_inline``) builds the version's
    parts once, and every later page and search of the version is cut from them."""
    from hkk_tournament.web import page_cache

    monkeypatch.setattr(public, "STANDINGS_PAGE_SIZE", 2)
    url = f"/tournaments/{event.pk}/standings/?page=2"
    with monkeypatch.context() as m:
        m.setattr(find_table, "page_rows", lambda *a, **kw: None)
        full = _body(Client().get(url))
    cache.clear()
    with page_cache.rendering_inline():
        built = _body(Client().get(url))
    assert _parts_built()
    assert built == full


def test_a_page_is_not_cut_from_parts_of_another_version(event, monkeypatch):
    """Older parts may answer a search while new ones are built, never a page: its rows would
    be older than its version."""
    monkeypatch.setattr(public, "STANDINGS_PAGE_SIZE", 2)
    Client().get(f"/tournaments/{event.pk}/standings/?q=kov")
    assert _parts_built()
    (key,) = [k for k in find_table._KEPT if k.startswith("find-parts:standings")]
    find_table._KEPT[key] = dataclasses.replace(find_table._KEPT[key], version="older")
    cache.clear()
    assert find_table.page_rows("standings", event.pk, "newer", number=1, size=2) is None
