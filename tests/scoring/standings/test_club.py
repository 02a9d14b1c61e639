"""The club's table (scoring/standings/club.py) over the small season of ``season``
(tests/scoring/standings/conftest.py), every figure worked out on paper there."""

from datetime import date
from decimal import Decimal

import pytest

from scoring.models import Meet, RuleSet
from scoring.standings import (
    Filters,
    Period,
    compute_standings,
    counts_wins,
    member_record,
    sort_standings,
)
from tests.builders import H1, JKMA, KANTAN, row_of, rule

pytestmark = pytest.mark.django_db
D = Decimal


def table(rows):
    return [(r.position, r.name, r.games, r.total) for r in rows]


def test_second_half_standings_worked_on_paper(season):
    rows = compute_standings(Filters(period=Period.parse("2025-H2")))
    assert table(rows) == [
        (1, "井上", 2, D("45.0")),
        (2, "上田", 3, D("25.0")),
        (3, "青木", 2, D("0.0")),
        (4, "江藤", 2, D("-30.0")),
        (5, "小野", 3, D("-50.0")),
    ]
    assert sum(r.total for r in rows) == D("-10.0")
    b, c, a, _d, e = rows
    assert [r.places for r in rows] == [
        (1, 1, 0, 0),
        (0, 3, 0, 0),
        (1, 0, 0, 1),
        (0, 0, 2, 0),
        (1, 0, 0, 2),
    ]
    assert [r.average_place for r in rows] == [
        D("1.50"),
        D("2.00"),
        D("2.50"),
        D("3.00"),
        D("3.00"),
    ]
    assert [r.top_rate for r in rows] == [
        D("0.500"),
        D("0.000"),
        D("0.500"),
        D("0.000"),
        D("0.333"),
    ]
    assert [r.top_two_rate for r in rows] == [
        D("1.000"),
        D("1.000"),
        D("0.500"),
        D("0.000"),
        D("0.333"),
    ]
    assert [r.last_avoid_rate for r in rows] == [
        D("1.000"),
        D("1.000"),
        D("0.500"),
        D("1.000"),
        D("0.333"),
    ]
    assert [r.average for r in rows] == [D("22.5"), D("8.3"), D("0.0"), D("-15.0"), D("-16.7")]
    assert (a.chombo, a.big_hand_total, a.big_hands) == (1, 2, {"mangan": 1, "yakuman": 1})
    assert (a.best_game, a.highest_score, a.meets) == (D("50.0"), 50_000, 1)
    assert (b.meets, c.meets, e.best_game, e.below_zero) == (2, 2, D("40.0"), 0)


def test_period_edges(season):
    """30 September is 上期, 1 October 下期; 31 March is 下期, 1 April the next 上期."""
    first = compute_standings(Filters(period=Period.parse("2025-H1")))
    assert table(first) == [
        (1, "青木", 1, D("40.0")),
        (2, "井上", 1, D("15.0")),
        (3, "上田", 1, D("-15.0")),
        (4, "江藤", 1, D("-40.0")),
    ]  # 小野 had no game in 上期: not listed
    september = compute_standings(Filters(period=Period.parse("2025-09")))
    october = compute_standings(Filters(period=Period.parse("2025-10")))
    assert sum(r.games for r in september) == 4 and sum(r.games for r in october) == 8
    march = compute_standings(Filters(period=Period.parse("2026-03")))
    assert [r.name for r in march] == ["井上", "上田", "江藤", "小野"]
    fy2026 = compute_standings(Filters(period=Period.parse("FY2026")))
    assert sum(r.games for r in fy2026) == 4  # only G5
    fy2025 = compute_standings(Filters(period=Period.parse("FY2025")))
    assert sum(r.games for r in fy2025) == 16  # G1 … G4
    everything = compute_standings(Filters())
    assert sum(r.games for r in everything) == 20


def test_a_tie_in_the_standings_shares_the_position(season):
    rows = compute_standings(Filters(period=Period.parse("2026-04")))
    assert table(rows) == [
        (1, "青木", 1, D("0.0")),
        (1, "井上", 1, D("0.0")),
        (1, "上田", 1, D("0.0")),
        (1, "江藤", 1, D("0.0")),
    ]
    assert all(r.places == (1, 0, 0, 0) for r in rows)  # four tied for 1st


