"""Circuit pages, profiles and the organisers' history of an entry (tournaments/pages/circuits.py),
in Hungarian: the season standings page and CSV, the settings form's errors, the league gate's
error on the organiser's add-entry form, join requests, profile privacy."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from tests.factories import UserFactory, ensure_format
from tests.services.tournaments.circuit_helpers import make_circuit, play_event
from tournaments import services
from tournaments.models import CircuitEvent
from tournaments.permissions import SYSTEM
from tournaments.services import circuits as cs

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    owner = UserFactory(username="korrendezo")
    circuit = make_circuit(owner, ensure_format("hkk").game)
    for names, tier in ((["Anna", "Bence", "Csaba", "Dóra"], "local"),):
        t = play_event(owner, names, name="Első verseny")
        cs.circuit_event_request(circuit=circuit, tournament=t, actor=owner, tier=tier)
    t = play_event(owner, ["Bence", "Anna", "Csaba", "Dóra"], name="Második verseny")
    cs.circuit_event_request(circuit=circuit, tournament=t, actor=owner, tier="national")
    return owner, circuit


def test_season_page_and_csv(client, season) -> None:
    _owner, circuit = season
    page = client.get(f"/circuits/{circuit.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Szezon eredménylista" in html and "Bence" in html
    rows = html.split('data-testid="season-row"')
    assert "<strong>26</strong>" in rows[1]  # Bence: 6 + 2 × 10
    csv = client.get(f"/circuits/{circuit.pk}/standings.csv")
    assert csv["Content-Type"].startswith("text/csv")
    assert csv.content.decode().splitlines()[1].startswith("1,Bence,26,2")


def test_the_gate_error_on_the_add_entry_form(client, season) -> None:
    owner, circuit = season
    league = cs.league_save(
        circuit=circuit, actor=owner, data=cs.LeagueData(name="Kezdő Liga", max_points=Decimal(20))
    )
    t = services.tournament_create(owner=owner, name="Kezdő verseny", format_slug="hkk")
    t = services.tournament_open_registration(actor=SYSTEM, tournament=t)
    cs.circuit_event_request(
        circuit=circuit, tournament=t, actor=owner, tier="local", league=league
    )
    client.force_login(owner)
    page = client.post(
        f"/tournaments/{t.pk}/entries/add/", {"player_a": "Bence", "name": ""}, follow=True
    )
    html = page.content.decode()
    assert "nem nevezhet a(z) Kezdő Liga" in html, html[:3000]
    assert t.entries.count() == 0


def test_settings_errors_and_join_requests(client, season) -> None:
    owner, circuit = season
    client.force_login(owner)
    page = client.post(
        f"/circuits/{circuit.pk}/settings/",
        {"name": "Szezon", "points_text": "négy: 1", "tiers_text": "local 1", "min_events": 0},
    )
    assert page.status_code == 200
    assert "ponttáblázat 1. sora" in page.content.decode()
    other = get_user_model().objects.create_user(username="masik")
    t = services.tournament_create(owner=other, name="Vidéki verseny", format_slug="hkk")
    client.force_login(other)
    page = client.post(
        f"/tournaments/{t.pk}/circuits/", {"circuit": circuit.pk, "tier": "local"}, follow=True
    )
    assert page.status_code == 200
    link = CircuitEvent.objects.get(tournament=t)
    assert link.status == "requested"
    client.force_login(owner)
    client.post(f"/circuits/{circuit.pk}/events/{link.pk}/decide/", {"accept": "1"})
    link.refresh_from_db()
    assert link.status == "accepted"


def test_profile_is_private_until_the_player_chooses(client) -> None:
    user = get_user_model().objects.create_user(
        username="jatekos", first_name="Péter", last_name="Kovács"
    )
    assert client.get(f"/players/{user.pk}/").status_code == 404
    client.force_login(user)
    page = client.get(f"/players/{user.pk}/")
    assert "Kovács Péter" in page.content.decode()  # family name first in Hungarian
    client.post(f"/players/{user.pk}/", {"is_public": "1"})
    client.logout()
    assert client.get(f"/players/{user.pk}/").status_code == 200


def test_season_csv_neutralises_formulas(client) -> None:
    owner = get_user_model().objects.create_user(username="korrendezo2")
    circuit = make_circuit(owner, ensure_format("hkk").game, min_events=0)
    hostile = ['=HYPERLINK("http://x","y")', "+1+2", "@SUM(A1)", "-3"]
    t = play_event(owner, hostile, name="=cmd|' /C calc'!A0")
    cs.circuit_event_request(circuit=circuit, tournament=t, actor=owner, tier="local")
    body = client.get(f"/circuits/{circuit.pk}/standings.csv").content.decode("utf-8-sig")
    cells = [c for row in csv.reader(io.StringIO(body, newline="")) for c in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert '\'=HYPERLINK("http://x","y")' in cells
