"""The steps of the whole-event browser test: a ``Person`` driving one browser page (screenshots,
the phone-width check, signing up), and the deck, match and report steps built on it."""

from __future__ import annotations

import re

from playwright.sync_api import Page, ViewportSize, expect

from tests.browser.conftest import DESKTOP, PHONE, Screens

PASSWORD = "Kartyaverseny-2026!"
PHONE_SIZE = ViewportSize(width=PHONE["width"], height=PHONE["height"])
DESKTOP_SIZE = ViewportSize(width=DESKTOP["width"], height=DESKTOP["height"])


class Person:
    """One person (signed in, or an anonymous visitor): a browser page with cookies of its own,
    a screenshot after every page load, and every navigation checked for an error status."""

    def __init__(self, page: Page, screens: Screens, role: str, too_wide: list[str]) -> None:
        self.page = page
        self.screens = screens
        self.role = role
        self.too_wide = too_wide

    def shot(self, step: str) -> None:
        """Screenshot the page. At phone size the page must not scroll sideways (the pages must be
        usable on a 360-px-wide phone; wide tables scroll inside their own box): offenders are
        collected in ``too_wide`` and fail the test at its end, after the whole event ran."""
        self.screens.shot(self.page, f"{self.role}-{step}")
        viewport = self.page.viewport_size
        assert viewport is not None, "the page has no fixed viewport"
        width = viewport["width"]
        if width <= PHONE["width"]:
            overflow = self.page.evaluate(
                """(width) => Array.from(document.querySelectorAll("body *"))
                    .filter((el) => el.getBoundingClientRect().right > width + 1)
                    .filter((el) => !el.closest(".table-wrap"))
                    .map((el) => el.tagName.toLowerCase() + "." + el.className)
                    .slice(0, 5)""",
                width,
            )
            scroll_width = self.page.evaluate("document.documentElement.scrollWidth")
            if scroll_width > width:
                self.too_wide.append(
                    f"{self.screens.paths[-1].name}: {self.page.url} is {scroll_width} px wide "
                    f"at a {width}-px viewport; too wide: {overflow}"
                )

    def phone_shot(self, step: str) -> None:
        """The current page once more at a 360-px phone width."""
        self.page.set_viewport_size(PHONE_SIZE)
        self.shot(f"{step}-phone")
        self.page.set_viewport_size(DESKTOP_SIZE)

    def go(self, path: str, step: str) -> None:
        response = self.page.goto(path)
        assert response is not None and response.ok, f"GET {path}: {response and response.status}"
        self.shot(step)

    def click(self, selector: str, step: str | None = None) -> None:
        """Click a link or submit button that loads a page (POST-redirect-GET included)."""
        with self.page.expect_navigation() as navigation:
            self.page.locator(selector).click()
        response = navigation.value
        assert response is None or response.ok, f"{selector} on {self.page.url}: {response.status}"
        if step:
            self.shot(step)

    def sign_up(self, username: str, last_name: str = "", first_name: str = "") -> None:
        self.go("/accounts/signup/", "signup")
        form = self.page.locator("form[action$='/accounts/signup/']")
        # The real name is required; by default the page shows "<username> Teszt".
        form.locator("#id_last_name").fill(last_name or "Teszt")
        form.locator("#id_first_name").fill(first_name or username)
        form.locator("#id_username").fill(username)
        form.locator("#id_email").fill(f"{username}@example.org")
        form.locator("#id_password1").fill(PASSWORD)
        form.locator("#id_password2").fill(PASSWORD)
        self.click("form[action$='/accounts/signup/'] button[type=submit]")
        expect(self.page.locator("[data-testid=nav-my-events]")).to_be_visible()

    def testid(self, value: str):
        return self.page.locator(f"[data-testid={value}]")


def submit_deck(player: Person, text: str, *, legal: bool) -> None:
    """Type the list into the deck page, wait for the live verdict, submit it."""
    player.testid("deck-text").fill(text)
    expect(player.testid("live-result")).to_have_attribute(
        "data-state", "legal" if legal else "illegal"
    )
    player.shot("deck-live-" + ("legal" if legal else "illegal"))
    player.click("[data-testid=deck-submit]", "deck-stored")
    badge = player.page.locator("[data-testid=submission-A] .badge")
    expect(badge).to_have_class(re.compile(r"\bok\b" if legal else r"\bbad\b"))


def names_at_table(page: Page) -> tuple[str, str]:
    """(A, B) player names from the match page's heading "Table N: a (A) – b (B)"."""
    heading = page.locator("h1").inner_text()
    found = re.search(r":\s*(.+?) \(A\) – (.+?) \(B\)", heading)
    assert found, heading
    return found.group(1), found.group(2)


def play_match(judge: Person, winners: str, step: str, *, waive_first: bool = False) -> None:
    """On the judge's match page: the die roll (A wins it), then one tap per game with the
    winners in order ("a"/"b"), until the match is complete. ``waive_first``: in game 1 the
    right holder (A) waives, and the page must then give the right for game 2 to B."""
    a_name, b_name = names_at_table(judge.page)
    if judge.testid("roll-form").count():
        judge.click("[data-testid=roll-a]")
    plan = list(winners)
    number = 0
    while judge.testid("quick-form").count():
        number += 1
        assert plan, f"{step}: the match is not complete after {number - 1} games"
        expect(judge.testid("quick-form").locator("h2")).to_contain_text(str(number))
        if waive_first and number == 1:
            expect(judge.testid("quick-first")).to_have_text(a_name)
            judge.testid("quick-waived").check()  # the holder waives: the screen switches
            expect(judge.testid("quick-first")).to_have_text(b_name)
            judge.shot(f"{step}-waive-game-1")
        judge.click(f"[data-testid=quick-win-{plan.pop(0)}]")
        if waive_first and number == 1:
            cells = judge.testid("games-table").locator("tbody tr").first.locator("td")
            expect(cells.nth(1)).to_have_text(f"{a_name} (A)")  # held the right
            expect(cells.nth(3)).to_have_text(f"{b_name} (B)")  # went first: A waived
            # Game 2 belongs to the die roll's loser even after a waiver (docs/rules.md §6 (HKK
            # first-player rights)).
            expect(judge.testid("right-holder").locator("strong")).to_have_text(b_name)
            expect(judge.testid("quick-first")).to_have_text(b_name)
            judge.shot(f"{step}-after-waive")
    assert number >= 2, f"{step}: complete after {number} game(s)"
    expect(judge.testid("match-score")).to_be_visible()
    judge.shot(f"{step}-done")


def report_result(player: Person, event: str, games: list[tuple[str, str]], step: str) -> None:
    """The player reports their own match on the pairing page: per game (result, went first),
    each "mine" or "theirs" as the form offers them."""
    player.go(f"{event}my-match/", step)
    player.page.locator("details.report-details > summary").click()  # the optional details
    for n, (result, first) in enumerate(games, start=1):
        player.page.select_option(f"#id_g{n}_result", result)
        player.page.select_option(f"#id_g{n}_first", first)
    player.click("[data-testid=report-submit]", f"{step}-sent")
    expect(player.testid("own-report")).not_to_have_attribute("data-status", "none")
