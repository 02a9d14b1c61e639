"""Shared fixtures: a named cast (alice the organizer, bob the member, charlie with no role)."""

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from members.models import Member
from members.roles import MEMBER, ORGANIZER
from scoring.models import RuleSet


@pytest.fixture(autouse=True)
def plain_static_storage(settings) -> None:
    """The manifest storage needs `collectstatic` first; tests use plain static storage."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def fast_passwords(settings) -> None:
    """A fast hasher for the tests' users: PBKDF2 takes 0.58 s a password here, MD5 none.
    Production keeps Django's hashers (settings.py sets none)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
def club_rule(db) -> RuleSet:
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
def members(db) -> list[Member]:
    """The eight players of the import tests' sheet (tests/scoring/test_imports.py)."""
    from tests.scoring.test_imports import NAMES

    return [Member.objects.create(name=n, furigana="かな") for n in NAMES]


def put_back_migrated_data() -> None:
    """The rule sets and standings groups as the migrations leave them, for tests whose
    database was flushed (``transaction=True``). Idempotent."""
    import importlib

    from scoring.models import StandingsGroup

    made = importlib.import_module("scoring.migrations.0002_rule_sets").RULE_SETS
    again = importlib.import_module("scoring.migrations.0007_read_the_sheets_again")
    club, _ = StandingsGroup.objects.get_or_create(name=again.CLUB_GROUP)
    for values in made:
        name = values["name"]
        group = club
        if name not in again.CLUB_RULES:
            group, _ = StandingsGroup.objects.get_or_create(name=name)
        defaults = {**values, **again.CHANGES.get(name, {}), "group": group}
        RuleSet.objects.update_or_create(name=name, defaults=defaults)
