"""The desk on event day by keyboard and with late arrivals, in a real Chromium.

- A judge records a round of 8 tables from the slips with the keyboard alone: nothing is
  submitted by a stray Enter on load, after each table the next open table's row has the
  focus, a missing die roll is explained in words. The keystrokes are counted and printed.
- A late no-show (dropped after round 1 was paired, their opponent given the bye) is added
  back from the event page into the bye's seat, with a reason; the actions are counted.
- The top-cut page shows the bracket as a tree of lists with headings; the skip link leads to
  the content; the clock says "time is up" in a live region; after sign-up ``/`` hints at
  creating an event.

Every page touched has 0 axe-core violations. Screenshots go to ``screenshots/browser/``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.event_steps import Person
from tests.factories import make_tournament
from tournaments import services
from tournaments.models import Entry, Game, Match, Round
from tournaments.permissions import SYSTEM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def assert_no_axe_violations(person: Person) -> None:
    results = Axe().run(person.page)
    assert results.violations_count == 0, results.generate_report()


def _focused_testid(person: Person) -> str:
    return person.page.evaluate(
        "() => { const el = document.activeElement;"
        " const id = el && (el.dataset.testid || el.closest('[data-testid]')?.dataset.testid);"
        " return id || ''; }"
    )


def _organiser(new_page, screens, too_wide) -> tuple[Person, object]:
    org = Person(new_page(), screens, "organiser", too_wide)
    org.sign_up("szervezo")
    # After sign-up "/" offers to create an event.
    expect(org.testid("create-event-hint")).to_be_visible()
    assert_no_axe_violations(org)
    return org, get_user_model().objects.get(username="szervezo")


def test_a_round_of_eight_tables_by_keyboard_alone(new_page, screens, seeded_catalogue):
    too_wide: list[str] = []
    org, owner = _organiser(new_page, screens, too_wide)
    t, _ = make_tournament(entries=16, decks=False, owner=owner, format_slug="hkk")
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    url = f"/tournaments/{t.pk}/rounds/{rnd.number}/"
    org.go(url, "round-1")
    page = org.page
    assert_no_axe_violations(org)
    # Nothing is focused on load: a stray Enter submits nothing.
    assert page.evaluate("document.activeElement === document.body")
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert not Game.objects.filter(match__round=rnd).exists() and page.url.endswith(url)

    keys = 0

    def press(key: str) -> None:
        nonlocal keys
        keys += 1
        page.keyboard.press(key)

    # Reach table 1 of the fast entry from the top of the page: the second skip link.
    press("Tab")
    assert _focused_testid(org) == "skip-link"
    press("Tab")
    assert _focused_testid(org) == "skip-results"
    press("Enter")
    while not _focused_testid(org).startswith("roll-a-1") and keys < 80:
        press("Tab")
    to_first_table = keys
    assert _focused_testid(org) == "roll-a-1"
    # A result without the die roll: the error is in words, and table 1 keeps the focus.
    press("Tab")  # past the unchecked radio group to the first result button
    with page.expect_navigation():
        press("Enter")
    message = page.locator(".messages").inner_text()
    assert "die_roll_winner" not in message and "kockadobás" in message.lower(), message
    assert _focused_testid(org) == "fast-row-1"
    org.shot("round-1-roll-missing")
    per_table = []
    for table in range(1, 9):
        before = keys
        assert _focused_testid(org) == f"fast-row-{table}", (table, _focused_testid(org))
        press("Tab")  # the die roll: entry A …
        assert _focused_testid(org) == f"roll-a-{table}"
        press("Space")  # … won it
        press("Tab")  # the first result button (A's best result)
        assert _focused_testid(org).startswith(f"result-{table}-")
        with page.expect_navigation():
            press("Enter")
        per_table.append(keys - before)
    org.shot("round-1-recorded")
    matches = Match.objects.filter(round=rnd)
    assert all(m.games.exists() for m in matches), "every table recorded"
    assert all(m.die_roll_winner_id == m.entry_a_id for m in matches)
    expect(org.testid("fast-row-1")).to_contain_text("·")  # scores shown instead of buttons
    assert_no_axe_violations(org)
    print(
        f"\nkeyboard round of 8 tables: {keys} keystrokes in all "
        f"({to_first_table} keys to reach table 1, 2 for the refused result, "
        f"{per_table} per table), 0 mouse actions"
    )
    assert per_table == [4] * 8 and to_first_table == 4
    assert not too_wide


def test_a_late_no_show_is_added_back_into_the_bye_seat(new_page, screens, seeded_catalogue):
    too_wide: list[str] = []
    org, owner = _organiser(new_page, screens, too_wide)
    t, _ = make_tournament(entries=6, decks=False, owner=owner, format_slug="hkk")
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    match = rnd.matches.order_by("table")[0]
    late: Entry = match.entry_a
    services.entry_drop_with_bye(actor=SYSTEM, entry=late, reason="nem jelent meg")
    org.go(f"/tournaments/{t.pk}/", "event-with-a-no-show")
    assert_no_axe_violations(org)
    actions = 0
    org.click(f"[data-testid=readd-{late.pk}]", "readd-choice")
    actions += 1
    assert_no_axe_violations(org)
    org.page.get_by_label("Leül a folyamatban lévő forduló szabadkörös játékosa ellen").check()
    org.page.get_by_label("Indoklás (rögzítjük)").fill("5 percet késett")
    actions += 2
    org.click("[data-testid=confirm]", "readded")
    actions += 1
    match.refresh_from_db()
    assert match.entry_b_id == late.pk
    assert Entry.objects.get(pk=late.pk).dropped_after_round is None
    assert org.page.url.endswith(f"/rounds/{rnd.number}/")
    assert_no_axe_violations(org)
    print(f"\nre-add a late no-show into the bye seat: {actions} actions")
    assert actions == 4
    assert not too_wide


def test_bracket_tree_skip_link_and_time_is_up(new_page, screens, seeded_catalogue):
    too_wide: list[str] = []
    org, owner = _organiser(new_page, screens, too_wide)
    t, _ = make_tournament(entries=8, decks=False, owner=owner, format_slug="hkk")
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    for m in rnd.matches.all():
        services.match_result_record(
            actor=SYSTEM, match=m, result="3-0-0", die_roll_winner=m.entry_a_id
        )
    services.round_finish(actor=SYSTEM, round=rnd)
    top = services.top_cut_start(actor=SYSTEM, tournament=t, size=4)
    org.go(f"/tournaments/{t.pk}/top-cut/", "bracket")
    tree = org.testid("bracket-tree")
    expect(tree.locator("h3")).to_have_count(2)  # semifinals, final
    expect(tree.locator("h3").nth(0)).to_have_text("Elődöntők")
    expect(tree.locator("h3").nth(1)).to_have_text("Döntő")
    expect(org.testid("bracket-stage-1").locator("li.bracket-match")).to_have_count(2)
    expect(org.testid("bracket-stage-2")).to_contain_text("még nem dőlt el")
    assert_no_axe_violations(org)
    # The skip link is the first Tab stop and leads to the content.
    org.page.keyboard.press("Tab")
    assert _focused_testid(org) == "skip-link"
    org.page.keyboard.press("Enter")
    assert org.page.evaluate("document.activeElement.id") == "main"
    # The round clock runs out while the page is open: the live region says so.
    Round.objects.filter(pk=top.pk).update(
        clock_started_at=timezone.now() - timedelta(minutes=top.clock_minutes, seconds=-3)
    )
    org.go(f"/tournaments/{t.pk}/rounds/{top.number}/", "top-cut-round")
    expect(org.testid("bracket-link")).to_be_visible()
    announce = org.testid("clock-announce")
    expect(announce).to_have_text("")
    expect(announce).to_have_text("lejárt az idő", timeout=10_000)
    assert announce.get_attribute("aria-live") == "assertive"
    assert_no_axe_violations(org)
    assert not too_wide
