"""Excel reports (openpyxl): the standings, every game, and a sheet per member.

Lays out what ``standings.py`` returns. Numbers are numbers in the cells (P rounded to one
decimal before writing, shown as +0.0/-0.0; 持ち点 with thousands separators). Each sheet
starts with two title rows (the club and the report; the period and the day it was made),
then the bold header row, frozen with the title above it. Every sheet prints on A4
landscape, fitted to the page width, with the header repeated on every page, and a print
header and footer: the club and the report, the period, and page n/N.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from scoring.notation import KIND_LABELS, SEAT_NAMES, MeetKind, format_big_hands, meet_date
from scoring.reports import Progress, no_progress
from scoring.standings import (
    Filters,
    PlaceColumns,
    StandingRow,
    compute_standings,
    counts_wins,
    game_rows,
    member_records,
)

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
SCORE_FORMAT = "#,##0"  # 持ち点: 32,600
# The title rows above each sheet's header row; the header is row TITLE_ROWS + 1.
TITLE_ROWS = 2


@dataclass(frozen=True)
class Heading:
    """What a sheet says of itself: the report (and whose), the period, the day made."""

    report: str
    period: str
    made_on: date


P_FORMAT = "+0.0;-0.0;0.0"
RATE_FORMAT = "0.0%"
DATE_FORMAT = "yyyy/m/d"
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
    "ルール",
    "供託",
    "備考",
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


THREE_PLAYER_HEADER = ["三人打ち1位", "三人打ち2位", "三人打ち3位", "三人打ち平均順位"]
WINS_HEADER = ["順位", "氏名", "半荘数", "勝ち数", "勝率", "満貫以上", "錯和", "出席回数"]


def standings_sheet(
    filters: Filters, rows: list[StandingRow]
) -> tuple[list[str], list[list[Any]], dict[str, str]]:
    """The standings sheet's header, rows and number formats for the group counted: the
    club's columns (3-player place counts after them when the group has 3-player games), or
    wins and the win rate for a 1-0-0-0 group."""
    if counts_wins(filters):
        return (
            WINS_HEADER,
            [
                [
                    r.position,
                    r.name,
                    r.games,
                    r.wins,
                    r.top_rate,
                    r.big_hand_total,
                    r.chombo,
                    r.meets,
                ]
                for r in rows
            ],
            {"勝率": RATE_FORMAT},
        )
    header = list(STANDINGS_HEADER)
    body = [standings_row(r) for r in rows]
    if PlaceColumns.of(rows).three:
        header += THREE_PLAYER_HEADER
        for line, r in zip(body, rows, strict=True):
            line += [*r.places3, r.average_place3]
    formats = {
        "合計P": P_FORMAT,
        "平均P": P_FORMAT,
        "最高P": P_FORMAT,
        "平均順位": "0.00",
        "三人打ち平均順位": "0.00",
        "トップ率": RATE_FORMAT,
        "連対率": RATE_FORMAT,
        "ラス回避率": RATE_FORMAT,
        "最高持ち点": SCORE_FORMAT,
    }
    return header, body, {k: v for k, v in formats.items() if k in header}


def render_standings_xlsx(
    filters: Filters, *, with_members: bool = True, progress: Progress = no_progress
) -> tuple[str, str, bytes]:
    """The standings, every game, and a sheet per member; ``progress`` is told the member
    sheets written, n of N."""
    # Write-only: each row goes straight to the file, not into a grid of cell objects.
    book = Workbook(write_only=True)
    rows = compute_standings(filters)
    made_on = timezone.localdate()
    header, body, formats = standings_sheet(filters, rows)
    heading = Heading("成績表", filters.heading, made_on)
    _table(book, "成績表", heading, header, body, formats=formats)
    _table(
        book,
        "全対局",
        Heading("全対局", filters.heading, made_on),
        GAMES_HEADER,
        _game_rows(filters),
        formats={"P": P_FORMAT, "日付": DATE_FORMAT, "持ち点": SCORE_FORMAT},
    )
    if with_members:
        used: set[str] = {"成績表", "全対局"}
        records = member_records(filters, rows)
        step = _("Member sheets")
        for done, r in enumerate(rows):
            progress(step, done, len(rows))
            _table(
                book,
                _sheet_title(r.name, used),
                Heading(f"個人成績　{r.name}", filters.heading, made_on),
                MEMBER_HEADER,
                [
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
                    for g in records[r.member_id].games
                ],
                formats={
                    "P": P_FORMAT,
                    "累計": P_FORMAT,
                    "日付": DATE_FORMAT,
                    "持ち点": SCORE_FORMAT,
                },
            )
        progress(step, len(rows), len(rows))
    out = io.BytesIO()
    book.save(out)
    return f"shirakaba-standings-{filters.file_key}.xlsx", CONTENT_TYPE, out.getvalue()


def _game_rows(filters: Filters) -> list[list[Any]]:
    """Every game, one row per player, in sheet order, with all the game holds."""
    return [
        [
            g.played_on,
            KIND_LABELS[MeetKind(g.kind)],
            g.round_no,
            g.table_no,
            SEAT_NAMES[g.seat],
            g.name,
            g.score,
            g.place,
            g.total,
            g.chombo or None,
            format_big_hands(g.big_hands) or None,
            g.rule_set,
            g.deposits_held or None,
            g.note or None,
        ]
        for g in game_rows(filters)
    ]


def _sheet_title(name: str, used: set[str]) -> str:
    base = re.sub(r"[\[\]:*?/\\]", "", ILLEGAL_CHARACTERS_RE.sub("", name))[:28] or "会員"
    title, n = base, 2
    while title in used:
        title, n = f"{base}{n}", n + 1
    used.add(title)
    return title


def _width(value: Any) -> int:
    """Columns wide enough for their values (a date or a number too narrow shows ####);
    Japanese text counts two units a character."""
    if isinstance(value, str):
        return min(40, len(value) * 2 + 2)
    if isinstance(value, date):
        return 11  # 2025/10/15
    return min(12, len(str(value)) + 3) if value is not None else 0


def _table(
    book: Workbook,
    title: str,
    heading: Heading,
    header: Sequence[str],
    rows: list[list[Any]],
    formats: dict[str, str] | None = None,
) -> None:
    """A sheet of ``rows`` under the ``heading``'s title rows and a bold, frozen ``header``,
    printed A4 landscape, fitted to the page width with the header on every page and the
    period and page n/N in the print header and footer. Column widths follow the widest
    value."""
    sheet = book.create_sheet(title)
    club = _("Shirakaba Mahjong Circle")
    made = _("Made on %(day)s") % {"day": meet_date(heading.made_on)}
    # In a write-only sheet, everything but the rows is set before the first row.
    widths = [max(6, len(h) * 2 + 2) for h in header]
    for row in rows:
        for i, value in enumerate(row):
            widths[i] = max(widths[i], _width(value))
    for index, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width
    header_row = TITLE_ROWS + 1
    sheet.freeze_panes = f"A{header_row + 1}"
    sheet.print_title_rows = f"{header_row}:{header_row}"
    sheet.oddHeader.left.text = _escape_print(f"{club}　{heading.report}")
    sheet.oddHeader.right.text = _escape_print(heading.period)
    sheet.oddFooter.left.text = _escape_print(made)
    sheet.oddFooter.right.text = "&P / &N"  # page n of N
    sheet.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0
    sheet.page_setup.orientation = "landscape"
    sheet.page_setup.paperSize = Worksheet.PAPERSIZE_A4

    title_cell = _text_cell(sheet, f"{club}　{heading.report}")
    title_cell.font = Font(bold=True, size=14)
    sheet.append([title_cell])
    sheet.append([_text_cell(sheet, f"{heading.period}　{made}".strip("　"))])
    bold = Font(bold=True)
    fill = PatternFill("solid", fgColor="E8EEE8")
    centred = Alignment(horizontal="center", vertical="center", wrap_text=True)
    cells = []
    for name in header:
        cell = WriteOnlyCell(sheet, value=name)
        cell.font, cell.fill, cell.alignment = bold, fill, centred
        cells.append(cell)
    sheet.append(cells)
    formatted = [(header.index(name), fmt) for name, fmt in (formats or {}).items()]
    for row in rows:
        for i, fmt in formatted:
            if row[i] is not None:
                cell = WriteOnlyCell(sheet, value=row[i])
                cell.number_format = fmt
                row[i] = cell
        for i, value in enumerate(row):
            if isinstance(value, str):
                row[i] = _text_cell(sheet, value)
        sheet.append(row)


def _escape_print(text: str) -> str:
    """Text for a print header or footer, where & starts a code (&P is the page number)."""
    return ILLEGAL_CHARACTERS_RE.sub("", text).replace("&", "&&")


def _text_cell(sheet: Any, value: str) -> Cell:
    """User text always as text: openpyxl would write one starting with = as a formula (a
    member named =HYPERLINK(…) would become a live link in everyone's workbook), and a control
    character (refused at input since, perhaps in older records) would stop the workbook."""
    cell = WriteOnlyCell(sheet, value=ILLEGAL_CHARACTERS_RE.sub("", value))
    cell.data_type = "s"
    return cell
