"""Standings as an Excel workbook, read back cell by cell."""

import io
from datetime import date
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from scoring.models import Hanchan
from scoring.reports.xlsx import TITLE_ROWS, render_standings_xlsx
from scoring.standings import Filters, Period, compute_standings
from tests.builders import (
    CLUB4,
    FIRST_COLUMNS,
    H1,
    JKMA,
    KANTAN,
    rule,
    sheet_rows,
    standings_header,
)

pytestmark = pytest.mark.django_db
H2 = Filters(period=Period.parse("2025-H2"))


def test_the_xlsx_matches_the_standings_cell_by_cell(club):
    filename, content_type, data = render_standings_xlsx(H2)
    assert filename.endswith(".xlsx") and "spreadsheetml" in content_type
    book = load_workbook(io.BytesIO(data))
    sheet = book["成績表"]
    header = [c.value for c in sheet[TITLE_ROWS + 1]]
    assert header[:11] == FIRST_COLUMNS
    assert header == standings_header()
    rows = compute_standings(H2)
    # The table, then a blank row and the note of the order within a rank (issue 28).
    assert sheet.max_row == TITLE_ROWS + 1 + len(rows) + 2
    last = TITLE_ROWS + 1 + len(rows)
    body = sheet.iter_rows(min_row=TITLE_ROWS + 2, max_row=last, values_only=True)
    for excel_row, r in zip(body, rows, strict=True):
        assert excel_row[:11] == (
            r.position,
            r.name,
            r.games,
            float(r.total),
            float(r.average_place),
            *r.places,
            r.big_hand_total,
            r.chombo,
        )
        assert excel_row[12] == float(r.top_rate)  # numbers, not text
    total = sheet["D4"]
    assert isinstance(total.value, (int, float)) and total.number_format == "+0.0;-0.0;0.0"
    assert sheet.freeze_panes == "A4" and sheet.print_title_rows == "$3:$3"
    assert sheet.page_setup.orientation == "landscape" and sheet.page_setup.paperSize == 9
    # Two pages across, the rank and name repeated on each (issue 28: test_printed_record.py).
    assert sheet.sheet_properties.pageSetUpPr.fitToPage and sheet.page_setup.fitToWidth == 2
    assert sheet["A3"].font.b
    games = book["全対局"]
    assert games.max_row == TITLE_ROWS + 1 + 4 * Hanchan.objects.count()
    # Dates as dates, 2025/10/1, in a column wide enough not to show ####.
    assert games["A4"].is_date and games["A4"].number_format == "yyyy/m/d"
    assert games.column_dimensions["A"].width >= 10
    assert set(book.sheetnames) >= {m.name for m in club}  # a sheet per member


def test_every_excel_sheet_has_a_title_a_print_header_and_footer_and_scores_with_commas(
    club, monkeypatch
):
    """Issue 17: printed, a sheet says whose club, which report, which period, when made,
    and page n/N; 持ち点 reads 32,600."""
    monkeypatch.setattr("django.utils.timezone.localdate", lambda: date(2026, 11, 23))
    book = load_workbook(io.BytesIO(render_standings_xlsx(H2)[2]))
    member = club[0]
    for name, report in [
        ("成績表", "成績表"),
        ("全対局", "全対局"),
        (member.name, f"個人成績　{member.name}"),
    ]:
        sheet = book[name]
        assert sheet["A1"].value == f"白樺会マージャンサークル　{report}"
        assert sheet["A1"].font.b and sheet["A1"].font.sz == 14
        assert sheet["A2"].value == "2025年度 下期（10月〜3月）　2026年11月23日（月） 作成"
        assert sheet.oddHeader.left.text == f"白樺会マージャンサークル　{report}"
        assert sheet.oddHeader.right.text == "2025年度 下期（10月〜3月）"
        assert sheet.oddFooter.right.text == "&P / &N"  # page n / N
    games = book["全対局"]
    score = [c.value for c in games[TITLE_ROWS + 1]].index("持ち点") + 1
    cell = games.cell(row=TITLE_ROWS + 2, column=score)
    assert isinstance(cell.value, int) and cell.number_format == "#,##0"
    highest = [c.value for c in book["成績表"][TITLE_ROWS + 1]].index("最高持ち点") + 1
    assert book["成績表"].cell(row=TITLE_ROWS + 2, column=highest).number_format == "#,##0"


def test_p_values_are_rounded_to_a_tenth_before_writing(club):
    data = render_standings_xlsx(H2)[2]
    sheet = load_workbook(io.BytesIO(data))["成績表"]
    last = sheet.max_row - 2  # the note under the table
    for (value,) in sheet.iter_rows(
        min_row=TITLE_ROWS + 2, max_row=last, min_col=12, max_col=12, values_only=True
    ):
        assert Decimal(str(value)) == Decimal(str(value)).quantize(Decimal("0.1"))


def test_the_excel_of_each_group(three_systems):
    _f, _t, data = render_standings_xlsx(Filters(period=H1), with_members=False)
    rows = sheet_rows(data)
    assert rows[0][:11] == FIRST_COLUMNS
    kinds = ["満貫", "跳満", "倍満", "三倍満", "役満"]  # at the very end (issue 29)
    assert standings_header()[-5:] == kinds
    assert rows[0][: len(standings_header()) - 5] == standings_header()[:-5]
    assert rows[0][-9:-5] == ["三人打ち1位", "三人打ち2位", "三人打ち3位", "三人打ち平均順位"]
    assert rows[0][-5:] == kinds
    a = next(r for r in rows if r[1] == "相川 愛")
    header = rows[0]
    assert a[header.index("合計P")] == -5.0
    assert a[header.index("3位")] == 0 and a[header.index("三人打ち3位")] == 1

    filename, _t, data = render_standings_xlsx(
        Filters(period=H1, group=rule(JKMA).group), with_members=False
    )
    a = next(r for r in sheet_rows(data) if r[1] == "相川 愛")
    assert a[3] == 22.0 and f"group{rule(JKMA).group.pk}" in filename

    _f, _t, data = render_standings_xlsx(
        Filters(period=H1, group=rule(KANTAN).group), with_members=False
    )
    rows = sheet_rows(data)
    assert rows[0][:5] == ["順位", "氏名", "半荘数", "勝ち数", "勝率"]
    assert next(r for r in rows if r[1] == "相川 愛")[3] == 1


def test_the_excel_games_sheet_carries_rule_set_deposits_and_note(every_rule):
    data = render_standings_xlsx(Filters(period=Period.parse("2025-06")), with_members=False)[2]
    rows = sheet_rows(data, "全対局")
    assert rows[0][-3:] == ["ルール", "供託", "備考"]
    first = next(r for r in rows if r[5] == "相川 愛" and r[11] == CLUB4)
    assert first[12] == 1000 and first[10] == "満貫;役満(国士無双)"
