"""In Chromium, on a tablet and on a phone: a member enters a hand by tapping the tile buttons
of 点数を調べる (the tiles, a pon, the win, the seat, riichi), undoes a wrong tap, and reads the
yaku, the fu and the payment; every tile button is 44 px or more, and no page scrolls sideways.
"""

import os

import pytest
from django.contrib.auth.models import Group, User
from playwright.sync_api import Page, expect

from members.roles import MEMBER, ensure_groups, grant
from tests.builders import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"tablet": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}
SHOTS = os.environ.get("SHIRAKABA_SHOTS")
"""A folder to keep screenshots in while looking at the layout (unset: none are taken)."""


@pytest.fixture
def member(db):
    if not Group.objects.filter(name=MEMBER).exists():
        ensure_groups()
    user = User.objects.create_user("bob", password="bob-pass-123")
    grant(user, MEMBER)
    return user


def tap(page: Page, code: str) -> None:
    with page.expect_navigation():
        page.locator(f'a[data-tile="{code}"]').first.click()


def tap_link(page: Page, name: str) -> None:
    with page.expect_navigation():
        page.get_by_role("link", name=name, exact=True).first.click()


@pytest.mark.parametrize("size", SIZES)
def test_a_hand_entered_by_taps_is_scored(page: Page, live_server, member, size):
    page.set_viewport_size(SIZES[size])
    sign_in(page, live_server, "bob", "bob-pass-123")
    if size == "phone":  # the menu folds away on a phone
        page.locator("details.menu-compact > summary").click()
    tap_link(page, "点数を調べる")
    expect(page.get_by_role("heading", level=1)).to_have_text("点数を調べる")
    sizes = page.eval_on_selector_all(
        ".tile-picker a.tile", "els => els.map(e => [e.offsetWidth, e.offsetHeight])"
    )
    assert len(sizes) == 34
    # 44 px either way on a phone too: five tiles a row there (nine were 37 px wide)
    assert min(w for w, _ in sizes) >= 44 and min(h for _, h in sizes) >= 44, sizes
    # 中 ポン: the mode, then the tile
    tap_link(page, "ポン")
    tap(page, "7z")
    # 一二三萬 四五六筒 七八九索 and a wrong 東, undone, then the pair 五索 五索 (the last wins)
    for code in ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z"):
        tap(page, code)
    expect(page.locator(".tile-count")).to_contain_text("13／14枚")
    tap_link(page, "1枚もどす")
    tap(page, "5s")
    tap(page, "5s")
    expect(page.locator(".tile-count")).to_contain_text("14／14枚")
    answer = page.locator("#answer")
    expect(answer).to_contain_text("役牌 中")
    expect(answer).to_contain_text("1翻")
    expect(answer).to_contain_text("副底")
    expect(answer).to_contain_text("幺九牌の明刻")
    expect(answer).to_contain_text("単騎待ち")
    expect(answer).to_contain_text("30符")
    expect(answer.locator(".calc-headline")).to_contain_text("1,000")
    # ツモ and the seat 東 (the dealer): 500 all
    tap_link(page, "ツモ")
    page.locator(".calc-row.winds").first.get_by_role("link", name="東").click()
    page.wait_for_load_state()
    expect(answer).to_contain_text("+1,500")
    expect(answer.get_by_role("link", name="点数計算表のこのます")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], width
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/hand-check-{size}.png", full_page=False)
        answer.scroll_into_view_if_needed()
        page.screenshot(path=f"{SHOTS}/hand-check-answer-{size}.png")


def test_a_hand_with_no_yaku_is_told_why(page: Page, live_server, member):
    page.set_viewport_size(SIZES["phone"])
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.goto(f"{live_server.url}/hand/?t=1m2m3m4p5p6p7s8s9s2s4s9m9m3s")
    expect(page.locator("#answer")).to_contain_text("和了りではありません")
    expect(page.locator("#answer")).to_contain_text("役がありません")
