"""How a column's value is written, by its kind (``standings.columns.Format``): as text on the
page and in the PDF, as a number with its number format in Excel, as text in the CSV. The one
place that turns a declared column into cells; the writers only lay the cells out."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cached_property
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.notation import meet_date, neutralise, points, rate, sign_class, signed_p
from scoring.standings.columns import Column, Format, TablePlace

TENTH = Decimal("0.1")

SHEET_FORMATS = {
    Format.P: "+0.0;-0.0;0.0",
    Format.POINTS: "#,##0",  # 32,600
    Format.RATE: "0.0%",
    Format.PLACE: "0.00",
    Format.DATE: "yyyy/m/d",
}
"""Excel's number format of each kind (none for counts and text)."""


@dataclass(frozen=True)
class Numbered:
    """A number in Excel with a format of its own, where its column's differs from cell to
    cell (a 3-player place: 1（三人）)."""

    value: Any
    number_format: str


def place_text(value: TablePlace) -> str:
    """A game's place as the page and the PDF write it: 1, or 1（三人） at a 3-player table."""
    return _("%(n)s (3-player)") % {"n": value.place} if value.three else str(value.place)


def _three_player_place_format() -> str:
    """Excel's number format writing a place as ``place_text`` does at a 3-player table: the
    place stays a number (summed and filtered as one), the mark is the format's text."""
    before, _sep, after = (_("%(n)s (3-player)") % {"n": "\0"}).partition("\0")

    def quoted(words: str) -> str:
        return '"{}"'.format(words.replace('"', "")) if words else ""

    return f"{quoted(before)}0{quoted(after)}"


def text(kind: Format, value: Any) -> str:
    """A value as the page and the PDF write it."""
    if kind is Format.P:
        return signed_p(value)
    if kind is Format.POINTS:
        return points(value)
    if kind is Format.RATE:
        return rate(value)
    if kind is Format.DATE:
        return meet_date(value)
    if kind is Format.TABLE_PLACE:
        return place_text(value)
    return "" if value is None else str(value)


def sheet_value(kind: Format, value: Any) -> Any:
    """A value as Excel holds it: a number stays a number (P rounded to one decimal first)."""
    if kind is Format.P and value is not None:
        return Decimal(value).quantize(TENTH)
    if kind is Format.TABLE_PLACE:
        if value.three:
            return Numbered(value.place, _three_player_place_format())
        return value.place
    return value


def csv_text(kind: Format, value: Any) -> str:
    """A value as the CSV writes it (the import format): a date as 2025-04-09, numbers bare,
    text behind an apostrophe where a spreadsheet would run it as a formula."""
    if value is None:
        return ""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, TablePlace):
        return str(value.place)
    if kind is Format.TEXT:
        return neutralise(str(value))
    return str(value)


def headings(columns: Iterable[Column[Any]]) -> list[str]:
    return [str(c.heading) for c in columns]


@dataclass(frozen=True)
class Heading:
    text: str
    css: str  # "num" for a number's column
    sort: str | None
    key: str = ""  # the column's key, for a page's style of one column


@dataclass(frozen=True)
class Cell:
    text: str
    css: str  # num, strong, and the sign's class (pos, neg, zero)
    heads_row: bool


@dataclass(frozen=True)
class Line[Row]:
    """A row's cells; for the page and the PDF also as ready HTML (``<td>`` cells joined
    once in Python: a template loop over a thousand rows of twenty cells took most of the
    page's time), apart from the row's heading, which each lays out its own way."""

    row: Row
    cells: tuple[Cell, ...]

    @cached_property
    def heading(self) -> Cell | None:
        return next((c for c in self.cells if c.heads_row), None)

    @cached_property
    def before(self) -> SafeString:
        """The cells before the row's heading, as HTML."""
        at = self.cells.index(self.heading) if self.heading else len(self.cells)
        return _tds(self.cells[:at])

    @cached_property
    def after(self) -> SafeString:
        """The cells after the row's heading, as HTML."""
        return _tds(self.cells[self.cells.index(self.heading) + 1 :]) if self.heading else _tds(())


def _tds(cells: Iterable[Cell]) -> SafeString:
    return mark_safe("".join(f'<td class="{c.css}">{escape(c.text)}</td>' for c in cells))


@dataclass(frozen=True)
class Laid[Row]:
    """A table laid out for the page or the PDF: its headings, and each row's cells written
    once."""

    headings: tuple[Heading, ...]
    lines: tuple[Line[Row], ...]


def _css(column: Column[Any], value: Any) -> str:
    if column.format is Format.TEXT:
        return ""
    css = "num strong" if column.strong else "num"
    return f"{css} {sign_class(value)}" if column.signed else css


def lay_out[Row](columns: Sequence[Column[Row]], rows: Iterable[Row]) -> Laid[Row]:
    """The cells of ``rows`` under ``columns`` (``Table.shown``), each written once."""
    numeric = [c.format is not Format.TEXT for c in columns]
    return Laid(
        tuple(
            Heading(str(c.heading), "num" if n else "", c.sort, c.key)
            for c, n in zip(columns, numeric, strict=True)
        ),
        tuple(
            Line(
                row,
                tuple(
                    Cell(text(c.format, value), _css(c, value), c.heads_row)
                    for c in columns
                    for value in (c.value(row),)
                ),
            )
            for row in rows
        ),
    )
