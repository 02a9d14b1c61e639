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


CLUBS = [("members", "0007_clubs")]
CLUB_ROLES = [("members", "0008_club_roles")]


@pytest.fixture
def at_0007() -> Iterator[object]:
    yield migrate(CLUBS)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_the_role_groups_members_become_roles_in_the_default_club_and_back(at_0007):
    """members 0008: a login in the group 記録係 or 会員 holds that role in the site's one
    club, and is in the group no more; a group of another name is left as it is. Back again,
    each role in the site's one club is that group's membership once more."""
    old = at_0007
    User = old.get_model("auth", "User")
    Group = old.get_model("auth", "Group")
    groups = {
        name: Group.objects.get_or_create(name=name)[0] for name in ("記録係", "会員", "幹事")
    }
    users = {name: User.objects.create(username=name) for name in ("kiroku", "kaiin", "both", "x")}
    users["kiroku"].groups.add(groups["記録係"])
    users["kaiin"].groups.add(groups["会員"])
    users["both"].groups.add(groups["記録係"], groups["会員"])
    users["x"].groups.add(groups["幹事"])

    new = migrate(CLUB_ROLES)
    roles = new.get_model("members", "ClubRole").objects.values_list(
        "club_id", "user__username", "role"
    )
    assert sorted(roles) == [
        (1, "both", "会員"),
        (1, "both", "記録係"),
        (1, "kaiin", "会員"),
        (1, "kiroku", "記録係"),
    ]
    members = new.get_model("auth", "User").groups.through.objects
    assert list(members.values_list("user__username", "group__name")) == [("x", "幹事")]

    back = migrate(CLUBS)
    held = back.get_model("auth", "User").groups.through.objects
    assert sorted(held.values_list("user__username", "group__name")) == [
        ("both", "会員"),
        ("both", "記録係"),
        ("kaiin", "会員"),
        ("kiroku", "記録係"),
        ("x", "幹事"),
    ]
