"""One meet's sheet (scoring/standings/meet.py), worked out on paper on ``season``
(tests/scoring/standings/conftest.py)."""

from datetime import date
from decimal import Decimal

import pytest

from members.models import Member
from scoring.models import Meet
from scoring.standings import (
    PlaceColumns,
    meet_sheet,
)

pytestmark = pytest.mark.django_db
D = Decimal


def table(rows):
    return [(r.position, r.name, r.games, r.total) for r in rows]


def test_a_meets_sheet_worked_on_paper(season, django_assert_num_queries):
    """2025-10-01: round 1 (青木 chombo 1) and round 2 (青木 満貫 and 役満(国士無双)) at table
    1; five attending make one table of four, and the grid has the club's three rounds."""
    meet = Meet.objects.select_related("rule_set").get(date=date(2025, 10, 1), kind="wed")
    with django_assert_num_queries(4):  # games, their lines, big hands, attendance
        sheet = meet_sheet(meet, day_standings=False)
    assert sheet.day_rows == []
    assert (sheet.attending, sheet.tables, sheet.round_count, sheet.next_round) == (5, 1, 3, 4)
    assert [r.round_no for r in sheet.rounds] == [1, 2]
    first, second = (r.games[0] for r in sheet.rounds)
    assert (first.round_no, first.table_no, first.deposits_held, first.deposits_p) == (
        1,
        1,
        0,
        D("0.0"),
    )
    assert first.rule_set_id == meet.rule_set_id
    assert [(x.seat_name, x.name, x.score, x.place, x.total, x.chombo) for x in first.lines] == [
        ("東", "青木", 20_000, 4, D("-50.0"), 1),
        ("南", "井上", 30_000, 2, D("0.0"), 0),
        ("西", "上田", 30_000, 2, D("0.0"), 0),
        ("北", "小野", 40_000, 1, D("40.0"), 0),
    ]
    assert [(x.name, x.total, x.big_hands) for x in second.lines] == [
        ("青木", D("50.0"), ("満貫", "役満(国士無双)")),
        ("上田", D("10.0"), ()),
        ("江藤", D("-15.0"), ()),
        ("小野", D("-45.0"), ()),
    ]
    grid = sheet.grid
    assert [(g.round_no, [(c.table_no, c.game) for c in g.cells]) for g in grid] == [
        (1, [(1, first)]),
        (2, [(1, second)]),
        (3, [(1, None)]),
    ]


def test_a_meets_sheet_has_the_days_standings(season):
    meet = Meet.objects.get(date=date(2025, 10, 1), kind="wed")
    sheet = meet_sheet(meet)
    assert table(sheet.day_rows) == [
        (1, "上田", 2, D("10.0")),
        (2, "青木", 2, D("0.0")),
        (2, "井上", 1, D("0.0")),
        (4, "小野", 2, D("-5.0")),
        (5, "江藤", 1, D("-15.0")),
    ]
    assert sheet.place_columns == PlaceColumns(four=True, three=False)


@pytest.mark.parametrize(
    ("attending", "mode", "tables"),
    [
        (14, "three_player_tables", 4),
        (14, "sit_out", 3),
        (13, "three_player_tables", 4),
        (9, "three_player_tables", 3),
        (16, "sit_out", 4),
        (2, "three_player_tables", 1),
    ],
)
def test_an_empty_meets_grid_has_the_tables_the_draw_would_make(club_rule, attending, mode, tables):
    """Found trying a meet day: 14 present showed 3 tables a round before the draw (14 // 4),
    and the draw then made 4 (4+4+3+3). The grid counts tables as the draw lays them out."""
    meet = Meet.objects.create(
        date=date(2025, 5, 14), kind="wed", rule_set=club_rule, draw_mode=mode
    )
    meet.attendees.set(
        [Member.objects.create(name=f"会員 {i:02d}", furigana="かいいん") for i in range(attending)]
    )
    assert meet_sheet(meet, day_standings=False).tables == tables
