"""The nightly backup leaves the machine (issue 43): ``manage.py backup --nightly`` writes a
backup named by the time into the backup folder and a copy into the second place the club
chose, the last seven kept in each; the second place missing or full is said plainly and loses
nothing; the organizer's home page says when the last good backup was made and warns when it is
older than two days."""

import errno
import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import translation

from scoring import backups
from scoring.backups import last_backup, nightly_backup

# A backup reads the database in a transaction of its own (REPEATABLE READ on PostgreSQL),
# which cannot open inside a test's: these tests commit, as tests/scoring/test_backups.py's do.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# SQLite's backup is a copy of its file; PostgreSQL's is JSON (docs/running.md).
SUFFIX = "sqlite3" if connection.vendor == "sqlite" else "json"


@pytest.fixture(autouse=True)
def in_english():
    with translation.override("en"):
        yield


NIGHT = datetime(2026, 11, 20, 18, 30, tzinfo=UTC)


@pytest.fixture
def places(settings, tmp_path: Path) -> tuple[Path, Path]:
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_COPY_DIR = str(tmp_path / "usb")
    (tmp_path / "usb").mkdir()
    return tmp_path / "backups", tmp_path / "usb"


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("shirakaba-"))


def test_nine_nights_keep_the_last_seven_here_and_in_the_second_place(places):
    here, usb = places
    for night in range(9):
        made, copy = nightly_backup(NIGHT + timedelta(days=night))
        assert copy is not None and copy.read_bytes() == made.read_bytes()
    expected = [f"shirakaba-2026-11-{day}-183000.{SUFFIX}" for day in range(22, 29)]
    assert names(here) == expected
    assert names(usb) == expected
    last = last_backup()
    assert last.made_at == NIGHT + timedelta(days=8)
    assert last.copied_at == NIGHT + timedelta(days=8)
    assert last.copy_error == ""


def test_a_missing_second_place_is_said_and_the_backup_is_kept(places, capsys):
    here, usb = places
    nightly_backup(NIGHT)
    shutil.rmtree(usb)  # the USB disk unplugged
    with pytest.raises(CommandError) as refused:
        call_command("backup", "--nightly")
    assert f"The second place for backups, {usb}, is not there" in str(refused.value)
    assert "is the USB disk plugged in" in str(refused.value)
    assert len(names(here)) == 2  # tonight's backup is kept
    last = last_backup()
    assert last.made_at and last.made_at > NIGHT  # the backup counts as made
    assert last.copied_at == NIGHT  # the last good copy is still the one before
    assert "is not there" in last.copy_error


def test_a_full_second_place_leaves_no_half_file_and_loses_nothing(places, monkeypatch):
    here, usb = places
    nightly_backup(NIGHT)

    def full(source, target, length=0):
        target.write(source.read(100))  # part of it, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(backups.shutil, "copyfileobj", full)
    with pytest.raises(backups.BackupError, match="No space left on device; is the disk full"):
        nightly_backup(NIGHT + timedelta(days=1))
    assert len(names(here)) == 2
    assert sorted(p.name for p in usb.iterdir()) == [f"shirakaba-2026-11-20-183000.{SUFFIX}"]
    status = json.loads((here / backups.STATUS).read_text())
    assert status["made_at"] == (NIGHT + timedelta(days=1)).isoformat()
    assert status["copied_at"] == NIGHT.isoformat()


def test_without_a_second_place_only_the_backup_is_made(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_COPY_DIR = ""
    made, copy = nightly_backup(NIGHT)
    assert made.exists() and copy is None


def test_a_backup_older_than_two_days_is_stale(places):
    nightly_backup(NIGHT)
    last = last_backup()
    assert not last.stale(NIGHT + timedelta(days=2))
    assert last.stale(NIGHT + timedelta(days=2, minutes=1))
    assert backups.LastBackup(None).stale(NIGHT)
