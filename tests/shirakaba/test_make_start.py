"""``make start DEMO=0``: the first step of docs/running.md's way online sets the book up
without the demo club, whose logins the README prints for anyone to read (found trying that
path from a fresh clone: the demo club went into the book that was to go online)."""

import subprocess

from django.conf import settings


def recipe(*args: str) -> str:
    """What ``make start`` would run (``make -n``: nothing is run)."""
    done = subprocess.run(
        ["make", "-n", "start", *args],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_make_start_loads_the_demo_club_unless_told_not_to():
    assert "manage.py load_demo --if-empty" in recipe()
    plain = recipe("DEMO=0")
    assert "load_demo" not in plain
    assert "manage.py migrate" in plain and "manage.py runserver" in plain
