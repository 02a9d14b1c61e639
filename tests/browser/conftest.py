"""Browser tests: pytest-playwright driving Debian's Chromium (/usr/bin/chromium).

Playwright's own browser download is not used (it cannot be fetched here); `.ci/run`
installs the `chromium` package. A missing browser fails the run rather than skipping it.
"""

import os
import shutil
from datetime import date

import pytest
from django.contrib.auth.models import Group, User

from members.models import Member
from members.roles import MEMBER, ORGANIZER, ensure_groups, grant
from scoring.meet_draw import make_draw, save_draw
from scoring.models import Hanchan, Meet, PlayerEntry, RuleSet
from tests.builders import MEET_DAY_NAMES, put_back_migrated_data

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs a loop

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not os.path.exists(CHROMIUM):
        pytest.fail("Chromium is needed for the browser tests: apt-get install -y chromium")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture
def browser_context_args(browser_context_args):
    # A tablet in landscape, as at the venue.
    return {**browser_context_args, "viewport": {"width": 1024, "height": 768}, "locale": "ja-JP"}


@pytest.fixture(autouse=True)
def migrated_data(live_server):
    """Live-server tests run in flushed databases: put back what the migrations made.

    (``serialized_rollback`` restores nothing here: under Playwright's sync API the test's
    database connection is not the one Django serialized at setup.)
    """
    put_back_migrated_data()


@pytest.fixture
def club():
    user = User.objects.create_user("bob", password="bob-pass-123")
    if not Group.objects.filter(name=MEMBER).exists():  # flushed by a transactional test before
        ensure_groups()
    grant(user, MEMBER)
    rule = RuleSet.objects.default()
    people = [
        Member.objects.create(name=n, furigana=f)
        for n, f in [
            ("青木", "あおき"),
            ("井上", "いのうえ"),
            ("上田", "うえだ"),
            ("江藤", "えとう"),
        ]
    ]
    for day, kind, scores in [
        (date(2025, 10, 1), "wed", [40_000, 35_000, 25_000, 20_000]),
        (date(2025, 10, 4), "sat", [20_000, 25_000, 35_000, 40_000]),
    ]:
        meet = Meet.objects.create(date=day, kind=kind, rule_set=rule)
        entries = [
            PlayerEntry(m, i, s) for i, (m, s) in enumerate(zip(people, scores, strict=True))
        ]
        Hanchan(meet=meet, table_no=1, round_no=1, rule_set=rule).record(entries)
    return people


@pytest.fixture
def drawn_meet_day() -> Meet:
    """The organizer alice, and a meet of twelve present (the meet day's first twelve names)
    whose three rounds are drawn (seed 7): what the offline and Save-in-view tests play."""
    user = User.objects.create_user("alice", password="alice-pass-123", is_staff=True)
    grant(user, ORGANIZER)
    members = [Member.objects.create(name=name, furigana="かな") for name in MEET_DAY_NAMES[:12]]
    meet = Meet.objects.create(
        date=date(2026, 11, 25), kind="wed", rule_set=RuleSet.objects.default()
    )
    meet.attendees.set(members)
    save_draw(meet, make_draw(meet, seed=7), seed=7)
    return meet
