"""The standings' figures of issue 29: big hands by kind, busts and the worst game, and guests
left out unless asked for. The season is ``guest_season`` (tests/scoring/conftest.py), every
figure worked out there by hand."""

from decimal import Decimal

import pytest

from scoring.models import Meet
from scoring.standings import (
    STANDINGS,
    Filters,
    Medium,
    Period,
    Shown,
    big_hand_list,
    compute_standings,
    meet_sheet,
)
from tests.builders import play, row_of

pytestmark = pytest.mark.django_db
D = Decimal
LEVELS = ["mangan", "haneman", "baiman", "sanbaiman", "yakuman"]


def test_big_hands_are_counted_by_kind(guest_season):
    """相川 満貫 1 and 役満 1; 井上 跳満 1; 江藤 倍満 1; nobody 三倍満."""
    rows = compute_standings(Filters(guests=True))
    by_kind = {r.name: [r.big_hands_of(level) for level in LEVELS] for r in rows}
    assert by_kind == {
        "井上 一": [0, 1, 0, 0, 0],
        "江藤 栄": [0, 0, 1, 0, 0],
        "大野 音": [1, 0, 0, 0, 0],
        "相川 愛": [1, 0, 0, 0, 1],
        "上田 卯": [0, 0, 0, 0, 0],
    }
    a = row_of(rows, guest_season["A"])
    assert a.big_hand_total == 2  # the total stays
    assert a.big_hand_kinds == [("満貫", 1), ("役満", 1)]  # what the member page lists


def test_every_medium_has_a_column_per_kind_of_big_hand(guest_season):
    """The page, the PDF, the Excel and the CSV all read the one declaration: 満貫 跳満 倍満
    三倍満 役満 after 満貫以上 (in the Excel at the very end: its older columns keep their
    letters), and a row's value is its count."""
    row = row_of(compute_standings(Filters()), guest_season["A"])
    for medium in Medium:
        columns = STANDINGS.shown(medium, Shown())
        keys = [c.key for c in columns]
        at = len(keys) - 5 if medium == Medium.SHEET else keys.index("big_hands") + 1
        assert keys[at : at + 5] == LEVELS, medium
        assert [c.value(row) for c in columns[at : at + 5]] == [1, 0, 0, 0, 1]
        assert columns[keys.index("big_hands")].value(row) == 2
    sheet = STANDINGS.shown(Medium.SHEET, Shown())
    assert [str(c.heading) for c in sheet[-5:]] == ["満貫", "跳満", "倍満", "三倍満", "役満"]


def test_guests_are_left_out_by_default_and_switched_in(guest_season):
    """Without guests: 井上 +60, 江藤 +8, 相川 −25, 上田 −48 (the sum is not zero: 大野 took
    −45 + 50 = +5 of it). With them, 大野 +5 stands 3rd, marked 「（ゲスト）」."""
    members = compute_standings(Filters())
    assert [(r.position, r.name, r.total) for r in members] == [
        (1, "井上 一", D("60.0")),
        (2, "江藤 栄", D("8.0")),
        (3, "相川 愛", D("-25.0")),
        (4, "上田 卯", D("-48.0")),
    ]
    everyone = compute_standings(Filters(guests=True))
    assert [(r.position, r.listed_name, r.total) for r in everyone] == [
        (1, "井上 一", D("60.0")),
        (2, "江藤 栄", D("8.0")),
        (3, "大野 音（ゲスト）", D("5.0")),
        (4, "相川 愛", D("-25.0")),
        (5, "上田 卯", D("-48.0")),
    ]
    assert sum(r.total for r in everyone) == 0
    # The tablemates' places stand as played: 相川 1, 3, 4, 2 either way.
    for rows in (members, everyone):
        assert row_of(rows, guest_season["A"]).places == (1, 1, 1, 1)
    # 大野's 満貫 is not counted without guests.
    assert sum(r.big_hands_of("mangan") for r in members) == 1
    assert sum(r.big_hands_of("mangan") for r in everyone) == 2


def test_busts_and_the_worst_game(guest_season):
    """相川: one game of four below zero (−2,000 in round 3): 箱割れ 1, rate .250; best game
    +40.0 (round 1), worst −62.0 (round 3)."""
    a = row_of(compute_standings(Filters()), guest_season["A"])
    assert (a.below_zero, a.below_zero_rate) == (1, D("0.250"))
    assert (a.best_game, a.worst_game, a.highest_score) == (D("40.0"), D("-62.0"), 40_000)


