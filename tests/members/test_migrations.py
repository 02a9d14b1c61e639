"""members 0006 makes one model of the two a login's reading was kept in: every
ReadingPreference's ruby moves into DisplaySettings (beside the text size and contrast), and
ReadingPreference goes. Run on the test database with Django's migration executor: back to
0005, rows written as the old code wrote them, then forward again (and back once more)."""

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("members", "0005_display_settings")]
AFTER = [("members", "0006_one_display_settings")]


def migrate(to: list[tuple[str, str]]):
    """Migrate members to ``to``; the apps (models as they were there)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(to)
    return MigrationExecutor(connection).loader.project_state(to).apps


@pytest.fixture
def at_0005() -> Iterator[object]:
    yield migrate(BEFORE)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # the rest of the suite's schema


def test_every_ruby_choice_moves_into_the_display_settings_and_nothing_is_lost(at_0005):
    old = at_0005
    User = old.get_model("auth", "User")
    Reading = old.get_model("members", "ReadingPreference")
    Display = old.get_model("members", "DisplaySettings")
    users = {name: User.objects.create(username=name) for name in "abcde"}
    Reading.objects.create(user=users["a"], show_ruby=True)  # ruby only
    Reading.objects.create(user=users["b"], show_ruby=True)  # ruby and a text size
    Display.objects.create(user=users["b"], text_size="xlarge", contrast="high")
    Reading.objects.create(user=users["c"], show_ruby=False)  # ruby chosen off, a size
    Display.objects.create(user=users["c"], text_size="large")
    Display.objects.create(user=users["d"], contrast="high")  # no ruby chosen
    # e: nothing chosen

    new = migrate(AFTER)
    with pytest.raises(LookupError):
        new.get_model("members", "ReadingPreference")
    saved = {
        row.user.username: (row.text_size, row.contrast, row.show_ruby)
        for row in new.get_model("members", "DisplaySettings").objects.select_related("user")
    }
    assert saved == {
        "a": ("standard", "standard", True),
        "b": ("xlarge", "high", True),
        "c": ("large", "standard", False),
        "d": ("standard", "high", False),
    }

    # And back: each login's ruby is where the old code reads it.
    old = migrate(BEFORE)
    ruby = {
        r.user.username: r.show_ruby
        for r in old.get_model("members", "ReadingPreference").objects.select_related("user")
    }
    assert ruby == {"a": True, "b": True, "c": False, "d": False}
    sizes = {
        d.user.username: (d.text_size, d.contrast)
        for d in old.get_model("members", "DisplaySettings").objects.select_related("user")
    }
    assert sizes == {
        "a": ("standard", "standard"),
        "b": ("xlarge", "high"),
        "c": ("large", "standard"),
        "d": ("standard", "high"),
    }
