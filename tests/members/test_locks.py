"""Sign-in locks behind the production proxy (issue 15).

Production runs gunicorn behind nginx (`PROXY_COUNT=1`), which adds the address it saw to
`X-Forwarded-For` (`proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`): gunicorn's
REMOTE_ADDR is nginx's own 127.0.0.1 and the header ends with the client's address, after
whatever the client wrote there itself. The tests send requests exactly so, with the axes
and proxy settings that settings.py makes from the production environment (read in a fresh
interpreter, as `make serve` would).

The club's limits: 5 failures for one login name from one address lock that name at that
address; 30 failures from one address, whatever the names (each name counting at most 5),
lock the address. Locks last 15 minutes.
"""

import base64
import functools
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.core.management import call_command
from django.test import Client

# slow: production's lock settings are read in a Python process of their own (once per
# proxy count), which the first test of the module starts.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
NGINX = "127.0.0.1"  # gunicorn sees every request come from the proxy
VENUE = "198.51.100.4"  # the venue's router: every member there has this address

READ_SETTINGS = """
import base64, pickle, shirakaba.settings as s
names = [n for n in dir(s) if n.startswith(("AXES_", "IPWARE_", "SIGNIN_")) or n == "PROXY_COUNT"]
print(base64.b64encode(pickle.dumps({n: getattr(s, n) for n in names})).decode())
"""


