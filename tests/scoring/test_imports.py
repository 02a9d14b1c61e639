"""Importing record sheets: good files in every encoding and format, every bad file refused
with its error and nothing changed, random rows never crash, and the CSV round trip."""

import io
from datetime import datetime
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from members.models import Member
from scoring.imports import ImportRefused, import_results, plan_import
from scoring.models import BigHand, Hanchan, HanchanResult, Meet, RuleSet
from scoring.reports.games_csv import render_games_csv
from scoring.standings import Filters
from tests.builders import (
    GOOD_ROWS,
    HEADER,
    HOSTILE,
    MAIN,
    MALFORMED,
    MALFORMED_MESSAGES,
    NAMES,
    SHEET,
    csv_bytes,
    play,
    replace_row,
    sheet_xml,
    vm_kb,
    with_parts,
    xlsx_bytes,
)

pytestmark = pytest.mark.django_db
D = Decimal


def excel_unicode_text(rows=None) -> bytes:
    """The file Japanese Excel saves as 「Unicode テキスト」: UTF-16 LE behind its BOM (FF FE),
    cells between tabs, lines ending CR LF; a cell is quoted only when it holds a tab, a
    quote or a line break. ``rows``: lists of cells, the header first (default: GOOD_ROWS)."""
    rows = rows or [line.split(",") for line in [HEADER, *GOOD_ROWS]]

    def cell(text):
        return '"' + text.replace('"', '""') + '"' if any(c in text for c in '\t"\n') else text

    lines = ["\t".join(cell(c) for c in cells) for cells in rows]
    return b"\xff\xfe" + ("\r\n".join(lines) + "\r\n").encode("utf-16-le")


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
        excel_unicode_text(),
        csv_bytes(header="date,meet,table,round,seat,name,score,chombo,big_hands"),
        csv_bytes(
            [",".join(r.split(",")[i] for i in (5, 6, 4, 0, 1, 2, 3, 7, 8)) for r in GOOD_ROWS],
            header="氏名,持ち点,席,日付,例会,卓,回戦,錯和,満貫以上",
        ),
    ],
    ids=[
        "utf8",
        "utf8-bom",
        "shift_jis",
        "xlsx",
        "excel-unicode-text",
        "english-headers",
        "any-order",
    ],
)
def test_a_good_file_imports_and_settles(members, data):
    plan = import_results(data)
    assert (len(plan.games), plan.new_meets, plan.new_members) == (
        2,
        [(Meet.objects.get().date, "wed")],
        [],
    )
    assert_settled_as_expected()


def test_excel_unicode_text_keeps_commas_and_quotes_inside_its_cells(members):
    """In a tab-separated file a comma is part of the cell: a note 「東, 南」 and a note with
    quotes (which Excel writes quoted) come through as they were typed."""
    notes = ["東, 南"] * 4 + ['「"上がり"」'] * 4
    rows = [[*HEADER.split(","), "備考"]] + [
        [*row.split(","), note] for row, note in zip(GOOD_ROWS, notes, strict=True)
    ]
    data = excel_unicode_text(rows)
    assert data[:2] == b"\xff\xfe" and b"\t\x00" in data and b"\r\x00\n\x00" in data
    import_results(data)
    assert dict(Hanchan.objects.values_list("table_no", "note")) == {1: "東, 南", 2: '「"上がり"」'}
    assert_settled_as_expected()


def test_a_utf16_file_that_is_not_one_says_so(members):
    # A BOM and then half a character: no traceback, the encoding message.
    with pytest.raises(ImportRefused, match="文字"):
        import_results(b"\xff\xfe" + "日付\t例会".encode("utf-16-le") + b"\x00")


def test_the_same_file_twice_is_refused_and_names_the_games(members):
    import_results(csv_bytes())
    before = state()
    plan = plan_import(csv_bytes())
    assert not plan.ok
    message = str(plan.errors[0])
    assert "すでに成績表にあります" in message
    assert (
        "2025年4月9日（水） 水曜会 1回戦 1卓" in message
        and "2025年4月9日（水） 水曜会 1回戦 2卓" in message
    )
    assert state() == before


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
    ("huge field", csv_bytes(replace_row(1, "x" * 200_000)), "3行目", "CSV"),
    ("long cell", csv_bytes(replace_row(1, "x" * 3_000)), "3行目", "2,000 文字"),
    ("nul byte late", csv_bytes() + b"x" * 9000 + b"\x00\n", "", ""),
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


