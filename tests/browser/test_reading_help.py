"""Words explained (issue 40): ruby (ふりがな) over the club's hard words and members' names,
a setting kept on the device and for a signed-in member; a tap on a hard word says what it
means in one line."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from members.models import DisplaySettings
from tests.builders import sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def bob_is_aoki(club):
    """bob (a member) is 青木 (あおき) of the club fixture: two meets of the four."""
    aoki = club[0]
    aoki.user = User.objects.get(username="bob")
    aoki.save()
    return aoki


def ruby_shown(page: Page) -> bool:
    return page.evaluate("document.documentElement.classList.contains('ruby-on')")


def reading_box(page: Page, text: str) -> dict:
    """The <rt> over ``text``: whether it is drawn, and its height."""
    return page.evaluate(
        """(text) => {
          const rt = [...document.querySelectorAll("ruby rt")].find((r) => r.textContent === text);
          if (!rt) return null;
          const box = rt.getBoundingClientRect();
          return {drawn: box.height > 0 && getComputedStyle(rt).display !== "none", h: box.height};
        }""",
        text,
    )


def saved_ruby(page: Page, user: User) -> bool:
    """The login's ruby, once the page's script has saved the choice (data-display-saved)."""
    expect(page.locator("html")).to_have_attribute("data-display-saved", "")
    return DisplaySettings.objects.get(user=user).show_ruby


def test_ruby_is_off_until_turned_on_then_kept_across_pages_and_devices(
    browser: Browser, page: Page, live_server, bob_is_aoki
):
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.goto(f"{live_server.url}/members/{bob_is_aoki.pk}/")
    assert not ruby_shown(page)
    assert reading_box(page, "さくほー") == {"drawn": False, "h": 0}
    switch = page.get_by_role("button", name="むずかしい言葉にふりがな")
    expect(switch).to_have_attribute("aria-pressed", "false")
    # Beside the text size and contrast, in the 「文字」 menu.
    page.locator(".display-menu > summary").click()
    menu = page.locator(".display-panel").get_by_role("group", name="むずかしい言葉にふりがな")
    menu.get_by_role("button", name="あり", exact=True).click()
    # On the same page, with the readings drawn over the words and the name.
    assert page.url.endswith(f"/members/{bob_is_aoki.pk}/")
    assert ruby_shown(page)
    assert reading_box(page, "さくほー")["drawn"]
    assert reading_box(page, "あおき")["drawn"]
    expect(menu.get_by_role("button", name="あり", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    # The footer's switch, the same choice's second door, says so too.
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert saved_ruby(page, bob_is_aoki.user) is True
    page.screenshot(path="/tmp/i40b-shots/own-record-phone-ruby.png", full_page=True)
    # Another page: the standings, the members' names with their readings.
    page.goto(f"{live_server.url}/standings/")
    assert ruby_shown(page)
    assert reading_box(page, "いのうえ")["drawn"]
    page.screenshot(path="/tmp/i40b-shots/standings-phone-ruby.png", full_page=True)
    assert page.evaluate("localStorage.getItem('shk-ruby')") == "on"

    # bob on another device (a new browser context, nothing in its storage): signed in,
    # ruby is on from the first paint.
    other = browser.new_context(viewport=PHONE, locale="ja-JP")
    try:
        tablet = other.new_page()
        sign_in(tablet, live_server, "bob", "bob-pass-123")
        assert ruby_shown(tablet)
        tablet.goto(f"{live_server.url}/members/{bob_is_aoki.pk}/")
        assert reading_box(tablet, "さくほー")["drawn"]
        # Turned off there by the footer's switch (a form to the same view as the menu's)...
        with tablet.expect_response(lambda answer: answer.url.endswith("/display/")):
            tablet.get_by_role("button", name="むずかしい言葉にふりがな").click()
        assert not ruby_shown(tablet)
        tablet.reload()
        assert not ruby_shown(tablet)
        expect(tablet.get_by_role("button", name="むずかしい言葉にふりがな")).to_have_attribute(
            "aria-pressed", "false"
        )
        assert DisplaySettings.objects.get(user=bob_is_aoki.user).show_ruby is False
    finally:
        other.close()
    # ...it is off on the first device once it signs in again (pages read the session).
    page.context.clear_cookies()
    sign_in(page, live_server, "bob", "bob-pass-123")
    assert not ruby_shown(page)
    page.goto(f"{live_server.url}/standings/")
    assert not ruby_shown(page)
    assert reading_box(page, "いのうえ") == {"drawn": False, "h": 0}
    assert page.evaluate("localStorage.getItem('shk-ruby')") == "off"


@pytest.mark.parametrize("key", ["shk-ruby", "shirakaba:ruby"])
def test_the_device_keeps_ruby_before_the_member_has_chosen(page: Page, live_server, bob, key):
    """No choice kept for the login: the device's own (localStorage) applies, before the
    page is drawn (the class is on <html> when the first script after it runs), and is saved
    with the login. A choice kept under the older key (shirakaba:ruby) is carried over."""
    page.add_init_script(f"localStorage.setItem('{key}', 'on')")
    page.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => { window.rubyAtLoad ="
        " document.documentElement.classList.contains('ruby-on'); });"
    )
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.goto(f"{live_server.url}/standings/")
    assert page.evaluate("window.rubyAtLoad") is True
    assert page.evaluate("localStorage.getItem('shk-ruby')") == "on"
    assert saved_ruby(page, bob) is True


def test_a_tap_on_a_hard_word_says_what_it_means(page: Page, live_server, bob_is_aoki):
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.goto(f"{live_server.url}/members/{bob_is_aoki.pk}/")
    meaning = page.locator("#term-meaning")
    expect(meaning).to_be_hidden()
    word = page.locator("dt button.term", has_text="錯和")
    word.click()
    expect(meaning).to_be_visible()
    expect(meaning).to_have_text(
        "反則（チョンボ）。その局は無効になり、ルールで決まった P が引かれます。"
    )
    assert meaning.get_attribute("role") == "status"
    expect(word).to_have_attribute("aria-describedby", "term-meaning")
    # One line, under the word, inside the phone's width.
    box, under = meaning.bounding_box(), word.bounding_box()
    assert box["y"] >= under["y"] + under["height"] - 1
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path="/tmp/i40b-shots/meaning-phone.png")
    page.keyboard.press("Escape")
    expect(meaning).to_be_hidden()
    # By the keyboard: focus alone says it.
    page.locator("dt button.term", has_text="箱割れ").focus()
    expect(meaning).to_have_text("持ち点が 0 点を下回ること。対局はそのまま続けます。")
    page.mouse.click(5, 5)
    expect(meaning).to_be_hidden()


def widths(page: Page) -> dict:
    return page.evaluate(
        """() => ({page: document.documentElement.scrollWidth,
                   tables: [...document.querySelectorAll("table")].map((t) => Math.round(t.getBoundingClientRect().width))})"""
    )


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1024, "height": 768}])
def test_ruby_on_keeps_the_game_form_within_the_window(
    page: Page, live_server, drawn_meet_day, viewport
):
    """The readings sit over the words: the game form's tables keep their widths, and the
    page does not scroll sideways."""
    page.set_viewport_size(viewport)
    sign_in(page, live_server, "alice", "alice-pass-123")
    url = f"{live_server.url}/meets/{drawn_meet_day.pk}/games/new/?table=1&round=1"
    seen = {}
    for ruby in ("off", "on"):
        page.evaluate(f"localStorage.setItem('shk-ruby', '{ruby}')")
        page.goto(url)
        page.locator("details.extras summary").click()
        for seat, score in enumerate(["32600", "30000", "30000"]):
            page.fill(f"#id_seat-{seat}-score", score)
        expect(page.locator("#settlement")).to_contain_text("✓")
        seen[ruby] = widths(page)
    assert ruby_shown(page) and reading_box(page, "さくほー")["drawn"]
    # Every table keeps its width (the chombo table's まんがんいじょう, wider than 満貫以上 at
    # the readings' usual size, widened it from 341 to 355 px on a phone, out of its card).
    assert seen["on"] == seen["off"]
    assert seen["on"]["page"] <= viewport["width"]
    page.screenshot(path=f"/tmp/i40b-shots/game-form-ruby-{viewport['width']}.png", full_page=True)
