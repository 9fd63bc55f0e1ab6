"""Claim codes in bulk and person names in the language's order, in a real Chromium with
axe-core (issue 21, items 2, 3 and the expired codes).

An organiser adds "Kovács Anna" on the Hungarian desk and "Ubul Új" (given name first) on the
English one: both are stored family first and shown in each page language's order, and the
entries list sorts by family name. On the claim-codes page an expired code is marked expired
with a "New code" button that replaces it; one button makes the codes and e-mails every player
with an address, and the message counts the sent and the skipped. Every page has 0 axe-core
violations.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.event_steps import Person
from tests.factories import make_tournament
from tournaments import services
from tournaments.models import Entry, Player
from tournaments.permissions import SYSTEM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def assert_no_axe_violations(person: Person) -> None:
    results = Axe().run(person.page)
    assert results.violations_count == 0, results.generate_report()


def _add(org: Person, event: str, name: str) -> None:
    org.go(event, "desk")
    org.testid("entry-add-details").locator("summary").click()
    org.page.locator("#id_player_a").fill(name)
    org.click("[data-testid=entry-add]")


def test_names_in_the_languages_order_and_claim_codes_in_bulk(new_page, screens, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    too_wide: list[str] = []
    org = Person(new_page(), screens, "organiser", too_wide)
    org.sign_up("szervezo")
    owner = get_user_model().objects.get(username="szervezo")
    t, _entries = make_tournament(entries=0, decks=False, owner=owner)
    event = f"/tournaments/{t.pk}/"

    # --- names: typed in the page's order, stored family first, shown in the reader's -------
    _add(org, event, "Kovács Anna")
    org.page.context.add_cookies([{"name": "django_language", "value": "en", "url": org.page.url}])
    _add(org, event, "Ubul Új")
    _add(org, event, "Béla Kovács")
    stored = sorted(Entry.objects.filter(tournament=t).values_list("family_name", "given_name"))
    assert stored == [("Kovács", "Anna"), ("Kovács", "Béla"), ("Új", "Ubul")]
    org.go(event, "entries-en")
    rows = org.page.locator("section[aria-labelledby=entries-heading] tbody tr td:first-child")
    got = [x.strip() for x in rows.all_inner_texts()]
    assert got == ["Anna Kovács", "Béla Kovács", "Ubul Új"], got
    assert_no_axe_violations(org)
    org.page.context.add_cookies([{"name": "django_language", "value": "hu", "url": org.page.url}])
    org.go(event, "entries-hu")
    expect(org.page.locator("body")).to_contain_text("Új Ubul")
    expect(org.page.locator("body")).to_contain_text("Kovács Anna")

    # --- claim codes: an expired one is marked, "New code" replaces it -----------------------
    for entry in Entry.objects.filter(tournament=t):
        services.entry_override_deck(actor=SYSTEM, entry=entry, reason="no list yet")
    anna = Entry.objects.get(tournament=t, given_name="Anna")
    old = services.player_claim_code(actor=SYSTEM, entry=anna).claim_code
    Player.objects.filter(claim_code=old).update(
        claim_code_expires_at=timezone.now() - timedelta(days=1)
    )
    Player.objects.filter(memberships__entry=anna).update(email="anna@example.org")
    codes = f"/tournaments/{t.pk}/claim-codes/"
    org.go(codes, "claim-codes-expired")
    expect(org.testid(f"expired-{anna.pk}")).to_be_visible()
    expect(org.testid("expired-count")).to_be_visible()
    assert_no_axe_violations(org)
    org.click(f"[data-testid=reissue-{anna.pk}]", "claim-codes-renewed")
    expect(org.testid(f"expired-{anna.pk}")).to_have_count(0)
    new = Player.objects.get(memberships__entry=anna).claim_code
    assert new != old
    expect(org.testid(f"code-{anna.pk}")).to_have_text(new)

    # --- codes and invitations for everyone in one click -------------------------------------
    org.click("[data-testid=invite-all]", "claim-codes-invited")
    expect(org.page.locator(".message")).to_contain_text(
        "Elküldött meghívók: 1; e-mail-cím nélküli játékosok: 2."
    )
    assert [m.to for m in mail.outbox] == [["anna@example.org"]]
    assert all(
        Player.objects.filter(memberships__tournament=t).values_list("claim_code", flat=True)
    )
    assert_no_axe_violations(org)
    org.phone_shot("claim-codes")
    assert not too_wide, too_wide