def test_the_big_hand_list_leaves_guests_out_unless_asked(guest_season):
    """The report's 満貫以上 list: R3 大野 満貫 (a guest), 井上 跳満; R4 江藤 倍満, 相川 満貫 and 役満."""
    names = [h["name"] for h in big_hand_list(Filters())]
    assert names == ["井上 一", "江藤 栄", "相川 愛", "相川 愛"]
    names = [h["name"] for h in big_hand_list(Filters(guests=True))]
    assert names[0] == "大野 音（ゲスト）" and len(names) == 5


def test_the_meets_day_sheet_keeps_its_guests(guest_season):
    """The day's standings of 2025-04-09 list everyone who played, 大野 (+5.0) marked."""
    rows = meet_sheet(Meet.objects.get()).day_rows
    assert [(r.listed_name, r.total) for r in rows] == [
        ("井上 一", D("60.0")),
        ("江藤 栄", D("8.0")),
        ("大野 音（ゲスト）", D("5.0")),
        ("相川 愛", D("-25.0")),
        ("上田 卯", D("-48.0")),
    ]


def test_each_kind_of_game_has_its_own_average_place(mixed_season):
    """``mixed_season`` (tests/scoring/conftest.py): F played one 4-player game (1st) and two
    3-player ones (1st, 1st): 四人打ち平均順位 1/1 = 1.00, 三人打ち平均順位 2/2 = 1.00; B four
    4-player games (2,3,2,1 → 8/4 = 2.00) and one 3-player game (3rd → 3.00). With both kinds in
    the table, the page shows both averages, each named by its kind; the PDF keeps its columns
    (the 4-player one named by its kind too), and the Excel its columns as they were: the 4-player
    average in the fifth (E), headed 四人打ち平均順位 since the meet day's try (a bare 平均順位
    beside three-player figures left a member guessing which), 三人打ち平均順位 after the
    3-player places."""
    rows = compute_standings(Filters(period=Period.half(2025, 1)))
    f = next(r for r in rows if r.name == "F 会員")
    b = next(r for r in rows if r.name == "B 会員")
    assert (f.average_place, f.average_place3) == (D("1.00"), D("1.00"))
    assert (b.average_place, b.average_place3) == (D("2.00"), D("3.00"))
    shown = Shown(four=True, three=True)
    page = {c.key: str(c.heading) for c in STANDINGS.shown(Medium.PAGE, shown)}
    assert page["average_place4"] == "四人打ち平均順位"
    assert page["average_place3"] == "三人打ち平均順位"
    assert "average_place" not in page
    pdf = [str(c.heading) for c in STANDINGS.shown(Medium.PDF, shown)]
    assert "四人打ち平均順位" in pdf and "三人打ち平均順位" not in pdf
    sheet = [str(c.heading) for c in STANDINGS.shown(Medium.SHEET, shown)]
    assert sheet[4] == "四人打ち平均順位" and "平均順位" not in sheet
    assert sheet.index("三人打ち平均順位") == sheet.index("三人打ち3位") + 1


def test_one_kind_of_game_keeps_the_plain_average_place(guest_season):
    """4-player games only: one 平均順位, as before. 3-player games only (a parlour's group):
    its own average, named by its kind, rather than an empty 4-player one."""
    four = [str(c.heading) for c in STANDINGS.shown(Medium.PAGE, Shown(four=True))]
    assert "平均順位" in four and "三人打ち平均順位" not in four
    three = [str(c.heading) for c in STANDINGS.shown(Medium.PAGE, Shown(four=False, three=True))]
    assert "三人打ち平均順位" in three and "平均順位" not in three


def test_a_score_of_exactly_zero_is_not_below_zero(club_rule, four_members):
    """箱割れ is a final score below 0 (sheet 002: 「箱割れとなっても局は継続します」; sheet 001
    and 003: 「ちょうど 0 点は続行」). 東山 60,000, 南野 30,000, 西川 30,000, 北村 0: 北村 ends at
    exactly 0, not below it; then 北村 −100: below zero once in two games (rate .500)."""
    meet = Meet.objects.create(date="2025-04-09", kind="wed", rule_set=club_rule)
    north = four_members[3]
    play(meet, 1, 1, club_rule, four_members, [60_000, 30_000, 30_000, 0])
    row = row_of(compute_standings(Filters()), north)
    assert row.below_zero == 0
    play(meet, 1, 2, club_rule, four_members, [60_100, 30_000, 30_000, -100])
    row = row_of(compute_standings(Filters()), north)
    assert (row.below_zero, row.below_zero_rate) == (1, D("0.500"))
