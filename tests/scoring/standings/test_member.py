"""One member's record (scoring/standings/member.py), worked out on paper on ``season``
(tests/scoring/standings/conftest.py)."""

from datetime import date
from decimal import Decimal

import pytest

from members.models import Member
from scoring.models import RuleSet
from scoring.standings import (
    Filters,
    Period,
    PlaceColumns,
    compute_standings,
    member_games,
    member_record,
)

pytestmark = pytest.mark.django_db
D = Decimal


def test_a_members_record(season):
    record = member_record(season["A"].pk, Filters(period=Period.parse("FY2025")))
    assert record.summary is not None and record.summary.games == 3
    assert [g.total for g in record.games] == [D(40), D(-50), D(50)]
    assert [g.cumulative for g in record.games] == [D(40), D(-10), D(40)]
    assert [(m.month, m.games, m.total) for m in record.months] == [
        (date(2025, 9, 1), 1, D(40)),
        (date(2025, 10, 1), 2, D(0)),
    ]
    assert [(len(day.games), day.total) for day in record.meets] == [(1, D(40)), (2, D(0))]
    assert record.rounds == 3
    assert [g and g.round_no for g in record.meets[0].by_round(3)] == [1, None, None]
    assert record.games[2].big_hands == ["満貫", "役満(国士無双)"]


def test_a_members_own_games_give_the_place_counts_of_the_standings(season):
    """What a member's charts draw (``member_games``: their games only) matches their line of
    the club's standings, 3-player games kept apart."""
    three = RuleSet.objects.get(name="白樺会 三人打ち")
    a, b, c = season["A"], season["B"], season["C"]
    season["play"](date(2025, 11, 5), "wed", 1, [(a, 40_000), (b, 30_000), (c, 20_000)], rule=three)
    season["play"](date(2025, 11, 5), "wed", 2, [(b, 40_000), (a, 30_000), (c, 20_000)], rule=three)
    for filters in (Filters(period=Period.parse("2025-H2")), Filters(), Filters(kind="sat")):
        standings = {r.member_id: r for r in compute_standings(filters)}
        for member in Member.objects.all():
            own = member_games(member.pk, filters)
            full = member_record(member.pk, filters)
            assert own.summary is None
            assert own.games == full.games
            row = standings.get(member.pk)
            assert own.places == (row.places if row else (0, 0, 0, 0))
            assert own.places3 == (row.places3 if row else (0, 0, 0))
            assert own.place_columns == PlaceColumns.of([row] if row else [])
    h2 = member_games(a.pk, Filters(period=Period.parse("2025-H2")))
    # 青木 on 10/1: 4th (20,000) and 1st (50,000); on 11/5 at three: 1st and 2nd.
    assert (h2.places, h2.places3) == ((1, 0, 0, 1), (1, 1, 0))
    assert h2.place_columns == PlaceColumns(four=True, three=True)
