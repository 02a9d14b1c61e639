"""Health at a glance for the organizer (issue 43): the version, the database, the report
workers alive (their beat), the kept reports' size against its limit, the last backup and its
copy, and the address and scheme the app sees (what the proxy in front passes on); the home page
says when the last good backup was made and warns when it is older than two days."""

import signal
import socket
import time
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from scoring.backups import nightly_backup
from scoring.models import WorkerBeat
from scoring.reports.heartbeat import WORKER_ALIVE_FOR, worker_beat, workers_alive
from shirakaba.devtools.workers import Workers
from tests.builders import database_url

# A backup reads the database in a transaction of its own (REPEATABLE READ on PostgreSQL),
# which cannot open inside a test's: these tests commit, as tests/scoring/test_backups.py's do.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def backup_places(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_COPY_DIR = str(tmp_path / "usb")
    (tmp_path / "usb").mkdir()
    return tmp_path


def test_the_health_page_says_each_thing(organizer_client, backup_places, settings):
    settings.REPORTS_MAX_BYTES = 500 * 1024 * 1024
    worker_beat("venue-pc:4242")
    nightly_backup(timezone.now() - timedelta(hours=3))
    page = organizer_client.get("/health/", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert page.status_code == 200
    text = page.content.decode()
    assert "0.1.0" in text
    engine = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}[connection.vendor]
    assert engine in text and "つながっています" in text
    assert "venue-pc:4242" in text and "動いている係：1" in text
    assert "0\xa0バイト / 500.0\xa0MB" in text
    assert "最後のバックアップ" in text and "コピー" in text
    assert "2日以上前" not in text
    # No proxy counted (PROXY_COUNT=0): the connection's own address, not what was written.
    assert "127.0.0.1" in text and "203.0.113.9" not in text


def test_no_worker_and_no_backup_are_said_plainly(organizer_client, backup_places):
    text = organizer_client.get("/health/").content.decode()
    assert "動いている係：0" in text
    assert "バックアップはまだ一度も取られていません" in text


def test_only_the_organizer_sees_it(member_client):
    assert member_client.get("/health/").status_code == 403


def test_the_home_page_warns_of_an_old_backup(organizer_client, member_client, backup_places):
    nightly_backup(datetime.now(UTC) - timedelta(days=3))
    text = organizer_client.get("/").content.decode()
    assert "最後のバックアップから2日以上たっています" in text
    assert "動作状況" in text  # the link to the health page
    assert "バックアップ" not in member_client.get("/").content.decode()


def test_the_home_page_says_a_fresh_backup_and_a_failed_copy(organizer_client, backup_places):
    import shutil

    nightly_backup(datetime.now(UTC) - timedelta(hours=1))
    shutil.rmtree(backup_places / "usb")
    with pytest.raises(Exception, match="が見つかりません"):
        nightly_backup(datetime.now(UTC))
    text = organizer_client.get("/").content.decode()
    assert "最後のバックアップ：" in text
    assert "2日以上たっています" not in text
    assert "コピーできませんでした" in text


def test_a_running_worker_is_counted_and_one_that_died_ages_out(organizer_client, tmp_path):
    """Real ``manage.py db_worker`` processes on the test's database (each process of the book
    has a cache of its own with locmem; the database they all share): each one's beat is a
    row, the health page counts it; one stopped with SIGTERM takes its row away, one killed
    with SIGKILL leaves it, no longer counted once ``WORKER_ALIVE_FOR`` has passed, and pruned
    when another worker beats long after."""
    pool = Workers(
        2, database_url=database_url(), reports_dir=tmp_path / "reports", logs_dir=tmp_path
    )
    host = socket.gethostname()
    stopped, killed = (f"{host}:{process.pid}" for process in pool.processes)
    try:
        deadline = time.monotonic() + 60
        while WorkerBeat.objects.filter(name__in=[stopped, killed]).count() < 2:
            assert pool.alive() and time.monotonic() < deadline, "no beat from the workers"
            time.sleep(0.1)
        text = organizer_client.get("/health/").content.decode()
        assert "動いている係：2" in text and stopped in text and killed in text
        pool.processes[0].terminate()
        pool.processes[0].wait(30)
        assert not WorkerBeat.objects.filter(name=stopped).exists()
        pool.processes[1].send_signal(signal.SIGKILL)
        pool.processes[1].wait(30)
    finally:
        pool.stop()
    # The killed worker said nothing: its row stays, counted until WORKER_ALIVE_FOR has passed.
    last = WorkerBeat.objects.get(name=killed).beat_at
    assert killed in workers_alive(last + WORKER_ALIVE_FOR - timedelta(seconds=1))
    assert killed not in workers_alive(last + WORKER_ALIVE_FOR)
    # The health page's own clock: the beat moved back as far as that time.
    WorkerBeat.objects.filter(name=killed).update(beat_at=timezone.now() - WORKER_ALIVE_FOR)
    text = organizer_client.get("/health/").content.decode()
    assert "動いている係：0" in text and killed not in text
    # Rows long silent are taken away when a worker beats.
    worker_beat("venue-pc:1", now=last + 10 * WORKER_ALIVE_FOR)
    assert list(WorkerBeat.objects.values_list("name", flat=True)) == ["venue-pc:1"]


def test_the_sites_state_is_for_the_sites_keepers_not_every_clubs_organizer(
    organizer_client, alice, backup_places
):
    """In an install of several clubs the health page and the backup's warning are the
    site's: its superuser's and its own club's organizer's (in an install of one club, the
    organizer's as before), not the organizer's of a club the site keeps for others."""
    from django.contrib.auth.models import User

    from scoring.clubs import make_club

    make_club("sakura", "桜会", organizer="sakura-kiroku")
    theirs = Client()
    theirs.force_login(User.objects.get(username="sakura-kiroku"))
    assert theirs.get("/health/").status_code == 403
    assert "home-health" not in theirs.get("/").content.decode()
    assert organizer_client.get("/health/").status_code == 200
    assert "home-health" in organizer_client.get("/").content.decode()
    root = Client()
    root.force_login(User.objects.create_superuser("root", password="root-pass-123"))
    assert root.get("/health/").status_code == 200
