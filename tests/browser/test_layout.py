"""Layout at a tablet in portrait (768×1024) and a phone (390×844): the menu, the header's
height, the standings' first screen and tables that keep all their columns."""

from datetime import date

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from members.models import Member
from members.roles import MEMBER, ORGANIZER, grant
from scoring.models import Hanchan, Meet, PlayerEntry, RuleSet
from tests.builders import sign_in

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
    grant(user, ORGANIZER)
    grant(user, MEMBER)
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


@pytest.fixture
def season(organizer) -> Member:
    """Two meets in October 2025, one game each, 佐藤 和子 (alice) at the table with three
    others; 佐藤 和子 ends 2nd in both."""
    rule = RuleSet.objects.default()
    me = Member.objects.get(user=organizer)
    people = [me] + [
        Member.objects.create(name=n, furigana=f)
        for n, f in [("青木 一郎", "あおき"), ("井上 花子", "いのうえ"), ("上田 三郎", "うえだ")]
    ]
    for day, kind in [(date(2025, 10, 8), "wed"), (date(2025, 10, 22), "wed")]:
        meet = Meet.objects.create(date=day, kind=kind, rule_set=rule)
        scores = [35_000, 40_000, 25_000, 20_000]
        entries = [
            PlayerEntry(m, i, s) for i, (m, s) in enumerate(zip(people, scores, strict=True))
        ]
        Hanchan(meet=meet, table_no=1, round_no=1, rule_set=rule).record(entries)
    return me


def test_a_phone_shows_the_standings_table_on_the_first_screen(page: Page, live_server, season):
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/standings/?period=2025-H2")
    expect(page.locator("select[name=kind]")).to_be_hidden()  # the filters fold away
    own = page.locator("table.standings tbody tr[aria-current=true]")
    expect(own).to_contain_text("佐藤 和子")
    box = page.locator("table.standings").bounding_box()
    assert box is not None and box["y"] + 120 < PHONE["height"]  # its head and first rows
    page.get_by_text("絞り込み").click()
    page.select_option("select[name=kind]", "wed")
    expect(page.locator("select[name=kind]")).to_be_visible()  # still open after the swap
    expect(own).to_contain_text("佐藤 和子")


def test_tablet_keeps_the_filters_open(page: Page, live_server, season):
    page.set_viewport_size(PORTRAIT)
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/standings/?period=2025-H2")
    expect(page.locator("select[name=kind]")).to_be_visible()


def test_no_table_cuts_off_columns_on_a_phone(page: Page, live_server, season):
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "alice", "alice-pass-123")
    game = Hanchan.objects.first()
    for path in [
        f"/members/{season.pk}/?period=2025-H2",
        "/standings/?period=2025-H2",
        f"/games/{game.pk}/",
        f"/meets/{game.meet_id}/",
    ]:
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
        # Every table fits its box, or its box scrolls sideways (.table-scroll).
        cut = page.evaluate(
            """() => [...document.querySelectorAll('table')].filter(t => {
                const box = t.parentElement;
                const scrolls = ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
                return t.offsetWidth > box.clientWidth + 1 && !scrolls;
            }).length"""
        )
        assert cut == 0, path
    page.goto(f"{live_server.url}/members/{season.pk}/?period=2025-H2")
    monthly = page.get_by_role("region", name="月別成績").locator("table")
    fits = monthly.evaluate("t => t.offsetWidth <= t.parentElement.clientWidth")
    assert fits  # all of it, 4位 included, without scrolling
    month = monthly.get_by_role("cell", name="2025年10月")
    height = month.evaluate("c => c.getBoundingClientRect().height")
    line = month.evaluate("c => parseFloat(getComputedStyle(c).lineHeight)")
    assert height < 2 * line  # one line (it wrapped over three)


def test_the_charts_keep_readable_labels_on_a_phone(page: Page, live_server, season):
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/members/{season.pk}/?period=2025-H2")
    for image in page.locator(".charts img").all():
        expect(image).to_be_visible()
        image.evaluate("i => i.decode()")
        shown, drawn = image.evaluate("i => [i.getBoundingClientRect().width, i.naturalWidth]")
        # Drawn at 11 pt (about 15 px) and shown at 85 % or more: labels of 12 px or larger.
        assert shown >= 0.85 * drawn, (shown, drawn)
