"""Browser tests: pytest-playwright driving Debian's Chromium (/usr/bin/chromium).

Playwright's own browser download is not used (it cannot be fetched here); `.ci/run`
installs the `chromium` package. A missing browser fails the run rather than skipping it.
"""

import os
import shutil

import pytest

from tests.conftest import put_back_migrated_data

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


def sign_in(page, live_server, username: str, password: str) -> None:
    """Sign in through the sign-in page, as a person would, and land on the home page."""
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.press("#id_password", "Enter")
    page.wait_for_url(f"{live_server.url}/")
