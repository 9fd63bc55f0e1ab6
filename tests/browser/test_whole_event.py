"""One whole HKK event driven through the pages in a real Chromium.

An organiser signs up and creates an individual HKK event (3 games per match) from the
dashboard, opens registration and appoints a judge on the staff page; eight players sign up,
register themselves and submit their deck lists on the deck page with live validation (one
illegal list is rejected with its errors on screen, then fixed); the organiser starts the event
and pairs and publishes three rounds; the judge records the results on the one-screen-per-match
page (one game with the first-player right waived, after which the page must give the right for
game 2 to the die roll's loser, docs/rules.md §6 (HKK first-player rights)) and records a random
deck check; a player drops after round 1; in round 3 two players report their match and agree
(it counts), two others disagree and the judge confirms one report; an anonymous visitor sees
the live page refresh by itself and the final standings list all eight entries with their ranks.

Every step goes through the browser (no API or service shortcuts); the database is read only to
check what the pages claim. Each visited page is saved as ``screenshots/browser/NNN-step.png``;
the deck errors, a player's pairing, the judge's tables and match page and the standings are
also taken at a 360-px phone width, where no page may scroll sideways.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.event_steps import Person, play_match, report_result, submit_deck
from tests.factories import hkk_deck
from tournaments.models import Entry, Game, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EVENT = "Őszi HKK kupa"
ORGANISER = "szervezo"
JUDGE = "biro"
PLAYERS = ["anna", "bence", "csilla", "david", "eszter", "ferenc", "gabor", "hanna"]
ILLEGAL_PLAYER = "anna"
DROPPING_PLAYER = "hanna"
ROUNDS = 3
EXAMPLES = Path(settings.BASE_DIR) / "examples"


#: A 2–1 win for the reporting player as player 1 (HKK order: P1, P2, P1 go first), and the
#: same match seen from the other side.
WON_2_1 = [("mine", "mine"), ("theirs", "theirs"), ("mine", "mine")]
LOST_1_2 = [("theirs", "theirs"), ("mine", "mine"), ("theirs", "theirs")]
WON_2_0_CLAIM = [("mine", "theirs"), ("mine", "mine")]


def test_whole_hkk_event_through_the_pages(new_page, screens, seeded_catalogue):
    legal_example = (EXAMPLES / "hkk-legal.txt").read_text(encoding="utf-8")
    illegal_example = (EXAMPLES / "hkk-illegal.txt").read_text(encoding="utf-8")
    decks = {name: hkk_deck(seed=i) for i, name in enumerate(PLAYERS, start=1)}
    decks[ILLEGAL_PLAYER] = legal_example

    # --- the organiser creates the event --------------------------------------------------
    too_wide: list[str] = []
    org = Person(new_page(), screens, "organiser", too_wide)
    org.sign_up(ORGANISER)
    org.click("[data-testid=nav-dashboard]", "dashboard-empty")
    org.click("[data-testid=new-tournament]", "create")
    org.page.fill("#id_name", EVENT)
    org.page.select_option("#id_format", "hkk")
    org.page.fill("#id_games_per_match", "3")
    org.page.fill("#id_planned_rounds", str(ROUNDS))
    org.page.select_option("#id_first_player_policy", "hkk")
    org.shot("create-filled")
    org.click("form[action$='/tournaments/new/'] button[type=submit]", "event-created")
    tid = int(re.search(r"/tournaments/(\d+)/", org.page.url).group(1))
    event = f"/tournaments/{tid}/"
    tournament = Tournament.objects.get(pk=tid)
    assert (tournament.format.slug, tournament.kind, tournament.structure.games_per_match) == (
        "hkk",
        "individual",
        3,
    )
    org.click("[data-testid=open-registration]", "registration-open")
    expect(org.page.locator(".status-registration").first).to_be_visible()
    org.click("[data-testid=nav-dashboard]", "dashboard")
    expect(org.testid(f"dashboard-event-{tid}").locator(".status-registration")).to_be_visible()
    org.click(f"[data-testid=dashboard-event-{tid}] a >> nth=0", "event")

    # --- a judge signs up; the organiser appoints them on the staff page -------------------
    judge = Person(new_page(), screens, "judge", too_wide)
    judge.sign_up(JUDGE)
    org.click("[data-testid=staff-link]", "staff")
    org.page.fill("#id_username", JUDGE)
    org.page.select_option("#id_role", "judge")
    org.click("[data-testid=staff-appoint]", "staff-appointed")
    expect(org.testid(f"staff-{JUDGE}")).to_be_visible()

    # --- eight players sign up, register themselves and submit their lists ----------------
    players: dict[str, Person] = {}
    for name in PLAYERS:
        player = players[name] = Person(new_page(), screens, name, too_wide)
        player.sign_up(name)
        player.click("[data-testid=nav-my-events]", "my-events")
        player.click(f"[data-testid=register-link-{tid}]", "register")
        player.click("[data-testid=register-submit]", "my-deck")
        if name == ILLEGAL_PLAYER:
            submit_deck(player, illegal_example, legal=False)
            errors = player.testid("submission-errors")
            too_small = errors.locator("[data-code=deck_too_small]")
            expect(too_small).to_be_visible()
            expect(too_small).to_contain_text("45")  # the HKK minimum, in any language
            expect(errors.locator("[data-code=too_many_copies]")).to_be_visible()
            # The HKK catalogue is partial: a name it lacks is a warning with a suggestion.
            unknown = player.page.locator(".submission [data-code=card_not_in_catalogue]")
            expect(unknown.first).to_contain_text("Óriás skorpió")
            player.phone_shot("deck-errors")
            # The organiser's registrations show the list as not legal.
            org.go(event, "registrations-with-illegal-list")
            entry = Entry.objects.get(tournament_id=tid, members__player__user__username=name)
            expect(org.testid(f"deck-status-{entry.pk}")).to_have_attribute(
                "data-status", "illegal"
            )
        submit_deck(player, decks[name], legal=True)
        expect(player.testid("submission-errors")).to_have_count(0)

    org.go(event, "registrations-complete")
    statuses = org.page.locator("[data-testid^=deck-status-]")
    expect(statuses).to_have_count(len(PLAYERS))
    expect(org.page.locator("[data-testid^=deck-status-][data-status=legal]")).to_have_count(
        len(PLAYERS)
    )

    # --- start; three rounds paired, published and judged ---------------------------------
    org.click("[data-testid=start]")
    org.click("[data-testid=confirm]", "started")
    anonymous = Person(new_page(), screens, "public", too_wide)
    for number in range(1, ROUNDS + 1):
        org.go(event, f"round-{number}-before-pairing")
        org.click("[data-testid=pair-next]", f"round-{number}-draft")
        expect(org.page.locator("h1 .status-draft")).to_be_visible()
        org.click("[data-testid=publish-round]", f"round-{number}-published")
        expect(org.page.locator("h1 .status-published")).to_be_visible()
        active = len(PLAYERS) - (0 if number == 1 else 1)
        expect(org.page.locator("table.pairings tbody tr")).to_have_count((active + 1) // 2)

        if number == 1:
            # A player's pairing: table, opponent and the right to go first (phone size too).
            player = players[PLAYERS[1]]
            player.click("[data-testid=nav-my-events]", "my-events-running")
            player.click(f"[data-testid=my-match-link-{tid}]", "my-pairing")
            expect(player.testid("my-table")).to_have_text(re.compile(r"^\d+$"))
            expect(player.testid("my-opponent")).not_to_be_empty()
            expect(player.testid("my-right")).not_to_be_empty()
            player.phone_shot("my-pairing")
        if number == ROUNDS:
            # The public live page, refreshing itself while the judge records results.
            anonymous.page.clock.install()
            anonymous.go(f"{event}live/", "live-before-results")
            live_before = anonymous.testid("live-pairings").inner_text()

        if number == ROUNDS:
            # Players report tables 1 and 2 themselves: at table 1 both agree (the result
            # counts), at table 2 they disagree (flagged to the judges, who confirm one report).
            seated = {
                table: [
                    # The pages show the real name family first, "Teszt <username>".
                    org.page.locator(f"#table-{table} td").nth(col).inner_text().split()[-1]
                    for col in (1, 2)
                ]
                for table in (1, 2)
            }
            (a1, b1), (a2, b2) = seated[1], seated[2]
            report_result(players[a1], event, WON_2_1, "report-agree")
            expect(players[a1].testid("report-waiting")).to_be_visible()
            report_result(players[b1], event, LOST_1_2, "report-agree")
            expect(players[b1].testid("report-agreed")).to_be_visible()
            expect(players[b1].testid("my-score")).to_contain_text("2–1")
            report_result(players[a2], event, WON_2_1, "report-dispute")
            report_result(players[b2], event, WON_2_0_CLAIM, "report-dispute")
            expect(players[b2].testid("report-disputed")).to_be_visible()

        # The judge records every table on the one-screen-per-match page.
        # In round 2 the judge works on a phone (judge home and the first table).
        judge_home = f"{event}judge/"
        if number == 2:
            judge.page.set_viewport_size(PHONE)
        if number == 1:
            judge.click("[data-testid=nav-dashboard]", "dashboard")
            judge.click(f"[data-testid=judge-event-{tid}]", "judge-home-round-1")
        else:
            judge.go(judge_home, f"judge-home-round-{number}" + ("-phone" if number == 2 else ""))
        if number == ROUNDS:
            dispute = judge.testid(f"dispute-{number}-2")
            expect(dispute).to_be_visible()
            expect(dispute.locator(".report")).to_have_count(2)
            judge.click(f"[data-testid=dispute-{number}-2] .report >> nth=0 >> button", "confirmed")
            expect(judge.testid("disputes")).to_have_count(0)
            expect(judge.page.locator("li.judge-table.done")).to_have_count(3)  # 1, 2 and the bye
        tables = [
            int(t.get_attribute("data-testid").rsplit("-", 1)[1])
            for t in judge.page.locator(
                "li.judge-table:not(.done) [data-testid^=judge-table-]"
            ).all()
        ]
        # Every match still open (the bye has no result page; players reported 2 in round 3).
        assert len(tables) == active // 2 - (2 if number == ROUNDS else 0), tables
        for i, table in enumerate(tables):
            phone = number == 2 and i == 0
            step = f"r{number}-table-{table}" + ("-phone" if phone else "")
            # From one table to the next with the match page's own navigation.
            link = judge.page.locator(f"nav.match-nav a[href$='/tables/{table}/']")
            if i and link.count():
                judge.click(f"nav.match-nav a[href$='/tables/{table}/']", step)
            else:
                if i:
                    judge.go(judge_home, f"judge-home-round-{number}-{i}")
                judge.click(f"[data-testid=judge-table-{table}]", step)
            winners = ("ab" if (table + number) % 2 else "ba") + "a"
            play_match(judge, winners, step, waive_first=number == 1 and i == 0)
            if phone:
                judge.page.set_viewport_size(DESKTOP)
        judge.go(judge_home, f"judge-home-round-{number}-complete")
        expect(judge.page.locator(".judge-table:not(.done)")).to_have_count(0)
        if number == 1:
            # Deck checks: at least 10 % of the decks picked at random, outcome recorded.
            judge.click("[data-testid=deck-checks-link]", "deck-checks")
            judge.click("[data-testid=deck-checks-pick]", "deck-checks-picked")
            check = judge.page.locator("[data-testid^=deck-check-form-]").first
            check.locator("select[name$=outcome]").select_option("ok")
            check.locator("select[name$=penalty]").select_option("none")
            judge.click("[data-testid^=deck-check-form-] button[type=submit] >> nth=0")
            expect(judge.page.locator("[data-testid^=deck-check-][data-outcome=ok]")).to_have_count(
                1
            )
            judge.shot("deck-check-recorded")

        if number == ROUNDS:
            anonymous.page.clock.fast_forward(31_000)
            expect(anonymous.testid("live-content")).to_have_attribute(
                "data-refreshed-at", re.compile(r".+")
            )
            assert anonymous.testid("live-pairings").inner_text() != live_before
            anonymous.shot("live-refreshed")

        org.go(f"{event}rounds/{number}/", f"round-{number}-results")
        org.click("[data-testid=finish-round]")
        org.click("[data-testid=confirm]", f"round-{number}-finished")
        if number == 1:
            # A player drops between rounds 1 and 2.
            dropping = Entry.objects.get(
                tournament_id=tid, members__player__user__username=DROPPING_PLAYER
            )
            org.go(event, "before-drop")
            org.click(f"[data-testid=drop-{dropping.pk}]")
            org.click("[data-testid=confirm]", "after-drop")
            expect(org.testid(f"entry-{dropping.pk}").locator(".tag")).to_be_visible()

    org.go(event, "before-finish")
    org.click("[data-testid=finish]")
    org.click("[data-testid=confirm]", "finished")

    # --- final standings, as an anonymous visitor sees them -------------------------------
    anonymous.go(f"{event}standings/", "final-standings")
    rows = anonymous.testid("standings").locator("tbody tr")
    expect(rows).to_have_count(len(PLAYERS))
    ranks = [int(r.locator("td").first.inner_text().rstrip(".")) for r in rows.all()]
    assert ranks[0] == 1 and ranks == sorted(ranks), ranks
    # The real name is shown family first ("Teszt <username>"), perhaps with a tag after it.
    shown = {
        next(w for w in r.locator("td").nth(1).inner_text().split() if w != "Teszt")
        for r in rows.all()
    }
    assert shown == set(PLAYERS), shown
    expect(rows.filter(has_text=DROPPING_PLAYER).locator(".tag")).to_be_visible()
    anonymous.phone_shot("final-standings")

    # What the pages showed is what was stored.
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert (
        list(tournament.rounds.order_by("number").values_list("status", flat=True))
        == [Round.Status.FINISHED] * 3
    )
    assert Game.objects.filter(match__round__tournament=tournament, waived=True).count() == 1
    assert Entry.objects.get(pk=dropping.pk).dropped_after_round == 1
    assert not too_wide, "pages wider than a phone:\n" + "\n".join(too_wide)