def test_a_name_written_with_other_spaces_or_widths_is_the_member_already_there(members):
    """No near-duplicate member comes from an import: 東山　一郎 and ＝1+1 are 東山 一郎 and
    =1+1, whatever the file's spaces and widths."""
    Member.objects.filter(name="北村 三郎").update(name="=1+1")
    rows = [
        row.replace("東山 一郎", "東山\u3000一郎").replace("北村 三郎", "＝1+1")
        for row in GOOD_ROWS
    ]
    plan = import_results(csv_bytes(rows), create_members=True)
    assert plan.new_members == []
    assert Member.objects.count() == 8
    game = Hanchan.objects.get(table_no=1)
    assert [r.member.name for r in game.results.order_by("seat")] == [
        "東山 一郎",
        "南野 花子",
        "西川 次郎",
        "=1+1",
    ]


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


@pytest.mark.slow  # fuzzes (hypothesis)
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


# --- hostile and malformed files (issue 15 §2) -------------------------------------------

HOSTILE_MESSAGES = {
    "dimension": None,  # declares A1:XFD1048576, holds 9 rows: read as the 9 rows
    "zip bomb": "展開すると 99.2 MB",
    "packed too tightly": "圧縮率",
    "wide row": None,  # the cells right of the header are never looked at
    "endless row": "読み切れない",
    "empty rows": "1,000,000",  # a million empty rows after the data
    "styled cells": "1,000,000",
    "too many rows": "50,000 行を超えています",
    "many texts": "200,000",
    "many styles": "65,536",
    "everything at once": None,
}


@pytest.fixture
def memory_ceiling():
    """Allocations beyond what the process holds now plus 400 MB fail (MemoryError) instead
    of taking the machine's memory: a reader that trusts the file fails the test cleanly."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    ceiling = (vm_kb("VmSize") + 400 * 1024) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, hard))
    yield
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@pytest.mark.slow  # hostile files: reads millions of cells
@pytest.mark.parametrize("case", list(HOSTILE_MESSAGES))
def test_a_hostile_file_gets_its_message_or_only_its_rows(members, memory_ceiling, case):

    data = HOSTILE[case]()
    before = state()
    plan = plan_import(data)
    messages = "\n".join(str(e) for e in plan.errors)
    if HOSTILE_MESSAGES[case] is None:
        # The few real rows are read: whatever is wrong is wrong with a row, not the file.
        assert all(e.row > 0 for e in plan.errors), messages
    else:
        assert not plan.ok and HOSTILE_MESSAGES[case] in messages, messages
        assert len(plan.errors) == 1
    assert state() == before


@pytest.mark.parametrize("case", list(HOSTILE_MESSAGES))
@pytest.mark.slow
def test_a_hostile_file_is_read_within_200_mb(tmp_path, case):
    """In a process of its own, under an address-space limit of what it held before plus
    200 MB: the whole reading (``read_table``) ends with its rows or its message. (Its time is
    a measurement, not a test: ``python -m tests.scoring.hostile_files measure FILE`` prints
    it, and docs/security.md has the figures; 30 s here only catches a reader that never stops.)"""
    import json
    import subprocess
    import sys

    path = tmp_path / "hostile.xlsx"
    path.write_bytes(HOSTILE[case]())
    try:
        result = subprocess.run(
            [sys.executable, "-m", "tests.scoring.hostile_files", "measure", str(path)],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{case}: still reading after 30 s")
    assert result.returncode == 0, result.stderr[-2000:]
    measured = json.loads(result.stdout)
    assert measured["outcome"] != "MemoryError", measured
    expected = HOSTILE_MESSAGES[case]
    assert (expected or "read ") in measured["outcome"], measured


@pytest.mark.parametrize("case", list(MALFORMED_MESSAGES))
def test_a_malformed_excel_file_gets_a_clear_message(members, case):

    plan = plan_import(MALFORMED[case]())
    assert [str(e) for e in plan.errors] == [
        next(str(e) for e in plan.errors if MALFORMED_MESSAGES[case] in str(e))
    ]


def test_the_safe_reader_reads_what_openpyxl_reads(members):
    """Shared strings (with furigana and rich-text runs), dates by their style, formulas'
    cached values, booleans, a formula's text, an error value and cells without references:
    the same values as openpyxl's own reader (data_only) gives."""

    from scoring.spreadsheets import read_sheet

    strings = (
        f'<sst xmlns="{MAIN}"><si><t>日付</t></si><si><t>氏名</t></si><si><t>持ち点</t></si>'
        '<si><t>東山 一郎</t><rPh sb="0" eb="2"><t>ひがしやま</t></rPh></si>'
        "<si><r><t>南野</t></r><r><rPr><b/></rPr><t> 花子</t></r></si><si><t>備考</t></si></sst>"
    ).encode()
    styles = (
        f'<styleSheet xmlns="{MAIN}"><numFmts count="1"><numFmt numFmtId="164" '
        'formatCode="yyyy&quot;年&quot;m&quot;月&quot;d&quot;日&quot;"/></numFmts>'
        '<cellStyleXfs><xf numFmtId="14"/></cellStyleXfs><cellXfs><xf numFmtId="0"/>'
        '<xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="3"/></cellXfs></styleSheet>'
    ).encode()
    rows = (
        b'<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>'
        b'<c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>5</v></c></row>'
        b'<row r="3"><c r="A3" s="1"><v>45756</v></c><c r="B3" t="s"><v>3</v></c>'
        b'<c r="C3" s="3"><f>30000+2600</f><v>32600</v></c><c r="D3" t="b"><v>1</v></c></row>'
        b'<row r="4"><c s="2"><v>45757.5</v></c><c t="s"><v>4</v></c><c t="str"><f>"-"&amp;"3200"'
        b'</f><v>-3200</v></c><c t="e"><v>#N/A</v></c><c r="Z4"><v>7</v></c></row>'
        b'<row r="5"><c r="A5" t="inlineStr"><is><t>2025/4/9</t></is></c><c r="C5"><v>1.5E3</v>'
        b"</c></row>"
    )
    rels = (
        b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        b'relationships/worksheet" Target="/xl/worksheets/sheet1.xml"/><Relationship Id="rId2" '
        b'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" '
        b'Target="styles.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/'
        b'officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
        b"</Relationships>"
    )
    content_types = (
        b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        b'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        b'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
        b'<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
        b'officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/sharedStrings.xml"'
        b' ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings'
        b'+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-'
        b'officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/worksheets/sheet1.xml"'
        b' ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        b"</Types>"
    )
    data = with_parts(
        {
            SHEET: sheet_xml(rows, "A1:Z5"),
            "xl/sharedStrings.xml": strings,
            "xl/styles.xml": styles,
            "xl/_rels/workbook.xml.rels": rels,
            "[Content_Types].xml": content_types,
        },
        drop=("xl/theme/theme1.xml",),
    )
    book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    expected = []
    for row in book.worksheets[0].iter_rows(values_only=True, max_col=4):
        values = list(row)
        while values and values[-1] is None:
            values.pop()
        if values:
            expected.append(values)
    assert read_sheet(data) == expected
    assert expected[1][:2] == [datetime(2025, 4, 9), "東山 一郎"]  # the furigana left out
    assert expected[2][1] == "南野 花子"


