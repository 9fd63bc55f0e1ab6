"""Public reads from the shared cache (``hkk_tournament.web.page_cache``): an anonymous visitor's
pages are stored once per version and served to everyone as the same bytes; while one
process renders a new version the others answer with the previous rendering; ETags follow the
bytes (an unchanged page keeps answering 304 across recomputes); the round page and the round
API are paged with a search by name that reads the round's name index; pages and JSON are
compressed; reads that waited too long are shed with 503 and ``Retry-After``."""

from __future__ import annotations

import gzip
import json
import re
import time

import pytest
from django.core.cache import cache
from django.db.models import Q
from django.http import HttpResponse
from django.test import Client, RequestFactory

from hkk_tournament.web import page_cache, shedding
from tests.factories import make_tournament, publish_first_round, store_standings
from tournaments import selectors, services
from tournaments.api import rounds as rounds_api
from tournaments.models import Entry
from tournaments.pages import public
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def event(monkeypatch):
    """A public event of 12 entries (6 tables) in a published round 1, 2 tables a round page."""
    monkeypatch.setattr(public, "ROUND_TABLES_PAGE_SIZE", 2)
    monkeypatch.setattr(rounds_api, "ROUND_API_PAGE_SIZE", 2)
    t, made = make_tournament(entries=12, decks=False)
    services.tournament_set_options(actor=SYSTEM, tournament=t, is_public=True)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    Entry.objects.filter(pk=made[0].pk).update(
        name="Kovács Péter", family_name="Kovács", given_name="Péter"
    )
    rnd = publish_first_round(t)
    return t, rnd


