"""The public standings and live pages and the standings API read the stored snapshot (never
compute on read once one exists) and support HTTP caching: ``ETag`` from the bytes of the
answer and ``Last-Modified`` from the snapshot, 304 on a conditional GET, ``Cache-Control:
public`` for anonymous readers of a public event (docs/rules.md §15 (Match points and
tiebreakers))."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.factories import make_tournament, publish_first_round, store_standings
from tournaments import services
from tournaments.models import StandingsSnapshot
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    cache.clear()
    t, _ = make_tournament(entries=4, decks=False)
    services.tournament_set_options(actor=SYSTEM, tournament=t, is_public=True)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    publish_first_round(t)
    yield t
    cache.clear()


URLS = [
    "/tournaments/{}/standings/",
    "/tournaments/{}/live/",
    "/tournaments/{}/live/?partial=1",
    "/api/tournaments/{}/standings/",
]


@pytest.mark.parametrize("url", URLS)
def test_snapshot_responses_carry_validators_and_answer_304(client, event, url):
    url = url.format(event.pk)
    first = client.get(url)
    assert first.status_code == 200
    assert first["ETag"] and first["Last-Modified"]
    assert "max-age=10" in first["Cache-Control"]
    # No answer sets a cookie (the language switch has no CSRF token): proxies may keep them.
    assert not first.cookies and "public" in first["Cache-Control"]
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    store_standings(event, ["Someone Else"])  # a new version with other rows: a new ETag
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


@pytest.mark.parametrize("url", URLS)
def test_the_pages_read_the_stored_rows_not_a_recompute(client, event, url):
    snapshot = StandingsSnapshot.objects.get(tournament=event)
    rows = snapshot.rows
    rows[0].update(name="Stored Snapshot Row", family="", given="")  # a team's stored row
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(rows=rows, version=snapshot.version + 1)
    response = client.get(url.format(event.pk))
    assert response.status_code == 200
    assert "Stored Snapshot Row" in response.content.decode()


def test_signed_in_readers_get_private_responses(client, event, django_user_model):
    user = django_user_model.objects.create_user("reader", password="pw-12345678")
    client.force_login(user)
    response = client.get(f"/tournaments/{event.pk}/standings/")
    assert response.status_code == 200
    assert "private" in response["Cache-Control"] and "public" not in response["Cache-Control"]


@pytest.mark.parametrize("url", URLS[:2])
def test_an_answer_that_sets_a_cookie_is_never_public(client, event, url):
    client.get(url.format(event.pk))  # the shared rendering is stored
    for _visit in range(2):
        client.cookies["sessionid"] = "expired-session"  # the answer deletes it: a cookie
        answer = client.get(url.format(event.pk))
        assert "sessionid" in answer.cookies
        assert "private" in answer["Cache-Control"] and "public" not in answer["Cache-Control"]
        assert "max-age=10" in answer["Cache-Control"]
