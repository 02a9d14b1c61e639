"""The tables' column declarations (scoring/standings/columns.py): one per table, read by the
page, the PDF, the Excel and the CSV."""

from __future__ import annotations

import io
from decimal import Decimal as D

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.imports import COLUMNS
from scoring.reports.cells import csv_text, headings, lay_out, sheet_value, text
from scoring.reports.games_csv import render_games_csv
from scoring.reports.pdf import render_standings_pdf
from scoring.reports.xlsx import TITLE_ROWS, render_standings_xlsx
from scoring.standings import (
    GAMES,
    MEMBER_GAMES,
    STANDINGS,
    Column,
    Filters,
    Format,
    Medium,
    Period,
    Shown,
    compute_standings,
)
from tests.builders import make_club


def keys(columns) -> list[str]:
    return [c.key for c in columns]


def test_the_excel_keeps_its_standings_header():
    """The spreadsheet's columns, in Japanese and in their order, as the club's sheets have
    them (its formulas point at the letters)."""
    assert headings(STANDINGS.shown(Medium.SHEET, Shown())) == [
        "順位",
        "氏名",
        "半荘数",
        "合計P",
        "四人打ち平均順位",
        "1位",
        "2位",
        "3位",
        "4位",
        "満貫以上",
        "錯和",
        "平均P",
        "トップ率",
        "連対率",
        "ラス回避率",
        "最高P",
        "最高持ち点",
        "箱割れ",
        "出席回数",
        "満貫",
        "跳満",
        "倍満",
        "三倍満",
        "役満",
    ]
    three = headings(STANDINGS.shown(Medium.SHEET, Shown(three=True)))
    assert three[-9:-5] == ["三人打ち1位", "三人打ち2位", "三人打ち3位", "三人打ち平均順位"]


def test_the_page_shows_the_standings_in_its_order():
    assert keys(STANDINGS.shown(Medium.PAGE, Shown())) == [
        "position",
        "name",
        "games",
        "total",
        "average_place",  # beside the total: a phone's first screen (the meet day's try)
        "place1",
        "place2",
        "place3",
        "place4",
        "average",
        "top_rate",
        "top_two_rate",
        "last_avoid_rate",
        "best_game",
        "highest_score",
        "big_hands",
        "mangan",
        "haneman",
        "baiman",
        "sanbaiman",
        "yakuman",
        "chombo",
        "meets",
    ]


def test_a_group_counting_wins_shows_wins_and_the_win_rate_instead_of_p():
    shown = keys(STANDINGS.shown(Medium.PAGE, Shown(wins=True, four=False, three=True)))
    assert shown == [
        "position",
        "name",
        "games",
        "wins",
        "win_rate",
        "three_place1",
        "three_place2",
        "three_place3",
        "big_hands",
        "mangan",
        "haneman",
        "baiman",
        "sanbaiman",
        "yakuman",
        "chombo",
        "meets",
    ]


def test_the_a4_pdf_leaves_out_the_widest_figures_and_keeps_its_order():
    pdf = keys(STANDINGS.shown(Medium.PDF, Shown()))
    page = keys(STANDINGS.shown(Medium.PAGE, Shown()))
    assert [k for k in page if k not in pdf] == ["best_game", "highest_score", "meets"]
    assert pdf[:10] == [
        *["position", "name", "games", "total", "average"],
        *["place1", "place2", "place3", "place4", "average_place"],
    ]


def test_every_column_has_its_own_key():
    for table in (STANDINGS, MEMBER_GAMES, GAMES):
        assert len(table.by_key) == len(table.columns)


def test_the_games_csv_is_the_import_format():
    assert headings(GAMES.shown(Medium.CSV)) == [names[0] for names in COLUMNS.values()]
    assert keys(GAMES.shown(Medium.SHEET))[6:9] == ["score", "place", "total"]
    assert headings(MEMBER_GAMES.shown(Medium.SHEET))[5:9] == ["持ち点", "順位", "P", "累計"]


