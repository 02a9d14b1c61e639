"""In Chromium, under the site's Content Security Policy: a member's page with its charts, the
PDF and Excel downloads from the standings page, and the switch to English."""

import io
from pathlib import Path

import openpyxl
import pytest
from playwright.sync_api import Page, expect

from tests.builders import sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def csp_violations(page: Page) -> list[str]:
    """Messages of anything the Content Security Policy blocked on the page."""
    found: list[str] = []
    page.on(
        "console",
        lambda m: found.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return found


def test_member_page_shows_the_summary_and_both_charts(
    page: Page,
    live_server,
    club,
    csp_violations,
):
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.goto(f"{live_server.url}/members/{club[0].pk}/?period=2025-H2")
    expect(page.get_by_role("heading", level=1)).to_contain_text("青木")
    expect(page.locator("#period-summary")).to_contain_text(
        "2"
    )  # two games (the rating has its own)
    charts = page.locator("#period-charts img")
    expect(charts).to_have_count(2)
    for i in range(2):
        chart = charts.nth(i)
        chart.scroll_into_view_if_needed()
        expect(chart).to_be_visible()
        # The SVG arrived and was drawn: it has a size of its own.
        assert chart.evaluate("img => img.complete && img.naturalWidth > 100")
    assert csp_violations == []


def test_pdf_and_excel_download_from_the_standings(
    page: Page,
    live_server,
    club,
    csp_violations,
):
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.get_by_role("link", name="成績表").click()
    with page.expect_download() as pdf:
        page.get_by_role("link", name="PDF").click()
    assert pdf.value.suggested_filename.endswith(".pdf")
    data = Path(pdf.value.path()).read_bytes()
    assert data.startswith(b"%PDF-") and len(data) > 10_000

    with page.expect_download() as xlsx:
        page.get_by_role("link", name="Excel").click()
    assert xlsx.value.suggested_filename.endswith(".xlsx")
    book = openpyxl.load_workbook(io.BytesIO(Path(xlsx.value.path()).read_bytes()))
    sheet = book.worksheets[0]
    assert [c.value for c in sheet[3]][:4] == ["順位", "氏名", "半荘数", "合計P"]  # under the title
    assert {sheet.cell(row=r, column=2).value for r in range(4, 8)} == {
        "青木",
        "井上",
        "上田",
        "江藤",
    }
    # The busy indicator is gone once the file has arrived.
    expect(page.locator("a[data-download].is-busy")).to_have_count(0)
    assert csp_violations == []


def test_switching_to_english_and_back(page: Page, live_server, club, csp_violations):
    sign_in(page, live_server, "bob", "bob-pass-123")
    expect(page.get_by_role("link", name="成績表")).to_be_visible()
    page.select_option("#language", "en")
    page.get_by_role("button", name="切り替え").click()
    expect(page.get_by_role("link", name="Standings")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("link", name="Standings").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Standings")
    # The choice is kept from page to page, and can be undone.
    page.select_option("#language", "ja")
    page.get_by_role("button", name="Switch").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("成績表")
    assert csp_violations == []
