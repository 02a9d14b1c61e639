"""A backup taken while another process writes, restored into an empty database, holds every
game. Runs against SQLite files, or scratch PostgreSQL databases when the suite runs on
PostgreSQL; the app runs in separate processes, as in real use."""

import json
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg
import pytest

from tests.builders import ROOT, environ, manage, run_python

WRITER = """
import sys, django
django.setup()
from members.scopes import in_club
_in_the_default_club = in_club(1)
_in_the_default_club.__enter__()
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
    assert refused.returncode != 0 and "空のデータベース" in refused.stderr


# --- What restore refuses (issue 15) -----------------------------------------------------
# restore() checks before it reads the backup, so these call it in this process on the
# test database; the backup file is an empty JSON list (it is never read when refused).


@pytest.fixture
def backup_file(tmp_path) -> Path:
    path = tmp_path / "backup.json"
    path.write_text("[]")
    return path


def refusal(path: Path) -> str:
    """Why restore refused ``path`` (in English)."""
    from django.utils import translation

    from scoring.backups import BackupError, restore

    with pytest.raises(BackupError) as refused, translation.override("en"):
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
def test_a_report_workers_beat_is_no_data():
    """The workers running beside the book beat into the database (the health page): a
    restore goes on while they run, and a backup holds no beat."""
    from scoring.backups import NOT_BACKED_UP, data_found
    from scoring.reports.heartbeat import worker_beat

    worker_beat("venue-pc:4242")
    assert data_found() == {}
    assert "scoring.workerbeat" in NOT_BACKED_UP


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
    with pytest.raises(CommandError, match=r"2 users.*空のデータベース"):
        call_command("restore", str(backup_file))
    assert django_user_model.objects.count() == 2


# --- What restore and backup check in the file (issue 26) --------------------------------
# A backup that is damaged, cut short, of another version's schema, or holding rows no backup
# writes is refused before the database is touched, with a message naming the file. The
# SQLite format runs only when the suite runs on SQLite (an SQLite backup needs an SQLite
# database); the JSON format, the one PostgreSQL uses, runs on both.

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")
sqlite_only = pytest.mark.skipif(ON_POSTGRES, reason="an SQLite backup needs SQLite")


class Scratch:
    """Scratch databases of the suite's kind, made from a migrated one (a file copy on
    SQLite, a template on PostgreSQL), dropped at the end."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.base = os.environ["DATABASE_URL"].rsplit("/", 1)[0] if ON_POSTGRES else ""
        self.names: list[str] = []

    def url(self, name: str) -> str:
        if not ON_POSTGRES:
            return f"sqlite:///{self.folder / name}.sqlite3"
        return f"{self.base}/{name}"

    def create(self, template: str | None = None) -> str:
        name = f"shirakaba_bk_{uuid.uuid4().hex[:8]}"
        if ON_POSTGRES:
            with psycopg.connect(f"{self.base}/postgres", autocommit=True) as admin:
                like = f' TEMPLATE "{template}"' if template else ""
                admin.execute(f'CREATE DATABASE "{name}"{like}')
            self.names.append(name)
        elif template:
            source = self.folder / f"{template}.sqlite3"
            (self.folder / f"{name}.sqlite3").write_bytes(source.read_bytes())
        return name

    def drop(self) -> None:
        if self.names:
            with psycopg.connect(f"{self.base}/postgres", autocommit=True) as admin:
                for name in self.names:
                    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """A migrated empty database (to copy as a restore's target), and backups of the demo
    club (30 games): ``sqlite`` (on SQLite) and ``json``."""
    folder = tmp_path_factory.mktemp("demo")
    scratch = Scratch(folder)
    try:
        migrated = scratch.create()
        manage(scratch.url(migrated), folder, "migrate", "-v0")
        live = scratch.create(template=migrated)
        manage(scratch.url(live), folder, "load_demo")
        backups = {"json": folder / "demo.json"}
        manage(scratch.url(live), folder, "backup", "--format", "json", str(backups["json"]))
        if not ON_POSTGRES:
            backups["sqlite"] = folder / "demo.sqlite3"
            manage(scratch.url(live), folder, "backup", str(backups["sqlite"]))
        yield {"scratch": scratch, "migrated": migrated, "live": live, "backups": backups}
    finally:
        scratch.drop()


