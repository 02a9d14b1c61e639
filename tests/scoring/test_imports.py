"""Importing record sheets: good files in every encoding and format, every bad file refused
with its error and nothing changed, random rows never crash, and the CSV round trip."""

import io
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from members.models import Member
from scoring.imports import ImportRefused, import_results, plan_import
from scoring.models import BigHand, Hanchan, HanchanResult, Meet
from scoring.reports.games_csv import render_games_csv
from scoring.standings import Filters

pytestmark = pytest.mark.django_db
D = Decimal

HEADER = "日付,例会,卓,回戦,席,氏名,持ち点,錯和,満貫以上"
# DOMAIN.md's worked table, then a second game at table 2.
GOOD_ROWS = [
    "2025-04-09,水曜会,1,1,東,東山 一郎,32600,1,満貫;役満(国士無双)",
    "2025-04-09,水曜会,1,1,南,南野 花子,30000,,",
    "2025-04-09,水曜会,1,1,西,西川 次郎,30000,,",
    "2025-04-09,水曜会,1,1,北,北村 三郎,27400,,跳満",
    "2025/4/9,水曜会,2,1,東,東野 圭,45000,,",
    "2025/4/9,水曜会,2,1,南,南田 京子,35000,,",
    "2025/4/9,水曜会,2,1,西,西村 明,25000,,",
    "2025/4/9,水曜会,2,1,北,北山 進,15000,,",
]
NAMES = [
    "東山 一郎",
    "南野 花子",
    "西川 次郎",
    "北村 三郎",
    "東野 圭",
    "南田 京子",
    "西村 明",
    "北山 進",
]


def csv_bytes(rows=GOOD_ROWS, header=HEADER, encoding="utf-8", bom=False) -> bytes:
    text = "\r\n".join([header, *rows]) + "\r\n"
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode(encoding)


def xlsx_bytes(rows=GOOD_ROWS, header=HEADER) -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.append(header.split(","))
    for row in rows:
        cells = row.split(",")
        cells[2], cells[3], cells[6] = int(cells[2]), int(cells[3]), int(cells[6])
        sheet.append(cells)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def state():
    return (
        list(Meet.objects.values_list("id", "date")),
        list(Hanchan.objects.values_list("id", "table_no")),
        list(HanchanResult.objects.values_list("id", "score")),
        list(Member.objects.values_list("id", "name")),
    )


def assert_settled_as_expected():
    first = Hanchan.objects.get(table_no=1)
    totals = list(first.results.order_by("seat").values_list("total_points", flat=True))
    assert totals == [D("22.6"), D("0.0"), D("0.0"), D("-32.6")]
    assert sorted(BigHand.objects.values_list("level", flat=True)) == [
        "haneman",
        "mangan",
        "yakuman",
    ]
    assert BigHand.objects.get(level="yakuman").yakuman_name == "国士無双"
    second = Hanchan.objects.get(table_no=2)
    assert list(second.results.order_by("seat").values_list("total_points", flat=True)) == [
        D(45),
        D(15),
        D(-15),
        D(-45),
    ]
    meet = Meet.objects.get()
    assert (str(meet.date), meet.kind, meet.rule_set.name) == (
        "2025-04-09",
        "wed",
        "白樺会 四人打ち",
    )
    assert meet.attendees.count() == 8


@pytest.mark.parametrize(
    "data",
    [
        csv_bytes(),
        csv_bytes(bom=True),
        csv_bytes(encoding="cp932"),
        xlsx_bytes(),
        csv_bytes(header="date,meet,table,round,seat,name,score,chombo,big_hands"),
        csv_bytes(
            [",".join(r.split(",")[i] for i in (5, 6, 4, 0, 1, 2, 3, 7, 8)) for r in GOOD_ROWS],
            header="氏名,持ち点,席,日付,例会,卓,回戦,錯和,満貫以上",
        ),
    ],
    ids=["utf8", "utf8-bom", "shift_jis", "xlsx", "english-headers", "any-order"],
)
def test_a_good_file_imports_and_settles(members, data):
    plan = import_results(data)
    assert (len(plan.games), plan.new_meets, plan.new_members) == (
        2,
        [(Meet.objects.get().date, "wed")],
        [],
    )
    assert_settled_as_expected()


def test_the_same_file_twice_is_refused_and_names_the_games(members):
    import_results(csv_bytes())
    before = state()
    plan = plan_import(csv_bytes())
    assert not plan.ok
    message = str(plan.errors[0])
    assert "すでに成績表にあります" in message
    assert "2025-04-09 水曜会 1回戦 1卓" in message and "2025-04-09 水曜会 1回戦 2卓" in message
    assert state() == before


def replace_row(index, row):
    rows = list(GOOD_ROWS)
    rows[index] = row
    return rows


