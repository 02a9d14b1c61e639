"""A club's own backup, restored as a new club (several clubs in one install: "a club exports
and backs up its own data, and a club's backup restores into another install"). Restored into
this same database under another short name, every key of the file is one the database has
already: the restore must give each row a new one and follow every link to it."""

import io
import json
import os
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from members.models import Club, Member
from members.roles import ORGANIZER, club_roles
from members.scopes import in_club, scopes_disabled
from scoring.backups import BackupError
from scoring.club_backups import CARRIED, restore_club_backup, write_club_backup
from scoring.clubs import make_club
from scoring.models import (
    Answer,
    Award,
    ClubSettings,
    DrawnPlace,
    Hanchan,
    HanchanResult,
    HandLevel,
    Meet,
    RuleSet,
)
from scoring.reports.games_csv import render_games_csv
from scoring.standings import Filters
from tests.builders import crossings, worked_table

pytestmark = pytest.mark.django_db

NAMES = ["桜井 みどり", "桜田 はる", "桜木 あき", "桜庭 ふゆ"]


@pytest.fixture
def sakura(recorded_game) -> Club:
    """桜会, with one of everything its backup carries (and the site's club with a game)."""
    club = make_club("sakura", "桜会")
    with in_club(club):
        rule = RuleSet.objects.default()
        people = [Member.objects.create(name=n, furigana="さくら") for n in NAMES]
        people[0].user = User.objects.create_user("sakura-kiroku")
        people[0].save()
        for day in (date(2025, 5, 14), date(2025, 5, 17)):
            meet = Meet.objects.create(date=day, kind="wed", rule_set=rule, place="桜会館")
            meet.attendees.set(people)
            for table_round in (1, 2):
                game = Hanchan(meet=meet, table_no=1, round_no=table_round, rule_set=rule)
                game.record(worked_table(people, hands_east=[(HandLevel.MANGAN, "")]))
        DrawnPlace.objects.create(meet=meet, round_no=3, table_no=1, member=people[2])
        meet.finalise()  # a finalised meet's attendance is restored too
        coming = Meet.objects.create(
            date=date.today() + timedelta(days=30), kind="sat", rule_set=rule
        )
        Answer.objects.create(meet=coming, member=people[1], answer="coming")
        Award.objects.create(group=rule.group, name="桜会優勝", measure="total", winner=people[0])
        settings = ClubSettings.load()
        settings.representative = "桜会代表"
        settings.save()
    return club


def what_it_holds(club: Club) -> dict[str, object]:
    """Everything a member sees of the club's data, without keys."""
    with in_club(club):
        return {
            "games.csv": render_games_csv(Filters(every_group=True))[2],
            "counts": {m.__name__: m.objects.count() for m in CARRIED},
            "attendees": sorted(Meet.objects.values_list("date", "attendees__name")),
            "awards": sorted(Award.objects.values_list("name", "winner__name", "group__name")),
            "answers": list(Answer.objects.values_list("meet__date", "member__name", "answer")),
            "drawn": list(DrawnPlace.objects.values_list("round_no", "member__name")),
            "rule sets": sorted(RuleSet.objects.values_list("name", "group__name", "is_default")),
            "representative": ClubSettings.load().representative,
        }


def test_a_clubs_backup_restores_as_a_new_club_with_everything_it_showed(sakura, tmp_path):
    before = what_it_holds(sakura)
    ours_before = what_it_holds(Club.objects.get(pk=Club.DEFAULT_PK))
    path = tmp_path / "sakura.json"
    rows = write_club_backup(sakura, path)
    assert rows == sum(before["counts"].values()) and rows > 30

    copy, count = restore_club_backup(path, "sakura-copy")
    assert count == rows and copy.name == "桜会" and copy.pk != sakura.pk
    assert what_it_holds(copy) == before  # the CSV byte for byte, and all the rest
    assert what_it_holds(sakura) == before
    assert what_it_holds(Club.objects.get(pk=Club.DEFAULT_PK)) == ours_before
    assert crossings() == []
    with in_club(copy):  # logins are the site's: not carried
        assert not Member.objects.filter(user__isnull=False).exists()


def test_the_commands_back_up_and_restore_with_a_first_organizer(sakura, tmp_path):
    path = tmp_path / "club.json"
    call_command("backup_club", "--club", "sakura", str(path), stdout=io.StringIO())
    call_command(
        "restore_club",
        str(path),
        "ume",
        "--name",
        "梅会",
        "--organizer",
        "ume-kiroku",
        stdout=io.StringIO(),
    )
    ume = Club.objects.get(slug="ume")
    assert ume.name == "梅会"
    with in_club(ume):
        assert club_roles(User.objects.get(username="ume-kiroku")) == {ORGANIZER}
        assert Hanchan.objects.count() == 4
    with pytest.raises(CommandError):  # the short name is taken
        call_command("restore_club", str(path), "ume", stdout=io.StringIO())


def tampered(path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize(
    "trick",
    [
        "points at another club's member",
        "carries a login",
        "another version",
        "not a club's backup",
        "a name the forms refuse",
    ],
)
def test_a_tampered_backup_is_refused_whole(trick, sakura, tmp_path, four_members):
    path = tmp_path / "sakura.json"
    write_club_backup(sakura, path)
    ours = four_members[0].pk

    def change(data):
        if trick == "points at another club's member":
            row = next(r for r in data["rows"] if r["model"] == "scoring.hanchanresult")
            row["fields"]["member"] = ours
        elif trick == "carries a login":
            data["rows"].insert(0, {"model": "auth.user", "pk": 99, "fields": {"username": "x"}})
        elif trick == "another version":
            data["schema"] = data["schema"][:-1]
        elif trick == "a name the forms refuse":  # a direction mark and a spreadsheet formula
            row = next(r for r in data["rows"] if r["model"] == "members.member")
            row["fields"]["name"] = '=HYPERLINK("http://evil.invalid","桜")\u202e'
        else:
            data["format"] = "something else"

    tampered(path, change)
    clubs = Club.objects.count()
    with scopes_disabled():
        results_of_ours = HanchanResult.objects.filter(member_id=ours).count()
    with pytest.raises(BackupError):
        restore_club_backup(path, "evil")
    assert Club.objects.count() == clubs and not User.objects.filter(username="x").exists()
    with scopes_disabled():
        assert HanchanResult.objects.filter(member_id=ours).count() == results_of_ours


@pytest.mark.slow  # migrates a second install (about 15 s)
def test_a_clubs_backup_restores_into_another_install(sakura, tmp_path):
    """A fresh install of its own (SQLite in another folder, whatever this run's database):
    the club restored there exports the same games CSV, byte for byte."""
    path = tmp_path / "sakura.json"
    write_club_backup(sakura, path)
    with in_club(sakura):
        expected = render_games_csv(Filters(every_group=True))[2]
    other = tmp_path / "other-install"
    other.mkdir()
    env = {**os.environ, "SHIRAKABA_DATA_DIR": str(other)}
    env.pop("DATABASE_URL", None)

    def manage(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=Path(__file__).resolve().parents[2],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )

    assert manage("migrate", "-v0").returncode == 0
    done = manage("restore_club", str(path), "sakura", "--organizer", "sakura-kiroku")
    assert done.returncode == 0, done.stderr
    games = tmp_path / "games.csv"
    done = manage(
        "export_report",
        "--club",
        "sakura",
        "--period",
        "all",
        "--format",
        "csv",
        "--output",
        str(games),
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    assert games.read_bytes() == expected
