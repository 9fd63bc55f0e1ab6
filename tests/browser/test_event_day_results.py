"""Event day, results and judge side, in a real Chromium: the round clock (organiser starts it;
every page and the full-screen projector view count down from the server's values under the
strict Content-Security-Policy), a player's one-choice report, the fast result rows of the
round page (2–0 / 2–1 … buttons, a no-show), a judge's entry superseding the player's report,
a table extension and a penalty, and a top 4 after the Swiss round.

The event's set-up (people, entries, round 1) uses the services; every event-day action goes
through the pages. Clicks per common task are counted and printed (before: the per-table match
page; after: the round page's result rows)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.event_steps import Person
from tests.factories import make_tournament
from tournaments import selectors, services
from tournaments.models import Match, Penalty, ResultReport, Round
from tournaments.permissions import SYSTEM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _user(name: str):
    return get_user_model().objects.get(username=name)


def test_event_day_results_through_the_pages(new_page, screens, seeded_catalogue):
    too_wide: list[str] = []
    org = Person(new_page(), screens, "day-organiser", too_wide)
    org.sign_up("napszervezo")
    judge = Person(new_page(), screens, "day-judge", too_wide)
    judge.sign_up("napbiro")
    anna = Person(new_page(), screens, "day-anna", too_wide)
    anna.sign_up("napanna")

    t, _ = make_tournament(entries=7, decks=False, owner=_user("napszervezo"))
    mine = services.entry_self_register(tournament=t, user=_user("napanna"))
    services.entry_override_deck(actor=SYSTEM, entry=mine, reason="browser test without lists")
    services.staff_appoint(actor=SYSTEM, tournament=t, user=_user("napbiro"), role="judge")
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=11)
    )
    event = f"/tournaments/{t.pk}/"
    round_page = f"{event}rounds/1/"

    # --- 1. the round clock ---------------------------------------------------------------
    org.go(round_page, "round")
    org.page.locator("form.clock-controls input[name=minutes]").fill("40")
    org.click("[data-testid=clock-start]", "clock-started")
    display = org.testid("clock-display")
    expect(display).to_have_text(re.compile(r"^(40:00|39:\d\d)$"))
    first = display.inner_text()
    org.page.wait_for_timeout(2200)
    assert display.inner_text() != first, "the clock counts down in the browser"
    expect(org.testid("clock-end")).to_be_visible()  # the no-JS fallback: the end time
    wall = Person(new_page(), screens, "day-wall", too_wide)
    wall.go(f"{round_page}projector/", "projector")
    expect(wall.testid("projector-pairings").locator("tbody tr")).to_have_count(8)
    expect(wall.testid("clock-display")).to_have_text(re.compile(r"^(40:00|39:\d\d)$"))
    expect(wall.testid("fullscreen")).to_contain_text("Teljes képernyő")
    expect(wall.testid("projector-qr").locator("svg")).to_be_visible()
    wall.page.set_viewport_size({"width": 1920, "height": 1080})
    size = wall.page.eval_on_selector(
        "[data-testid=projector-pairings] td", "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    print(f"projector pairings text at 1920 px: {size} px")
    assert size >= 32, size  # read from the back of the room (was 18 px)

    # --- 2. a player's one-choice report ---------------------------------------------------
    anna.go(f"{event}my-match/", "my-match")
    expect(anna.testid("round-clock")).to_be_visible()
    m_anna = selectors.match_of_entry(round=rnd, entry=mine)
    assert m_anna is not None
    anna_is_a = m_anna.entry_a_id == mine.pk
    anna.page.locator(
        "input[name=summary][value='%s']" % ("3-0-0" if anna_is_a else "0-3-0")
    ).check()
    anna.page.locator("input[name=die_roll][value=mine]").check()
    anna.click("[data-testid=report-submit-summary]", "reported")
    expect(anna.testid("own-report")).to_have_attribute("data-status", "pending")

    # --- 3. the judge enters the slips on the round page: 4 tables ----------------------
    judge.go(round_page, "round")
    expect(judge.testid("fast-results")).to_be_visible()
    tables = list(rnd.matches.order_by("table"))
    no_show = next(m for m in tables if m.pk != m_anna.pk)
    clicks = 0
    for m in tables:
        if m.pk == no_show.pk:
            judge.click(f"[data-testid=result-{m.table}-no_show_b]", f"table-{m.table}")
            clicks += 1
            continue
        judge.page.locator(f"[data-testid=roll-a-{m.table}]").check()
        code = "2-1-0" if m.pk == m_anna.pk else "3-0-0"
        judge.click(f"[data-testid=result-{m.table}-{code}]", f"table-{m.table}")
        clicks += 2
    print(f"\nclicks to record a round of 4 tables: before ~20 (match page), after {clicks}")
    print("clicks to fix a no-show: before ~5 (match page: open, roll, 3 games), after 1")
    assert clicks <= 8
    for m in Match.objects.filter(round=rnd):
        assert selectors.match_score(m).complete, m.table
    no_show_score = selectors.match_score(Match.objects.get(pk=no_show.pk))
    assert no_show_score.points[no_show.entry_a_id] == t.match_win_points

    # --- 4. the judge's entry superseded Anna's report; she sees the final result ---------
    assert ResultReport.objects.get(match=m_anna, entry=mine).status == "superseded"
    anna.go(f"{event}my-match/", "final-result")
    expect(anna.testid("final-result")).to_be_visible()
    expect(anna.testid("own-report")).to_have_attribute("data-status", "none")

    # --- 5. a table extension and a penalty ------------------------------------------------
    judge.go(f"{round_page}tables/{m_anna.table}/", "table")
    judge.page.locator("form.clock-controls input[name=minutes]").fill("3")
    judge.click("[data-testid=table-extend]", "table-extended")
    assert Match.objects.get(pk=m_anna.pk).extension_seconds == 180
    judge.go(f"{event}penalties/", "penalties")
    judge.page.select_option("#id_entry", str(no_show.entry_b_id))
    judge.page.select_option("#id_category", "tardiness")
    judge.page.select_option("#id_kind", "match_loss")
    judge.page.fill("#id_notes", "nem jelent meg")
    judge.click("[data-testid=penalty-submit]", "penalty-recorded")
    expect(judge.testid("penalty-log")).to_contain_text("késés")
    assert Penalty.objects.filter(tournament=t, kind="match_loss").count() == 1

    # --- 6. finish the round; top 4 ---------------------------------------------------------
    org.go(round_page, "round-done")
    org.click("[data-testid=finish-round]", "finish-round-confirm")  # a confirmation page
    org.click("[data-testid=confirm]", "round-finished")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.FINISHED
    org.go(f"{event}top-cut/", "top-cut")
    org.page.select_option("#id_size", "4")
    org.click("[data-testid=top-cut-start]", "top-cut-started")
    expect(org.testid("bracket-round-1").locator("tbody tr")).to_have_count(2)
    top = Round.objects.get(tournament=t, stage=Round.Stage.TOP_CUT)
    assert all(m.die_roll_winner_id == m.entry_a_id for m in top.matches.all())
    assert not too_wide, too_wide
