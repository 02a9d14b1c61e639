"""``manage.py deploy_files`` (issue 43): the Caddyfile Caddy accepts (``caddy adapt``, Debian's
caddy from TEST_PACKAGES), the settings file and the systemd units, and the commands to install
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
