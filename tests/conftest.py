"""Shared fixtures: a named cast (alice the organizer, bob the member, charlie with no role)."""

from collections.abc import Sequence
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.utils import translation

from members.models import Member
from members.roles import MEMBER, ORGANIZER
from scoring.models import Hanchan, HandLevel, Meet, PlayerEntry, RuleSet

WORKED_SCORES = (32_600, 30_000, 30_000, 27_400)
"""DOMAIN.md's worked table: 東 32,600 / 南 30,000 / 西 30,000 / 北 27,400."""


@pytest.fixture(autouse=True)
def plain_static_storage(settings) -> None:
    """The manifest storage needs `collectstatic` first; tests use plain static storage."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def default_language(settings):
    """Each test starts in the site's default language. A request through the test client
    activates its language in the thread (LocaleMiddleware) and nothing deactivates it, so an
    English request in one test made the next test's PDF English."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fast_passwords(settings) -> None:
    """A fast hasher for the tests' users: PBKDF2 takes 0.58 s a password here, MD5 none.
    Production keeps Django's hashers (settings.py sets none)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def reports_made_at_once(settings, tmp_path) -> None:
    """Reports' tasks run as they are queued (Django's immediate backend), and their files
    are kept in a directory of the test's own. The one test with a real worker
    (tests/scoring/test_report_worker.py) sets the database backend again."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    reports_kept_in(settings, tmp_path / "reports")


def reports_kept_in(settings, directory: Path) -> None:
    """Keep the reports' files in ``directory``: the reports storage (the file system) there."""
    settings.REPORTS_DIR = directory
    settings.STORAGES = {
        **settings.STORAGES,
        "reports": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": directory},
        },
    }


@pytest.fixture
def alice(db) -> User:
    user = User.objects.create_user("alice", password="alice-pass-123", is_staff=True)
    user.groups.add(Group.objects.get(name=ORGANIZER))
    return user


@pytest.fixture
def bob(db) -> User:
    user = User.objects.create_user("bob", password="bob-pass-123")
    user.groups.add(Group.objects.get(name=MEMBER))
    return user


@pytest.fixture
def charlie(db) -> User:
    """An outsider: a login in neither group, so no role in the club."""
    return User.objects.create_user("charlie", password="charlie-pass-123")


@pytest.fixture
def organizer_client(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def member_client(bob) -> Client:
    client = Client()
    client.force_login(bob)
    return client


@pytest.fixture
def outsider_client(charlie) -> Client:
    client = Client()
    client.force_login(charlie)
    return client


@pytest.fixture
def club_rule(db) -> RuleSet:
    if not RuleSet.objects.exists():  # flushed by a transactional test before this one
        put_back_migrated_data()
    return RuleSet.objects.default()


@pytest.fixture
def four_members(db) -> list[Member]:
    names = [
        ("東山 一郎", "ひがしやま いちろう"),
        ("南野 花子", "みなみの はなこ"),
        ("西川 次郎", "にしかわ じろう"),
        ("北村 三郎", "きたむら さぶろう"),
    ]
    return [Member.objects.create(name=n, furigana=f) for n, f in names]


def worked_table(
    members, chombo_east: int = 0, hands_east: Sequence[tuple[str, str]] = ()
) -> list[PlayerEntry]:
    """The worked table, seated 東 南 西 北 in the order of ``members``. Under the club's rule:
    東 +32.6, 南 and 西 0.0 each, 北 −32.6; with one chombo for 東, 東 +22.6 (DOMAIN.md)."""
    return [
        PlayerEntry(
            m,
            seat,
            score,
            chombo_east if seat == 0 else 0,
            big_hands=hands_east if seat == 0 else (),
        )
        for seat, (m, score) in enumerate(zip(members, WORKED_SCORES, strict=True))
    ]


@pytest.fixture
def meet(club_rule, four_members) -> Meet:
    """The Wednesday meet (水曜会) of 2025-04-09 under the club's rule, the four attending."""
    meet = Meet.objects.create(date=date(2025, 4, 9), kind="wed", rule_set=club_rule)
    meet.attendees.set(four_members)
    return meet


@pytest.fixture
def recorded_game(meet, club_rule, four_members) -> Hanchan:
    """The worked table recorded at table 1, round 1 of ``meet``, without chombo: 東山 一郎
    +32.6 with a 満貫, 南野 花子 and 西川 次郎 0.0, 北村 三郎 −32.6 (version 1)."""
    game = Hanchan(meet=meet, table_no=1, round_no=1, rule_set=club_rule)
    game.record(worked_table(four_members, hands_east=[(HandLevel.MANGAN, "")]))
    return game


@pytest.fixture
def members(db) -> list[Member]:
    """The eight players of the import tests' sheet (tests/scoring/test_imports.py)."""
    from tests.scoring.test_imports import NAMES

    return [Member.objects.create(name=n, furigana="かな") for n in NAMES]


def put_back_migrated_data() -> None:
    """The rule sets and standings groups as the migrations leave them, for tests whose
    database was flushed (``transaction=True``). Idempotent."""
    import importlib

    from scoring.models import StandingsGroup

    again = importlib.import_module("scoring.migrations.0007_read_the_sheets_again")
    for values, group_name in again.as_migrated():
        group, _ = StandingsGroup.objects.get_or_create(name=group_name)
        RuleSet.objects.update_or_create(name=values["name"], defaults={**values, "group": group})
