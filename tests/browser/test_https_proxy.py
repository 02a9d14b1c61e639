"""The book as a club runs it on its own network (docs/running.md, "Online with HTTPS"), on this
machine (issue 43's "Must show"): ``manage.py deploy_files --local`` writes the Caddyfile and the
settings file; ``make serve`` (migrate, collectstatic, ``check --deploy``, then gunicorn and a
report worker under shirakaba.supervise) runs with those settings; Debian's caddy runs that
Caddyfile (``tls internal``: a certificate from its own local authority), changed only in its
ports and where it keeps its files; Chromium trusts the authority's root as a tablet does once
it is installed, through an NSS database in a fresh profile (certutil from libnss3-tools; no
certificate error ignored), so the page is a secure context: the service worker registers over
HTTPS, a game saved offline through the proxy is kept on the device and sent once when the
network is back. The app takes the client's address from Caddy's X-Forwarded-For
(``PROXY_COUNT=1``), never from what the client wrote there itself; the health page counts the
report worker ``make serve`` started (its beat, a row in the database).

The book served here is an SQLite file of the test's own in a temporary folder, also on the
PostgreSQL run (DATABASE_URL set): the served processes are separate from the test's database
and read nothing of it; the test reads the file itself.

caddy and certutil come from the Makefile's TEST_PACKAGES (`make test` installs them); this
test installs nothing and fails when they are missing."""

import json
import os
import re
import shlex
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import BrowserType, expect

from scoring.management.commands.deploy_files import CADDY_ROOT_DIR
from shirakaba.supervise import die_with_parent
from tests.builders import MEET_DAY_NAMES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOST = "shirakaba.test"  # a club's own name for the machine; Chromium is told where it is
FORGED = "203.0.113.9"  # what a client writes into X-Forwarded-For itself
READY = 300  # seconds: make serve collects the static files and checks before it answers


@pytest.fixture
def migrated_data():
    """No live server here (the browser tests' own fixture starts one): the book is served by
    ``make serve`` on a database of its own."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def needed(command: str) -> str:
    found = shutil.which(command)
    if not found:
        pytest.fail(f"{command} is needed for this test: make test installs it (TEST_PACKAGES)")
    return found


def run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=READY,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def rows(database: Path, query: str) -> list[tuple]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=20) as db:
        return db.execute(query).fetchall()


def wait_for(what: str, ready, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + READY
    while not ready():
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"{what} did not start: {log.read_text()[-3000:]}")
        time.sleep(0.2)


def stop(process: subprocess.Popen) -> None:
    """End a process and every process of its group (make, and shirakaba.supervise, which
    ends the server and the worker it started)."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


