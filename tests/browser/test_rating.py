"""In Chromium: a member (会員) opens their own page from the menu and sees their rating, R
and its chart, their head-to-head, and the rating table from the standings."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from scoring.models import ClubSettings
from tests.builders import axe_violations, sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]


def test_a_member_sees_their_r_and_its_chart(page: Page, live_server, club):
    """青木: 1st on 10/1 (+30.00, R 1530.00), 4th on 10/4 at a table averaging 1500.00:
    (−30 + (1500.00 − 1530.00) ÷ 40) × 0.998 = −30.75 × 0.998 = −30.6885 → −30.69: 1499.31."""
    aoki = club[0]
    aoki.user = User.objects.get(username="bob")
    aoki.save()
    settings = ClubSettings.load()
    settings.head_to_head_min = 2  # the two games of the fixture
    settings.save()
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.get_by_role("link", name="自分の成績").first.click()
    section = page.locator("#rating")
    section.scroll_into_view_if_needed()
    expect(section.locator(".rating-r")).to_have_text("1499.31")
    expect(section).to_contain_text("2025年10月4日")  # as of
    chart = section.locator("img.rating-chart")
    chart.scroll_into_view_if_needed()
    expect(chart).to_be_visible()
    # The SVG arrived and was drawn: it has a size of its own.
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 100", arg=chart.element_handle(), timeout=10_000
    )
    section.get_by_text("半荘ごとの増減（検算用）").click()
    expect(section).to_contain_text("(−30 + (1500.00 − 1530.00) ÷ 40) × 0.998 = −30.69")
    # Head-to-head: 1st then 4th against the same three, each of them above once, below once.
    pairs = page.locator("section.head-to-head li")
    expect(pairs).to_have_count(3)
    expect(pairs.first).to_contain_text("同卓 2 回・上位 1 回")
    section.get_by_role("link", name="レーティング表").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("レーティング")
    expect(page.locator("table.rating tbody tr")).to_have_count(4)


@pytest.mark.parametrize("width", [1024, 390])
def test_the_rating_pages_have_no_serious_accessibility_violations(
    browser: Browser, live_server, club, width
):
    """axe-core over the rating table and a member's rating section (CSP bypassed to inject
    axe, as in test_accessibility.py)."""
    context = browser.new_context(
        bypass_csp=True, locale="ja-JP", viewport={"width": width, "height": 800}
    )
    page = context.new_page()
    sign_in(page, live_server, "bob", "bob-pass-123")
    found = {}
    for path in ["/standings/rating/?min=2&guests=1", f"/members/{club[0].pk}/"]:
        page.goto(f"{live_server.url}{path}")
        for fold in page.locator("#rating details").all():
            fold.evaluate("d => d.open = true")
        found[path] = axe_violations(page)
    context.close()
    assert {path: v for path, v in found.items() if v} == {}