@pytest.mark.parametrize(
    ("kind", "value", "page", "sheet", "csv"),
    [
        (Format.P, D("-33.24"), "\u221233.2", D("-33.2"), "-33.24"),
        (Format.P, D("0"), "0.0", D("0.0"), "0"),
        (Format.POINTS, 32600, "32,600", 32600, "32600"),
        (Format.RATE, D("0.333"), "33.3%", D("0.333"), "0.333"),
        (Format.RATE, None, "—", None, ""),
        (Format.PLACE, D("2.25"), "2.25", D("2.25"), "2.25"),
        (Format.COUNT, 3, "3", 3, "3"),
        (Format.TEXT, "=1+1", "=1+1", "=1+1", "'=1+1"),
    ],
)
def test_a_value_is_written_by_its_kind(kind, value, page, sheet, csv):
    assert text(kind, value) == page
    assert sheet_value(kind, value) == sheet
    assert csv_text(kind, value) == csv


def test_each_cell_is_written_once_with_its_class():
    class Row:
        position, listed_name, games, total, places, average = (
            1,
            "青木",
            2,
            D("-5"),
            (0, 1, 1, 0),
            D("-2.5"),
        )

    columns = [STANDINGS.by_key[k] for k in ("position", "name", "total", "place1", "average")]
    laid = lay_out(columns, [Row()])
    assert [(h.text, h.css, h.sort) for h in laid.headings] == [
        ("順位", "num", "position"),
        ("氏名", "", "name"),
        ("合計P", "num", "total"),
        ("1位", "num", None),
        ("平均P", "num", "average"),
    ]
    assert [(c.text, c.css) for c in laid.lines[0].cells] == [
        ("1", "num"),
        ("青木", ""),
        ("\u22125.0", "num strong neg"),
        ("0", "num"),
        ("\u22122.5", "num neg"),
    ]


@pytest.mark.slow  # it lays out a PDF
def test_a_column_added_to_the_declaration_is_on_the_page_in_the_pdf_excel_and_csv(
    monkeypatch, club_rule, client, alice
):
    """One ``Column`` more in a declaration, and every medium shows it: the standings page,
    the PDF and the Excel (the standings table), the CSV and the Excel's games sheet (the
    games table)."""
    make_club(club_rule, members=4, meets=1)
    figure = Column("figure", "試し", lambda r: r.games * 1000 + 234, Format.POINTS)
    monkeypatch.setattr(STANDINGS, "columns", STANDINGS.with_column(figure, after="games"))
    mark = Column("mark", "印", lambda g: g.score + 1, Format.POINTS)
    monkeypatch.setattr(GAMES, "columns", GAMES.with_column(mark))
    filters = Filters(period=Period.parse("all"))
    rows = compute_standings(filters)
    games = rows[0].games  # every member played every game of the meet
    assert {r.games for r in rows} == {games}
    written = f"{games},234"  # games × 1000 + 234, with the thousands separator

    client.force_login(alice)
    page = client.get("/standings/?period=all").content.decode()
    heading = page.index(">試し<")
    assert page.index(">半荘数<") < heading < page.index(">合計P<")
    assert page.count(f'<td class="num">{written}</td>') == len(rows)

    pdf = render_standings_pdf(filters, with_members=False)[2]
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "試し" in text and text.count(written) == len(rows)

    book = load_workbook(io.BytesIO(render_standings_xlsx(filters, with_members=False)[2]))
    header = [c.value for c in book["成績表"][TITLE_ROWS + 1]]
    assert header[-1] == "試し"  # the Excel's columns keep their letters: a new one is last
    cells = [
        row[-1]
        for row in book["成績表"].iter_rows(
            min_row=TITLE_ROWS + 2, max_row=TITLE_ROWS + 1 + len(rows)
        )
    ]
    assert [(c.value, c.number_format) for c in cells] == [(games * 1000 + 234, "#,##0")] * len(
        rows
    )
    sheet = book["全対局"]
    assert sheet.cell(TITLE_ROWS + 1, sheet.max_column).value == "印"

    lines = render_games_csv(filters)[2].decode("utf-8-sig").splitlines()
    assert lines[0].endswith(",印")
    scores = [int(line.split(",")[6]) for line in lines[1:]]
    assert [int(line.split(",")[-1]) for line in lines[1:]] == [s + 1 for s in scores]


def test_a_rows_cells_are_joined_once_as_html_around_its_heading():
    class Row:
        position, listed_name, games = 1, "<青木>", 2

    columns = [STANDINGS.by_key[k] for k in ("position", "name", "games")]
    line = lay_out(columns, [Row()]).lines[0]
    assert line.before == '<td class="num">1</td>'
    assert line.heading.text == "<青木>"  # escaped by the template that lays it out
    assert line.after == '<td class="num">2</td>'
