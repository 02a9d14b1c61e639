"""A device that cannot keep games says so (issue 43): the book opened as http:// on the
club's network (here: this machine's own non-loopback address, which Chromium treats as an
insecure origin, as a tablet would treat http://192.168.x.x:8000/) shows one plain notice with
what to do, registers no service worker and keeps nothing; offline, the game form saves
nothing and says why instead of promising to keep the game."""

import socket
import subprocess

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scoring.models import Hanchan, Meet
from tests.builders import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTICE = "この接続ではオフライン入力が使えません。https:// で開いてください。"
BAND = "オフラインです。この接続では対局を端末に保管できません。接続が戻ってから保存してください。"


def outward_address() -> str:
    """This machine's first IPv4 address that is not loopback (`hostname -I`)."""
    words = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    for word in words:
        try:
            socket.inet_aton(word)
        except OSError:
            continue
        if not word.startswith("127."):
            return word
    pytest.fail(f"No non-loopback IPv4 address on this machine (hostname -I: {words})")


@pytest.fixture
def insecure_server():
    server = LiveServer(f"{outward_address()}:0")
    server._live_server_modified_settings.enable()
    yield server
    server._live_server_modified_settings.disable()
    server.stop()


def test_over_plain_http_on_the_network_the_page_says_so_and_keeps_nothing(
    page: Page, context, insecure_server, drawn_meet_day: Meet
):
    url = insecure_server.url
    assert not url.startswith(("http://127.", "http://localhost"))
    sign_in(page, insecure_server, "alice", "alice-pass-123")
    page.goto(f"{url}/meets/{drawn_meet_day.pk}/")
    assert page.evaluate("window.isSecureContext") is False
    notice = page.locator("#offline-unavailable")
    expect(notice).to_be_visible()
    expect(notice.locator(".notice-text")).to_have_text(NOTICE)
    # Read once: the next page does not say it again.
    notice.get_by_role("button", name="分かりました").click()
    expect(notice).to_be_hidden()
    page.reload()
    expect(page.locator("#offline-unavailable")).to_be_hidden()
    # Nothing kept: no service worker, no kept pages, not even the browser's database.
    kept = page.evaluate(
        """async () => ({
          worker: "serviceWorker" in navigator,
          caches: "caches" in self ? (await caches.keys()).length : 0,
          databases: (await indexedDB.databases()).map((d) => d.name),
        })"""
    )
    assert kept == {"worker": False, "caches": 0, "databases": []}
    # Offline, the band does not promise; the form saves nothing and says why.
    page.locator('.game.empty[data-round="1"][data-table="1"] a.button').click()
    expect(page.locator("#id_seat-0-player")).not_to_have_value("")
    context.set_offline(True)
    expect(page.locator("#offline-band")).to_have_text(BAND)
    for seat, score in enumerate(["41000", "32000", "27000", "20000"]):
        page.fill(f"#id_seat-{seat}-score", score)
    page.locator("#id_seat-0-score").press("Enter")
    expect(page.locator("#offline-refusal")).to_contain_text("この端末には対局を保管できません")
    assert page.url.startswith(f"{url}/meets/{drawn_meet_day.pk}/games/new")
    assert page.evaluate("async () => (await indexedDB.databases()).length") == 0
    context.set_offline(False)
    assert not Hanchan.objects.exists()
