"""Standings over a small season, every figure worked out on paper.

Members A 青木, B 井上, C 上田, D 江藤, E 小野 (furigana あおき いのうえ うえだ えとう おの).
Club rule (30,000 return, +30/+10/−10/−30, ties split, −10 P a chombo).

G1 2025-09-30 (Tue, その他) A 40,000  B 35,000  C 25,000  D 20,000
   A +10+30 = +40   B +5+10 = +15   C −5−10 = −15   D −10−30 = −40
G2 2025-10-01 (水曜会) round 1: A 20,000 (1 chombo)  B 30,000  C 30,000  E 40,000
   E +40;  B and C tie for 2nd: 0 + (10−10)/2 = 0 each;  A −10−30−10 = −50
G3 2025-10-01 (水曜会) round 2: A 50,000 (満貫, 役満 国士無双)  C 30,000  D 25,000  E 15,000
   A +20+30 = +50   C 0+10 = +10   D −5−10 = −15   E −15−30 = −45
G4 2026-03-31 (Tue, その他) B 45,000  C 35,000  D 25,000  E 15,000
   B +45   C +15   D −15   E −45
G5 2026-04-01 (水曜会) A, B, C, D all 30,000: four tied for 1st, 0.0 each, all place 1

下期 FY2025 (2025-10-01 … 2026-03-31) = G2, G3, G4:
   B: 2 games, 0 + 45 = +45.0, places 2,1 → avg place 1.50, top .500, top-two 1.000, last-avoid 1.000
   C: 3 games, 0 + 10 + 15 = +25.0, places 2,2,2 → avg 2.00, top .000, top-two 1.000, l-a 1.000
   A: 2 games, −50 + 50 = 0.0, places 4,1 → avg 2.50, top .500, top-two .500, l-a .500,
      1 chombo, 2 big hands (満貫 1, 役満 1), best game +50.0, highest score 50,000, 1 meet
   D: 2 games, −15 − 15 = −30.0, places 3,3 → avg 3.00, top .000, top-two .000, l-a 1.000
   E: 3 games, +40 − 45 − 45 = −50.0, places 1,4,4 → avg 3.00, top .333, top-two .333, l-a .333
   Sum of totals: 45 + 25 + 0 − 30 − 50 = −10 = −10 × 1 chombo.
"""

from datetime import date
from decimal import Decimal

import pytest

from members.models import Member
from scoring.models import Hanchan, Meet, PlayerEntry, RuleSet
from scoring.standings import (
    Filters,
    Period,
    PeriodKind,
    PlaceColumns,
    compute_standings,
    counts_wins,
    meet_sheet,
    member_games,
    member_record,
    sort_standings,
)
from tests.builders import H1, JKMA, KANTAN, row_of, rule

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def season(club_rule):
    names = [
        ("青木", "あおき"),
        ("井上", "いのうえ"),
        ("上田", "うえだ"),
        ("江藤", "えとう"),
        ("小野", "おの"),
    ]
    a, b, c, d, e = (Member.objects.create(name=n, furigana=f) for n, f in names)
    meets: dict[tuple[date, str], Meet] = {}

    def play(day, kind, round_no, players, chombo=None, hands=None, rule=club_rule):
        meet = meets.get((day, kind)) or Meet.objects.create(date=day, kind=kind, rule_set=rule)
        meets[(day, kind)] = meet
        chombo, hands = chombo or {}, hands or {}
        entries = [
            PlayerEntry(m, seat, score, chombo.get(m, 0), hands.get(m, ()))
            for seat, (m, score) in enumerate(players)
        ]
        Hanchan(meet=meet, table_no=1, round_no=round_no, rule_set=rule).record(entries)

    play(date(2025, 9, 30), "other", 1, [(a, 40_000), (b, 35_000), (c, 25_000), (d, 20_000)])
    play(
        date(2025, 10, 1),
        "wed",
        1,
        [(a, 20_000), (b, 30_000), (c, 30_000), (e, 40_000)],
        chombo={a: 1},
    )
    play(
        date(2025, 10, 1),
        "wed",
        2,
        [(a, 50_000), (c, 30_000), (d, 25_000), (e, 15_000)],
        hands={a: [("mangan", ""), ("yakuman", "国士無双")]},
    )
    play(date(2026, 3, 31), "other", 1, [(b, 45_000), (c, 35_000), (d, 25_000), (e, 15_000)])
    play(date(2026, 4, 1), "wed", 1, [(a, 30_000), (b, 30_000), (c, 30_000), (d, 30_000)])
    return {"A": a, "B": b, "C": c, "D": d, "E": e, "play": play}


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


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("2025-04", date(2025, 4, 1), date(2025, 4, 30)),
        ("2024-02", date(2024, 2, 1), date(2024, 2, 29)),
        ("2025-H1", date(2025, 4, 1), date(2025, 9, 30)),
        ("2025-H2", date(2025, 10, 1), date(2026, 3, 31)),
        ("FY2025", date(2025, 4, 1), date(2026, 3, 31)),
        ("2025-05-01..2025-06-15", date(2025, 5, 1), date(2025, 6, 15)),
        ("all", None, None),
    ],
)
def test_period_parsing(text, start, end):
    period = Period.parse(text)
    assert (period.start, period.end, period.key) == (start, end, text)