def test_the_meet_kind_filter(season):
    """水曜会 only in 下期 = G2, G3: 上田 0+10 = +10; 青木 −50+50 = 0 and 井上 0 share 2nd."""
    rows = compute_standings(Filters(period=Period.parse("2025-H2"), kind="wed"))
    assert table(rows) == [
        (1, "上田", 2, D("10.0")),
        (2, "青木", 2, D("0.0")),
        (2, "井上", 1, D("0.0")),
        (4, "小野", 2, D("-5.0")),
        (5, "江藤", 1, D("-15.0")),
    ]
    assert compute_standings(Filters(period=Period.parse("2025-H2"), kind="sat")) == []


def test_the_minimum_number_of_games_empties_the_rate_columns(season):
    rows = compute_standings(Filters(period=Period.parse("2025-H2"), min_games=3))
    rated = {r.name: r.top_rate for r in rows}
    assert rated == {
        "井上": None,
        "上田": D("0.000"),
        "青木": None,
        "江藤": None,
        "小野": D("0.333"),
    }
    assert rows[0].position == 1 and rows[0].total == D("45.0")  # totals and positions unchanged


def test_the_rule_set_filter_and_kantan_counts_wins(season):
    kantan = RuleSet.objects.get(name="カンターン麻雀 (1-0-0-0)")
    a, b, c, d = season["A"], season["B"], season["C"], season["D"]
    season["play"](
        date(2027, 5, 8),
        "sat",
        1,
        [(a, 41_000), (b, 20_000), (c, 20_000), (d, 19_000)],
        rule=kantan,
    )
    season["play"](
        date(2027, 5, 8),
        "sat",
        2,
        [(a, 10_000), (b, 20_000), (c, 45_000), (d, 25_000)],
        rule=kantan,
    )
    rows = compute_standings(Filters(rule_set=kantan))
    assert [(r.position, r.name, r.wins, r.total) for r in rows] == [
        (1, "青木", 1, D("0.0")),
        (1, "上田", 1, D("0.0")),
        (3, "井上", 0, D("0.0")),
        (3, "江藤", 0, D("0.0")),
    ]
    club = compute_standings(Filters(rule_set=RuleSet.objects.default()))
    assert sum(r.games for r in club) == 20  # the カンターン games are not in the club's


def test_sorting_for_display_keeps_positions(season):
    rows = compute_standings(Filters(period=Period.parse("2025-H2")))
    by_place = sort_standings(rows, "average_place")
    assert [r.name for r in by_place] == ["井上", "上田", "青木", "江藤", "小野"]
    by_name = sort_standings(rows, "name")
    assert (by_name[0].name, by_name[0].position) == ("青木", 3)


def test_moving_a_meet_moves_its_games_between_periods(season):
    meet = Meet.objects.get(date=date(2025, 9, 30))
    meet.date = date(2025, 10, 2)  # typed wrong, corrected by the organizer
    meet.save()
    assert compute_standings(Filters(period=Period.parse("2025-H1"))) == []
    rows = compute_standings(Filters(period=Period.parse("2025-H2")))
    assert sum(r.games for r in rows) == 16


def test_a_member_under_three_rule_sets_in_one_half_year(three_systems):
    a = three_systems
    club = row_of(compute_standings(Filters(period=H1)), a)  # the club's group by default
    assert (club.games, club.total) == (2, D("-5.0"))
    assert club.places == (1, 0, 0, 0)  # the 3-player last is not a 4-player 3位 …
    assert club.places3 == (0, 0, 1)  # … it is counted apart
    assert club.lasts == 1 and club.last_avoid_rate == D("0.5")

    jkma = row_of(compute_standings(Filters(period=H1, group=rule(JKMA).group)), a)
    assert (jkma.games, jkma.total, jkma.places) == (1, D("22.0"), (1, 0, 0, 0))

    kantan_filters = Filters(period=H1, group=rule(KANTAN).group)
    assert counts_wins(kantan_filters)
    kantan = row_of(compute_standings(kantan_filters), a)
    assert (kantan.games, kantan.wins, kantan.top_rate) == (1, 1, D("1.000"))

    # The member's own record, per group.
    assert member_record(a.pk, Filters(period=H1)).summary.total == D("-5.0")
    assert len(member_record(a.pk, Filters(period=H1, group=rule(JKMA).group)).games) == 1
