"""The organizer signs in, creates a meet, enters a game with the keyboard alone, sees the
live check, saves, and finds the game on the meet page."""

import pytest
from django.contrib.auth.models import Group, User
from playwright.sync_api import Page, expect

from members.models import Member
from members.roles import ORGANIZER
from tests.browser.conftest import sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

PLAYERS = [
    ("東山 一郎", "ひがしやま いちろう"),
    ("南野 花子", "みなみの はなこ"),
    ("西川 次郎", "にしかわ じろう"),
    ("北村 三郎", "きたむら さぶろう"),
    ("東野 圭", "ひがしの けい"),
]


class KeyCounter:
    """Types through page.keyboard and counts every key press (each character is one)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.keys = 0

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.keys += len(text)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.keys += 1


@pytest.fixture
def organizer():
    user = User.objects.create_user("alice", password="alice-pass-123", is_staff=True)
    user.groups.add(Group.objects.get(name=ORGANIZER))
    for name, kana in PLAYERS:
        Member.objects.create(name=name, furigana=kana)
    return user


def test_organizer_enters_a_game_with_the_keyboard_alone(page: Page, live_server, organizer):
    sign_in(page, live_server, "alice", "alice-pass-123")

    # A new meet: date defaults to today, the club's rule set is preselected; tick who came.
    page.goto(f"{live_server.url}/meets/new/")
    for name, _ in PLAYERS[:4]:
        page.get_by_label(name).check()
    page.get_by_role("button", name="保存").click()
    expect(page.locator(".message")).to_contain_text("例会を作りました")

    page.get_by_role("link", name="この半荘を入力").first.click()
    expect(page.locator("h1")).to_have_text("半荘を入力")
    expect(page.locator("#id_seat-0-player")).to_be_focused()

    # From here on: keyboard only. Players by the first letters of their furigana
    # (ひがし alone would match two members; ひがしや is unique), three scores, the fourth
    # left blank and accepted from the table total, Enter.
    keys = KeyCounter(page)
    for prefix, score in [("ひがしや", "32600"), ("みなみ", "30000"), ("にし", "30000")]:
        keys.type(prefix)
        keys.press("Tab")
        keys.type(score)
        keys.press("Tab")
    keys.type("きた")

    settlement = page.locator("#settlement")
    expect(settlement).to_contain_text("合計 120,000 点 ✓")
    expect(settlement).to_contain_text("北：27,400 点")
    expect(settlement).to_contain_text("+32.6")
    expect(settlement).to_contain_text("−32.6")
    keys.press("Enter")

    expect(page.locator(".message")).to_contain_text("を保存しました")
    game = page.locator("article.game").first
    for text in ["東山 一郎", "32,600", "+32.6", "北村 三郎", "27,400", "−32.6"]:
        expect(game).to_contain_text(text)

    # Entry speed: 4 name prefixes (11 characters), 3 scores (15 digits), 6 Tabs and Enter.
    print(f"\nentry speed: {keys.keys} key presses, 0 clicks, for one game")
    assert keys.keys == 33
