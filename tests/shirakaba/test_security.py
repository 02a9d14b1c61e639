"""Production mode, the Content Security Policy, sign-in throttling, CSRF, idle sessions and a
member's own password (issue 8). The permission walk over every URL is test_every_url.py."""

import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from scoring.models import Meet
from tests.builders import every_path, production_environment

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def deploy_check(tmp_path, **env) -> subprocess.CompletedProcess[str]:
    """`manage.py check --deploy` in a fresh interpreter, with the given environment."""
    # Not this test run's own settings (the browser tests set DJANGO_ALLOW_ASYNC_UNSAFE).
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "HTTPS", "SSL_REDIRECT"} and not k.startswith("DJANGO")
    }
    clean.update({"SHIRAKABA_DATA_DIR": str(tmp_path), "DATABASE_URL": "sqlite:///:memory:"})
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture
def production() -> dict[str, str]:
    """Exactly what docs/running.md's "Run in production" example exports."""
    return production_environment()


@pytest.mark.slow
def test_the_readmes_production_example_passes_check_deploy_with_no_warnings(tmp_path, production):
    result = deploy_check(tmp_path, **production)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.slow
def test_without_a_mail_backend_check_deploy_says_to_set_one(tmp_path, production):
    """The app sends no mail, but Django 6.1 counts the console mailer as development-only
    (mail.E001): docs/running.md's example sets MAIL_BACKEND for that reason."""
    del production["MAIL_BACKEND"]
    result = deploy_check(tmp_path, **production)
    assert result.returncode != 0 and "mail.E001" in result.stderr + result.stdout


@pytest.mark.slow
def test_behind_a_proxy_that_redirects_check_deploy_still_passes(tmp_path, production):
    result = deploy_check(tmp_path, **production, SSL_REDIRECT="0")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_without_https_check_deploy_names_what_is_missing(tmp_path, production):
    env = {**production, "HTTPS": "0"}
    result = deploy_check(tmp_path, **env)
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr + result.stdout


def fresh_settings(tmp_path, names: str, **env: str) -> list[str]:
    """The printed values of some settings, read in a fresh interpreter with this environment."""
    code = f"import django; django.setup(); from django.conf import settings as s; print({names})"
    full = {**os.environ, "DJANGO_SETTINGS_MODULE": "shirakaba.settings"}
    full.update({"SHIRAKABA_DATA_DIR": str(tmp_path), **env})
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=full, capture_output=True, text=True, check=True
    ).stdout.split()


@pytest.mark.slow
def test_https_settings_follow_the_environment(tmp_path):
    names = (
        "s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT,"
        " s.SECURE_HSTS_SECONDS, s.SECURE_PROXY_SSL_HEADER"
    )
    out = fresh_settings(tmp_path, names, HTTPS="1", PROXY_COUNT="1")
    assert out == ["True", "True", "True", "31536000", "('HTTP_X_FORWARDED_PROTO',", "'https')"]
    assert fresh_settings(tmp_path, "s.SESSION_COOKIE_SECURE, s.SECURE_SSL_REDIRECT") == [
        "False",
        "False",
    ]


# --- Content Security Policy -------------------------------------------------------------

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>")
INLINE_HANDLER = re.compile(r"\son[a-z]+=", re.IGNORECASE)


@pytest.mark.slow  # makes PDFs: the walk opens the PDF pages too
def test_every_page_has_the_csp_header_and_no_inline_script_or_style(alice, sample):
    organizer = Client()
    pages = 0
    for path in every_path(sample):
        organizer.force_login(alice)
        response = organizer.get(path)
        policy = response.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy, (path, policy)
        assert "style-src 'self'" in policy, (path, policy)
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "frame-ancestors 'none'" in policy
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            pages += 1
            if path.startswith("/admin/"):
                continue  # Django's admin is checked by Django; its pages load under the policy
            html = response.content.decode()
            assert not INLINE_SCRIPT.search(html), path
            assert "<style" not in html, path
            assert ' style="' not in html, path
            assert not INLINE_HANDLER.search(html), path
    assert pages > 30


def test_visitors_get_the_csp_header_too(client):
    assert "default-src 'self'" in client.get("/login/")["Content-Security-Policy"]
    assert "default-src 'self'" in client.get("/")["Content-Security-Policy"]


# --- Sign-in throttling ------------------------------------------------------------------


