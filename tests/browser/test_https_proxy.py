"""The book behind Caddy with ``tls internal`` on this machine (issue 43's "Must show"), as a
club that keeps the book on its own network runs it (docs/running.md): Debian's caddy
terminates HTTPS with a certificate from its own local authority and forwards to the app;
Chromium trusts that authority's root as a tablet would once it is installed, through an NSS
database in a fresh profile (certutil from libnss3-tools; no certificate error ignored), so the
page is a secure context: the service worker registers over HTTPS, a game saved offline
through the proxy is kept on the device and sent once when the network is back; and the app
takes the client's address from the proxy's X-Forwarded-For (``PROXY_COUNT=1``), never from
what the client wrote there itself.

caddy and certutil come from the Makefile's TEST_PACKAGES (`make test` installs them); this
test installs nothing and fails when they are missing."""

import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from axes.models import AccessLog
from playwright.sync_api import BrowserType, expect

from scoring.models import Hanchan, Meet

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

HOST = "shirakaba.test"  # a club's own name for the machine; Chromium is told where it is
FORGED = "203.0.113.9"  # what a client writes into X-Forwarded-For itself


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def needed(command: str) -> str:
    found = shutil.which(command)
    if not found:
        pytest.fail(f"{command} is needed for this test: make test installs it (TEST_PACKAGES)")
    return found


@pytest.fixture
def caddy(tmp_path: Path, live_server):
    """Caddy on a free port with ``tls internal``, forwarding to the live server; yields the
    https address and the local authority's root certificate."""
    port = free_port()
    upstream = live_server.url.removeprefix("http://")
    config = tmp_path / "Caddyfile"
    config.write_text(
        "{\n  admin off\n  skip_install_trust\n  auto_https disable_redirects\n"
        f"  storage file_system {{\n    root {tmp_path / 'caddy'}\n  }}\n}}\n\n"
        f"{HOST}:{port} {{\n  tls internal\n  reverse_proxy {upstream}\n}}\n"
    )
    log = (tmp_path / "caddy.log").open("w")
    process = subprocess.Popen(
        [needed("caddy"), "run", "--config", str(config), "--adapter", "caddyfile"],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    root = tmp_path / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    deadline = time.monotonic() + 20
    while not root.exists() or not listening(port):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"caddy did not start: {(tmp_path / 'caddy.log').read_text()[-2000:]}")
        time.sleep(0.1)
    yield f"https://{HOST}:{port}", root
    process.terminate()
    process.wait(timeout=10)
    log.close()


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def behind_proxy(settings):
    """The app's settings as docs/running.md gives them behind one proxy (HTTPS=1,
    PROXY_COUNT=1, SSL_REDIRECT=0: Caddy redirects http itself)."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, HOST]
    settings.PROXY_COUNT = 1
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True


def test_behind_caddy_the_tablet_keeps_a_game_offline_and_sends_it_once(
    browser_type: BrowserType,
    browser_type_launch_args,
    tmp_path: Path,
    caddy,
    behind_proxy,
    drawn_meet_day: Meet,
):
    site, root = caddy
    # A fresh profile whose NSS database trusts Caddy's root, as an installed root would be.
    home = tmp_path / "home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    certutil = needed("certutil")
    subprocess.run([certutil, "-N", "-d", f"sql:{nssdb}", "--empty-password"], check=True)
    subprocess.run(
        [certutil, "-A", "-d", f"sql:{nssdb}", "-n", "caddy-local", "-t", "C,,", "-i", str(root)],
        check=True,
    )
    context = browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=browser_type_launch_args["executable_path"],
        args=[*browser_type_launch_args["args"], f"--host-resolver-rules=MAP {HOST} 127.0.0.1"],
        env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
        locale="ja-JP",
        viewport={"width": 1024, "height": 768},
        extra_http_headers={"X-Forwarded-For": FORGED},
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(f"{site}/login/")
        assert page.evaluate("window.isSecureContext") is True
        page.fill("#id_username", "alice")
        page.fill("#id_password", "alice-pass-123")
        page.press("#id_password", "Enter")
        page.wait_for_url(f"{site}/")
        # The address the app saw: the one Caddy connected from, not the one the client wrote.
        assert AccessLog.objects.get().ip_address == "127.0.0.1"
        page.goto(f"{site}/meets/{drawn_meet_day.pk}/")
        page.wait_for_function("() => Number(document.body.dataset.kept) >= 12", timeout=20_000)
        assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == f"{site}/sw.js"
        expect(page.locator("#offline-unavailable")).to_be_hidden()
        context.set_offline(True)
        page.reload()  # from the device
        page.locator('.game.empty[data-round="1"][data-table="1"] a.button').click()
        expect(page.locator("#id_seat-0-player")).not_to_have_value("")
        for seat, score in enumerate(["41000", "32000", "27000"]):
            page.fill(f"#id_seat-{seat}-score", score)
        page.locator("#id_seat-0-score").press("Enter")
        page.wait_for_url(re.compile(r"/meets/\d+/#queue$"))
        expect(page.locator("#queue .queue-count")).to_have_text("未送信 1 件")
        assert not Hanchan.objects.exists()
        context.set_offline(False)
        expect(page.locator("#queue .queue-count")).to_have_text("未送信 0 件")
        page.locator("#queue [data-action=send]").click(force=True)  # a tap more sends nothing
        assert Hanchan.objects.count() == 1
    finally:
        context.close()