def attempt(url: str, data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``manage.py`` on that database, whatever its exit."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environ(url, data_dir),
        capture_output=True,
        text=True,
        timeout=300,
    )


def assert_refused(done: subprocess.CompletedProcess[str], path: Path, *words: str) -> None:
    """Refused with a message (no traceback) that names the file and says ``words``."""
    assert done.returncode != 0, done.stdout
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("CommandError: "), done.stderr
    assert str(path) in done.stderr, done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


def restore_into_fresh(demo, tmp_path, path: Path) -> tuple[subprocess.CompletedProcess, str]:
    scratch = demo["scratch"]
    target = scratch.url(scratch.create(template=demo["migrated"]))
    return attempt(target, tmp_path, "restore", str(path)), target


def damage(source: Path, target: Path) -> Path:
    """A copy of ``source`` with 4 KB in its middle overwritten (on a page's boundary)."""
    data = bytearray(source.read_bytes())
    middle = len(data) // 2 // 4096 * 4096
    data[middle : middle + 4096] = b"\xa5" * 4096
    target.write_bytes(bytes(data))
    return target


def nothing_restored(url: str, data_dir: Path) -> None:
    """The database a refused restore was aimed at is still as migrated: no games, no data."""
    found = run_python(
        url,
        data_dir,
        "import django, json; django.setup()\n"
        "from scoring.backups import data_found\n"
        "from scoring.models import Hanchan\n"
        "print(json.dumps([Hanchan.objects.count(), data_found()]))",
    )
    assert json.loads(found) == [0, {}]


@pytest.mark.slow
@sqlite_only
def test_restore_refuses_a_damaged_sqlite_backup(demo, tmp_path):
    damaged = damage(demo["backups"]["sqlite"], tmp_path / "monday.bak")
    done, target = restore_into_fresh(demo, tmp_path, damaged)
    assert_refused(done, damaged, "損傷")
    nothing_restored(target, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["sqlite", "json"])
def test_restore_refuses_a_truncated_backup(demo, tmp_path, fmt):
    if fmt not in demo["backups"]:
        pytest.skip("an SQLite backup needs SQLite")
    whole = demo["backups"][fmt].read_bytes()
    cut = tmp_path / f"tuesday.{fmt}"
    cut.write_bytes(whole[: len(whole) // 2])
    done, target = restore_into_fresh(demo, tmp_path, cut)
    assert_refused(done, cut, "途中で切れ" if fmt == "json" else "損傷")
    assert "/tmp/tmp" not in done.stderr  # no temporary file's name
    nothing_restored(target, tmp_path)


def edit_sqlite(path: Path, *statements: str) -> None:
    import sqlite3

    db = sqlite3.connect(path)
    try:
        with db:
            for statement in statements:
                db.execute(statement)
    finally:
        db.close()


@pytest.mark.slow
@sqlite_only
@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('scoring', '9999_from_the_future', '2031-01-01')",
            "scoring.9999_from_the_future",
        ),
        ("DROP TABLE scoring_bighand", "scoring_bighand"),
        ("ALTER TABLE members_member DROP COLUMN note", "members_member.note"),
        ("DROP TABLE django_migrations", "django_migrations"),
    ],
)
def test_restore_refuses_an_sqlite_backup_of_another_schema(demo, tmp_path, edit, named):
    refused_once_edited(demo, tmp_path, named, edit)


def refused_once_edited(demo, tmp_path, named: str, *edits: str) -> None:
    """The demo's SQLite backup, edited (foreign keys off), is refused naming ``named``, and
    nothing is restored."""
    edited = tmp_path / "edited.bak"
    edited.write_bytes(demo["backups"]["sqlite"].read_bytes())
    edit_sqlite(edited, "PRAGMA foreign_keys = OFF", *edits)
    done, target = restore_into_fresh(demo, tmp_path, edited)
    assert_refused(done, edited, named)
    nothing_restored(target, tmp_path)


