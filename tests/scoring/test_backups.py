"""A backup taken while another process writes, restored into an empty database, holds every
game. Runs against SQLite files, or scratch PostgreSQL databases when the suite runs on
PostgreSQL; the app runs in separate processes, as in real use."""

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[2]

WRITER = """
import sys, django
django.setup()
from members.models import Member
from scoring.models import Hanchan, Meet, PlayerEntry, RuleSet
rule = RuleSet.objects.default()
import datetime
people = list(Member.objects.all()[:4])
for i in range(1000):
    if i % 20 == 0:  # the same four play 20 rounds a meet
        day = datetime.date(2030, 1, 1) + datetime.timedelta(days=i // 20)
        meet = Meet.objects.create(date=day, kind="other", rule_set=rule)
    game = Hanchan(meet=meet, table_no=1, round_no=i % 20 + 1, rule_set=rule)
    game.record([PlayerEntry(p, seat, s) for seat, (p, s) in enumerate(zip(people, [40000, 35000, 25000, 20000]))])
    print(f"wrote {i + 1}", flush=True)
"""

CHECK = """
import json, django
django.setup()
from django.db.models import Count
from scoring.models import Hanchan, HanchanResult
games = Hanchan.objects.annotate(n=Count("results"))
incomplete = games.exclude(n=4).count()
wrong = sum(1 for g in Hanchan.objects.prefetch_related("results")
            if sum(r.total_points for r in g.results.all()) != -10 * sum(r.chombo for r in g.results.all()))
print(json.dumps({"games": games.count(), "incomplete": incomplete, "wrong": wrong,
                  "results": HanchanResult.objects.count()}))
"""


@pytest.fixture
def databases(tmp_path):
    """Two scratch databases of the suite's kind: (live URL, restore URL)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        yield f"sqlite:///{tmp_path / 'live.sqlite3'}", f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    base = url.rsplit("/", 1)[0]
    names = [f"shirakaba_bk_{uuid.uuid4().hex[:8]}_{n}" for n in ("live", "restored")]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        for name in names:
            admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{base}/{names[0]}", f"{base}/{names[1]}"
    finally:
        with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def environ(url: str, data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DATABASE_URL=url,
        SHIRAKABA_DATA_DIR=str(data_dir),
        DJANGO_SETTINGS_MODULE="shirakaba.settings",
        SECRET_KEY="backup-test",
    )
    return env


def run(url: str, data_dir: Path, *argv: str) -> str:
    """Run Python (``argv`` as after ``python``) on that database; what it printed."""
    done = subprocess.run(
        [sys.executable, *argv],
        cwd=ROOT,
        env=environ(url, data_dir),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def manage(url: str, data_dir: Path, *args: str) -> str:
    return run(url, data_dir, "manage.py", *args)


def run_python(url: str, data_dir: Path, code: str) -> str:
    """Run ``code`` in a fresh interpreter on that database; its last line of output."""
    return run(url, data_dir, "-c", code).strip().splitlines()[-1]


def check(url: str, data_dir: Path) -> dict[str, int]:
    return json.loads(run_python(url, data_dir, CHECK))


def wait_for(writer: subprocess.Popen, count: int) -> int:
    """Read the writer's progress until it has committed at least ``count`` games."""
    written = 0
    deadline = time.monotonic() + 120
    while written < count:
        assert time.monotonic() < deadline, "the writer stalled"
        line = writer.stdout.readline()
        assert line, f"the writer stopped: {writer.stderr.read()}"
        if line.startswith("wrote "):
            written = int(line.split()[1])
    return written


@pytest.mark.slow
def test_a_backup_taken_while_another_process_writes_holds_every_game(databases, tmp_path):
    live, restored = databases
    manage(live, tmp_path, "migrate", "-v0")
    manage(live, tmp_path, "load_demo")  # 30 games
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER],
        cwd=ROOT,
        env=environ(live, tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        before = wait_for(writer, 20)  # committed before the backup starts
        backup = tmp_path / "backup.bin"
        manage(live, tmp_path, "backup", str(backup))
        during = wait_for(writer, before + 20)  # the writer went on meanwhile
    finally:
        writer.kill()
        writer.wait()
    assert during > before

    manage(restored, tmp_path, "migrate", "-v0")
    manage(restored, tmp_path, "restore", str(backup))
    found = check(restored, tmp_path)
    assert found["games"] >= 30 + before
    assert found["incomplete"] == 0 and found["wrong"] == 0
    assert found["results"] == 4 * found["games"]

    # Restoring again into the now full database is refused.
    refused = subprocess.run(
        [sys.executable, "manage.py", "restore", str(backup)],
        cwd=ROOT,
        env=environ(restored, tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode != 0 and "empty database" in refused.stderr


# --- What restore refuses (issue 15) -----------------------------------------------------
# restore() checks before it reads the backup, so these call it in this process on the
# test database; the backup file is an empty JSON list (it is never read when refused).


@pytest.fixture
def backup_file(tmp_path) -> Path:
    path = tmp_path / "backup.json"
    path.write_text("[]")
    return path


def refusal(path: Path) -> str:
    from scoring.backups import BackupError, restore

    with pytest.raises(BackupError) as refused:
        restore(path)
    return str(refused.value)


@pytest.mark.django_db
def test_a_freshly_migrated_database_holds_no_data():
    from django.contrib.auth.models import Group

    from scoring.backups import data_found
    from scoring.models import RuleSet

    # The migrations' five rule sets and the two groups are not data.
    assert RuleSet.objects.count() == 5 and Group.objects.count() == 2
    assert data_found() == {}


@pytest.mark.django_db
def test_restore_refuses_a_database_with_only_a_fresh_superuser(backup_file, django_user_model):
    django_user_model.objects.create_superuser("admin", password="x")
    message = refusal(backup_file)
    assert "1 user" in message and "empty database" in message
    assert django_user_model.objects.filter(username="admin").exists()


@pytest.mark.django_db
def test_restore_lists_everything_it_found(backup_file, django_user_model, club_rule):
    from scoring.models import ClubSettings

    django_user_model.objects.create_superuser("admin", password="x")
    django_user_model.objects.create_user("kiroku", password="x")
    club_rule.copy("白樺会 四人打ち (2026)")
    ClubSettings(pk=1, standings_public=True).save()
    message = refusal(backup_file)
    assert "2 users, 1 rule set" in message
    assert "club settings" in message
    assert "1 historical rule set" in message  # the copy's history


@pytest.mark.django_db
def test_a_changed_migration_rule_set_is_data(backup_file, club_rule):
    club_rule.description = "2026年度から: 錯和は −20P"
    club_rule.save()
    assert "1 rule set" in refusal(backup_file)


@pytest.mark.django_db
def test_a_group_of_the_organizers_own_is_data(backup_file):
    from django.contrib.auth.models import Group

    Group.objects.create(name="幹事")
    assert "1 group" in refusal(backup_file)


@pytest.mark.django_db
def test_the_restore_command_says_what_it_found(backup_file, django_user_model):
    from django.core.management import CommandError, call_command

    django_user_model.objects.create_user("kiroku", password="x")
    django_user_model.objects.create_user("kaiin", password="x")
    with pytest.raises(CommandError, match="2 users"):
        call_command("restore", str(backup_file))
    assert django_user_model.objects.count() == 2
