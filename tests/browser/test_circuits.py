"""Circuits, league gates and player profiles in a real Chromium, in Hungarian.

An organiser creates the HKK preset on /circuits/ (the page says the publisher's formulas are
not public), then a season circuit whose two finished events give Bence 26 points; they open
its standings, its settings, ask for a Kezdő Liga event to join the circuit, and on that
event's page the add-entry form refuses Bence with the translated gate error, while Dóra is
added. The entry's history and the organiser's own profile are shown. Every page has 0
axe-core violations; screenshots go to ``screenshots/browser/``.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.event_steps import Person
from tests.factories import ensure_format
from tests.services.tournaments.circuit_helpers import make_circuit, play_event
from tournaments import services
from tournaments.models import Circuit, Tournament
from tournaments.permissions import SYSTEM
from tournaments.services import circuits as cs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def assert_no_axe_violations(person: Person) -> None:
    results = Axe().run(person.page)
    assert results.violations_count == 0, results.generate_report()


def test_circuit_pages_and_the_league_gate(new_page, screens, seeded_catalogue):
    too_wide: list[str] = []
    org = Person(new_page(), screens, "organiser", too_wide)
    org.sign_up("korrendezo", last_name="Szabó", first_name="Anna")
    owner = get_user_model().objects.get(username="korrendezo")
    game = ensure_format("hkk").game

    org.go("/circuits/", "circuits")
    assert_no_axe_violations(org)
    org.page.select_option("#id_game", str(game.pk))
    org.page.check("#id_hkk_preset")
    org.page.fill("#id_season", "2026")
    org.click("[data-testid=circuit-create] button[type=submit]", "hkk-preset")
    expect(org.testid("formulas-note")).to_be_visible()
    expect(org.testid("leagues")).to_contain_text("Kezdő Liga")
    assert_no_axe_violations(org)

    circuit = make_circuit(owner, game)
    for names, tier in ((["Anna", "Bence", "Csaba", "Dóra"], "local"),):
        t = play_event(owner, names, name="Első verseny")
        cs.circuit_event_request(circuit=circuit, tournament=t, actor=owner, tier=tier)
    t = play_event(owner, ["Bence", "Anna", "Csaba", "Dóra"], name="Második verseny")
    cs.circuit_event_request(circuit=circuit, tournament=t, actor=owner, tier="national")
    cs.league_save(
        circuit=circuit, actor=owner, data=cs.LeagueData(name="Kezdő Liga", max_points=Decimal(20))
    )

    org.go(f"/circuits/{circuit.pk}/", "season-standings")
    first = org.testid("season-row").first
    expect(first).to_contain_text("Bence")
    expect(first).to_contain_text("26")
    assert_no_axe_violations(org)
    org.click("[data-testid=circuit-settings-link]", "circuit-settings")
    expect(org.page.locator("#id_points_text")).to_have_value("4: 10 6 4 2 | 1")
    assert_no_axe_violations(org)

    event = services.tournament_create(owner=owner, name="Kezdő verseny", format_slug="hkk")
    services.tournament_open_registration(actor=SYSTEM, tournament=event)
    org.go(f"/tournaments/{event.pk}/circuits/", "join-circuit")
    assert_no_axe_violations(org)
    org.page.select_option("#id_circuit", str(circuit.pk))
    org.page.fill("#id_tier", "local")
    org.page.select_option("#id_league", label="Kezdő Liga")
    org.click("[data-testid=join-form] button[type=submit]", "join-requested")
    expect(org.testid("event-circuits")).to_contain_text("elfogadva")

    org.go(f"/tournaments/{event.pk}/", "league-event")
    org.page.locator("[data-testid=entry-add-details] summary").click()
    org.page.fill("#id_player_a", "Bence")
    org.click("[data-testid=entry-add]", "gate-refused")
    expect(org.page.locator(".messages")).to_contain_text("nem nevezhet a(z) Kezdő Liga")
    assert_no_axe_violations(org)
    org.page.locator("[data-testid=entry-add-details] summary").click()
    org.page.fill("#id_player_a", "Dóra")
    org.click("[data-testid=entry-add]", "gate-passed")
    entry = Tournament.objects.get(pk=event.pk).entries.get()
    org.click(f"[data-testid=entry-history-{entry.pk}]", "entry-history")
    expect(org.testid("history")).to_contain_text("Első verseny")
    assert_no_axe_violations(org)

    org.go(f"/players/{owner.pk}/", "profile")
    expect(org.page.locator("h1")).to_have_text("Szabó Anna")
    org.click("[data-testid=profile-toggle]", "profile-public")
    assert_no_axe_violations(org)
    assert Circuit.objects.filter(owner=owner).count() == 3
    assert not too_wide, too_wide
