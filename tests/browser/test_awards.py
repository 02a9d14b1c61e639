"""In Chromium: the organizer opens the awards page and prints a winner's certificate (賞状).

The club of tests/browser/conftest.py: two games in 2025 下期 where 青木, 井上, 上田 and 江藤
each end at 0.0 P (+40 −40, +15 −15, −15 +15, −40 +40): 最高ポイント賞 is a tie of four."""

import io

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from tests.builders import axe_violations, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser_context_args(browser_context_args):
    """As tests/browser/conftest.py's, and with the CSP bypassed for axe's inline script."""
    return {**browser_context_args, "bypass_csp": True}


def test_the_organizer_prints_a_certificate(page: Page, live_server, club, alice):
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/awards/?period=2025-H2")
    award = page.locator("tbody", has_text="最高ポイント賞")
    expect(award).to_contain_text("同点 4 名")
    links = award.get_by_role("link", name="賞状 PDF")
    expect(links).to_have_count(4)
    assert axe_violations(page) == []
    response = page.request.get(live_server.url + links.first.get_attribute("href"))
    assert response.status == 200
    assert response.headers["content-type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages)
    for word in ("賞", "状", "青", "木", "殿"):
        assert word in text
    page.goto(f"{live_server.url}/awards/edit/?period=2025-H2")
    expect(page.get_by_role("button", name="賞を贈る")).to_be_visible()
    assert axe_violations(page) == []
