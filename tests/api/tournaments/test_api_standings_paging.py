"""``GET /api/tournaments/{id}/standings/``: DRF's paged envelope (``count``, ``next``,
``previous``, ``results``) with ``limit`` / ``offset`` and the ``entry`` and ``q`` filters, the
errors in the project's one shape, one ETag per page (304), the OpenAPI schema, and a cached
answer in a few small queries whatever the field size (docs/rules.md §15 (Match points and
tiebreakers))."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.api.tournaments.helpers import play_round, published_round, url
from tests.factories import make_tournament, store_standings
from tournaments import services
from tournaments.api import exports
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db

SPECIAL = {57: "Kovács Péter", 180: "KOVÁCS Anna", 203: "Szabó Éva"}


def names(count: int) -> list[str]:
    return [SPECIAL.get(i, f"Player {i:04d}") for i in range(1, count + 1)]


def event(rows: int = 250):
    """A public running event whose stored standings have ``rows`` made-up rows."""
    t, _ = make_tournament(entries=2, decks=False)
    services.tournament_set_options(actor=SYSTEM, tournament=t, is_public=True)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    store_standings(t, names(rows))
    return t


def get(t, **params):
    response = Client(HTTP_ACCEPT_LANGUAGE="en").get(url(t, "standings/"), params)
    return response


def body(t, **params) -> dict:
    response = get(t, **params)
    assert response.status_code == 200, response.content
    return response.json()


def ranks(page: dict) -> list[int]:
    return [row["rank"] for row in page["results"]]


def test_the_default_page_is_an_envelope_of_100_rows():
    t = event()
    page = body(t)
    assert set(page) == {"count", "next", "previous", "results"}
    assert page["count"] == 250 and ranks(page) == list(range(1, 101))
    assert page["previous"] is None
    assert (
        page["next"] == f"http://testserver/api/tournaments/{t.pk}/standings/?limit=100&offset=100"
    )
    row = page["results"][0]
    assert set(row) == {
        "rank",
        "entry",
        "name",
        "match_points",
        "game_points",
        "matches_played",
        "dropped",
        "tiebreakers",
    }
    assert row["tiebreakers"][1] == {"code": "game_points", "value": "7/3", "decimal": "2.3333"}


def test_limit_and_offset_walk_the_standings():
    t = event()
    page = body(t, limit=10, offset=20)
    assert ranks(page) == list(range(21, 31))
    base = f"http://testserver/api/tournaments/{t.pk}/standings/"
    assert page["next"] == base + "?limit=10&offset=30"
    assert page["previous"] == base + "?limit=10&offset=10"
    assert body(t, limit=10, offset=5)["previous"] == base + "?limit=10"
    last = body(t, limit=100, offset=200)
    assert ranks(last) == list(range(201, 251)) and last["next"] is None
    assert body(t, offset=400) == {
        "count": 250,
        "next": None,
        "previous": base + "?limit=100&offset=300",
        "results": [],
    }
    # A non-number, zero or negative value falls back to the default (DRF's rule).
    assert ranks(body(t, limit="x", offset=-3)) == list(range(1, 101))


def test_the_limit_is_clamped_to_the_maximum():
    assert (exports.STANDINGS_DEFAULT_LIMIT, exports.STANDINGS_MAX_LIMIT) == (100, 1000)
    t = event(1500)
    page = body(t, limit=5000)
    assert len(page["results"]) == 1000 and page["count"] == 1500
    assert page["next"].endswith("?limit=1000&offset=1000")


def test_entry_gives_that_entrys_row_with_its_rank():
    t = event()
    page = body(t, entry=1_000_180)
    assert page["count"] == 1 and page["results"][0]["name"] == "KOVÁCS Anna"
    assert ranks(page) == [180] and page["next"] is None
    assert body(t, entry=42) == {"count": 0, "next": None, "previous": None, "results": []}


def test_q_finds_names_ignoring_case_and_accents():
    t = event()
    page = body(t, q="kovacs")
    assert ranks(page) == [57, 180]
    assert [r["name"] for r in page["results"]] == ["Kovács Péter", "KOVÁCS Anna"]
    assert ranks(body(t, q="SZABÓ éva")) == [203]
    both = body(t, q="player", limit=50, offset=50)
    assert both["count"] == 247 and len(both["results"]) == 50
    assert "q=player" in both["next"] and "offset=100" in both["next"]
    assert body(t, q="kovacs", entry=1_000_057)["count"] == 1


def test_the_links_are_canonical_whatever_else_the_query_held():
    t = event()
    page = body(t, limit="abc", junk="1", offset=0)
    assert (
        page["next"] == f"http://testserver/api/tournaments/{t.pk}/standings/?limit=100&offset=100"
    )


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"entry": "abc"}, "entry"),
        ({"entry": 0}, "entry"),
        ({"entry": 10**30}, "entry"),
        ({"q": "x" * 101}, "q"),
        ({"q": "a\x00b"}, "q"),
        ({"offset": 1_000_001}, "offset"),
    ],
)
def test_bad_parameters_answer_400_in_the_one_error_shape(params, field):
    t = event(5)
    response = get(t, **params)
    assert response.status_code == 400
    error = response.json()["error"]
    assert set(error) == {"code", "message", "fields", "params"}
    assert error["code"] == "invalid" and field in error["fields"]


def test_an_unknown_event_is_404_in_the_one_error_shape():
    response = Client().get("/api/tournaments/999999/standings/", {"limit": 5})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "tournament_not_found"


def test_each_page_has_its_own_etag_and_answers_304():
    t = event()
    client = Client()
    variants = [{}, {"offset": 100}, {"limit": 10}, {"q": "kovacs"}, {"entry": 1_000_001}]
    tags = [client.get(url(t, "standings/"), p)["ETag"] for p in variants]
    assert len(set(tags)) == len(variants)
    for params, tag in zip(variants, tags, strict=True):
        again = client.get(url(t, "standings/"), params, HTTP_IF_NONE_MATCH=tag)
        assert again.status_code == 304
    other = client.get(url(t, "standings/"), {"offset": 200}, HTTP_IF_NONE_MATCH=tags[1])
    assert other.status_code == 200
    assert "public" in other["Cache-Control"] and "max-age=10" in other["Cache-Control"]
    store_standings(t, names(250))  # a new version, the same rows: the ETag follows the bytes
    assert client.get(url(t, "standings/"), HTTP_IF_NONE_MATCH=tags[0]).status_code == 304
    store_standings(t, names(251))  # other rows: a new ETag
    assert client.get(url(t, "standings/"), HTTP_IF_NONE_MATCH=tags[0]).status_code == 200


@pytest.mark.parametrize("params", [{}, {"offset": 3000, "limit": 1000}, {"q": "kovacs"}])
def test_a_cached_answer_never_loads_the_rows_whatever_the_field(
    params, django_assert_max_num_queries
):
    t = event(4096)
    client = Client()
    with CaptureQueriesContext(connection) as first:
        expected = client.get(url(t, "standings/"), params).content
    assert any('"rows"' in q["sql"] for q in first.captured_queries)
    with django_assert_max_num_queries(6) as cached:
        again = client.get(url(t, "standings/"), params)
    assert again.status_code == 200 and again.content == expected
    assert not any('"rows"' in q["sql"] for q in cached.captured_queries)


def test_without_a_snapshot_the_standings_are_computed_and_paged(api, owner):
    t, rnd = published_round(owner, 5)
    play_round(api, t, rnd)
    from tournaments.models import StandingsSnapshot

    StandingsSnapshot.objects.filter(tournament=t).delete()
    page = Client().get(url(t, "standings/"), {"limit": 2}).json()
    assert page["count"] == 5 and len(page["results"]) == 2
    assert page["next"].endswith("?limit=2&offset=2")
    assert "ETag" not in Client().get(url(t, "standings/"))


def test_the_schema_documents_the_envelope_and_the_parameters():
    schema = Client().get("/api/schema/?format=json").json()
    op = schema["paths"]["/api/tournaments/{tournament_id}/standings/"]["get"]
    params = {p["name"]: p for p in op["parameters"]}
    assert set(params) >= {"limit", "offset", "entry", "q"}
    assert params["limit"]["schema"]["maximum"] == 1000
    assert params["q"]["schema"]["maxLength"] == 100
    ok = op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    envelope = schema["components"]["schemas"][ok.rsplit("/", 1)[-1]]
    assert set(envelope["properties"]) == {"count", "next", "previous", "results"}
    for status in ("400", "404", "default"):
        ref = op["responses"][status]["content"]["application/json"]["schema"]["$ref"]
        assert ref.endswith("/ErrorResponse")
