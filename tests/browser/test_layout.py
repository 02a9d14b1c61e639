"""Layout at a tablet in portrait (768×1024) and a phone (390×844): the menu, the header's
height, the standings' first screen and tables that keep all their columns."""

import pytest
from django.contrib.auth.models import Group, User
from playwright.sync_api import Page, expect

from members.models import Member
from members.roles import MEMBER, ORGANIZER
from tests.browser.conftest import sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

PORTRAIT = {"width": 768, "height": 1024}
PHONE = {"width": 390, "height": 844}
MENU = [
    "ホーム",
    "自分の成績",
    "成績表",
    "例会",
    "会員",
    "ルール",
    "取り込み",
    "管理",
    "パスワード",
]


@pytest.fixture
def organizer() -> User:
    """alice, the organizer, whose login is the member 佐藤 和子: the longest menu."""
    user = User.objects.create_user("alice", password="alice-pass-123", is_staff=True)
    user.groups.add(Group.objects.get(name=ORGANIZER), Group.objects.get(name=MEMBER))
    Member.objects.create(name="佐藤 和子", furigana="さとう かずこ", user=user)
    return user


def header_height(page: Page) -> float:
    return page.evaluate("document.querySelector('.site-header').getBoundingClientRect().height")


def test_the_organizers_menu_is_one_row_on_a_tablet_in_portrait(page: Page, live_server, organizer):
    page.set_viewport_size(PORTRAIT)
    sign_in(page, live_server, "alice", "alice-pass-123")
    assert header_height(page) < 200  # it was 908 px, the menu a column one character wide
    menu = page.get_by_role("navigation", name="メインメニュー")
    for name in MENU:
        link = menu.get_by_role("link", name=name, exact=True)
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box is not None
        # No item narrower than its text: the text is on one line (not stacked letter by letter).
        assert box["height"] < 50, name
        assert link.evaluate("a => a.scrollWidth <= a.clientWidth + 1"), name
    expect(page.get_by_role("button", name="ログアウト")).to_be_visible()


def test_the_menu_folds_on_a_phone_and_opens_without_script(page: Page, live_server, organizer):
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "alice", "alice-pass-123")
    assert header_height(page) < 100
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    menu = page.get_by_role("navigation", name="メインメニュー")
    expect(menu.get_by_role("link", name="成績表")).to_be_hidden()
    page.get_by_text("メニュー", exact=True).click()  # a <details>: no script involved
    for name in MENU:
        expect(menu.get_by_role("link", name=name, exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="ログアウト")).to_be_visible()
    menu.get_by_role("link", name="自分の成績").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("佐藤 和子")