@pytest.mark.slow
@sqlite_only
def test_restoring_an_sqlite_backup_brings_no_sign_ins_and_sets_the_roles_again(demo, tmp_path):
    edited = tmp_path / "edited.bak"
    edited.write_bytes(demo["backups"]["sqlite"].read_bytes())
    edit_sqlite(
        edited,
        "INSERT INTO django_session VALUES ('k' || hex(randomblob(16)), 'x', '2099-01-01')",
        "INSERT INTO axes_accessattempt (user_agent, ip_address, username, http_accept, "
        "path_info, attempt_time, get_data, post_data, failures_since_start) "
        "VALUES ('', '203.0.113.9', 'kiroku', '', '/', '2030-01-01', '', '', 30)",
        "INSERT INTO auth_group_permissions (group_id, permission_id) "
        "SELECT g.id, p.id FROM auth_group g, auth_permission p "
        "WHERE g.name = '会員' AND p.codename = 'change_user'",
    )
    done, target = restore_into_fresh(demo, tmp_path, edited)
    assert done.returncode == 0, done.stderr
    found = run_python(
        target,
        tmp_path,
        "import django, json; django.setup()\n"
        "from django.contrib.auth.models import Group\n"
        "from django.contrib.sessions.models import Session\n"
        "from axes.models import AccessAttempt\n"
        "from scoring.models import Hanchan\n"
        "perms = Group.objects.get(name='会員').permissions.values_list('codename', flat=True)\n"
        "print(json.dumps([Hanchan.objects.count(), Session.objects.count(),\n"
        "                  AccessAttempt.objects.count(), sorted(perms)]))",
    )
    games, sessions, attempts, perms = json.loads(found)
    assert (games, sessions, attempts) == (30, 0, 0)
    assert "change_user" not in perms and perms and all(p.startswith("view_") for p in perms)


@pytest.mark.slow
@sqlite_only
@pytest.mark.parametrize("fmt", ["sqlite", "json"])
def test_backup_refuses_a_damaged_database(demo, tmp_path, fmt):
    scratch = demo["scratch"]
    broken = scratch.create(template=demo["live"])
    damage(scratch.folder / f"{broken}.sqlite3", scratch.folder / f"{broken}.sqlite3")
    target = tmp_path / "wednesday.bak"
    target.write_bytes(b"last week's good backup")
    done = attempt(scratch.url(broken), tmp_path, "backup", "--format", fmt, str(target))
    assert_refused(done, target, "損傷")
    assert target.read_bytes() == b"last week's good backup"  # left as it was
    # No temporary left beside the backup (the data directory's own cache aside).
    assert [p.name for p in tmp_path.iterdir() if p.name != "cache"] == ["wednesday.bak"]


# JSON restores in this process, on the test database (freshly migrated, so restore takes
# it): a backup of that same database, edited.


@pytest.fixture
def json_backup(db, tmp_path) -> Path:
    """What ``backup --format json`` writes of this database (dumpdata as backup() calls it:
    backup() itself sets REPEATABLE READ, which PostgreSQL allows only outside the test's
    transaction)."""
    from django.core.management import call_command

    from scoring.backups import NOT_BACKED_UP

    path = tmp_path / "club.json"
    with path.open("w", encoding="utf-8") as file:
        call_command(
            "dumpdata",
            natural_foreign=True,
            natural_primary=True,
            exclude=NOT_BACKED_UP,
            stdout=file,
        )
    return path


def edited(path: Path, *rows: dict, change=None) -> Path:
    objects = json.loads(path.read_text(encoding="utf-8"))
    if change:
        change(objects)
    path.write_text(json.dumps([*objects, *rows], ensure_ascii=False), encoding="utf-8")
    return path


