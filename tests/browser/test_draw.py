"""The table draw on a tablet: 13 present, the organizer draws all rounds on the meet page,
opens a drawn table of three (its players filled in, the 3-player rules chosen), enters it,
and the board shows the draw in big type at 768×1024, without serious accessibility
violations."""

from datetime import date

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from members.models import Member
from members.roles import ORGANIZER, grant
from scoring.meet_draw import make_draw, save_draw, stored_draw
from scoring.models import Hanchan, Meet, RuleSet
from tests.builders import axe_violations, sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def meet13():
    user = User.objects.create_user("alice", password="alice-pass-123", is_staff=True)
    grant(user, ORGANIZER)
    meet = Meet.objects.create(
        date=date(2025, 5, 14), kind="wed", rule_set=RuleSet.objects.default()
    )
    meet.attendees.set(
        [
            Member.objects.create(name=f"会員 {i:02d}", furigana=f"かいいん {i:02d}")
            for i in range(13)
        ]
    )
    return meet


def test_a_drawn_table_of_three_is_entered_from_the_draw(page: Page, live_server, meet13):
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/meets/{meet13.pk}/")
    page.get_by_role("button", name="全回戦の卓組みをする").click()
    expect(page.locator(".message")).to_contain_text("全回戦の卓組みをしました")
    drawn = stored_draw(meet13)
    assert drawn is not None
    three = next(t for t in drawn.rounds[0].tables if len(t.players) == 3)
    cell = page.locator(".game.drawn").nth(three.table_no - 1)
    for member in three.players:
        expect(cell).to_contain_text(member.name)

    cell.get_by_role("link", name="この半荘を入力").click()
    for seat, member in enumerate(three.players):
        expect(page.locator(f"#id_seat-{seat}-player")).to_have_value(member.name)
    expect(page.locator("#id_seat-3-player")).to_have_value("")
    expect(page.locator("#id_rule_set option:checked")).to_have_text("白樺会 三人打ち")
    page.fill("#id_seat-0-score", "40000")
    page.fill("#id_seat-1-score", "30000")
    page.fill("#id_seat-2-score", "20000")
    page.locator("#id_seat-2-score").press("Enter")
    expect(page.locator(".message")).to_contain_text("保存しました")
    game = Hanchan.objects.get(meet=meet13, round_no=1, table_no=three.table_no)
    assert game.rule_set.name == "白樺会 三人打ち"
    assert [r.member for r in game.results.order_by("seat")] == list(three.players)


def test_the_board_on_a_portrait_tablet(browser: Browser, live_server, meet13):
    save_draw(meet13, make_draw(meet13, seed=3), seed=3)
    context = browser.new_context(
        bypass_csp=True, locale="ja-JP", viewport={"width": 768, "height": 1024}
    )
    page = context.new_page()
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/meets/{meet13.pk}/draw/?round=2")
    expect(page.locator(".board-table")).to_have_count(4)
    size = page.locator(".board-table li").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 28  # readable across the room
    # Every table of the round fits across the screen: no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= 768
    assert axe_violations(page) == []
    page.goto(f"{live_server.url}/meets/{meet13.pk}/draw/")
    assert axe_violations(page) == []
    context.close()