def sign_in(client: Client, username: str, password: str, address: str = "192.0.2.10"):
    return client.post("/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_five_failures_lock_the_account_for_fifteen_minutes(bob):
    client = Client()
    for _ in range(4):
        response = sign_in(client, "bob", "wrong")
        assert response.status_code == 200  # the form again, with its error
    response = sign_in(client, "bob", "wrong")
    assert response.status_code == 429
    # Locked: the right password is refused too, with the Japanese message.
    response = sign_in(client, "bob", "bob-pass-123")
    assert response.status_code == 429
    html = response.content.decode()
    assert "15分間ロック" in html and "記録係" in html
    assert "_auth_user_id" not in client.session
    # The lock is on the login name at that address: someone failing from elsewhere never
    # locks the member out where they are (tests/members/test_locks.py).
    assert sign_in(Client(), "bob", "bob-pass-123", address="198.51.100.7").status_code == 302
    # After 15 minutes the lock is gone.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=15, seconds=1))
    response = sign_in(client, "bob", "bob-pass-123")
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(bob.pk)


def test_thirty_failures_from_one_address_lock_that_address(bob):
    for i in range(30):
        sign_in(Client(), f"guess{i // 3}", "guess", address="203.0.113.9")
    # Another login name from that address is locked out ...
    assert sign_in(Client(), "bob", "bob-pass-123", address="203.0.113.9").status_code == 429
    # ... while the member signs in from elsewhere.
    assert sign_in(Client(), "bob", "bob-pass-123", address="192.0.2.44").status_code == 302


def test_four_failures_then_success_forget_the_failures(bob):
    client = Client()
    for _ in range(4):
        sign_in(client, "bob", "wrong")
    assert sign_in(client, "bob", "bob-pass-123").status_code == 302
    assert not AccessAttempt.objects.filter(username="bob").exists()


def test_the_organizer_sees_the_lock_and_releases_it(organizer_client, bob):
    for _ in range(5):
        sign_in(Client(), "bob", "wrong")
    assert sign_in(Client(), "bob", "bob-pass-123").status_code == 429
    html = organizer_client.get("/members/locks/").content.decode()
    assert "bob" in html and "ロック中" in html
    attempt = AccessAttempt.objects.get(username="bob")
    response = organizer_client.post(f"/members/locks/{attempt.pk}/release/")
    assert response.status_code == 302
    assert sign_in(Client(), "bob", "bob-pass-123").status_code == 302


def test_a_member_cannot_release_a_lock(member_client, bob):
    for _ in range(5):
        sign_in(Client(), "carol", "wrong")
    attempt = AccessAttempt.objects.get(username="carol")
    assert member_client.get("/members/locks/").status_code == 403
    assert member_client.post(f"/members/locks/{attempt.pk}/release/").status_code == 403
    assert AccessAttempt.objects.filter(username="carol").exists()


# --- CSRF --------------------------------------------------------------------------------


def test_a_write_without_the_csrf_token_is_refused(alice, club_rule):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    form = {"date": "2025-04-12", "kind": "sat", "rule_set": club_rule.pk}
    response = client.post("/meets/new/", form)
    assert response.status_code == 403
    assert not Meet.objects.exists()
    # With the token from the form, the same write goes through.
    client.get("/meets/new/")
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    response = client.post("/meets/new/", {**form, "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert Meet.objects.count() == 1


def test_htmx_requests_carry_the_token_in_a_header(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    html = client.get("/").content.decode()
    token = re.search(r'hx-headers=\'\{"x-csrftoken": "([^"]+)"\}\'', html)
    assert token, "the page gives htmx the token"


# --- Idle sessions -----------------------------------------------------------------------


def test_each_request_pushes_the_idle_limit_forward_and_an_idle_session_ends(bob):
    client = Client()
    assert sign_in(client, "bob", "bob-pass-123").status_code == 302
    key = client.session.session_key
    Session.objects.filter(pk=key).update(expire_date=timezone.now() + timedelta(minutes=5))
    assert client.get("/standings/").status_code == 200
    expiry = Session.objects.get(pk=key).expire_date
    expected = timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE)
    assert abs((expiry - expected).total_seconds()) < 60
    # Idle past the limit: signed out, sent to sign in.
    Session.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    response = client.get("/standings/")
    assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.slow
def test_the_idle_limit_comes_from_the_environment(tmp_path):
    names = "s.SESSION_COOKIE_AGE, s.SESSION_SAVE_EVERY_REQUEST"
    assert fresh_settings(tmp_path, names, SESSION_IDLE_MINUTES="30") == ["1800", "True"]


# --- A member's own password -------------------------------------------------------------


def test_a_member_changes_their_own_password(bob):
    client = Client()
    client.force_login(bob)
    response = client.post(
        "/password/",
        {"old_password": "wrong", "new_password1": "k9#shirakaba", "new_password2": "k9#shirakaba"},
    )
    assert response.status_code == 200
    assert "元のパスワードが間違っています" in response.content.decode()  # Django's Japanese
    response = client.post(
        "/password/",
        {
            "old_password": "bob-pass-123",
            "new_password1": "k9#shirakaba",
            "new_password2": "k9#shirakaba",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/password/done/"
    assert sign_in(Client(), "bob", "k9#shirakaba").status_code == 302
    assert sign_in(Client(), "bob", "bob-pass-123").status_code == 200  # the old one is gone