KIROKU = {"model": "auth.user", "fields": {"username": "kiroku", "password": "!"}}
NOT_IN_A_BACKUP = {
    "sessions.session": [
        {
            "model": "sessions.session",
            "pk": "k" * 32,
            "fields": {"session_data": "x", "expire_date": "2099-01-01T00:00:00Z"},
        }
    ],
    "auth.permission": [
        {
            "model": "auth.permission",
            "fields": {"name": "x", "content_type": ["auth", "user"], "codename": "become_user"},
        }
    ],
    "admin.logentry": [
        KIROKU,
        {
            "model": "admin.logentry",
            "fields": {
                "action_time": "2030-01-01T00:00:00Z",
                "user": ["kiroku"],
                "object_repr": "x",
                "action_flag": 1,
                "change_message": "",
            },
        },
    ],
    "axes.accessattempt": [
        {
            "model": "axes.accessattempt",
            "fields": {
                "user_agent": "",
                "ip_address": "203.0.113.9",
                "username": "kiroku",
                "http_accept": "",
                "path_info": "/",
                "attempt_time": "2030-01-01T00:00:00Z",
                "get_data": "",
                "post_data": "",
                "failures_since_start": 30,
            },
        }
    ],
}


@pytest.mark.parametrize("label", NOT_IN_A_BACKUP)
def test_restore_refuses_rows_no_backup_holds(json_backup, label):
    from django.apps import apps
    from django.contrib.auth.models import User

    model = apps.get_model(label)
    before = model._base_manager.count()
    edited(json_backup, *NOT_IN_A_BACKUP[label])
    message = refusal(json_backup)
    assert str(json_backup) in message and label in message
    assert model._base_manager.count() == before  # nothing of the file was loaded
    assert not User.objects.exists()


def test_restore_sets_the_roles_permissions_again(json_backup):
    from django.contrib.auth.models import Group, Permission

    from members.roles import MEMBER, ORGANIZER
    from scoring.backups import restore

    def more_for_members(objects: list[dict]) -> None:
        (members,) = [
            o for o in objects if o["model"] == "auth.group" and o["fields"]["name"] == MEMBER
        ]
        members["fields"]["permissions"].append(["change_user", "auth", "user"])
        (organizers,) = [
            o for o in objects if o["model"] == "auth.group" and o["fields"]["name"] == ORGANIZER
        ]
        organizers["fields"]["permissions"] = []

    assert restore(edited(json_backup, change=more_for_members)) == "json"
    members = set(Group.objects.get(name=MEMBER).permissions.values_list("codename", flat=True))
    assert members == set(
        Permission.objects.filter(
            content_type__app_label__in=["members", "scoring"], codename__startswith="view_"
        ).values_list("codename", flat=True)
    )
    assert "view_hanchan" in members and "change_user" not in members
    assert Group.objects.get(name=ORGANIZER).permissions.filter(codename="change_hanchan").exists()


