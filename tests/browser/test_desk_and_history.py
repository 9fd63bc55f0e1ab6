"""The event page as a desk and the event's history, in a real Chromium with axe-core.

An organiser's event with eight players: the event page shows the desk first (the counts of
registered, checked-in, approved-list and dropped entries and the status actions), then the
entries; the set-up (facts, import, details, options) and the add-entry form are collapsed.
"Drop" is coloured apart from "Undo check-in". On the round page the no-show fix is one
summary away; the drop is recorded with its reason and appears on the history page, linked
from the event page, as does the reopening of the finished event (whose reason the event page
also shows). The rule source on the table page links to its section of the rules page. Stale
controls are gone: no re-roll agreement once the die roll is recorded, no
correction form on a finished event. Every page visited has 0 axe-core violations; the
screenshots go to ``screenshots/browser/``.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.event_steps import Person
from tests.factories import make_tournament
from tests.services.tournaments.helpers import play
from tournaments import services
from tournaments.models import Entry, Round, Tournament, TournamentAction
from tournaments.permissions import SYSTEM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def assert_no_axe_violations(person: Person) -> None:
    results = Axe().run(person.page)
    assert results.violations_count == 0, results.generate_report()


def _top(person: Person, selector: str) -> float:
    """Distance in px from the top of the page to the element (layout, scroll-independent)."""
    return person.page.locator(selector).first.evaluate(
        "el => el.getBoundingClientRect().top + window.scrollY"
    )


def test_desk_layout_and_event_history(new_page, screens, seeded_catalogue, capsys):
    too_wide: list[str] = []
    org = Person(new_page(), screens, "organiser", too_wide)
    org.sign_up("szervezo")
    owner = get_user_model().objects.get(username="szervezo")
    t, entries = make_tournament(entries=8, decks=False, owner=owner)
    for e in entries[:5]:
        services.entry_check_in(actor=SYSTEM, entry=e)
    services.entry_drop(entry=entries[7])
    event = f"/tournaments/{t.pk}/"

    # --- the desk: counts first, entries next, set-up collapsed ------------------------------
    org.go(event, "desk")
    expect(org.testid("count-registered")).to_contain_text("8")
    expect(org.testid("count-checked-in")).to_contain_text("5")
    expect(org.testid("count-lists")).to_contain_text("7")  # overrides, the dropped one aside
    expect(org.testid("count-dropped")).to_contain_text("1")
    expect(org.testid("setup")).not_to_have_attribute("open", "")
    expect(org.page.locator("#id_venue")).to_be_hidden()
    expect(org.page.locator("#id_player_a")).to_be_hidden()
    entries_top = _top(org, "#entries-heading")
    assert entries_top < _top(org, "[data-testid=setup]")
    print(f"content above the entries heading: {entries_top:.0f} px at 1280×900")
    drop_colour = org.testid(f"drop-{entries[5].pk}").evaluate(
        "el => getComputedStyle(el).backgroundColor"
    )
    undo_colour = org.testid(f"check-in-{entries[0].pk}").evaluate(
        "el => getComputedStyle(el).backgroundColor"
    )
    assert drop_colour != undo_colour, (drop_colour, undo_colour)
    assert_no_axe_violations(org)
    org.testid("setup").locator("summary").click()
    expect(org.page.locator("#id_venue")).to_be_visible()
    assert_no_axe_violations(org)
    org.phone_shot("desk")

    # --- the round page: the re-roll offer goes with the roll; the no-show fix -----------------
    t = services.tournament_start(actor=SYSTEM, tournament=Tournament.objects.get(pk=t.pk))
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=2)
    )
    tables = list(rnd.matches.exclude(entry_b=None).order_by("table"))
    first = tables[0]
    match_url = f"{event}rounds/1/tables/{first.table}/"
    org.go(match_url, "table-before-roll")
    expect(org.testid("reroll-agreement-form")).to_be_visible()
    org.click("[data-testid=policy-source]", "rules-page")
    assert org.page.url.endswith("/rules/#s6")
    expect(org.page.locator("#s6")).to_be_in_viewport()
    assert_no_axe_violations(org)
    org.phone_shot("rules-page")
    org.go(match_url, "table-before-roll-again")
    org.click("[data-testid=roll-a]", "table-after-roll")
    expect(org.testid("reroll-agreement-form")).to_have_count(0)
    assert_no_axe_violations(org)

    absent = tables[-1].entry_b
    org.go(f"{event}rounds/1/", "round")
    org.testid("no-show-fix").locator("summary").click()
    assert_no_axe_violations(org)
    org.click(f"[data-testid=no-show-{absent.pk}]", "no-show-confirm")
    org.page.check("input[name=fix][value=bye]")
    org.page.fill("#id_reason", "Nem jelent meg")
    org.click("[data-testid=confirm]", "no-show-bye")
    assert Entry.objects.get(pk=absent.pk).dropped_after_round == 0

    # --- finished: no correction form; reopened with a reason, shown and in the history --------
    for m in Round.objects.get(pk=rnd.pk).matches.exclude(entry_b=None):
        m.refresh_from_db()
        play(m, ["a", "a", "b"])
    services.round_finish(actor=SYSTEM, round=Round.objects.get(pk=rnd.pk))
    services.tournament_finish(actor=SYSTEM, tournament=Tournament.objects.get(pk=t.pk))
    org.go(match_url, "table-finished")
    expect(org.testid("finished-locked")).to_be_visible()
    expect(org.testid("game-form-details")).to_have_count(0)
    expect(org.testid("game-form")).to_have_count(0)
    assert_no_axe_violations(org)
    org.go(event, "finished")
    org.click("[data-testid=reopen]", "reopen-confirm")
    org.page.fill("#id_reason", "Elírt eredmény a 2. asztalnál")
    org.click("[data-testid=confirm]", "reopened")
    expect(org.testid("reopen-reason")).to_contain_text("Elírt eredmény a 2. asztalnál")
    assert_no_axe_violations(org)

    org.click("[data-testid=history-link]", "history")
    expect(org.testid("history-reopened")).to_contain_text("Elírt eredmény a 2. asztalnál")
    expect(org.testid("history-drop_bye")).to_contain_text("Nem jelent meg")
    expect(org.testid("history-drop_bye")).to_contain_text("szervezo")
    assert TournamentAction.objects.filter(tournament_id=t.pk).count() == 2
    assert_no_axe_violations(org)
    org.phone_shot("history")
    assert not too_wide, "\n".join(too_wide)
