"""The "Run in production" section of docs/running.md, carried out: `make serve` with the
environment it gives starts gunicorn behind a (simulated) HTTPS proxy, and the answers carry what
production needs: the redirect to https, secure cookies, HSTS, the CSP, static files."""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from shirakaba.supervise import die_with_parent
from tests.builders import production_environment

pytestmark = pytest.mark.slow  # runs `make serve`: migrate, collectstatic, gunicorn
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url(tmp_path) -> str:
    """The run's own PostgreSQL test database when the suite runs on PostgreSQL (as the
    docs/running.md's production does); otherwise a new SQLite file."""
    from django.db import connection

    if connection.vendor == "postgresql":
        s = connection.settings_dict  # the run's own test_<name> database (the db fixture)
        return f"postgres://{s['USER']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"
    return f"sqlite:///{tmp_path / 'db.sqlite3'}"


@pytest.fixture
def production_env(tmp_path, db) -> dict[str, str]:
    """Exactly what docs/running.md's example exports, but for where the data lives: the run's
    own database and a directory of the test's own."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST", "DJANGO")) and k not in {"DEBUG", "SSL_REDIRECT"}
    }
    env.update(production_environment())
    env.update({"DATABASE_URL": database_url(tmp_path), "SHIRAKABA_DATA_DIR": str(tmp_path)})
    return env


@pytest.fixture
def host(production_env) -> str:
    """docs/running.md's host name: the proxy passes it on to gunicorn in the Host header."""
    return production_env["ALLOWED_HOSTS"]


SERVING: dict[str, subprocess.Popen] = {}  # base URL -> the `make serve` process


@pytest.fixture
def server(production_env):
    port = free_port()
    process = subprocess.Popen(
        ["make", "--no-print-directory", "serve", f"PORT={port}", "HOST=127.0.0.1", "WORKERS=1"],
        cwd=ROOT,
        env=production_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        # A test run killed before its teardown (a timeout, say) ends it too: make gets SIGTERM
        # and passes it on; the supervisor below it ends with its parent.
        preexec_fn=die_with_parent,
    )
    base = f"http://127.0.0.1:{port}"
    SERVING[base] = process
    try:
        for _ in range(300):
            if process.poll() is not None:
                pytest.fail("make serve stopped: " + process.stdout.read().decode())
            try:
                httpx.get(base + "/login/", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def test_make_serve_runs_the_production_configuration(server, host):
    https = {"Host": host, "X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.4"}
    # Plain http is sent to https.
    response = httpx.get(server + "/login/", headers={"Host": host})
    assert response.status_code == 301
    assert response.headers["location"] == f"https://{host}/login/"

    response = httpx.get(server + "/login/", headers=https)
    assert response.status_code == 200
    assert "ログイン" in response.text
    assert response.headers["strict-transport-security"].startswith("max-age=31536000")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["x-frame-options"] == "DENY"
    cookie = response.headers["set-cookie"]
    assert "csrftoken=" in cookie and "Secure" in cookie

    # Static files come from whitenoise, with hashed names and a long cache life.
    css = re.search(r'href="(/static/css/site\.[0-9a-f]+\.css)"', response.text)
    assert css, "the page links the hashed stylesheet"
    static = httpx.get(server + css[1], headers=https)
    assert static.status_code == 200 and "max-age=315360000" in static.headers["cache-control"]

    # The service worker (issue 31) names the static files it keeps by their hashed names,
    # each of which whitenoise serves; it is served fresh, from the root's scope.
    worker = httpx.get(server + "/sw.js", headers=https)
    assert worker.status_code == 200 and worker.headers["service-worker-allowed"] == "/"
    assert worker.headers["cache-control"] == "no-cache"
    kept = json.loads(worker.text.split("const PRECACHE = ", 1)[1].split(";\n", 1)[0])
    assert any(re.fullmatch(r"/static/js/queue\.[0-9a-f]+\.js", url) for url in kept), kept
    for url in kept:
        assert httpx.get(server + url, headers=https).status_code == 200, url
    assert 'const STATIC_PREFIX = "/static/";' in worker.text

    # Anything else asks to sign in first; debugging pages are off.
    assert httpx.get(server + "/standings/", headers=https).status_code == 302
    missing = httpx.get(server + "/no-such-page/", headers=https)
    assert missing.status_code in (302, 404) and "Traceback" not in missing.text

    # Beside gunicorn, the report workers (REPORT_WORKERS, 2 by default) are running.
    session = str(SERVING[server].pid)  # make serve leads its own session
    found = subprocess.run(
        ["pgrep", "-s", session, "-f", "^[^ ]*python[^ ]* manage.py db_worker"],
        capture_output=True,
        text=True,
    )
    assert len(found.stdout.split()) == 2, found


def test_behind_the_proxy_sign_in_failures_count_against_the_address_nginx_saw(
    server, production_env, host
):
    """nginx appends the address it saw to X-Forwarded-For; whatever the client wrote before
    it is not read (issue 15: behind the proxy every address was None, or the forged one)."""

    def wrong_password(forwarded_for: str) -> str:
        headers = {"Host": host, "X-Forwarded-Proto": "https", "X-Forwarded-For": forwarded_for}
        page = httpx.get(server + "/login/", headers=headers)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)[1]
        headers |= {
            "Origin": f"https://{host}",
            "Cookie": f"csrftoken={page.cookies['csrftoken']}",
        }
        form = {"csrfmiddlewaretoken": token, "username": "proxy-check", "password": "wrong"}
        response = httpx.post(server + "/login/", data=form, headers=headers)
        assert response.status_code == 200
        return response.text

    try:
        assert "あと4回間違えると15分間ロックされます" in wrong_password("192.0.2.140")
        # A header the client wrote itself: nginx's entry, on the right, is the one counted.
        assert "あと3回" in wrong_password("203.0.113.55, 192.0.2.140")
        assert "あと2回" in wrong_password("192.0.2.77, 192.0.2.140")
        # Another address has its own count.
        assert "あと4回" in wrong_password("192.0.2.141")
    finally:  # on PostgreSQL the server wrote into this run's database: leave nothing behind
        subprocess.run(
            [sys.executable, "manage.py", "unlock", "proxy-check"],
            cwd=ROOT,
            env=production_env,
            check=True,
            capture_output=True,
        )
