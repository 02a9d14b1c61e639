"""Excel reports (openpyxl): the standings, every game, and a sheet per member.

Lays out what ``standings.py`` returns. Numbers are numbers in the cells (P rounded to one
decimal before writing, shown as +0.0/-0.0), the header row is bold and frozen, and every
sheet prints on A4 landscape, fitted to the page width, with the header repeated.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from scoring.imports import KIND_LABELS
from scoring.models import SEAT_NAMES, HanchanResult, MeetKind
from scoring.standings import (
    Filters,
    StandingRow,
    compute_standings,
    listed_results,
    member_records,
)

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
P_FORMAT = "+0.0;-0.0;0.0"
RATE_FORMAT = "0.0%"
TENTH = Decimal("0.1")

# The standings sheet's first columns, named exactly so (other columns follow).
STANDINGS_HEADER = [
    "順位",
    "氏名",
    "半荘数",
    "合計P",
    "平均順位",
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
]
GAMES_HEADER = [
    "日付",
    "例会",
    "回戦",
    "卓",
    "席",
    "氏名",
    "持ち点",
    "順位",
    "P",
    "錯和",
    "満貫以上",
]
MEMBER_HEADER = [
    "日付",
    "例会",
    "回戦",
    "卓",
    "席",
    "持ち点",
    "順位",
    "P",
    "累計",
    "錯和",
    "満貫以上",
]


def p(value: Decimal) -> Decimal:
    return Decimal(value).quantize(TENTH)


def standings_row(r: StandingRow) -> list[Any]:
    return [
        r.position,
        r.name,
        r.games,
        p(r.total),
        r.average_place,
        *r.places,
        r.big_hand_total,
        r.chombo,
        p(r.average),
        r.top_rate,
        r.top_two_rate,
        r.last_avoid_rate,
        p(r.best_game),
        r.highest_score,
        r.below_zero,
        r.meets,
    ]


def render_standings_xlsx(filters: Filters, *, with_members: bool = True) -> tuple[str, str, bytes]:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "成績表"
    rows = compute_standings(filters)
    _table(
        sheet,
        STANDINGS_HEADER,
        (standings_row(r) for r in rows),
        formats={
            "合計P": P_FORMAT,
            "平均P": P_FORMAT,
            "最高P": P_FORMAT,
            "平均順位": "0.00",
            "トップ率": RATE_FORMAT,
            "連対率": RATE_FORMAT,
            "ラス回避率": RATE_FORMAT,
        },
    )
    games = book.create_sheet("全対局")
    _table(games, GAMES_HEADER, _game_rows(filters), formats={"P": P_FORMAT})
    if with_members:
        used: set[str] = {"成績表", "全対局"}
        records = member_records(filters, rows)
        for r in rows:
            record = records[r.member_id]
            title = _sheet_title(r.name, used)
            member_sheet = book.create_sheet(title)
            _table(
                member_sheet,
                MEMBER_HEADER,
                (
                    [
                        g.date,
                        g.meet_kind,
                        g.round_no,
                        g.table_no,
                        g.seat,
                        g.score,
                        g.place,
                        p(g.total),
                        p(g.cumulative),
                        g.chombo or None,
                        "、".join(g.big_hands) or None,
                    ]
                    for g in record.games
                ),
                formats={"P": P_FORMAT, "累計": P_FORMAT, "日付": "yyyy/m/d"},
            )
    out = io.BytesIO()
    book.save(out)
    return f"shirakaba-standings-{filters.period.key}.xlsx", CONTENT_TYPE, out.getvalue()


def _game_rows(filters: Filters) -> Iterable[list[Any]]:
    results: Iterable[HanchanResult] = listed_results(filters)
    for r in results:
        yield [
            r.played_on,
            KIND_LABELS[MeetKind(r.meet.kind)],
            r.hanchan.round_no,
            r.hanchan.table_no,
            SEAT_NAMES[r.seat],
            r.member.name,
            r.score,
            r.place,
            p(r.total_points),
            r.chombo or None,
            "、".join(str(h) for h in r.big_hands.all()) or None,
        ]


def _sheet_title(name: str, used: set[str]) -> str:
    base = re.sub(r"[\[\]:*?/\\]", "", name)[:28] or "会員"
    title, n = base, 2
    while title in used:
        title, n = f"{base}{n}", n + 1
    used.add(title)
    return title


def _table(
    sheet: Worksheet,
    header: Sequence[str],
    rows: Iterable[Sequence[Any]],
    formats: dict[str, str] | None = None,
) -> None:
    formats = formats or {}
    sheet.append(list(header))
    bold = Font(bold=True)
    fill = PatternFill("solid", fgColor="E8EEE8")
    for cell in sheet[1]:
        cell.font = bold
        cell.fill = fill
        cell.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
    widths = [max(6, len(h) * 2 + 2) for h in header]
    for row in rows:
        sheet.append(list(row))
        for i, value in enumerate(row):
            if isinstance(value, str):
                widths[i] = max(widths[i], min(40, len(value) * 2 + 2))
    for index, name in enumerate(header, start=1):
        letter = get_column_letter(index)
        sheet.column_dimensions[letter].width = widths[index - 1]
        if name in formats:
            for (cell,) in sheet.iter_rows(min_row=2, min_col=index, max_col=index):
                cell.number_format = formats[name]
    sheet.freeze_panes = "A2"
    sheet.print_title_rows = "1:1"
    sheet.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0
    sheet.page_setup.orientation = "landscape"
    sheet.page_setup.paperSize = sheet.PAPERSIZE_A4
