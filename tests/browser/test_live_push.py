"""Live push in a real browser: Chromium on a uvicorn node (Redis channel layer), the changes
made through the services in this process. A player's pairing page shows the new round's own
table within 2 s of the publish without a reload; the projector's clock pauses within 2 s; the
public round page writes a recorded slip's score into its table within 2 s without a reload
(and with no axe-core violation); no JavaScript error and no Content-Security-Policy violation
on any page."""

from __future__ import annotations

import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import TIMEOUT_MS
from tests.factories import UserFactory
from tests.ops.test_live_push import REDIS_URL, _draft, _own, _session_cookie, _start_node
from tournaments import services
from tournaments.permissions import SYSTEM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def node(tmp_path, settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": "hkk"},
        }
    }
    server, port = _start_node(tmp_path)
    yield f"http://127.0.0.1:{port}"
    server.send_signal(signal.SIGTERM)
    try:
        server.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()


def _page(chromium, base: str, cookie: str | None = None):
    context = chromium.new_context(base_url=base, locale="hu-HU")
    context.set_default_timeout(TIMEOUT_MS)
    if cookie:
        name, _, value = cookie.partition("=")
        context.add_cookies([{"name": name, "value": value, "url": base}])
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda exc: page.problems.append(str(exc)))
    page.on(
        "console",
        lambda m: (
            page.problems.append(m.text)
            if m.type == "error" and "Content Security Policy" in m.text
            else None
        ),
    )
    return page


def _service(call, **kwargs):
    """Run a service in a thread of its own: Playwright's event loop runs in the test's thread,
    and the services send their events with ``async_to_sync``, which refuses that thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call, **kwargs).result()


def _live(page) -> None:
    # A selector, not wait_for_function: the page's CSP forbids the eval that one needs.
    page.locator("html[data-push='live']").wait_for(state="attached")


def test_player_sees_new_table_and_projector_clock_pauses_within_two_seconds(chromium, node):
    rnd, made = _draft(entries=6)
    dora = UserFactory()
    _own(made[0], dora)
    tid = rnd.tournament_id
    player = _page(chromium, node, _session_cookie(dora))
    player.goto(f"/tournaments/{tid}/my-match/")
    _live(player)
    assert player.get_by_test_id("push-pairing").is_hidden()

    started = time.monotonic()
    rnd = _service(services.round_publish, actor=SYSTEM, round=rnd)
    banner = player.get_by_test_id("push-pairing")
    banner.wait_for(state="visible", timeout=2000)
    assert time.monotonic() - started < 2.5  # 2 s for the push, the rest for the poll of the check
    match = next(m for m in rnd.matches.all() if made[0].pk in (m.entry_a_id, m.entry_b_id))
    assert f"{match.table}. asztal" in banner.inner_text()
    assert player.get_by_test_id("no-round").count() == 1  # the page was not reloaded

    _service(services.round_clock_start, actor=SYSTEM, round=rnd, minutes=50)
    projector = _page(chromium, node)
    projector.goto(f"/tournaments/{tid}/projector/")
    _live(projector)
    clock = projector.get_by_test_id("round-clock")
    assert clock.get_attribute("data-state") == "running"
    started = time.monotonic()
    _service(services.round_clock_pause, actor=SYSTEM, round=rnd)
    projector.locator("[data-clock][data-state='paused']").first.wait_for(
        state="attached", timeout=2000
    )
    assert time.monotonic() - started < 2.5
    assert player.problems == [] and projector.problems == []
    player.context.close()
    projector.context.close()


def test_round_page_shows_a_recorded_slip_within_two_seconds(chromium, node):
    rnd, _made = _draft(entries=6)
    rnd = _service(services.round_publish, actor=SYSTEM, round=rnd)
    first, second = rnd.matches.filter(entry_b__isnull=False).order_by("table")[:2]
    visitor = _page(chromium, node)
    visitor.goto(f"/tournaments/{rnd.tournament_id}/rounds/{rnd.number}/")
    _live(visitor)
    results = Axe().run(visitor)
    assert results.violations_count == 0, results.generate_report()
    row = visitor.locator(f"#table-{first.table}")
    assert row.locator("[data-games]").inner_text().strip() == "0\u20130"

    started = time.monotonic()
    _service(
        services.match_result_record,
        actor=SYSTEM,
        match=first,
        result="2-1-0",
        die_roll_winner=first.entry_a_id,
    )
    visitor.locator(f"#table-{first.table}[data-pushed-at]").wait_for(
        state="attached", timeout=2000
    )
    assert time.monotonic() - started < 2.5  # 2 s for the push, the rest for the check's poll
    assert row.locator("[data-games]").inner_text() == "2\u20131"
    # The standings recomputed after the slip (eager here) push a new version: the page fetches
    # its table again in the background, and the server's rendering agrees with the push.
    tables = visitor.locator("[data-round-tables][data-refreshed-at]")
    tables.wait_for(state="attached")
    assert row.locator("[data-games]").inner_text() == "2\u20131"
    # A draw, in the page's language (Hungarian).
    _service(
        services.match_result_record,
        actor=SYSTEM,
        match=second,
        result="1-1-1",
        die_roll_winner=second.entry_a_id,
    )
    visitor.locator(f"#table-{second.table}[data-pushed-at]").wait_for(
        state="attached", timeout=2000
    )
    cell = visitor.locator(f"#table-{second.table} [data-games]")
    assert cell.inner_text() == "1\u20131 (1 döntetlen)"
    # Never reloaded: a reload would have dropped the mark of the background fetch.
    assert tables.count() == 1
    assert visitor.problems == []
    visitor.context.close()
