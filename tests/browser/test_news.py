"""In Chromium: after a meet is finalised its page offers the news (例会速報); 「共有」 hands
the picture and the text to the system's share sheet where the browser has one, and where it
has none the button stays hidden and 「コピー」 and the download remain."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from members.roles import ORGANIZER, grant
from scoring.models import Meet
from tests.builders import sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

# A share sheet that records what it was handed (the page's Web Share API).
SHARE_SHEET = """
window.__shared = [];
Object.defineProperty(navigator, "canShare", { value: (data) => true, configurable: true });
Object.defineProperty(navigator, "share", {
  value: async (data) => {
    window.__shared.push({
      files: (data.files || []).map((f) => [f.name, f.type, f.size]),
      text: data.text,
    });
  },
  configurable: true,
});
"""
NO_SHARE_SHEET = 'Object.defineProperty(navigator, "share", { value: undefined });'


@pytest.fixture
def organizer(db):
    user = User.objects.create_user("alice", password="alice-pass-123", is_staff=True)
    grant(user, ORGANIZER)
    return user


def open_news(page, live_server) -> None:
    meet = Meet.objects.order_by("date").first()
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/meets/{meet.pk}/")
    page.get_by_role("link", name="例会速報（LINE 用）").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("例会速報")


def test_after_finalising_the_news_is_shared_with_its_picture(
    browser: Browser, live_server, club, organizer
):
    Meet.objects.order_by("date").first().finalise()
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    context.add_init_script(SHARE_SHEET)
    page = context.new_page()
    open_news(page, live_server)
    text = page.locator("#news-text").input_value()
    assert text.startswith("【白樺会 例会速報】2025年10月1日（水） 水曜会")
    expect(page.locator("#news-no-share")).to_be_hidden()
    expect(page.locator("#news-text-only")).to_be_hidden()
    page.get_by_role("button", name="共有").click()
    page.wait_for_function("() => window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    ((name, kind, size),) = shared["files"]
    assert name.endswith(".png") and kind == "image/png" and size > 10_000
    assert shared["text"] == text
    page.get_by_role("button", name="コピー").click()
    expect(page.locator("#news-said")).to_have_text("コピーしました。")
    assert page.evaluate("navigator.clipboard.readText()") == text
    context.close()


def test_without_a_share_sheet_copy_and_download_remain(
    browser: Browser, live_server, club, organizer
):
    Meet.objects.order_by("date").first().finalise()
    context = browser.new_context(locale="ja-JP", viewport={"width": 1024, "height": 800})
    context.add_init_script(NO_SHARE_SHEET)
    page = context.new_page()
    open_news(page, live_server)
    expect(page.get_by_role("button", name="共有")).to_be_hidden()
    expect(page.get_by_role("button", name="コピー")).to_be_visible()
    # The fallback is offered and named (issue 43).
    note = page.locator("#news-no-share")
    expect(note).to_be_visible()
    expect(note).to_contain_text("「画像を保存」で画像を保存し、「コピー」で文章をコピー")
    download = page.get_by_role("link", name="画像を保存")
    expect(download).to_be_visible()
    with page.expect_download() as saved:
        download.click()
    assert saved.value.suggested_filename.endswith(".png")
    context.close()


def test_a_share_sheet_without_files_says_the_picture_is_to_be_saved(
    browser: Browser, live_server, club, organizer
):
    Meet.objects.order_by("date").first().finalise()
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    context.add_init_script(
        SHARE_SHEET.replace("value: (data) => true", "value: (data) => !data.files")
    )
    page = context.new_page()
    open_news(page, live_server)
    expect(page.get_by_role("button", name="共有")).to_be_visible()
    expect(page.locator("#news-text-only")).to_contain_text("「画像を保存」で保存")
    # The picture made before the page goes (its maker's heartbeat ends with it).
    page.wait_for_function("() => document.querySelector('.news-picture').naturalWidth > 0")
    context.close()