def test_preview_refuses_a_table_or_round_that_saving_would_refuse(members):
    rows = [r.replace(",1,1,", ",999999999,21,", 1) for r in GOOD_ROWS]
    plan = plan_import(csv_bytes(rows))
    messages = {str(e) for e in plan.errors}
    assert "2行目、列「卓」：卓は 50 以下にしてください。" in messages
    assert "2行目、列「回戦」：回戦は 20 以下にしてください。" in messages
    plan = plan_import(csv_bytes([r.replace(",1,1,", ",50,20,", 1) for r in GOOD_ROWS]))
    assert plan.ok, plan.errors


def test_a_file_with_thousands_of_errors_keeps_the_first_hundred_and_counts_the_rest(members):
    rows = [f"2025-04-09,水曜会,{i % 50 + 1},1,東,東山 一郎,三万,," for i in range(20_000)]
    data = csv_bytes(rows)
    assert len(data) > 900_000
    plan = plan_import(data)
    assert len(plan.errors) == 100 and plan.error_count == 20_000
    assert plan.more_errors == 19_900


class TestOneTablePerRound:
    """One player, one table per round (issue 14)."""

    def test_the_import_refuses_a_player_at_two_tables_all_or_nothing(self, people):
        rows = [
            "日付,例会,卓,回戦,席,氏名,持ち点",
            *(
                f"2025-04-09,水曜会,1,1,{s},{p.name},{v}"
                for s, p, v in zip(
                    "東南西北", people[:4], [40000, 30000, 30000, 20000], strict=True
                )
            ),
            *(
                f"2025-04-09,水曜会,2,1,{s},{p.name},{v}"
                for s, p, v in zip(
                    "東南西北", [people[0], *people[4:7]], [40000, 30000, 30000, 20000], strict=True
                )
            ),
        ]
        plan = plan_import("\n".join(rows).encode())
        assert any("1 回戦の 1 卓ですでに打っています" in str(e) for e in plan.errors)
        with pytest.raises(ImportRefused):
            import_results("\n".join(rows).encode())
        assert not Hanchan.objects.exists()

    def test_the_import_refuses_a_player_already_seated_in_the_score_book(
        self, bare_meet, people, club_rule
    ):
        play(bare_meet, 1, 1, club_rule, people[:4], [40_000, 30_000, 30_000, 20_000])
        rows = [
            "日付,例会,卓,回戦,席,氏名,持ち点",
            *(
                f"2025-04-09,水曜会,2,1,{s},{p.name},{v}"
                for s, p, v in zip(
                    "東南西北", [people[0], *people[4:7]], [40000, 30000, 30000, 20000], strict=True
                )
            ),
        ]
        with pytest.raises(ImportRefused) as exc:
            import_results("\n".join(rows).encode())
        assert "1 卓ですでに打っています" in str(exc.value)
        assert Hanchan.objects.count() == 1