BAD_FILES = [
    (
        "wrong header",
        csv_bytes(header="日付,例会,卓,回戦,席,名前,持ち点,錯和,満貫以上"),
        "1行目",
        "名前",
    ),
    (
        "missing header",
        csv_bytes([r.rsplit(",", 3)[0] for r in GOOD_ROWS], header="日付,例会,卓,回戦,席,氏名"),
        "1行目",
        "持ち点",
    ),
    ("three rows", csv_bytes(GOOD_ROWS[:3] + GOOD_ROWS[4:]), "4 人用ですが、3 人分", ""),
    (
        "seat twice",
        csv_bytes(replace_row(1, "2025-04-09,水曜会,1,1,東,南野 花子,30000,,")),
        "席「東」が二重",
        "",
    ),
    (
        "does not add up",
        csv_bytes(replace_row(3, "2025-04-09,水曜会,1,1,北,北村 三郎,26200,,")),
        "あと 1,200 点不足",
        "5行目",
    ),
    (
        "not a number",
        csv_bytes(replace_row(2, "2025-04-09,水曜会,1,1,西,西川 次郎,三万,,")),
        "4行目",
        "持ち点",
    ),
    (
        "bad date",
        csv_bytes(replace_row(0, "2025-02-30,水曜会,1,1,東,東山 一郎,32600,1,")),
        "2行目",
        "存在しない日付",
    ),
    (
        "duplicate player",
        csv_bytes(replace_row(1, "2025-04-09,水曜会,1,1,南,東山 一郎,30000,,")),
        "東山 一郎 さんが二重",
        "",
    ),
    (
        "unknown name",
        csv_bytes(replace_row(1, "2025-04-09,水曜会,1,1,南,南 知らず,30000,,")),
        "3行目",
        "「南 知らず」という会員はいません",
    ),
    ("empty", b"", "ファイルが空です", ""),
    ("header only", csv_bytes([]), "見出しだけ", ""),
    ("binary", bytes(range(256)) * 40, "CSV または Excel", ""),
    ("broken xlsx", b"PK\x03\x04" + b"\x00" * 500, "この Excel ファイルは読めません", ""),
    ("10 MB", csv_bytes(GOOD_ROWS * 1) + b"#" * 10_485_760, "大きすぎます", ""),
    (
        "bad hand",
        csv_bytes(replace_row(0, "2025-04-09,水曜会,1,1,東,東山 一郎,32600,1,大満貫")),
        "2行目",
        "役の種類として読めません",
    ),
    (
        "bad meet",
        csv_bytes(replace_row(0, "2025-04-09,月曜会,1,1,東,東山 一郎,32600,1,")),
        "2行目",
        "例会として読めません",
    ),
    ("undecodable", csv_bytes().replace(b"2025-04-09", b"\xff\xfe\x80\x81", 1), "文字", ""),
]


@pytest.mark.parametrize(
    ("case", "data", "text1", "text2"), BAD_FILES, ids=[c[0] for c in BAD_FILES]
)
def test_a_bad_file_gives_its_error_and_changes_nothing(members, case, data, text1, text2):
    before = state()
    plan = plan_import(data)
    messages = "\n".join(str(e) for e in plan.errors)
    assert not plan.ok, case
    assert text1 in messages and text2 in messages, messages
    with pytest.raises(ImportRefused):
        import_results(data)
    assert state() == before


def test_unknown_names_become_members_when_allowed(db):
    plan = import_results(csv_bytes(), create_members=True)
    assert sorted(plan.new_members) == sorted(NAMES)
    assert Member.objects.count() == 8
    assert_settled_as_expected()


def test_a_partly_bad_file_saves_nothing_even_when_most_games_are_good(members):
    rows = [*GOOD_ROWS, "2025-04-12,土曜会,1,1,東,東山 一郎,99999,,"]
    with pytest.raises(ImportRefused):
        import_results(csv_bytes(rows))
    assert not Meet.objects.exists() and not Hanchan.objects.exists()


def test_the_command_imports_and_dry_runs(members, tmp_path, capsys):
    path = tmp_path / "sheet.csv"
    path.write_bytes(csv_bytes(encoding="cp932"))
    call_command("import_results", str(path), "--dry-run")
    assert not Hanchan.objects.exists()
    assert "Would import 2 games" in capsys.readouterr().out
    call_command("import_results", str(path))
    assert Hanchan.objects.count() == 2
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_results", str(path))
    assert "すでに成績表にあります" in capsys.readouterr().err


cells = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        [
            "東",
            "南",
            "西",
            "北",
            "水曜会",
            "土曜会",
            "2025-04-09",
            "2025/4/9",
            "30000",
            "-3200",
            "",
            "満貫;役満(国士無双)",
            "東山 一郎",
        ]
    ),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rows=st.lists(st.lists(cells, min_size=0, max_size=11), max_size=12))
def test_random_rows_never_crash(members, rows):
    import csv as csv_module

    out = io.StringIO()
    writer = csv_module.writer(out)
    writer.writerow(HEADER.split(","))
    writer.writerows(rows)
    before = state()
    plan = plan_import(out.getvalue().encode("utf-8"))
    assert all(isinstance(str(e), str) for e in plan.errors)
    if not plan.ok:
        with pytest.raises(ImportRefused):
            import_results(out.getvalue().encode("utf-8"))
        assert state() == before


def test_the_csv_round_trip_gives_the_same_file(members):
    import_results(csv_bytes())
    _, content_type, first = render_games_csv(Filters())
    assert content_type == "text/csv; charset=utf-8" and first.startswith(b"\xef\xbb\xbf")
    # An empty database: no meets, games or members.
    Meet.objects.all().delete()
    Member.objects.all().delete()
    import_results(first, create_members=True)
    _, _, second = render_games_csv(Filters())
    assert second == first
    assert_settled_as_expected()