def test_restore_refuses_a_truncated_json_backup_by_its_name(json_backup):
    whole = json_backup.read_text(encoding="utf-8")
    json_backup.write_text(whole[: len(whole) // 2], encoding="utf-8")
    message = refusal(json_backup)
    assert str(json_backup) in message and "cut short" in message
    assert "backup.json" not in message  # the name of no temporary file


def test_restore_refuses_a_json_file_that_is_no_backup(tmp_path, db):
    path = tmp_path / "notes.json"
    path.write_text('{"games": 30}', encoding="utf-8")
    message = refusal(path)
    assert str(path) in message and "not a backup" in message


# backup() sets REPEATABLE READ, which PostgreSQL allows only at a transaction's start: outside
# the test's transaction, so the database is emptied afterwards and brought back as migrated.
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_backup_checks_the_json_it_wrote(tmp_path, monkeypatch):
    """A JSON backup that does not read back with every row is not written."""
    from django.core import serializers
    from django.utils import translation

    from scoring import backups

    original = serializers.serialize

    def losing_the_last(format: str, queryset, **options):
        return original(format, list(queryset)[:-1], **options)

    monkeypatch.setattr(serializers, "serialize", losing_the_last)
    path = tmp_path / "club.json"
    path.write_text("last week's")
    with translation.override("en"), pytest.raises(backups.BackupError) as refused:
        backups.backup(path, fmt="json")
    assert re.search(r"did not read back whole.* \d+ of \d+ rows written", str(refused.value))
    assert path.read_text() == "last week's" and [p.name for p in tmp_path.iterdir()] == [
        "club.json"
    ]


def test_a_restore_keeps_the_clubs_awards_and_gives_an_older_backup_the_defaults(json_backup):
    """A fresh database holds the default awards (the migrations give them), which a restore
    replaces with the backup's; a backup from before the awards came holds none, and its
    groups get the defaults."""
    from scoring.backups import data_found, restore
    from scoring.models import DEFAULT_AWARDS, Award, StandingsGroup

    assert data_found() == {}  # the default awards are what a migrated database holds
    group = StandingsGroup.clubs_own()
    award = Award.objects.of_group(group).first()
    # The club's own list, in the backup: its first award renamed.
    renamed = edited(json_backup, change=lambda objects: _rename_award(objects, award.pk))
    assert restore(renamed) == "json"
    assert Award.objects.of_group(group).first().name == "最優秀賞"
    assert Award.objects.filter(group=group).count() == len(DEFAULT_AWARDS)

    Award.objects.all().delete()
    Award.history.all().delete()  # an empty database again, but for the migrations' data
    without = edited(
        json_backup,
        change=lambda objects: objects.__setitem__(
            slice(None), [o for o in objects if not o["model"].endswith("award")]
        ),
    )
    assert restore(without) == "json"
    names = [a.name for a in Award.objects.of_group(StandingsGroup.clubs_own())]
    assert names == [name for _m, name, _s, _g in DEFAULT_AWARDS]


def _rename_award(objects: list[dict], pk: int) -> None:
    for o in objects:
        if o["model"] == "scoring.award" and o["pk"] == pk:
            o["fields"]["name"] = "最優秀賞"


# A person's rights after a restore come only from the two roles: a backup that gives more (a
# superuser, staff status without 記録係, a permission of one's own, a group of the organizer's
# own that holds permissions) is refused whole unless the rights are asked to be kept.

ORGANIZER_HASH = "pbkdf2_sha256$1000000$salt$hash"


def crafted_users(objects: list[dict]) -> None:
    """What the attack added to a real backup: a superuser "evil", and the member "kaiin"
    given staff status and two permissions of their own."""
    objects += [
        {
            "model": "auth.user",
            "fields": {"username": "evil", "password": ORGANIZER_HASH, "is_superuser": True},
        },
        {
            "model": "auth.user",
            "fields": {
                "username": "kaiin",
                "password": ORGANIZER_HASH,
                "is_staff": True,
                "groups": [["会員"]],
                "user_permissions": [
                    ["change_user", "auth", "user"],
                    ["change_hanchan", "scoring", "hanchan"],
                ],
            },
        },
    ]


def test_restore_refuses_a_backup_that_makes_a_superuser_or_gives_a_member_more(json_backup):
    from django.contrib.auth.models import User

    message = refusal(edited(json_backup, change=crafted_users))
    assert str(json_backup) in message
    assert "evil: superuser" in message
    assert "kaiin: staff, auth.change_user, scoring.change_hanchan" in message
    assert "--keep-admin-rights" in message  # says how to keep them when they are the club's
    assert not User.objects.exists()  # refused whole


def test_restore_keeps_the_rights_only_when_asked(json_backup):
    from django.contrib.auth.models import User

    from scoring.backups import restore

    assert restore(edited(json_backup, change=crafted_users), keep_admin_rights=True) == "json"
    assert User.objects.get(username="evil").is_superuser
    kaiin = User.objects.get(username="kaiin")
    assert kaiin.is_staff and kaiin.has_perm("auth.change_user")


def test_restore_takes_an_organizer_with_staff_status_and_a_member(json_backup, client):
    """The club's own logins as the running app makes them: 記録係 with staff status (the
    admin), 会員 without; the member gets no admin page."""
    from django.contrib.auth.models import User

    from scoring.backups import restore

    def the_club(objects: list[dict]) -> None:
        objects += [
            {
                "model": "auth.user",
                "fields": {
                    "username": "kiroku",
                    "password": "!",
                    "is_staff": True,
                    "groups": [["記録係"]],
                },
            },
            {"model": "auth.user", "fields": {"username": "kaiin", "groups": [["会員"]]}},
        ]

    assert restore(edited(json_backup, change=the_club)) == "json"
    kaiin = User.objects.get(username="kaiin")
    assert not kaiin.is_staff and not kaiin.is_superuser and not kaiin.has_perm("auth.change_user")
    client.force_login(kaiin)
    assert client.get("/admin/").status_code == 302  # to the admin's sign-in, not the admin


@pytest.mark.parametrize(
    "ref", [["change_user", "auth", "user"], "by_pk"], ids=["natural key", "primary key"]
)
def test_restore_refuses_a_group_of_its_own_that_gives_a_member_more(json_backup, ref):
    """A group other than the two roles counts for the people in it, whether the file names
    its permissions by natural key or by the database's primary key."""
    from django.contrib.auth.models import Permission, User

    if ref == "by_pk":
        ref = Permission.objects.get(codename="change_user").pk

    def a_group(objects: list[dict]) -> None:
        objects += [
            {"model": "auth.group", "pk": 900, "fields": {"name": "幹事", "permissions": [ref]}},
            {"model": "auth.user", "fields": {"username": "kaiin", "groups": [["会員"], 900]}},
        ]

    message = refusal(edited(json_backup, change=a_group))
    assert "kaiin: auth.change_user" in message
    assert not User.objects.exists()


CLUB_B = {
    "model": "members.club",
    "pk": 2,
    "fields": {"slug": "ume", "name": "梅会", "made_at": "2030-01-01T00:00:00Z"},
}


@pytest.mark.parametrize(
    ("in_b", "refused"),
    [("会員", True), ("記録係", False)],
    ids=["member there", "organizer there"],
)
def test_a_permission_of_ones_own_must_be_given_by_the_role_in_every_club(
    json_backup, in_b, refused
):
    """A login's own permission holds in every club it has a role in. 記録係 of one club gives
    it there, not in a club where the login is only 会員: refused unless every club's role
    gives it."""
    from django.contrib.auth.models import User

    from scoring.backups import restore

    def two_clubs(objects: list[dict]) -> None:
        objects += [
            CLUB_B,
            {
                "model": "auth.user",
                "fields": {
                    "username": "both",
                    "is_staff": True,
                    "user_permissions": [["change_hanchan", "scoring", "hanchan"]],
                },
            },
            {
                "model": "members.clubrole",
                "fields": {"club": 1, "user": ["both"], "role": "記録係"},
            },
            {"model": "members.clubrole", "fields": {"club": 2, "user": ["both"], "role": in_b}},
        ]

    path = edited(json_backup, change=two_clubs)
    if refused:
        assert "both: scoring.change_hanchan" in refusal(path)
        assert not User.objects.exists()
    else:
        assert restore(path) == "json"
        assert User.objects.get(username="both").has_perm("scoring.change_hanchan")


@pytest.mark.parametrize("again", [50, "050"], ids=["the same key", "the key written again"])
def test_restore_refuses_a_row_written_twice(json_backup, again):
    """loaddata lets a later row of the same key overwrite an earlier one, so a file could say
    記録係 to the check and 会員 to the database. No backup writes a row twice."""
    from django.contrib.auth.models import User

    role = {"model": "members.clubrole", "pk": 50}
    message = refusal(
        edited(
            json_backup,
            {
                "model": "auth.user",
                "fields": {
                    "username": "kaiin",
                    "is_staff": True,
                    "user_permissions": [["change_hanchan", "scoring", "hanchan"]],
                },
            },
            {**role, "fields": {"club": 1, "user": ["kaiin"], "role": "記録係"}},
            {**role, "pk": again, "fields": {"club": 1, "user": ["kaiin"], "role": "会員"}},
        )
    )
    assert "members.clubrole 50" in message and "twice" in message
    assert not User.objects.exists()


def test_restore_checks_the_rights_the_database_holds_after_loading(json_backup):
    """A role's group renamed by a later row (its key reused under another name) takes the
    people the file put in the role with it, and gives them the group's permissions: the
    rights are read from the loaded database, before the restore commits."""
    from django.contrib.auth.models import Group, User

    members_group = Group.objects.get(name="会員").pk
    message = refusal(
        edited(
            json_backup,
            {"model": "auth.user", "fields": {"username": "kaiin", "groups": [["会員"]]}},
            {
                "model": "auth.group",
                "pk": members_group,
                "fields": {"name": "幹事", "permissions": [["change_user", "auth", "user"]]},
            },
        )
    )
    assert "kaiin: auth.change_user" in message
    assert not User.objects.exists()


TRIGGER = (
    "CREATE TRIGGER escalate AFTER DELETE ON django_session BEGIN "
    "UPDATE auth_user SET is_superuser = 1, is_staff = 1 WHERE username = 'kaiin'; END"
)
# The organizer given auth.change_user of its own, by a link stored as text in a column
# rebuilt to hold text: SQL's comparison follows it, a check that compares keys would not.
LOOSE_LINK = [
    "CREATE TABLE loose (id integer PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL, "
    "permission_id integer NOT NULL)",
    "INSERT INTO loose SELECT * FROM auth_user_user_permissions",
    "DROP TABLE auth_user_user_permissions",
    "ALTER TABLE loose RENAME TO auth_user_user_permissions",
    "INSERT INTO auth_user_user_permissions (user_id, permission_id) "
    "SELECT CAST(u.id AS TEXT), p.id FROM auth_user u, auth_permission p "
    "WHERE u.username = 'kiroku' AND p.codename = 'change_user'",
]


@pytest.mark.slow
@sqlite_only
@pytest.mark.parametrize(
    ("edits", "named"),
    [([TRIGGER], "escalate"), (LOOSE_LINK, "auth_user_user_permissions.user_id")],
    ids=["a trigger", "a link stored as text"],
)
def test_restore_refuses_an_sqlite_backup_that_hides_sql_or_links(demo, tmp_path, edits, named):
    """What SQLite keeps besides rows: a trigger (its SQL would run in the restored database,
    here at the restore's own deletion of sign-ins) and loose types are refused."""
    refused_once_edited(demo, tmp_path, named, *edits)


@pytest.mark.slow
@sqlite_only
def test_restore_reads_the_backup_file_alone_not_a_log_beside_it(demo, tmp_path):
    """A -wal file beside a backup holds writes SQLite would apply on opening it: the
    restore checks and restores the file alone, and leaves the file and the log as they were."""
    import shutil
    import sqlite3

    backup = tmp_path / "wal.sqlite3"
    backup.write_bytes(demo["backups"]["sqlite"].read_bytes())
    db = sqlite3.connect(backup)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA wal_autocheckpoint = 0")
    with db:
        db.execute("UPDATE auth_user SET is_superuser = 1, is_staff = 1 WHERE username = 'kaiin'")
    crafted = tmp_path / "crafted.sqlite3"
    shutil.copyfile(backup, crafted)
    shutil.copyfile(f"{backup}-wal", f"{crafted}-wal")
    db.close()
    before = crafted.read_bytes()
    done, target = restore_into_fresh(demo, tmp_path, crafted)
    assert done.returncode == 0, done.stderr
    found = run_python(
        target,
        tmp_path,
        "import django; django.setup()\n"
        "from django.contrib.auth.models import User\n"
        "print(User.objects.get(username='kaiin').is_superuser)",
    )
    assert found == "False"
    assert crafted.read_bytes() == before and Path(f"{crafted}-wal").exists()


@pytest.mark.slow
@sqlite_only
def test_restore_refuses_an_sqlite_backup_edited_to_give_more_rights(demo, tmp_path):
    edited = tmp_path / "edited.bak"
    edited.write_bytes(demo["backups"]["sqlite"].read_bytes())
    edit_sqlite(
        edited,
        "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, "
        "is_staff, is_active, date_joined) VALUES "
        "('!', 1, 'evil', '', '', '', 1, 1, '2030-01-01')",
        "INSERT INTO auth_user_user_permissions (user_id, permission_id) "
        "SELECT u.id, p.id FROM auth_user u, auth_permission p "
        "WHERE u.username = 'kaiin' AND p.codename = 'delete_hanchan'",
        # 記録係 of a second club gives delete_hanchan there, not in the club kaiin is 会員 of.
        "INSERT INTO members_club (id, name, slug, made_at) VALUES (2, '梅会', 'ume', '2030-01-01')",
        "INSERT INTO members_clubrole (club_id, user_id, role) "
        "SELECT 2, id, '記録係' FROM auth_user WHERE username = 'kaiin'",
    )
    done, target = restore_into_fresh(demo, tmp_path, edited)
    assert_refused(done, edited, "evil", "kaiin", "scoring.delete_hanchan", "--keep-admin-rights")
    nothing_restored(target, tmp_path)

    kept = attempt(target, tmp_path, "restore", "--keep-admin-rights", str(edited))
    assert kept.returncode == 0, kept.stderr
    found = run_python(
        target,
        tmp_path,
        "import django; django.setup()\n"
        "from django.contrib.auth.models import User\n"
        "print(User.objects.get(username='evil').is_superuser,"
        " User.objects.get(username='kaiin').has_perm('scoring.delete_hanchan'))",
    )
    assert found == "True True"


# The backup's format follows its file's name when no --format is given; a name that says
# another format than the one asked for is refused before anything is written.


@pytest.mark.parametrize(
    ("name", "asked", "vendor", "expected"),
    [
        ("club.json", "auto", "sqlite", "json"),
        ("club.JSON", "auto", "sqlite", "json"),
        ("club.sqlite3", "auto", "sqlite", "sqlite"),
        ("club.db", "auto", "sqlite", "sqlite"),
        ("shirakaba-Wed.bak", "auto", "sqlite", "sqlite"),
        ("shirakaba-Wed.bak", "auto", "postgresql", "json"),
        ("club.json", "json", "postgresql", "json"),
        ("club.bak", "json", "sqlite", "json"),
    ],
)
def test_the_backups_format_follows_its_name(name, asked, vendor, expected):
    from scoring.backups import backup_format

    assert backup_format(Path(name), asked, vendor) == expected


@pytest.mark.parametrize(
    ("name", "asked", "vendor", "said"),
    [
        ("club.json", "sqlite", "sqlite", "--format sqlite"),
        ("club.sqlite3", "json", "sqlite", "--format json"),
        ("club.sqlite3", "auto", "postgresql", "needs an SQLite database"),
    ],
)
def test_a_name_that_says_another_format_is_refused(name, asked, vendor, said):
    from django.utils import translation

    from scoring.backups import BackupError, backup_format

    with translation.override("en"), pytest.raises(BackupError) as refused:
        backup_format(Path(name), asked, vendor)
    assert name in str(refused.value) and said in str(refused.value)


@pytest.mark.slow
def test_backup_to_a_json_name_writes_json(demo, tmp_path):
    scratch = demo["scratch"]
    path = tmp_path / "club.json"
    manage(scratch.url(demo["live"]), tmp_path, "backup", str(path))
    rows = json.loads(path.read_text(encoding="utf-8"))
    assert sum(row["model"] == "scoring.hanchan" for row in rows) == 30
    wrong = tmp_path / "club.sqlite3"
    done = attempt(scratch.url(demo["live"]), tmp_path, "backup", "--format", "json", str(wrong))
    assert_refused(done, wrong, "--format")
    assert not wrong.exists()
