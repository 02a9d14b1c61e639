"""The text size and contrast the app offers (文字の大きさ: 標準 / 大 / 特大), and the pages at
特大 on a phone: kept across pages and across one member's devices, no page scrolling
sideways, and every control outside a data table's rows 44 px or more (the probe of
manage.py measure_display, shirakaba/devtools/display.py)."""

import pytest
from playwright.sync_api import Browser, Page, expect

from scoring.models import Hanchan, Meet
from shirakaba.devtools.display import PROBE, small_targets
from tests.builders import sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

PHONE = {"width": 390, "height": 844}


def root_font_px(page: Page) -> float:
    return page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")


def choose(page: Page, label: str) -> None:
    page.locator(".display-menu > summary").click()
    page.get_by_role("button", name=label, exact=True).click()


def test_the_chosen_size_holds_across_pages_and_the_member_s_other_device(
    browser: Browser, live_server, club
):
    tablet = browser.new_context(locale="ja-JP", viewport={"width": 1024, "height": 768})
    page = tablet.new_page()
    sign_in(page, live_server, "bob", "bob-pass-123")
    standard = root_font_px(page)
    choose(page, "特大")
    expect(page.locator("html")).to_have_attribute("data-text-size", "xlarge")
    assert root_font_px(page) == pytest.approx(standard * 1.5)
    expect(page.get_by_role("button", name="特大", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    page.wait_for_function("document.documentElement.hasAttribute('data-display-saved')")
    page.goto(f"{live_server.url}/standings/?period=2025-H2")
    assert root_font_px(page) == pytest.approx(standard * 1.5)
    page.reload()
    assert root_font_px(page) == pytest.approx(standard * 1.5)

    # The member's phone, signed in afresh: the same size, from the login, at the first paint.
    phone = browser.new_context(locale="ja-JP", viewport=PHONE)
    other = phone.new_page()
    sign_in(other, live_server, "bob", "bob-pass-123")
    expect(other.locator("html")).to_have_attribute("data-text-size", "xlarge")
    assert other.evaluate("localStorage.getItem('shk-text-size')") == "xlarge"
    # Back to 大 on the phone: the tablet shows 大 once it signs in again.
    choose(other, "大")
    other.wait_for_timeout(300)
    tablet.clear_cookies()
    sign_in(page, live_server, "bob", "bob-pass-123")
    expect(page.locator("html")).to_have_attribute("data-text-size", "large")
    assert root_font_px(page) == pytest.approx(standard * 1.25)
    tablet.close()
    phone.close()


def test_signed_out_the_device_keeps_its_choice_before_the_first_paint(page: Page, live_server):
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/login/")
    choose(page, "特大")
    page.goto(f"{live_server.url}/login/")
    # Set by the head's script before the style sheet: the first paint is at 特大.
    assert page.evaluate("document.documentElement.dataset.textSize") == "xlarge"
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] < 120, header  # one line, not a column
    expect(page.locator(".brand-short")).to_be_visible()


def key_pages(club) -> list[str]:
    meet = Meet.objects.order_by("date").first()
    assert meet is not None
    game = Hanchan.objects.filter(meet=meet).first()
    assert game is not None
    return [
        "/",
        "/standings/?period=2025-H2",
        "/standings/rating/?period=2025-H2",
        f"/members/{club[0].pk}/?period=2025-H2",
        "/awards/?period=2025-H2",
        "/meets/",
        f"/meets/{meet.pk}/",
        f"/games/{game.pk}/",
        "/schedule/",
        "/rules/",
        "/calculator/",
    ]


@pytest.mark.parametrize("size", ["xlarge", "standard"])
def test_key_pages_on_a_phone_hold_at_the_largest_size(browser: Browser, live_server, club, size):
    context = browser.new_context(locale="ja-JP", viewport=PHONE)
    page = context.new_page()
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.evaluate(f"localStorage.setItem('shk-text-size', '{size}')")
    problems = {}
    for path in key_pages(club):
        page.goto(f"{live_server.url}{path}")
        assert page.evaluate("document.documentElement.dataset.textSize") == size
        probe = page.evaluate(PROBE)
        found = []
        if probe["sideways"] > 1:
            found.append(f"scrolls sideways by {probe['sideways']} px")
        found += small_targets(probe, 44)
        found += [f"row link {t}" for t in small_targets(probe, 24, rows=True)]
        if probe["small"]:
            found.append(f"{probe['small']} characters under 16 px: {probe['smallWhere']}")
        if found:
            problems[path] = found
    context.close()
    assert not problems, "\n".join(f"{path}: {found}" for path, found in problems.items())


def test_high_contrast_beside_the_size_is_kept_and_draws_grey_text_black(page: Page, live_server):
    page.goto(f"{live_server.url}/login/")
    page.locator(".display-menu > summary").click()
    page.get_by_role("button", name="高い", exact=True).click()
    expect(page.locator("html")).to_have_attribute("data-contrast", "high")
    page.reload()
    assert page.evaluate("document.documentElement.dataset.contrast") == "high"
    assert (
        page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--muted')")
        == "#000"
    )