@functools.cache
def production_lock_settings(proxy_count: int) -> dict[str, object]:
    """The sign-in lock and proxy settings of production (HTTPS=1) with this PROXY_COUNT."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "PROXY"))}
    with tempfile.TemporaryDirectory(prefix="shirakaba-production-") as data_dir:
        env.update(
            SHIRAKABA_DATA_DIR=data_dir,
            SECRET_KEY="a-long-random-production-key-" + "x7Q#" * 10,
            ALLOWED_HOSTS="shirakaba.example.jp",
            HTTPS="1",
            PROXY_COUNT=str(proxy_count),
        )
        done = subprocess.run(
            [sys.executable, "-c", READ_SETTINGS],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    return pickle.loads(base64.b64decode(done.stdout.strip()))


@pytest.fixture
def proxies(settings):
    """Sets the production settings for a number of proxies in front."""

    def use(count: int) -> None:
        for name, value in production_lock_settings(count).items():
            setattr(settings, name, value)

    return use


@pytest.fixture
def behind_nginx(proxies) -> None:
    proxies(1)


def sign_in(username: str, password: str, forwarded_for: str = VENUE, client=None):
    """A sign-in through nginx: the header ends with the address nginx saw."""
    return (client or Client()).post(
        "/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=NGINX,
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )


def recorded_addresses() -> list[str | None]:
    return list(AccessAttempt.objects.values_list("ip_address", flat=True))


# --- The address -------------------------------------------------------------------------


def test_it_records_the_address_nginx_saw(behind_nginx, bob):
    sign_in("bob", "wrong", forwarded_for="198.51.100.4")
    assert recorded_addresses() == ["198.51.100.4"]


def test_it_ignores_an_address_the_client_wrote_itself(behind_nginx, bob):
    # The client sent `X-Forwarded-For: 192.0.2.55`; nginx appended the address it saw.
    for forged in (
        "192.0.2.55, 198.51.100.4",
        "192.0.2.55,198.51.100.4",
        "1.2.3.4, , 198.51.100.4",
    ):
        sign_in("bob", "wrong", forwarded_for=forged)
    assert recorded_addresses() == ["198.51.100.4"]
    assert AccessAttempt.objects.get().failures_since_start == 3


def test_forged_addresses_do_not_dodge_the_limit_or_lock_someone_else(behind_nginx, bob, alice):
    for i in range(5):
        sign_in("bob", "wrong", forwarded_for=f"192.0.2.{i}, 203.0.113.9")
    # The attacker is locked out however the header is forged ...
    assert (
        sign_in("bob", "bob-pass-123", forwarded_for="192.0.2.99, 203.0.113.9").status_code == 429
    )
    # ... and the forged addresses were never counted: bob signs in from the venue.
    assert sign_in("bob", "bob-pass-123", forwarded_for=VENUE).status_code == 302


def test_with_two_proxies_it_takes_the_address_the_outer_proxy_saw(proxies, bob):
    proxies(2)  # e.g. a CDN, then nginx: nginx appended the CDN's address
    sign_in("bob", "wrong", forwarded_for="192.0.2.55, 198.51.100.4, 203.0.113.200")
    assert recorded_addresses() == ["198.51.100.4"]


def test_without_a_proxy_it_takes_the_connection_address(proxies, bob):
    proxies(0)
    Client().post(
        "/login/",
        {"username": "bob", "password": "wrong"},
        REMOTE_ADDR="203.0.113.7",
        HTTP_X_FORWARDED_FOR="192.0.2.55",
    )
    assert recorded_addresses() == ["203.0.113.7"]


# --- Who is locked -----------------------------------------------------------------------


def test_five_people_failing_from_five_addresses_lock_no_one_else(behind_nginx, alice):
    for i, name in enumerate(["ann", "ben", "cal", "dan", "eve"]):
        sign_in(name, "guess", forwarded_for=f"203.0.113.{i + 1}")
    assert sign_in("alice", "alice-pass-123", forwarded_for="192.0.2.200").status_code == 302


def test_a_members_mistakes_never_lock_another_member_at_the_venue(behind_nginx, alice, bob):
    for _ in range(5):
        sign_in("bob", "wrong")
    assert sign_in("bob", "bob-pass-123").status_code == 429  # bob is locked at the venue
    for _ in range(40):  # and keeps trying: he still counts 5 against the venue's address
        sign_in("bob", "wrong")
    assert sign_in("alice", "alice-pass-123").status_code == 302


def test_fifteen_members_with_typos_at_the_venue_lock_no_one(behind_nginx, django_user_model):
    names = [f"member{i}" for i in range(15)]
    for name in names:
        django_user_model.objects.create_user(name, password=f"{name}-pass-123")
    for name in names:  # everyone mistypes, some of them twice
        for _ in range(1 if name < "member5" else 2):
            assert sign_in(name, "typo").status_code == 200
    for name in names:
        assert sign_in(name, f"{name}-pass-123").status_code == 302, name


def test_spraying_many_names_from_one_address_locks_the_address(behind_nginx, alice):
    # 29 failures from one address, four names at a time: not locked yet.
    for i in range(29):
        assert (
            sign_in(f"guess{i // 4}", "password1", forwarded_for="203.0.113.9").status_code == 200
        )
    # The 30th locks the address, for every name, the organizer's too.
    assert sign_in("guess-last", "password1", forwarded_for="203.0.113.9").status_code == 429
    assert sign_in("alice", "alice-pass-123", forwarded_for="203.0.113.9").status_code == 429
    # Elsewhere, nobody is locked.
    assert sign_in("alice", "alice-pass-123", forwarded_for=VENUE).status_code == 302


def test_the_organizer_sees_an_address_lock_and_releases_it(behind_nginx, alice):
    for i in range(30):
        sign_in(f"guess{i}", "password1")
    organizer = Client()
    organizer.force_login(alice)
    html = organizer.get("/members/locks/").content.decode()
    assert html.count("ロック中") == 30  # every name at the locked address
    attempt = AccessAttempt.objects.filter(username="guess3").get()
    assert organizer.post(f"/members/locks/{attempt.pk}/release/").status_code == 302
    assert not AccessAttempt.objects.filter(ip_address=VENUE).exists()


# --- What the member is told -------------------------------------------------------------


def test_the_sign_in_page_says_how_many_tries_are_left(behind_nginx, bob):
    assert "ロック" not in Client().get("/login/").content.decode()
    client = Client()
    html = sign_in("bob", "wrong", client=client).content.decode()
    assert "あと4回間違えると15分間ロックされます" in html
    sign_in("bob", "wrong", client=client)
    html = sign_in("bob", "wrong", client=client).content.decode()
    assert "あと2回間違えると15分間ロックされます" in html
    # Another member at the venue has all their tries.
    assert "あと4回間違えると" in sign_in("carol", "wrong").content.decode()


def test_in_english_the_count_is_worded_for_one_and_for_more(behind_nginx, bob):
    client = Client()
    client.post("/i18n/setlang/", {"language": "en", "next": "/login/"})
    for _ in range(3):
        html = sign_in("bob", "wrong", client=client).content.decode()
    assert "2 more wrong tries lock sign-in for 15 minutes." in html
    html = sign_in("bob", "wrong", client=client).content.decode()
    assert "One more wrong try locks sign-in for 15 minutes." in html


# --- The password form -------------------------------------------------------------------


def test_wrong_old_passwords_on_the_password_form_count_as_failures(behind_nginx, bob):
    client = Client()
    assert sign_in("bob", "bob-pass-123", client=client).status_code == 302
    form = {"new_password1": "k9#shirakaba", "new_password2": "k9#shirakaba"}
    through_nginx = {"REMOTE_ADDR": NGINX, "HTTP_X_FORWARDED_FOR": VENUE}
    for _ in range(4):
        response = client.post("/password/", {**form, "old_password": "wrong"}, **through_nginx)
        assert response.status_code == 200
    assert AccessAttempt.objects.get(username="bob", ip_address=VENUE).failures_since_start == 4
    response = client.post("/password/", {**form, "old_password": "wrong"}, **through_nginx)
    assert response.status_code == 429
    # Locked now, on the form and at sign-in, even with the right password.
    response = client.post("/password/", {**form, "old_password": "bob-pass-123"}, **through_nginx)
    assert response.status_code == 429
    assert sign_in("bob", "bob-pass-123").status_code == 429
    bob.refresh_from_db()
    assert bob.check_password("bob-pass-123")


def test_the_right_old_password_still_changes_it(behind_nginx, bob):
    client = Client()
    client.force_login(bob)
    form = {"new_password1": "k9#shirakaba", "new_password2": "k9#shirakaba"}
    form["old_password"] = "bob-pass-123"
    response = client.post("/password/", form, REMOTE_ADDR=NGINX, HTTP_X_FORWARDED_FOR=VENUE)
    assert response.status_code == 302
    bob.refresh_from_db()
    assert bob.check_password("k9#shirakaba")


# --- Getting back in ---------------------------------------------------------------------


def test_unlock_from_the_shell_lets_a_locked_organizer_back_in(behind_nginx, alice, capsys):
    for _ in range(5):
        sign_in("alice", "wrong")
    assert sign_in("alice", "alice-pass-123").status_code == 429
    call_command("unlock", "alice")
    assert "alice" in capsys.readouterr().out
    assert sign_in("alice", "alice-pass-123").status_code == 302


def test_unlock_an_address_locked_by_spraying(behind_nginx, alice, capsys):
    for i in range(30):
        sign_in(f"guess{i}", "password1")
    assert sign_in("alice", "alice-pass-123").status_code == 429
    call_command("unlock", "alice")
    # Unlocking the name is not enough while the address is locked: the command says so.
    out = capsys.readouterr().out
    assert VENUE in out and f"unlock --address {VENUE}" in out
    call_command("unlock", "--address", VENUE)
    assert sign_in("alice", "alice-pass-123").status_code == 302
