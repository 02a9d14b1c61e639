"""A member looks up the standings, switches the period and a filter, and opens a page."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.builders import sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]


def test_member_switches_filters_without_reloading(page: Page, live_server, club):
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.get_by_role("link", name="成績表").click()
    expect(page.locator(".period-label")).to_have_text("2025年度 下期（10月〜3月）")
    table = page.locator("table.standings tbody")
    expect(table.locator("tr")).to_have_count(4)
    # Both meets: 青木 +40 −40 = 0 … every total is 0.0 and the four share 1st place.
    expect(table.locator("tr").first).to_contain_text("0.0")

    page.evaluate("window.__marker = 'same page'")  # survives only if htmx swaps the table
    page.select_option("select[name=kind]", "wed")
    expect(table.locator("tr").first).to_contain_text("青木")
    expect(table.locator("tr").first).to_contain_text("+40.0")
    assert page.evaluate("window.__marker") == "same page"
    expect(page).to_have_url(re.compile(r"kind=wed"))  # the address follows: bookmarkable

    page.get_by_role("link", name="月間").click()
    expect(page.locator(".period-label")).to_have_text("2025年10月")
    page.get_by_role("link", name="青木").click()
    expect(page.locator("h1")).to_contain_text("青木")
    expect(page.locator("#period-summary")).to_contain_text("+40.0")
    chart = page.locator("img[src*='cumulative.svg']")
    expect(chart).to_be_visible()
    page.wait_for_function(
        "() => { const i = document.querySelector(\"img[src*='cumulative.svg']\");"
        " return i.complete && i.naturalWidth > 100; }"
    )


def test_the_download_links_carry_the_period_shown_after_htmx_navigation(
    page: Page, live_server, club
):
    """After ← 前へ (an htmx swap, no reload) the PDF, Excel and CSV links are for the period
    now shown, not the one the page was first drawn for."""
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.goto(f"{live_server.url}/standings/?period=2025-H2")
    page.evaluate("window.__marker = 'same page'")
    page.get_by_role("link", name="前へ").click()
    expect(page.locator(".period-label")).to_have_text("2025年度 上期（4月〜9月）")
    assert page.evaluate("window.__marker") == "same page"
    for label, path in [("PDF", "standings.pdf"), ("Excel", "standings.xlsx")]:
        link = page.locator(".downloads a", has_text=label)
        expect(link).to_have_attribute("href", re.compile(rf"/reports/{path}\?period=2025-H1"))
    csv = page.locator(".downloads a", has_text="CSV")
    expect(csv).to_have_attribute("href", re.compile(r"/reports/games\.csv\?period=2025-H1"))
    page.select_option("select[name=kind]", "sat")
    expect(page.locator(".downloads a", has_text="PDF")).to_have_attribute(
        "href", re.compile(r"period=2025-H1&kind=sat")
    )
