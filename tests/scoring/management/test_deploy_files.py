"""``manage.py deploy_files`` (issue 43): the Caddyfile Caddy accepts (``caddy adapt``, Debian's
caddy from TEST_PACKAGES), the settings file and the systemd units (``systemd-analyze verify``,
Debian's systemd from TEST_PACKAGES: read by systemd, not started), and the commands to install
them; it installs nothing itself."""

import shutil
import subprocess
from io import StringIO

import pytest
from django.core.management import call_command


def write(tmp_path, *args):
    out = StringIO()
    call_command("deploy_files", str(tmp_path / "out"), *args, "--user", "club", stdout=out)
    return tmp_path / "out", out.getvalue()


def adapts(caddyfile):
    caddy = shutil.which("caddy")
    if not caddy:
        pytest.fail("caddy is needed: make test installs it (TEST_PACKAGES)")
    found = subprocess.run(
        [caddy, "adapt", "--config", str(caddyfile), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
    )
    assert found.returncode == 0, found.stderr
    assert "not formatted" not in found.stderr


@pytest.mark.slow
def test_a_club_on_its_own_network_gets_tls_internal_and_its_root_offered(tmp_path, settings):
    settings.BACKUP_COPY_DIR = "/media/usb/shirakaba"
    out, said = write(tmp_path, "--local", "192.168.1.20,shirakaba.local")
    caddyfile = (out / "Caddyfile").read_text()
    assert "https://192.168.1.20, https://shirakaba.local {" in caddyfile
    assert "tls internal" in caddyfile and "reverse_proxy 127.0.0.1:8000" in caddyfile
    assert "/shirakaba-root.crt" in caddyfile
    adapts(out / "Caddyfile")
    env = (out / "shirakaba.env").read_text()
    assert "ALLOWED_HOSTS=192.168.1.20,shirakaba.local" in env
    assert "PROXY_COUNT=1" in env and "HTTPS=1" in env and "SSL_REDIRECT=0" in env
    assert "SHIRAKABA_BACKUP_COPY_DIR=/media/usb/shirakaba" in env
    assert (out / "shirakaba.env").stat().st_mode & 0o077 == 0
    web = (out / "shirakaba-web.service").read_text()
    assert "gunicorn shirakaba.wsgi --bind 127.0.0.1:8000" in web and "User=club" in web
    assert "manage.py db_worker" in (out / "shirakaba-worker@.service").read_text()
    assert "backup --nightly" in (out / "shirakaba-backup.service").read_text()
    assert "OnCalendar=*-*-* 03:30:00" in (out / "shirakaba-backup.timer").read_text()
    assert "sudo systemctl enable --now shirakaba-web shirakaba-worker@1 shirakaba-worker@2" in said
    assert "http://192.168.1.20/shirakaba-root.crt" in said


@pytest.mark.slow
def test_a_club_with_a_domain_gets_an_automatic_certificate(tmp_path):
    out, said = write(tmp_path, "--domain", "shirakaba.example.jp")
    caddyfile = (out / "Caddyfile").read_text()
    assert "shirakaba.example.jp {" in caddyfile and "tls internal" not in caddyfile
    adapts(out / "Caddyfile")
    assert "Then open https://shirakaba.example.jp/" in said


def verify(*units):
    """``systemd-analyze verify`` (Debian's systemd, in TEST_PACKAGES): systemd reads the units
    as it would install them, and checks that each command they run is there to run."""
    analyze = shutil.which("systemd-analyze")
    if not analyze:
        pytest.fail("systemd-analyze is needed: make test installs it (TEST_PACKAGES)")
    return subprocess.run(
        [analyze, "verify", "--man=no", *map(str, units)],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "SYSTEMD_LOG_COLOR": "0", "LANG": "C.UTF-8"},
    )


@pytest.mark.slow
def test_systemd_reads_the_units_without_a_word(tmp_path):
    out, _said = write(tmp_path, "--local", "192.168.1.20")
    units = [
        out / "shirakaba-web.service",
        out / "shirakaba-worker@1.service",  # an instance of the template, as enabled
        out / "shirakaba-backup.service",
        out / "shirakaba-backup.timer",
    ]
    found = verify(*units)
    assert (found.returncode, found.stderr) == (0, "")
    # The same check refuses a unit with a misspelt setting and a program that is not there.
    broken = tmp_path / "broken.service"
    text = (out / "shirakaba-web.service").read_text()
    broken.write_text(
        text.replace("Restart=on-failure", "Restart=sometimes").replace(
            "/.venv/bin/gunicorn", "/.venv/bin/gunicorm"
        )
    )
    refused = verify(broken)
    assert refused.returncode != 0
    assert "restart specifier" in refused.stderr and "gunicorm is not executable" in refused.stderr


def test_it_warns_when_the_user_named_cannot_run_the_book(tmp_path, settings):
    """The units run as ``--user``: a user this machine does not have fails to start
    (systemd's status=217/USER), and one that does not own the data folder cannot write the
    database; deploy_files says so before anything is installed (found trying
    docs/running.md's path with USER unset: the units named a user ``shirakaba`` nobody made)."""
    import os
    import pwd

    settings.DATA_DIR = tmp_path / "data"
    settings.DATA_DIR.mkdir()
    owner = pwd.getpwuid(os.stat(settings.DATA_DIR).st_uid).pw_name
    _out, said = write(tmp_path, "--local", "192.168.1.20")  # --user club: no such user here
    assert "There is no user club on this machine" in said
    out = StringIO()
    other = "nobody" if owner != "nobody" else "daemon"
    call_command("deploy_files", str(tmp_path / "two"), "--local", "x", "--user", other, stdout=out)
    assert f"{settings.DATA_DIR} belongs to {owner}, not {other}" in out.getvalue()
    if owner != "root":
        out = StringIO()
        call_command(
            "deploy_files", str(tmp_path / "three"), "--local", "x", "--user", owner, stdout=out
        )
        assert "There is no user" not in out.getvalue() and "belongs to" not in out.getvalue()
