"""The public standings and live pages of a big event: the standings in pages of
``STANDINGS_PAGE_SIZE`` rows with page links and a name search (real ranks kept), the live
page's tables in pages with a "find your table" search and only the top of the standings, the
refresh URL keeping the page and the search, one ETag per page and search, and a cached answer
in a few small queries whatever the field size (docs/rules.md §15 (Match points and
tiebreakers))."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.db.models import Q
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import make_tournament, publish_first_round, store_standings
from tournaments import selectors, services
from tournaments.models import Entry, StandingsSnapshot
from tournaments.pages import public
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db

#: Rows of the made-up standings (two full pages and a half).
FIELD = 250
#: Made-up names by rank: the searches below find them.
SPECIAL = {57: "Kovács Péter", 180: "KOVÁCS Anna", 203: "Szabó Éva"}


def names(count: int) -> list[str]:
    return [SPECIAL.get(i, f"Player {i:04d}") for i in range(1, count + 1)]


def public_event(entries: int = 4):
    t, made = make_tournament(entries=entries, decks=False)
    services.tournament_set_options(actor=SYSTEM, tournament=t, is_public=True)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    return t, made


@pytest.fixture
def big():
    """A public running event whose stored standings have ``FIELD`` rows."""
    t, _ = public_event()
    store_standings(t, names(FIELD))
    return t


def standings(t, **params):
    response = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/tournaments/{t.pk}/standings/", params)
    assert response.status_code == 200
    return response


def ranks(html: str, testid: str = "standings") -> list[int]:
    table = html.split(f'data-testid="{testid}"', 1)[1].split("</table>", 1)[0]
    return [int(n) for n in re.findall(r'<td class="num">(\d+)\.</td>', table)]


def page_links(html: str, testid: str) -> list[str]:
    nav = html.split(f'data-testid="{testid}"', 1)[1].split("</nav>", 1)[0]
    return re.findall(r'href="([^"]*)"', nav)


# --- the standings page ---------------------------------------------------------------------


def test_standings_are_paged_with_first_previous_next_last_and_numbers(big):
    assert public.STANDINGS_PAGE_SIZE == 100
    first = standings(big).content.decode()
    assert ranks(first) == list(range(1, 101))
    assert page_links(first, "standings-pager") == ["?page=2", "?page=3", "?page=2", "?page=3"]
    assert 'aria-current="page">1<' in first and "Page 1 of 3" in first

    second = standings(big, page=2).content.decode()
    assert ranks(second) == list(range(101, 201))
    links = page_links(second, "standings-pager")
    assert links == ["?page=1", "?page=1", "?page=1", "?page=3", "?page=3", "?page=3"]
    assert 'rel="prev"' in second and 'rel="next"' in second

    last = standings(big, page=3).content.decode()
    assert ranks(last) == list(range(201, 251))
    assert 'rel="next"' not in last and "Page 3 of 3" in last
    # The CSV and print links stay; a page past the last or a bad number shows a real page.
    assert f"/api/tournaments/{big.pk}/standings.csv" in first
    assert ranks(standings(big, page=999).content.decode()) == list(range(201, 251))
    assert ranks(standings(big, page="x").content.decode()) == list(range(1, 101))
    assert ranks(standings(big, page="-2").content.decode()) == list(range(1, 101))


def test_page_numbers_around_the_current_page(big):
    store_standings(big, names(1000))
    html = standings(big, page=5).content.decode()
    assert page_links(html, "standings-pager") == [
        "?page=1",  # first
        "?page=4",  # previous
        "?page=3",
        "?page=4",
        "?page=6",
        "?page=7",
        "?page=6",  # next
        "?page=10",  # last
    ]
    assert ranks(html) == list(range(401, 501))


def test_find_a_player_ignores_case_and_accents_and_keeps_the_real_rank(big):
    html = standings(big, q="kovacs").content.decode()
    assert ranks(html) == [57, 180]
    assert "Kovács Péter" in html and "KOVÁCS Anna" in html
    assert 'value="kovacs"' in html and "2 entries match “kovacs”." in html
    assert 'data-testid="standings-pager"' not in html
    assert ranks(standings(big, q="  SZABÓ ").content.decode()) == [203]
    none = standings(big, q="nobody").content.decode()
    assert "0 entries match “nobody”." in none and 'data-testid="standings"' not in none


def test_search_results_are_paged_and_the_links_keep_the_search(big):
    html = standings(big, q="player").content.decode()
    assert len(ranks(html)) == 100
    assert "?page=2&amp;q=player" in html and "247 entries match" in html
    second = standings(big, q="player", page=3).content.decode()
    assert ranks(second)[-1] == 250 and len(ranks(second)) == 47


def test_a_small_event_looks_as_before(client):
    t, _ = public_event(entries=4)
    publish_first_round(t)
    html = standings(t).content.decode()
    assert len(ranks(html)) == 4
    assert "t-pager" not in html and 'data-testid="standings-search"' not in html


def test_each_page_and_search_has_its_own_etag_and_304(big):
    client = Client()
    url = f"/tournaments/{big.pk}/standings/"
    tags = {
        key: client.get(url, params)["ETag"]
        for key, params in {
            "1": {},
            "2": {"page": 2},
            "q": {"q": "kovacs"},
            "q2": {"q": "kovacs", "page": 2},
        }.items()
    }
    assert len(set(tags.values())) == 4
    assert client.get(url, {"page": 2}, HTTP_IF_NONE_MATCH=tags["2"]).status_code == 304
    assert client.get(url, {"page": 3}, HTTP_IF_NONE_MATCH=tags["2"]).status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH=tags["2"]).status_code == 200
    again = client.get(url, {"page": 2})
    # The page sets no cookie (the language switch has no CSRF token): shared caches may keep
    # it 10 s too.
    assert "public" in again["Cache-Control"] and "max-age=10" in again["Cache-Control"]
    assert not again.cookies


# --- a cached answer costs a few small queries -------------------------------------------------

CACHED_PAGES = [
    "/tournaments/{}/standings/",
    "/tournaments/{}/standings/?page=7",
    "/tournaments/{}/standings/?q=kovacs",
    "/tournaments/{}/live/",
    "/tournaments/{}/live/?partial=1",
    "/tournaments/{}/live/?partial=1&page=2&q=p",
]


@pytest.mark.parametrize("path", CACHED_PAGES)
def test_a_cached_page_never_loads_the_rows_whatever_the_field(path, django_assert_max_num_queries):
    t, _ = public_event(entries=6)
    services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=3)
    )
    store_standings(t, names(4096))
    url = path.format(t.pk)
    client = Client()
    with CaptureQueriesContext(connection) as first:
        assert client.get(url).status_code == 200
    assert any('"rows"' in q["sql"] for q in first.captured_queries)
    with django_assert_max_num_queries(6) as cached:
        assert client.get(url).status_code == 200
    assert not any('"rows"' in q["sql"] for q in cached.captured_queries)
    etag = client.get(url)["ETag"]
    with django_assert_max_num_queries(4) as revalidated:
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert not any('"rows"' in q["sql"] for q in revalidated.captured_queries)


def test_the_snapshot_is_read_without_its_rows():
    t, _ = public_event()
    store_standings(t, names(10))
    with CaptureQueriesContext(connection) as ctx:
        snapshot = selectors.standings_snapshot(t)
    assert snapshot is not None and '"rows"' not in ctx.captured_queries[0]["sql"]
    assert len(snapshot.rows) == 10  # read on first use
    assert StandingsSnapshot.objects.get(pk=snapshot.pk).version == snapshot.version


# --- the live page ------------------------------------------------------------------------------


@pytest.fixture
def live_event(monkeypatch):
    """A public event of 12 entries (6 tables) in round 1, three tables per live page."""
    monkeypatch.setattr(public, "LIVE_TABLES_PAGE_SIZE", 3)
    monkeypatch.setattr(public, "LIVE_STANDINGS_ROWS", 4)
    t, made = public_event(entries=12)
    for entry, name in zip(made, ["Kovács Péter", "Szabó Éva"], strict=False):
        family, given = name.split()
        Entry.objects.filter(pk=entry.pk).update(name=name, family_name=family, given_name=given)
    rnd = publish_first_round(t)
    return t, rnd


def live(t, **params):
    response = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/tournaments/{t.pk}/live/", params)
    assert response.status_code == 200
    return response.content.decode()


def tables(html: str) -> list[int]:
    body = html.split('data-testid="live-pairings"', 1)[1].split("</table>", 1)[0]
    return [int(n) for n in re.findall(r'<tr><td class="num">(\d+)</td>', body)]


def test_live_tables_are_paged_and_the_refresh_keeps_the_page(live_event):
    t, _ = live_event
    first = live(t)
    assert tables(first) == [1, 2, 3]
    assert f'data-live-url="/tournaments/{t.pk}/live/?partial=1"' in first
    assert page_links(first, "live-pager") == ["?page=2", "?page=2", "?page=2"]
    second = live(t, page=2)
    assert tables(second) == [4, 5, 6]
    assert f'data-live-url="/tournaments/{t.pk}/live/?partial=1&amp;page=2"' in second
    fragment = live(t, partial=1, page=2)
    assert "<html" not in fragment and tables(fragment) == [4, 5, 6]
    assert page_links(fragment, "live-pager")[0] == "?page=1"


def test_find_your_table_by_name(live_event):
    t, rnd = live_event
    kovacs = Entry.objects.get(tournament=t, name="Kovács Péter")
    table = rnd.matches.get(Q(entry_a=kovacs) | Q(entry_b=kovacs))
    html = live(t, q="KOVACS")
    assert tables(html) == [table.table]
    assert 'data-testid="live-search"' in html and 'value="KOVACS"' in html
    assert "1 table has a player whose name contains “KOVACS”." in html
    assert f'data-live-url="/tournaments/{t.pk}/live/?partial=1&amp;q=KOVACS"' in html
    assert tables(live(t, partial=1, q="KOVACS")) == [table.table]
    assert "0 tables have" in live(t, q="nobody")


def test_live_shows_the_top_of_the_standings_with_a_link_to_all(live_event):
    t, _ = live_event
    html = live(t, page=2)
    assert len(ranks(html, "live-standings")) == 4
    assert "The top 4 of 12." in html
    assert f'href="/tournaments/{t.pk}/standings/" data-testid="live-full-standings"' in html


def test_a_small_live_page_has_no_pager_or_search():
    t, _ = public_event(entries=4)
    services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=3)
    )
    html = live(t)
    assert tables(html) == [1, 2]
    assert "t-pager" not in html and 'data-testid="live-search"' not in html
    assert 'data-testid="live-full-standings"' not in html


def test_live_etags_differ_per_page_search_and_fragment(live_event):
    t, _ = live_event
    client = Client()
    url = f"/tournaments/{t.pk}/live/"
    variants = [{}, {"page": 2}, {"q": "szabo"}, {"partial": 1}, {"partial": 1, "page": 2}]
    tags = [client.get(url, params)["ETag"] for params in variants]
    assert len(set(tags)) == len(variants)
    for params, tag in zip(variants, tags, strict=True):
        assert client.get(url, params, HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_a_published_round_page_follows_the_push_and_a_finished_one_does_not(client):
    """The round page of a published round carries the event stream and its results script
    (``round.js``: pushed scores written in place, polling without the stream) over its tables,
    with the draws in the page's language; a finished round's page neither."""
    t, _made = public_event(entries=4)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    )
    body = client.get(f"/tournaments/{t.pk}/rounds/{rnd.number}/").content.decode()
    assert f'data-push-url="/tournaments/{t.pk}/events/"' in body
    assert re.search(r'src="/static/tournaments/round(\.[0-9a-f]+)?\.js"', body)
    region = re.search(r"<div class=\"table-wrap\" data-round-tables[^>]*>", body)
    assert region is not None
    assert f'data-round="{rnd.number}"' in region.group(0)
    assert 'data-draw-one="1 döntetlen"' in region.group(0)
    assert body.count("data-games") == len(rnd.matches.all())
    for m in rnd.matches.filter(entry_b__isnull=False):
        services.match_result_record(
            actor=SYSTEM, match=m, result="2-0-0", die_roll_winner=m.entry_a_id
        )
    services.round_finish(actor=SYSTEM, round=rnd)
    body = client.get(f"/tournaments/{t.pk}/rounds/{rnd.number}/").content.decode()
    assert "data-push-url" not in body and "data-round-tables" not in body
    assert "/static/tournaments/round" not in body
