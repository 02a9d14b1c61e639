"""A member on a phone (issue 28): 月間 from the half-year, the home page of a twelve-table
meet, and the standings scrolled sideways."""

from datetime import date

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from members.models import Member
from members.roles import MEMBER, grant
from scoring.models import Meet, RuleSet
from tests.builders import play, sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

PHONE = {"width": 390, "height": 844}
SCORES = [40_000, 35_000, 25_000, 20_000]


@pytest.fixture
def twelve_tables() -> Member:
    """下期 2026 with no meet in October: 2026-11-04 (one table) and 2026-11-18 (twelve
    tables, 48 players). bob is the member 西川 次郎, at table 7 on the 18th and at the only
    table on the 4th."""
    user = User.objects.create_user("bob", password="bob-pass-123")
    grant(user, MEMBER)
    rule = RuleSet.objects.default()
    people = [
        Member.objects.create(name=f"会員 {n:02d}", furigana=f"かいいん {n}") for n in range(48)
    ]
    me = people[26]  # table 7, seat 3
    me.name, me.user = "西川 次郎", user
    me.save()
    first = Meet.objects.create(date=date(2026, 11, 4), kind="wed", rule_set=rule)
    play(first, 1, 1, rule, [me, *people[:3]], SCORES)
    latest = Meet.objects.create(date=date(2026, 11, 18), kind="wed", rule_set=rule)
    for table in range(12):
        play(latest, table + 1, 1, rule, people[table * 4 : table * 4 + 4], SCORES)
    return me


def test_month_from_the_half_year_on_a_phone(page: Page, live_server, twelve_tables):
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.get_by_text("メニュー", exact=True).click()
    page.get_by_role("navigation", name="メインメニュー").get_by_role("link", name="成績表").click()
    expect(page.locator(".period-label")).to_have_text("2026年度 下期（10月〜3月）")
    page.get_by_role("link", name="月間").click()
    expect(page.locator(".period-label")).to_have_text("2026年11月")
    expect(page.get_by_text("この期間の対局はありません。")).to_have_count(0)
    expect(page.locator("table.standings tbody tr")).to_have_count(48)

    # The same from 自分の成績.
    page.get_by_text("メニュー", exact=True).click()
    menu = page.get_by_role("navigation", name="メインメニュー")
    menu.get_by_role("link", name="自分の成績").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("西川 次郎")
    page.get_by_role("link", name="半期").click()
    expect(page.locator(".period-label")).to_have_text("2026年度 下期（10月〜3月）")
    page.get_by_role("link", name="月間").click()
    expect(page.locator(".period-label")).to_have_text("2026年11月")
    expect(page.get_by_text("この期間の対局はありません。")).to_have_count(0)
    expect(page.locator("#period-summary")).to_contain_text("半荘数")


def test_the_rank_and_name_stay_when_the_standings_scroll_sideways(
    page: Page, live_server, twelve_tables
):
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.goto(f"{live_server.url}/standings/?period=2026-H2")
    box = page.get_by_role("region", name="成績表")
    width = box.evaluate("b => b.scrollWidth - b.clientWidth")
    assert width > 200  # the table is wider than the phone: it scrolls
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    assert box.evaluate("b => b.scrollLeft") > 200
    frame = box.bounding_box()
    assert frame is not None
    row = page.locator("table.standings tbody tr").first
    for cell in [
        page.get_by_role("columnheader", name="順位", exact=True),
        page.get_by_role("columnheader", name="氏名", exact=True),
        row.locator("td").first,
        row.locator("th"),
    ]:
        shown = cell.bounding_box()
        assert shown is not None
        # Inside the scrolled box, at its left edge, not scrolled out of it.
        assert frame["x"] - 1 <= shown["x"] < frame["x"] + 200, cell
        assert shown["width"] > 10
    rank, name = row.locator("td").first.bounding_box(), row.locator("th").bounding_box()
    assert rank is not None and name is not None
    assert abs(rank["x"] + rank["width"] - name["x"]) < 2  # side by side, no gap, no overlap
    # What is at those places on the screen is the rank and the name, not a scrolled cell.
    on_top = page.evaluate(
        """([x1, x2, y]) => [document.elementFromPoint(x1, y).closest('td,th').textContent,
                            document.elementFromPoint(x2, y).closest('td,th').textContent]""",
        [rank["x"] + rank["width"] / 2, name["x"] + name["width"] / 2, rank["y"] + 5],
    )
    assert on_top == [row.locator("td").first.text_content(), row.locator("th").text_content()]


def test_the_home_page_on_a_phone_is_the_members_own_game_and_a_fold(
    page: Page, live_server, twelve_tables
):
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "bob", "bob-pass-123")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 1600, height  # was 3,655 px at the club's meet; here over 3,000
    own = page.locator("section.game.own")
    expect(own).to_have_count(1)
    expect(own).to_contain_text("1回戦・7卓")
    expect(own).to_be_in_viewport()  # on the first screen
    expect(own.locator("tr[aria-current=true]")).to_contain_text("西川 次郎")
    others = page.locator("details.other-games")
    expect(others.locator("section.game").first).to_be_hidden()
    page.get_by_text("ほかの卓（11卓）").click()  # a <details>: no script involved
    expect(others.locator("section.game")).to_have_count(11)
    expect(others.locator("section.game").last).to_be_visible()


def test_a_tablet_shows_every_table_of_the_home_page(page: Page, live_server, twelve_tables):
    page.set_viewport_size({"width": 768, "height": 1024})
    sign_in(page, live_server, "bob", "bob-pass-123")
    expect(page.locator("section.game")).to_have_count(12)
    for card in page.locator("section.game").all():
        expect(card).to_be_visible()
    expect(page.get_by_text("ほかの卓（11卓）")).to_be_hidden()
