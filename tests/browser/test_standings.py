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


def test_a_phone_shows_the_three_player_figures_beside_the_four_player_ones(
    page: Page, live_server, club
):
    """The meet day's try: on a phone (390×844) the first screen of the standings showed the
    4-player places (1位 2位 3位) and nothing of the 3-player games, 9 of that day's 12. With
    both kinds in the table, each average place, named by its kind, stands beside 合計P, in
    view without scrolling sideways; the 3-player places follow the 4-player ones."""
    from datetime import date

    from scoring.models import Meet, RuleSet
    from tests.builders import CLUB3, play, rule

    aoki, inoue, ueda, _eto = club
    meet = Meet.objects.create(
        date=date(2025, 10, 8), kind="wed", rule_set=RuleSet.objects.default()
    )
    play(meet, 1, 1, rule(CLUB3), [aoki, inoue, ueda], [40_000, 30_000, 20_000])
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.goto(f"{live_server.url}/standings/?period=2025-H2")
    region = page.locator(".table-scroll").bounding_box()
    right = region["x"] + region["width"]
    for heading in ("四人打ち平均順位", "三人打ち平均順位"):
        th = page.locator("table.standings thead th", has_text=heading)
        box = th.bounding_box()
        assert box["x"] >= region["x"] and box["x"] + box["width"] <= right, (heading, box, region)
    # 青木: 4-player 1st and 4th (2.50), 3-player 1st (1.00)
    aoki_row = page.locator("table.standings tbody tr", has_text="青木")
    cells = page.locator("table.standings thead th").all_inner_texts()
    values = aoki_row.locator("th, td").all_inner_texts()
    figures = dict(zip([c.strip() for c in cells], [v.strip() for v in values], strict=True))
    assert figures["四人打ち平均順位"] == "2.50" and figures["三人打ち平均順位"] == "1.00", figures
    page.screenshot(path="/tmp/standings-shots/test-phone-three-player.png")
