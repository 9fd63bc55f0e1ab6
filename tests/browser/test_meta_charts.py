"""The meta statistics page in a real Chromium with axe-core: the charts render (Chart.js from
our static files, no CSP violation, no script error), the filter works, 0 axe violations, on a
desktop and a phone."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.services.tournaments.meta_helpers import play_event
from tournaments.services.meta import meta_recompute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_meta_page_charts_render(new_page, screens, seeded_catalogue):
    for seed, size in enumerate((6, 5)):
        meta_recompute(tournament_id=play_event(size, seed=seed).pk)
    page = new_page()
    page.goto("/meta/?game=hkk")
    expect(page.get_by_test_id("meta-totals")).to_contain_text("2 verseny, 11 lista")
    charts = page.locator("canvas[data-meta-chart]")
    assert charts.count() >= 3
    expect(page.locator('canvas[data-meta-chart="cards"]')).to_have_attribute(
        "data-rendered", "yes"
    )
    bars = page.evaluate(
        "() => [...document.querySelectorAll('canvas[data-meta-chart]')]"
        ".map(c => Chart.getChart(c).data.labels.length)"
    )
    assert all(n > 0 for n in bars), bars
    drawn = page.evaluate(
        "() => { const c = document.querySelector('canvas[data-meta-chart=cards]');"
        " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        " let n = 0; for (let i = 3; i < d.length; i += 4) { if (d[i]) { n++; } } return n; }"
    )
    assert drawn > 1000, drawn  # pixels painted: bars, axes and labels
    screens.shot(page, "meta-desktop")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()

    page.select_option("#id_format", index=1)
    page.get_by_role("button", name="Mutasd").click()
    expect(page.get_by_test_id("meta-totals")).to_be_visible()

    phone = new_page(viewport=PHONE)
    phone.goto("/meta/?game=hkk")
    expect(phone.locator('canvas[data-meta-chart="cards"]')).to_have_attribute(
        "data-rendered", "yes"
    )
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    screens.shot(phone, "meta-phone")
    assert width <= PHONE["width"] + 1, width
    results = Axe().run(phone)
    assert results.violations_count == 0, results.generate_report()
