"""Fixtures for the browser tests: Debian's Chromium driven by Playwright (sync API) against
pytest-django's ``live_server``.

- Chromium comes from the Debian ``chromium`` package (``make browser-deps``), never from
  ``playwright install``. ``PLAYWRIGHT_CHROMIUM`` overrides the path (default
  ``/usr/bin/chromium``). A missing browser FAILS the test with a clear message: skipping would let
  the browser test disappear silently from CI.
- The machine has no internet: the launch flags stop Chromium's own background traffic.
- ``live_server`` makes every test here transactional (the server thread has its own database
  connection), on SQLite and on PostgreSQL alike. A transactional test flushes every table when
  it ends, so an earlier one may have removed the migrations' seed rows and the catalogue:
  ``seeded_catalogue`` replays the seed data migrations (idempotent ``get_or_create``) and asks
  for ``catalogue`` (the real card catalogue, reloaded when missing). ``serialized_rollback``
  is not used: after another transactional test's flush it collides with the content types
  that flush recreated.
- Screenshots of every visited page go to ``screenshots/browser/NNN-step.png`` (git-ignored; the
  README names the folder).
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# Playwright's sync API runs an asyncio event loop in this thread; Django's ORM refuses to run
# "from an async context" unless told that this is deliberate (the test code itself is sync).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = os.environ.get("PLAYWRIGHT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOT_DIR = Path(__file__).resolve().parents[2] / "screenshots" / "browser"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}
TIMEOUT_MS = 15_000


#: Data migrations whose rows the tests need (formats, ban lists, game-start effects).
SEED_MIGRATIONS = (
    "decks.migrations.0002_seed_formats",
    "decks.migrations.0004_seed_game_start_effects",
    "decks.migrations.0008_seed_match_structures",
    "decks.migrations.0010_seed_edition_policies",  # edition policies, HKK coverage partial
)


@pytest.fixture
def seeded_catalogue(request, transactional_db) -> None:
    """The seed rows of the data migrations, then the real card catalogue (``catalogue``), in the
    database the live server reads (both idempotent)."""
    from django.apps import apps

    from decks.selectors.cache import clear_caches

    for name in SEED_MIGRATIONS:
        importlib.import_module(name).seed(apps, None)
    request.getfixturevalue("catalogue")
    clear_caches()


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """One headless Chromium for the session (a Playwright ``Browser``)."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(
            f"Chromium not found at {CHROMIUM}. Install Debian's package with `make browser-deps` "
            "(apt-get install chromium; `make test` does it) or point PLAYWRIGHT_CHROMIUM at a "
            "Chromium binary.",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class Screens:
    """Numbered full-page screenshots: ``shot(page, "step")`` → ``NNN-step.png`` (three digits,
    so the files sort in the order the pages were visited)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0
        self.paths: list[Path] = []

    def shot(self, page, step: str) -> Path:
        self.count += 1
        name = re.sub(r"[^a-z0-9-]+", "-", step.lower()).strip("-")
        path = self.folder / f"{self.count:03d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        self.paths.append(path)
        return path


@pytest.fixture
def screens() -> Screens:
    """A fresh ``screenshots/browser/`` folder for this test's screenshots."""
    shutil.rmtree(SCREENSHOT_DIR, ignore_errors=True)
    SCREENSHOT_DIR.mkdir(parents=True)
    return Screens(SCREENSHOT_DIR)


@pytest.fixture
def new_page(chromium, live_server) -> Iterator[Callable[..., object]]:
    """Factory: ``new_page(viewport=DESKTOP)`` → a Playwright ``Page`` in its own browser
    context (own cookies, i.e. one signed-in person), with ``base_url`` = the live server.

    The pages fail the test on any uncaught JavaScript error (collected in ``page.js_errors``)
    and on any Content-Security-Policy violation the browser reports on its console (collected
    in ``page.csp_errors``), both checked at teardown."""
    contexts = []
    pages = []

    def make(viewport: dict[str, int] | None = None, locale: str = "hu-HU"):
        context = chromium.new_context(
            base_url=live_server.url, viewport=viewport or DESKTOP, locale=locale
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.js_errors = []
        page.csp_errors = []
        page.on("pageerror", lambda exc, page=page: page.js_errors.append(str(exc)))
        page.on("console", lambda msg, page=page: _collect_csp_violation(page, msg))
        pages.append(page)
        return page

    yield make
    errors = [e for p in pages for e in p.js_errors]
    csp_errors = [e for p in pages for e in p.csp_errors]
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the pages: {errors}"
    assert not csp_errors, f"Content-Security-Policy violations on the pages: {csp_errors}"


def _collect_csp_violation(page, message) -> None:
    """Chromium logs every CSP violation as a console error naming the policy."""
    text = message.text
    if message.type == "error" and "Content Security Policy" in text:
        page.csp_errors.append(f"{page.url}: {text}")
