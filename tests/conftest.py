"""Shared fixtures: a named cast (alice the organizer, bob the member, charlie with no role)."""

from collections.abc import Iterator
from datetime import date

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import Group, User
from django.test import Client, override_settings
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from members.models import Club, Member
from members.roles import MEMBER, ORGANIZER, ensure_groups, grant
from members.scopes import in_club
from scoring.models import Hanchan, HandLevel, Meet, RuleSet
from scoring.reports.heartbeat import Heartbeat, installed
from shirakaba.devtools.workers import Workers
from tests.builders import (
    NAMES,
    database_url,
    put_back_migrated_data,
    reports_kept_in,
    worked_table,
)

# Hypothesis's 200 ms deadline is a timed test: on a loaded two-core machine a settlement that
# takes 10 ms once took 364 ms and failed CI's run. Speed is measured by the benchmark
# scripts (docs/performance.md), not here.
hypothesis_settings.register_profile("shirakaba", deadline=None)
hypothesis_settings.load_profile("shirakaba")


def _transactional(item: pytest.Item) -> bool:
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    return bool(
        marker and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences"))
    ) or any(name in fixtures for name in ("transactional_db", "live_server"))


def _reloads(item: pytest.Item) -> bool:
    marker = item.get_closest_marker("django_db")
    return bool(marker and marker.kwargs.get("serialized_rollback"))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """pytest-django runs the transactional tests after the others. Of those, a test with
    ``serialized_rollback`` goes first: it reloads the rows the migrations made at its start,
    which works only on the database as the migrations left it, before another transactional
    test flushed it (the flush makes the groups again under new ids). Which test came first
    used to depend on the files' names."""
    first = [item for item in items if _reloads(item)]
    rest = [item for item in items if not _reloads(item)]
    at = next((i for i, item in enumerate(rest) if _transactional(item)), len(rest))
    items[:] = [*rest[:at], *first, *rest[at:]]


@pytest.fixture(autouse=True, scope="session")
def plain_static_storage() -> Iterator[None]:
    """The manifest storage needs `collectstatic` first; tests use plain static storage, for
    the whole run: a browser test's live server still answers a page's late requests after
    the test (a prefetch, the offline copy), and with the storage put back between tests
    those answered 500 (「Missing staticfiles manifest entry for 'favicon.svg'」)."""
    plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    with override_settings(STORAGES={**django_settings.STORAGES, "staticfiles": plain}):
        yield


@pytest.fixture(autouse=True)
def in_the_default_club() -> Iterator[None]:
    """Each test works in the site's one club's scope, as a request or a command does: a query
    of a club's data outside every club's scope raises (members/scopes.py). The tests of
    several clubs enter another club's scope, or none, themselves."""
    with in_club(Club.DEFAULT_PK):
        yield


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
    (tests/scoring/management/commands/test_db_worker.py) sets the database backend again."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    reports_kept_in(settings, tmp_path / "reports")


@pytest.fixture(autouse=True)
def heartbeat() -> Iterator[Heartbeat]:
    """Each test makes with a heartbeat of its own, which beats nothing: a test's database is
    in the test's transaction, which a beating thread could only wait for, beyond the test.
    A test of the beat makes a beating one of its own (tests/scoring/reports/test_heartbeat.py;
    real workers beat in tests/scoring/management/commands/test_db_worker.py)."""
    with installed(Heartbeat(every=None)) as beat:
        yield beat
    assert beat.idle(), "the test's heartbeat thread outlived it"


@pytest.fixture
def alice(db) -> User:
    user = User.objects.create_user("alice", password="alice-pass-123", is_staff=True)
    if not Group.objects.filter(name=ORGANIZER).exists():  # flushed by a transactional test before
        ensure_groups()
    grant(user, ORGANIZER)
    return user


@pytest.fixture
def bob(db) -> User:
    user = User.objects.create_user("bob", password="bob-pass-123")
    if not Group.objects.filter(name=MEMBER).exists():  # flushed by a transactional test before
        ensure_groups()
    grant(user, MEMBER)
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
    """The club's default rule set. A transactional test before this one may have flushed
    the database (rule sets and groups come from the migrations): they are put back then."""
    if not RuleSet.objects.exists():
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
    """The eight players of the import tests' sheet (``NAMES`` in tests/builders.py)."""

    return [Member.objects.create(name=n, furigana="かな") for n in NAMES]


@pytest.fixture
def workers(settings, tmp_path):
    """Queue into the database, and run two `db_worker` processes on it until the test ends
    (each one started and looking for tasks before the test goes on)."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    pool = Workers(
        2,
        database_url=database_url(),
        reports_dir=settings.REPORTS_DIR,
        logs_dir=tmp_path,
        interval=0.1,
    )
    yield pool.processes
    pool.stop()