def _tables(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr id="table-(\d+)">', html)]


def test_an_anonymous_page_is_stored_once_and_is_the_same_bytes_for_every_visitor(event):
    t, _ = event
    url = f"/tournaments/{t.pk}/standings/"
    first, second = Client(), Client()
    a = first.get(url, HTTP_ACCEPT_LANGUAGE="en")
    b = second.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert a.status_code == b.status_code == 200
    assert a["ETag"] == b["ETag"] and a.content == b.content
    # No per-visitor bytes: the language switch carries no CSRF token, no cookie is set.
    assert "csrfmiddlewaretoken" not in a.content.decode()
    assert 'class="lang-switch"' in a.content.decode()
    assert "csrftoken" not in first.cookies and "csrftoken" not in second.cookies
    # The language is part of the key.
    hu = Client().get(url, HTTP_ACCEPT_LANGUAGE="hu")
    assert hu["ETag"] != a["ETag"] and 'lang="hu"' in hu.content.decode()


def test_an_unchanged_page_keeps_its_etag_across_a_recompute(event):
    t, _ = event
    client = Client()
    url = f"/api/tournaments/{t.pk}/standings/"
    tag = client.get(url)["ETag"]
    services.standings_refresh(tournament_id=t.pk)  # a new version, the same rows
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    store_standings(t, ["Someone else"])  # a new version, other rows
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag


def test_the_previous_rendering_is_served_while_another_process_renders_the_new_one():
    rendered: list[str] = []

    def render(text: str):
        def inner() -> HttpResponse:
            rendered.append(text)
            return HttpResponse(text)

        return inner

    request = RequestFactory().get("/x/")
    first = page_cache.shared_response(
        request, key="k", version="v1", render=render("one"), public=True
    )
    assert first.content == b"one"
    cache.add("k:lock", 1, 30)  # another process is rendering v2
    stale = page_cache.shared_response(
        request, key="k", version="v2", render=render("two"), public=True
    )
    assert stale.content == b"one" and rendered == ["one"]
    cache.delete("k:lock")
    fresh = page_cache.shared_response(
        request, key="k", version="v2", render=render("two"), public=True
    )
    assert fresh.content == b"two" and rendered == ["one", "two"]
    # A stored version is served without rendering; a refused render is not stored.
    page_cache.shared_response(request, key="k", version="v2", render=render("x"), public=True)
    assert rendered == ["one", "two"]
    assert page_cache.refresh("k", "v2", render("y")) is False


def test_the_round_page_is_paged_with_a_search_by_name(event):
    t, rnd = event
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    first = client.get(f"/tournaments/{t.pk}/rounds/1/").content.decode()
    assert _tables(first) == [1, 2] and 'data-testid="round-pager"' in first
    assert _tables(client.get(f"/tournaments/{t.pk}/rounds/1/?page=3").content.decode()) == [5, 6]
    kovacs = Entry.objects.get(tournament=t, name="Kovács Péter")
    table = rnd.matches.get(Q(entry_a=kovacs) | Q(entry_b=kovacs)).table
    found = client.get(f"/tournaments/{t.pk}/rounds/1/", {"q": "KOVACS"}).content.decode()
    assert _tables(found) == [table] and 'data-testid="round-search"' in found


def test_the_round_api_is_paged_and_compressed(event):
    t, rnd = event
    client = Client()
    url = f"/api/tournaments/{t.pk}/rounds/1/"
    body = client.get(url, {"page": 2}).json()
    assert [m["table"] for m in body["matches"]] == [3, 4]
    assert (body["count"], body["page"], body["pages"]) == (6, 2, 3)
    assert len(body["by_name"]) == 4
    kovacs = Entry.objects.get(tournament=t, name="Kovács Péter")
    table = rnd.matches.get(Q(entry_a=kovacs) | Q(entry_b=kovacs)).table
    found = client.get(url, {"q": "kovacs"}).json()
    assert [m["table"] for m in found["matches"]] == [table] and found["count"] == 1
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(packed.content))["number"] == 1
    tag = packed["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_ENCODING="gzip").status_code == 304


def test_find_my_table_reads_the_name_index_not_the_names(event, django_assert_max_num_queries):
    t, rnd = event
    index = selectors.round_name_index(round=rnd, rebuild=True)
    assert ("kovacs peter", next(tb for name, tb in index if name == "kovacs peter")) in index
    rnd.tournament = t
    with django_assert_max_num_queries(5):  # count, page, games, names, all tables
        page = selectors.round_tables_page(round=rnd, number=1, size=100, q="Kovács")
    assert [m.a_name for m in page.matches] + [m.b_name for m in page.matches]
    assert any("Kovács Péter" in (m.a_name, m.b_name) for m in page.matches)


def test_a_read_that_waited_too_long_is_shed_with_retry_after(event, settings):
    t, _ = event
    settings.HKK_SHED_AFTER_MS = 500
    old = f"t={time.time() - 2:.3f}"
    client = Client(HTTP_ACCEPT_LANGUAGE="hu")
    page = client.get(f"/tournaments/{t.pk}/live/", HTTP_X_REQUEST_START=old)
    assert page.status_code == 503 and page["Retry-After"] == "5"
    api = client.get(f"/api/tournaments/{t.pk}/standings/", HTTP_X_REQUEST_START=old)
    assert api.status_code == 503 and api.json()["error"]["code"] == "overloaded"
    fresh = f"t={time.time():.3f}"
    assert client.get(f"/tournaments/{t.pk}/live/", HTTP_X_REQUEST_START=fresh).status_code == 200
    # Writes are never shed (here: refused for the anonymous visitor, but not with 503).
    post = client.post(f"/api/tournaments/{t.pk}/rounds/", HTTP_X_REQUEST_START=old)
    assert post.status_code != 503


def test_the_queue_time_header_is_read_in_seconds_milliseconds_and_microseconds():
    now = 1_700_000_010.0
    for raw in ("t=1700000000.0", "1700000000000", "t=1700000000000000"):
        request = RequestFactory().get("/", HTTP_X_REQUEST_START=raw)
        assert shedding.queue_seconds(request, now) == pytest.approx(10.0)
    assert shedding.queue_seconds(RequestFactory().get("/"), now) is None


def test_the_warm_up_renders_the_hot_pages_and_the_name_index(event, monkeypatch):
    from tournaments import tasks

    t, rnd = event
    built: list[int] = []
    real = selectors.round_name_index
    monkeypatch.setattr(
        selectors, "round_name_index", lambda **kw: built.append(kw["round"].pk) or real(**kw)
    )
    rendered = tasks.pages_warm(t.pk)
    assert built == [rnd.pk, rnd.pk]  # Hungarian and English (the names' order differs)
    assert rendered == 4 * 2  # standings, live, its fragment, round 1; Hungarian and English
    for key in (f"page:standings:{t.pk}:1::hu", f"page:live:{t.pk}:1::0:en"):
        assert isinstance(cache.get(key), page_cache.Stored)
