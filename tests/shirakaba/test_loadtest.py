"""`manage.py loadtest` (`make load`), briefly, against the tests' live server: its organizers
save games, and the command fails when a save is refused (issue 26: all its saves had been
refused with 400 since the game form's seat rows became a formset, and it still reported)."""

import itertools
import random
from collections.abc import Iterator
from datetime import date

import pytest
from django.core.management import CommandError, call_command

from members.models import Club, ClubRole
from members.roles import ensure_groups
from members.scopes import scopes_disabled
from scoring.models import Hanchan, Meet
from shirakaba.devtools.management.commands import loadtest
from shirakaba.devtools.management.commands.bench_clubs import bench_clubs
from tests.builders import put_back_migrated_data

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def migrated_data(transactional_db) -> None:
    """The test before may have flushed the database: the rule sets and roles again."""
    put_back_migrated_data()
    ensure_groups()


def run(live_server, capsys) -> str:
    call_command("loadtest", url=live_server.url, members=8, organizers=2, seconds=5, games=24)
    return capsys.readouterr().out


def test_the_organizers_save_games(live_server, capsys) -> None:
    out = run(live_server, capsys)
    meet = Meet.objects.get(date=date.today(), kind="other")  # the organizers' meet
    saved = Hanchan.objects.filter(meet=meet).count()
    assert saved >= 2  # two organizers, a game each about every 3 s, for 5 s
    assert f"{saved} games saved ({saved} in the database), 0 saves refused" in out
    kinds = ("game form", "live check", "save game", "send game", "send again", "meet page")
    for kind in (*kinds, "standings"):
        assert any(line.startswith(kind) for line in out.splitlines()), kind
    # The second organizer's games came from a tablet's queue, each with the device's id, and
    # its second send of each was answered as the same game (the command fails otherwise).
    assert Hanchan.objects.filter(meet=meet, sent_as__isnull=False).exists()
    assert Hanchan.objects.filter(meet=meet, sent_as__isnull=True).exists()
    # Each saved game holds the four players the organizer posted, and its scores add up.
    for game in Hanchan.objects.filter(meet=meet):
        results = list(game.results.all())
        assert len(results) == 4
        assert sum(r.score for r in results) == game.rule_set.params().table_total


def test_a_refused_save_fails_the_command(live_server, capsys, monkeypatch) -> None:
    def same_table_twice(
        names: list[str], rng: random.Random
    ) -> Iterator[tuple[int, int, list[str]]]:
        # The same four at every table of round 1: the form refuses them a second seat.
        for table in itertools.count(1):
            yield 1, table, names[:4]

    monkeypatch.setattr(loadtest, "seating", same_table_twice)
    with pytest.raises(CommandError, match=r"saves refused"):
        run(live_server, capsys)
    out = capsys.readouterr().out
    assert "save refused: 400" in out
    assert "goal (0 errors, games saved, p95 < 300 ms for every kind of page): NOT met" in out


def test_members_of_several_clubs_at_once(live_server, capsys) -> None:
    """``bench_clubs`` builds clubs with games and times their pages as their own members;
    ``loadtest --clubs`` then spreads its members over those clubs, each signed in to their
    own, and every page they read answers (the command fails on any error)."""
    call_command("bench_clubs", clubs=2, members=8, years=1, sample=2, rounds=1)
    built = capsys.readouterr().out
    assert "2 clubs of 2" in built and "own page" in built
    call_command(
        "loadtest", url=live_server.url, members=6, organizers=2, seconds=4, games=24, clubs=2
    )
    out = capsys.readouterr().out
    assert "6 members of 2 clubs" in out and ", 0 errors," in out
    read = ("own page", "own chart", "member page", "standings", "meets", "home")
    assert any(line.startswith(read) for line in out.splitlines())  # the members' pages, read
    clubs = bench_clubs()
    with scopes_disabled():
        held = ClubRole.objects.filter(club__in=clubs)  # the logins of bench_clubs and loadtest
        assert held.values("user").distinct().count() == held.count() == 6  # one club each
        assert not ClubRole.objects.filter(
            user__in=held.values("user"), club_id=Club.DEFAULT_PK
        ).exists()