SETUP = """
from datetime import date
from django.contrib.auth.models import Group, User
from members.models import Member
from members.roles import ORGANIZER, grant
from scoring.meet_draw import make_draw, save_draw
from scoring.models import Meet, RuleSet
user = User.objects.create_user("alice", password="alice-pass-123", is_staff=True)
grant(user, ORGANIZER)
members = [Member.objects.create(name=name, furigana="かな") for name in NAMES]
meet = Meet.objects.create(date=date(2026, 11, 25), kind="wed", rule_set=RuleSet.objects.default())
meet.attendees.set(members)
save_draw(meet, make_draw(meet, seed=7), seed=7)
print(meet.pk)
"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[dict]:
    """The book on a free port by ``make serve`` with the settings ``deploy_files`` wrote, and
    Caddy in front with the Caddyfile it wrote; yields the https address, the authority's root
    certificate, the book's database file, the meet to play and the deploy folder."""
    app, https, http = free_port(), free_port(), free_port()
    data = tmp_path / "data"
    database = data / "db.sqlite3"
    base = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    deploy = tmp_path / "deploy"
    run(
        {**base, "DATABASE_URL": f"sqlite:///{database}", "SHIRAKABA_DATA_DIR": str(data)},
        "deploy_files",
        str(deploy),
        "--local",
        HOST,
        "--port",
        str(app),
        "--workers",
        "1",
        "--report-workers",
        "1",
        "--user",
        "club",
    )
    written = {}
    for line in (deploy / "shirakaba.env").read_text().splitlines():
        if line and not line.startswith("#"):
            key, value = line.split("=", 1)
            written[key] = shlex.split(value)[0] if value else ""
    assert written["DATABASE_URL"] == f"sqlite:///{database}" and written["PROXY_COUNT"] == "1"
    env = {**base, **written}
    run(env, "migrate", "--no-input", "-v0")
    names = json.dumps(MEET_DAY_NAMES[:12], ensure_ascii=False)
    meet = int(run(env, "shell", "-v0", "-c", f"NAMES = {names}\n{SETUP}").split()[-1])

    serve_log = tmp_path / "serve.log"
    serve = subprocess.Popen(
        ["make", "serve", "HOST=127.0.0.1", f"PORT={app}", "WORKERS=1", "REPORT_WORKERS=1"],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=serve_log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: stop() ends make and all below it
        preexec_fn=die_with_parent,  # and a killed test run ends it too
    )
    caddy = None
    try:
        wait_for("make serve", lambda: listening(app), serve, serve_log)
        # The Caddyfile as written; only the ports (80 and 443 are not the test's to take),
        # no admin endpoint, and the authority kept in the test's folder.
        storage = tmp_path / "caddy"
        config = tmp_path / "Caddyfile"
        text = (deploy / "Caddyfile").read_text()
        assert "\tskip_install_trust\n" in text and CADDY_ROOT_DIR in text
        config.write_text(
            text.replace(
                "\tskip_install_trust\n",
                f"\tskip_install_trust\n\tadmin off\n\thttp_port {http}\n\thttps_port {https}\n"
                f"\tstorage file_system {{\n\t\troot {storage}\n\t}}\n",
            ).replace(CADDY_ROOT_DIR, str(storage / "pki" / "authorities" / "local"))
        )
        caddy_log = tmp_path / "caddy.log"
        caddy = subprocess.Popen(
            [needed("caddy"), "run", "--config", str(config), "--adapter", "caddyfile"],
            stdout=caddy_log.open("w"),
            stderr=subprocess.STDOUT,
            env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
            start_new_session=True,
            preexec_fn=die_with_parent,
        )
        root = storage / "pki" / "authorities" / "local" / "root.crt"
        wait_for(
            "caddy",
            lambda: root.exists() and listening(https) and listening(http),
            caddy,
            caddy_log,
        )
        # The root as a tablet fetches it (docs/running.md, step 6), over plain http.
        request = urllib.request.Request(
            f"http://127.0.0.1:{http}/shirakaba-root.crt", headers={"Host": HOST}
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert answer.headers["Content-Type"] == "application/x-x509-ca-cert"
            assert answer.read() == root.read_bytes()
        yield {
            "site": f"https://{HOST}:{https}",
            "root": root,
            "database": database,
            "meet": meet,
            "log": serve_log,
        }
    finally:
        if caddy is not None:
            stop(caddy)
        stop(serve)
    assert not listening(app), "gunicorn outlived make serve"


def test_behind_caddy_the_tablet_keeps_a_game_offline_and_sends_it_once(
    browser_type: BrowserType, browser_type_launch_args, tmp_path: Path, served: dict
):
    site, database = served["site"], served["database"]
    # A fresh profile whose NSS database trusts Caddy's root, as an installed root would be.
    home = tmp_path / "home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    certutil = needed("certutil")
    subprocess.run([certutil, "-N", "-d", f"sql:{nssdb}", "--empty-password"], check=True)
    trust = ["-n", "caddy-local", "-t", "C,,", "-i", str(served["root"])]
    subprocess.run([certutil, "-A", "-d", f"sql:{nssdb}", *trust], check=True)
    context = browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=browser_type_launch_args["executable_path"],
        args=[*browser_type_launch_args["args"], f"--host-resolver-rules=MAP {HOST} 127.0.0.1"],
        env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
        locale="ja-JP",
        viewport={"width": 1024, "height": 768},
        extra_http_headers={"X-Forwarded-For": FORGED},
    )
    context.set_default_timeout(60_000)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(f"{site}/login/")
        assert page.evaluate("window.isSecureContext") is True
        page.fill("#id_username", "alice")
        page.fill("#id_password", "alice-pass-123")
        page.press("#id_password", "Enter")
        page.wait_for_url(f"{site}/")
        # The address the app saw: the one Caddy connected from, not the one the client wrote.
        assert rows(database, "SELECT ip_address FROM axes_accesslog") == [("127.0.0.1",)]
        # The health page: the report worker make serve started is counted (its beat, a row
        # it writes when it starts), and the connection is https from 127.0.0.1.
        deadline = time.monotonic() + READY
        while not rows(database, "SELECT name FROM scoring_workerbeat"):
            assert time.monotonic() < deadline, served["log"].read_text()[-3000:]
            time.sleep(0.5)
        page.goto(f"{site}/health/")
        health = page.locator("body").inner_text()
        assert "動いている係：1" in health
        assert "https" in health and "127.0.0.1" in health and FORGED not in health

        page.goto(f"{site}/meets/{served['meet']}/")
        page.wait_for_function("() => Number(document.body.dataset.kept) >= 12")
        # Registered over HTTPS and active. (Whether this page, opened while the worker was
        # still starting, is already controlled depends on timing; the page reloaded offline is.)
        active = "navigator.serviceWorker.ready.then((r) => r.active.scriptURL)"
        assert page.evaluate(active) == f"{site}/sw.js"
        expect(page.locator("#offline-unavailable")).to_be_hidden()
        context.set_offline(True)
        page.reload()  # from the device
        assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == f"{site}/sw.js"
        page.locator('.game.empty[data-round="1"][data-table="1"] a.button').click()
        expect(page.locator("#id_seat-0-player")).not_to_have_value("")
        for seat, score in enumerate(["41000", "32000", "27000"]):
            page.fill(f"#id_seat-{seat}-score", score)
        page.locator("#id_seat-0-score").press("Enter")
        page.wait_for_url(re.compile(r"/meets/\d+/#queue$"))
        expect(page.locator("#queue .queue-count")).to_have_text("未送信 1 件")
        assert rows(database, "SELECT count(*) FROM scoring_hanchan") == [(0,)]
        context.set_offline(False)
        expect(page.locator("#queue .queue-count")).to_have_text("未送信 0 件")
        page.locator("#queue [data-action=send]").click(force=True)  # a tap more sends nothing
        page.wait_for_load_state("networkidle")
        assert rows(database, "SELECT count(*) FROM scoring_hanchan") == [(1,)]
    finally:
        context.close()
