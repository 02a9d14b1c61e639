"""Browser tests: pytest-playwright driving Debian's Chromium (/usr/bin/chromium).

Playwright's own browser download is not used (it cannot be fetched here); `.ci/run`
installs the `chromium` package. A missing browser fails the run rather than skipping it.
"""

import importlib
import os
import shutil

import pytest
from django.apps import apps

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
    made = importlib.import_module("scoring.migrations.0002_rule_sets").RULE_SETS
    again = importlib.import_module("scoring.migrations.0007_read_the_sheets_again")
    StandingsGroup = apps.get_model("scoring", "StandingsGroup")
    RuleSet = apps.get_model("scoring", "RuleSet")
    club, _ = StandingsGroup.objects.get_or_create(name=again.CLUB_GROUP)
    for values in made:
        name = values["name"]
        group = club
        if name not in again.CLUB_RULES:
            group, _ = StandingsGroup.objects.get_or_create(name=name)
        defaults = {**values, **again.CHANGES.get(name, {}), "group": group}
        RuleSet.objects.update_or_create(name=name, defaults=defaults)


def sign_in(page, live_server, username: str, password: str) -> None:
    """Sign in through the sign-in page, as a person would, and land on the home page."""
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.press("#id_password", "Enter")
    page.wait_for_url(f"{live_server.url}/")
