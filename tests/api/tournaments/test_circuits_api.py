"""Circuits API: create, the HKK preset, season standings equal to the hand count, join
requests and decisions with their permissions, player profiles (tournaments/api/circuits.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.factories import UserFactory, ensure_format
from tests.services.tournaments.circuit_helpers import make_circuit, play_event
from tournaments import services
from tournaments.services import circuits as cs

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    owner = UserFactory(username="korrendezo")
    circuit = make_circuit(owner, ensure_format("hkk").game)
    t = play_event(owner, ["Anna", "Bence", "Csaba", "Dóra"], name="Első verseny")
    cs.circuit_event_request(circuit=circuit, tournament=t, actor=owner, tier="local")
    t = play_event(owner, ["Bence", "Anna", "Csaba", "Dóra"], name="Második verseny")
    cs.circuit_event_request(circuit=circuit, tournament=t, actor=owner, tier="national")
    return owner, circuit


def test_standings_api_matches_the_hand_count(season) -> None:
    _owner, circuit = season
    api = APIClient()
    body = api.get(f"/api/circuits/{circuit.pk}/standings/").json()
    # Bence 6 + 2×10 = 26, Anna 10 + 2×6 = 22, Csaba 4 + 2×4 = 12, Dóra 2 + 2×2 = 6
    assert [(r["rank"], r["name"], r["points"]) for r in body["rows"]] == [
        (1, "Bence", "26"),
        (2, "Anna", "22"),
        (3, "Csaba", "12"),
        (4, "Dóra", "6"),
    ]
    assert api.get(f"/api/circuits/{circuit.pk}/").json()["tiers"][1]["multiplier"] == "2"
    assert api.get("/api/circuits/999999/").json()["error"]["code"] == "circuit_not_found"


def test_create_join_and_decide(season) -> None:
    owner, circuit = season
    api = APIClient()
    assert api.post("/api/circuits/", {"game": "hkk", "name": "X"}, format="json").status_code in (
        401,
        403,
    )
    other = get_user_model().objects.create_user(username="masik")
    api.force_authenticate(other)
    made = api.post(
        "/api/circuits/", {"game": "hkk", "hkk_preset": True, "season": "2026"}, format="json"
    )
    assert made.status_code == 201 and made.json()["formulas_unpublished"] is True
    assert [lg["name"] for lg in made.json()["leagues"]] == [
        "Kezdő Liga",
        "Amatőr Liga",
        "Profi Liga",
    ]
    t = services.tournament_create(owner=other, name="Vidéki", format_slug="hkk")
    asked = api.post(
        f"/api/circuits/{circuit.pk}/events/",
        {"tournament": t.pk, "tier": "local"},
        format="json",
    )
    assert asked.status_code == 201 and asked.json()["status"] == "requested"
    link = asked.json()["id"]
    refused = api.post(
        f"/api/circuits/{circuit.pk}/events/{link}/decision/", {"accept": True}, format="json"
    )
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "not_circuit_owner"
    api.force_authenticate(owner)
    done = api.post(
        f"/api/circuits/{circuit.pk}/events/{link}/decision/", {"accept": True}, format="json"
    )
    assert done.json()["status"] == "accepted"


def test_profile_api_respects_privacy() -> None:
    user = get_user_model().objects.create_user(
        username="jatekos", first_name="Péter", last_name="Kovács"
    )
    api = APIClient()
    assert api.get(f"/api/players/{user.pk}/").status_code == 404
    api.force_authenticate(user)
    assert api.get(f"/api/players/{user.pk}/").json()["name"] == "Kovács Péter"
    api.post(f"/api/players/{user.pk}/", {"is_public": True}, format="json")
    api.force_authenticate(None)
    assert api.get(f"/api/players/{user.pk}/").json()["is_public"] is True
