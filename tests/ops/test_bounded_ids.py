"""Ids and numbers beyond their database column: a 404 for a URL, a 400 from the serializer for a
body, never a 500 and never the database's own refusal (``invalid_data``)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from hkk_tournament.web.converters import BIGINT_MAX, INT_MAX, SMALLINT_MAX
from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    owner = UserFactory()
    t, _ = make_tournament(entries=4, decks=False, owner=owner)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    )
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(owner)
    return client, t, rnd.matches.order_by("table").first()


@pytest.mark.parametrize(
    "path",
    [
        f"/api/tournaments/{BIGINT_MAX + 1}/",
        f"/api/tournaments/{10**30}/standings/",
        "/api/tournaments/{t}/rounds/" + str(SMALLINT_MAX + 1) + "/",
        "/api/tournaments/{t}/rounds/1/tables/" + str(10**12) + "/games/",
        "/api/tournaments/{t}/matches/" + str(10**25) + "/",
        "/api/tournaments/{t}/entries/" + str(BIGINT_MAX + 1) + "/decks/",
        "/api/tournaments/{t}/staff/" + str(INT_MAX + 1) + "/",
        "/tournaments/{t}/rounds/" + str(10**9) + "/",
    ],
)
def test_huge_ids_in_urls_are_404(event, path):
    client, t, _ = event
    response = client.get(path.replace("{t}", str(t.pk)))
    assert response.status_code == 404, response.content[:300]


def test_the_largest_id_is_an_ordinary_404(event):
    client, _, _ = event
    assert client.get(f"/api/tournaments/{BIGINT_MAX}/").status_code == 404


@pytest.mark.parametrize(
    ("suffix", "body", "field"),
    [
        ("matches/{m}/die-roll/", {"winner": 10**30}, "winner"),
        ("matches/{m}/games/", {"number": 1, "winner": 10**20, "first": 1}, "winner"),
        ("matches/{m}/games/", {"number": 1, "winner": None, "first": -1}, "first"),
        ("matches/{m}/games/", {"number": 1, "first": 1, "expected_version": 2**40}, "expected_version"),  # noqa: E501
        ("rounds/1/swap/", {"table_x": 1, "table_y": 10**6, "swap": "a"}, "table_y"),
        ("rounds/1/deck-checks/", {"entry": 10**30}, "entry"),
    ],
)  # fmt: skip
def test_out_of_range_numbers_in_bodies_are_400_from_the_serializer(event, suffix, body, field):
    client, t, match = event
    url = f"/api/tournaments/{t.pk}/" + suffix.replace("{m}", str(match.pk))
    response = client.post(url, body, format="json")
    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert error["code"] != "invalid_data"
    assert field in error["fields"]


def test_tournament_settings_are_bounded_by_their_columns(event):
    client, _, _ = event
    response = client.post(
        "/api/tournaments/",
        {"name": "X", "format": "hkk", "late_entry_cutoff_round": 10**6, "scoring": {"a": 10**9}},
        format="json",
    )
    assert response.status_code == 400
    assert {"late_entry_cutoff_round", "scoring.a"} <= set(response.json()["error"]["fields"])
