"""An unverified deck list is shown as unverified, never as illegal, in a real Chromium.

The HKK catalogue is partial (docs/rules.md §17 (Card data sources and coverage)): a 45-card list
whose one misspelt name (3 copies) the catalogue lacks breaks no checked rule, so its verdict is
"unverified" with 45 cards counted. A player signs up, registers and types the list on the deck
page: the live check (``deck_live.js``) and, after submitting, the stored version show the
unverified badge, its words and the unknown name, and nowhere "Szabálytalan" (illegal). The
organiser's entries table shows the entry as unverified with the name. Every one of these pages
has 0 axe-core violations. The screenshots go to ``screenshots/browser/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.event_steps import Person
from tests.factories import make_tournament
from tournaments.models import DeckSubmission, Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MISSPELT = "Gigaökööl"
EXAMPLES = Path(settings.BASE_DIR) / "examples"


def forty_five_with_a_typo() -> str:
    """``examples/hkk-legal.txt`` cut to 45 cards, "Gigaököl" x 3 misspelt: 42 known + 3."""
    text = (EXAMPLES / "hkk-legal.txt").read_text(encoding="utf-8")
    for line in ("3 Óriáspók\n", "2 Csoda\n", "2 Ongóliant diszkoszvetés\n"):
        assert line in text
        text = text.replace(line, "")
    return text.replace("3 Gigaököl\n", f"3 {MISSPELT}\n")


def assert_no_axe_violations(person: Person) -> None:
    results = Axe().run(person.page)
    assert results.violations_count == 0, results.generate_report()


def assert_not_called_illegal(person: Person) -> None:
    """No badge says illegal and the page does not use the word (Hungarian pages)."""
    expect(person.page.locator("[data-status=illegal]")).to_have_count(0)
    assert "Szabálytalan" not in person.page.inner_text("main")
    assert "szabálytalan" not in person.page.inner_text("main")


def test_unverified_list_is_unverified_on_the_deck_page_and_the_entries_table(
    new_page, screens, seeded_catalogue
):
    too_wide: list[str] = []
    org = Person(new_page(), screens, "organiser", too_wide)
    org.sign_up("szervezo")
    tournament, _entries = make_tournament(
        owner=get_user_model().objects.get(username="szervezo"), format_slug="hkk"
    )
    tid = tournament.pk

    player = Person(new_page(), screens, "player", too_wide)
    player.sign_up("jatekos")
    player.click("[data-testid=nav-my-events]", "my-events")
    player.click(f"[data-testid=register-link-{tid}]", "register")
    player.click("[data-testid=register-submit]", "my-deck")

    # --- live check while typing ----------------------------------------------------------
    player.testid("deck-text").fill(forty_five_with_a_typo())
    live = player.testid("live-result")
    expect(live).to_have_attribute("data-state", "unverified")
    verdict = player.testid("live-verdict")
    expect(verdict).to_have_attribute("data-status", "unverified")
    expect(verdict).to_have_text("Ellenőrizetlen")
    expect(live).to_contain_text("45")  # "Pakli: 45 lap", the unknown line counted
    expect(player.testid("live-unknown-cards")).to_have_text(MISSPELT)
    player.shot("deck-live-unverified")
    assert_not_called_illegal(player)
    assert_no_axe_violations(player)

    # --- the stored version (and the live check of the reloaded page) ----------------------
    player.click("[data-testid=deck-submit]", "deck-stored-unverified")
    stored = player.testid("submission-A")
    expect(stored.locator("[data-testid=submission-verdict]")).to_have_attribute(
        "data-status", "unverified"
    )
    expect(stored.locator("[data-testid=submission-verdict]")).to_have_text("Ellenőrizetlen")
    expect(stored.locator("[data-testid=unknown-cards]")).to_have_text(MISSPELT)
    expect(player.page.locator(".messages")).to_contain_text("ellenőrizetlen")
    expect(player.testid("live-result")).to_have_attribute("data-state", "unverified")
    assert_not_called_illegal(player)
    assert_no_axe_violations(player)
    player.phone_shot("deck-stored-unverified")

    sub = DeckSubmission.objects.get(member__player__user__username="jatekos", is_current=True)
    assert (sub.status, sub.verdict, sub.result["counts"]["main"]) == (
        "unverified",
        "unverified",
        45,
    )

    # --- the organiser's entries table -----------------------------------------------------
    entry = Entry.objects.get(tournament_id=tid, members__player__user__username="jatekos")
    org.go(f"/tournaments/{tid}/", "entries-unverified")
    status = org.testid(f"deck-status-{entry.pk}")
    expect(status).to_have_attribute("data-status", "unverified")
    expect(org.testid(f"unknown-cards-{entry.pk}")).to_contain_text(MISSPELT)
    assert_no_axe_violations(org)

    assert not too_wide, too_wide