def test_an_old_file_without_the_new_columns_imports_under_the_default_rule_set(people):
    rows = ["日付,例会,卓,回戦,席,氏名,持ち点"] + [
        f"2025-04-09,水曜会,1,1,{s},{p.name},{v}"
        for s, p, v in zip("東南西北", people[:4], [40000, 30000, 30000, 20000], strict=True)
    ]
    import_results("\n".join(rows).encode())
    assert Hanchan.objects.get().rule_set == RuleSet.objects.default()


def test_names_match_whatever_their_spaces_and_width(db):
    """The member was entered as 山田　花子 (a full-width space); files write 山田 花子 or
    山田花子, and ｽｽﾞｷ in half-width kana: one member each, never a duplicate."""
    Member.objects.create(name="山田　花子", furigana="やまだ はなこ")
    names = ["山田 花子", "鈴木 一郎", "ｽｽﾞｷ 次郎", "佐藤太郎"]
    rows = ["日付,例会,卓,回戦,席,氏名,持ち点"] + [
        f"2025-04-09,水曜会,1,1,{s},{n},{v}"
        for s, n, v in zip("東南西北", names, [40000, 30000, 30000, 20000], strict=True)
    ]
    plan = plan_import("\n".join(rows).encode(), create_members=True)
    assert plan.new_members == ["鈴木 一郎", "ｽｽﾞｷ 次郎", "佐藤太郎"]  # 山田 花子 is known
    import_results("\n".join(rows).encode(), create_members=True)
    assert Member.objects.count() == 4
    assert Hanchan.objects.get().results.get(seat=0).member.name == "山田　花子"
    # Written again with other spaces and widths, the same four are found.
    again = [r.replace("2025-04-09", "2025-04-16") for r in rows]
    again[1] = again[1].replace("山田 花子", "山田花子")
    again[3] = again[3].replace("ｽｽﾞｷ 次郎", "スズキ　次郎")
    again[4] = again[4].replace("佐藤太郎", "佐藤 太郎")
    import_results("\n".join(again).encode(), create_members=True)
    assert Member.objects.count() == 4


def test_a_guest_keeps_the_mark_through_the_csv_round_trip(guest_season):
    """The games CSV writes 大野 音（ゲスト） (a guest) on both of 大野's rows (rounds 2 and 3);
    imported into an empty score book, 大野 is made a guest again and the other four members,
    and the export is the same file."""
    _, _, first = render_games_csv(Filters())
    lines = first.decode("utf-8-sig").splitlines()
    assert sum("大野 音（ゲスト）" in line for line in lines) == 2
    assert sum("相川 愛" in line for line in lines) == 4
    Meet.objects.all().delete()
    Member.objects.all().delete()
    plan = import_results(first, create_members=True)
    assert sorted(plan.new_members) == sorted(
        ["相川 愛", "井上 一", "上田 卯", "江藤 栄", "大野 音"]
    )
    guests = dict(Member.objects.values_list("name", "is_guest"))
    assert guests == {
        "相川 愛": False,
        "井上 一": False,
        "上田 卯": False,
        "江藤 栄": False,
        "大野 音": True,
    }
    _, _, second = render_games_csv(Filters())
    assert second == first


def test_a_name_marked_as_a_guest_matches_the_member_without_the_mark(guest_season):
    """「大野 音(ゲスト)」 (half-width too) is the member 大野 音, not a new one."""
    _, _, data = render_games_csv(Filters())
    text = data.decode("utf-8-sig").replace("大野 音（ゲスト）", "大野 音(ゲスト)")
    Meet.objects.all().delete()
    plan = plan_import(text.encode())
    assert plan.ok and plan.new_members == []