@pytest.mark.parametrize("text", ["2025-13", "2025-H3", "FY25", "soon", "2025-02-30.."])
def test_bad_periods_are_refused(text):
    with pytest.raises(ValueError):
        Period.parse(text)


def test_period_steps_and_labels():
    assert Period.parse("2025-H2").next() == Period.parse("2026-H1")
    assert Period.parse("2025-H1").previous() == Period.parse("2024-H2")
    assert Period.parse("2025-01").previous() == Period.parse("2024-12")
    assert Period.parse("2025-12").next() == Period.parse("2026-01")
    assert Period.containing(date(2026, 3, 31)) == Period.parse("2025-H2")
    assert Period.parse("2025-H1").label == "2025年度 上期（4月〜9月）"
    assert Period.parse("2025-04").label == "2025年4月"


@pytest.mark.parametrize(
    ("text", "kind", "label", "previous", "following"),
    [
        ("2025-04", PeriodKind.MONTH, "2025年4月", "2025-03", "2025-05"),
        ("2025-H1", PeriodKind.HALF, "2025年度 上期（4月〜9月）", "2024-H2", "2025-H2"),
        ("2025-H2", PeriodKind.HALF, "2025年度 下期（10月〜3月）", "2025-H1", "2026-H1"),
        ("FY2025", PeriodKind.FISCAL_YEAR, "2025年度", "FY2024", "FY2026"),
        ("2025-05-01..2025-06-15", PeriodKind.RANGE, None, None, None),
        ("..2025-06-15", PeriodKind.RANGE, None, None, None),
        ("all", PeriodKind.ALL, "全期間", None, None),
    ],
)
def test_a_period_knows_its_kind(text, kind, label, previous, following):
    """Parsed once, a period keeps its kind; its label and its steps come from the kind."""
    period = Period.parse(text)
    assert period.kind is kind
    assert period.key == text
    if label is not None:
        assert period.label == label
    assert (period.previous().key if period.previous() else None) == previous
    assert (period.next().key if period.next() else None) == following


def test_the_constructors_set_the_kind():
    assert Period.month(2025, 4).kind is PeriodKind.MONTH
    assert Period.half(2025, 2).kind is PeriodKind.HALF
    assert Period.fiscal_year(2025).kind is PeriodKind.FISCAL_YEAR
    assert Period.between(date(2025, 4, 1), None).kind is PeriodKind.RANGE
    assert Period.all_time().kind is PeriodKind.ALL
    day = date(2025, 10, 9)
    assert Period.containing(day, PeriodKind.MONTH) == Period.parse("2025-10")
    assert Period.containing(day, PeriodKind.FISCAL_YEAR) == Period.parse("FY2025")
    assert Period.containing(day, "year") == Period.parse("FY2025")  # the kind's value
    assert Period.containing(day) == Period.parse("2025-H2")


def test_a_range_over_exactly_a_half_year_is_still_a_range():
    """A range is not read again for the half or the month it happens to cover: its kind
    stays, and so do its key, label and (no) steps."""
    period = Period.parse("2025-04-01..2025-09-30")
    assert period.kind is PeriodKind.RANGE
    assert period.label == "2025-04-01 〜 2025-09-30"
    assert (period.previous(), period.next()) == (None, None)
    assert period != Period.parse("2025-H1")


def test_the_steps_stop_at_the_ends_of_the_range_of_periods():
    assert Period.parse("1990-01").previous() is None
    assert Period.parse("FY1990").previous() is None
    assert Period.parse("2099-H2").next() is None  # 2100-H1 starts past March 2100
    assert Period.parse("FY2099").next() is None


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


def test_moving_a_meet_moves_its_games_between_periods(season):
    meet = Meet.objects.get(date=date(2025, 9, 30))
    meet.date = date(2025, 10, 2)  # typed wrong, corrected by the organizer
    meet.save()
    assert compute_standings(Filters(period=Period.parse("2025-H1"))) == []
    rows = compute_standings(Filters(period=Period.parse("2025-H2")))
    assert sum(r.games for r in rows) == 16


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


@pytest.mark.parametrize(
    ("text", "monthly"),
    [
        ("2025-04", True),
        ("2025-04-03..2025-04-20", True),
        ("2025-04-20..2025-05-03", False),
        ("2025-H1", False),
        ("FY2025", False),
        ("all", False),
        ("2025-04-01..", False),
    ],
)
def test_a_period_within_one_month_is_monthly(text, monthly):
    """It has the monthly report (no member pages)."""
    assert Period.parse(text).is_monthly is monthly


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
