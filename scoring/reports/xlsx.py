"""Excel reports (openpyxl): the standings, every game, and a sheet per member.

Lays out what the standings package (``scoring/standings/``) returns. Numbers are numbers in the
cells (P rounded to one decimal before writing, shown as +0.0/-0.0; 持ち点 with thousands
separators). Each sheet starts with two title rows (the club and the report; the period and the
day it was made), then the bold header row, frozen with the title above it. Every sheet prints
on A4 landscape, fitted to the page width (the standings, 23 columns, to two pages across, with
the rank and name repeated on each), with the header repeated on every page, and a print header
and footer: the club and the report, the period, and page n/N. Under the standings, a note says
how members with equal P are ordered."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
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

from members.models import club_name_in_scope
from scoring.notation import meet_date
from scoring.reports import Progress, no_progress
from scoring.reports.cells import SHEET_FORMATS, Numbered, headings, sheet_value
from scoring.standings import (
    GAMES,
    MEMBER_GAMES,
    STANDINGS,
    Filters,
    StandingRow,
    compute_standings,
    counts_wins,
    game_rows,
    member_records,
    shown_for,
    tied_note,
)
from scoring.standings.columns import Column, Medium

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# The title rows above each sheet's header row; the header is row TITLE_ROWS + 1.
TITLE_ROWS = 2
# The standings sheet is printed two pages across, not fitted to one (which shrank its 23
# columns to about 5 pt): at about 10 pt, each page repeating the rank and the name.
STANDINGS_PAGES_ACROSS = 2
STANDINGS_TITLE_COLUMNS = 2  # 順位, 氏名: repeated on each page across (print titles)


@dataclass(frozen=True)
class Heading:
    """What a sheet says of itself: the report (and whose), the period, the day made."""

    report: str
    period: str
    made_on: date


def sheet_rows[Row](
    columns: Sequence[Column[Row]], rows: Iterable[Row]
) -> tuple[list[str], list[list[Any]], list[str | None]]:
    """A sheet's header, rows and each column's number format, from a table's declared
    columns (``Table.shown``)."""
    return (
        headings(columns),
        [[sheet_value(c.format, c.value(row)) for c in columns] for row in rows],
        [SHEET_FORMATS.get(c.format) for c in columns],
    )


def standings_sheet(
    filters: Filters, rows: list[StandingRow]
) -> tuple[list[str], list[list[Any]], list[str | None]]:
    """The standings sheet's header, rows and number formats for the group counted
    (``standings.STANDINGS`` in its Excel order)."""
    return sheet_rows(STANDINGS.shown(Medium.SHEET, shown_for(filters, rows)), rows)


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
    _table(
        book,
        "成績表",
        heading,
        header,
        body,
        formats=formats,
        title_columns=STANDINGS_TITLE_COLUMNS,
        note=tied_note(counts_wins(filters)),
    )
    header, body, formats = sheet_rows(GAMES.shown(Medium.SHEET), game_rows(filters))
    _table(book, "全対局", Heading("全対局", filters.heading, made_on), header, body, formats)
    if with_members:
        used: set[str] = {"成績表", "全対局"}
        records = member_records(filters, rows)
        step = _("Member sheets")
        member_columns = MEMBER_GAMES.shown(Medium.SHEET)
        for done, r in enumerate(rows):
            progress(step, done, len(rows))
            header, body, formats = sheet_rows(member_columns, records[r.member_id].games)
            title = Heading(f"個人成績　{r.listed_name}", filters.heading, made_on)
            _table(book, _sheet_title(r.name, used), title, header, body, formats)
        progress(step, len(rows), len(rows))
    out = io.BytesIO()
    book.save(out)
    return f"shirakaba-standings-{filters.file_key}.xlsx", CONTENT_TYPE, out.getvalue()


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
    formats: Sequence[str | None] = (),
    *,
    title_columns: int = 0,
    note: str = "",
) -> None:
    """A sheet of ``rows`` under the ``heading``'s title rows and a bold, frozen ``header``,
    printed A4 landscape, fitted to the page width with the header on every page and the
    period and page n/N in the print header and footer. Column widths follow the widest
    value. With ``title_columns``, a sheet too wide for one page is fitted to
    ``STANDINGS_PAGES_ACROSS`` pages across instead (the same rows' pages one after the
    other), each repeating the first ``title_columns`` columns. A ``note`` is written under
    the table, a row apart."""
    sheet = book.create_sheet(title)
    club = club_name_in_scope()
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
    if title_columns:
        sheet.print_title_cols = f"A:{get_column_letter(title_columns)}"
        sheet.page_setup.fitToWidth = STANDINGS_PAGES_ACROSS
        sheet.page_setup.pageOrder = "overThenDown"  # a row's two halves one after the other
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
    formatted = [(i, fmt) for i, fmt in enumerate(formats) if fmt]
    for row in rows:
        for i, fmt in formatted:
            if row[i] is not None:
                cell = WriteOnlyCell(sheet, value=row[i])
                cell.number_format = fmt
                row[i] = cell
        for i, value in enumerate(row):
            if isinstance(value, str):
                row[i] = _text_cell(sheet, value)
            elif isinstance(value, Numbered):
                row[i] = cell = WriteOnlyCell(sheet, value=value.value)
                cell.number_format = value.number_format
        sheet.append(row)
    if note:
        sheet.append([])
        sheet.append([_text_cell(sheet, note)])


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
