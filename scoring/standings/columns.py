"""How a table's columns are declared: once per table, read by the page, the PDF, the Excel
and the CSV (as pretix's exporters list their columns, and Wagtail's ``list_export``).

A column has its key, its heading, how its value is taken from a row, the kind of number it
is (``Format``: how each medium writes it, ``scoring/reports/cells.py``), when it is shown
(``when``: e.g. only in a group with 4-player games) and where (``on``: some columns are
left off the A4 PDF, some are the spreadsheet's only). Adding a figure to a table is adding
one ``Column`` to its declaration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from django.utils.functional import Promise


class Format(StrEnum):
    """The kinds of value a column holds, each written one way in each medium."""

    P = "p"  # +2.6 / −33.2: one decimal, a sign unless zero (Excel +0.0;-0.0;0.0)
    POINTS = "points"  # 持ち点: 32,600 (Excel #,##0)
    RATE = "rate"  # 33.3%, or — below the minimum of games (Excel 0.0%)
    PLACE = "place"  # an average place: 2.25 (Excel 0.00)
    COUNT = "count"  # a whole number: games, places, chombo
    TEXT = "text"  # a name, a label: written as text everywhere (never a formula)
    DATE = "date"  # 2025年4月9日（水）on a page; a date in Excel; 2025-04-09 in the CSV
    TABLE_PLACE = "table_place"  # a game's place, marked at a 3-player table: 1（三人）


@dataclass(frozen=True)
class TablePlace:
    """A player's place in one game, and how many played at the table (3 or 4): a place at a
    3-player table is written with its mark (1（三人）), so it is not read as a 4-player one."""

    place: int
    players: int

    @property
    def three(self) -> bool:
        return self.players == 3


class Medium(StrEnum):
    PAGE = "page"
    PDF = "pdf"
    SHEET = "sheet"  # Excel
    CSV = "csv"


EVERYWHERE = frozenset(Medium)


@dataclass(frozen=True)
class Shown:
    """What decides which columns a table shows: whether the group counts wins (カンターン,
    1-0-0-0) instead of P, and whether it has 4-player and 3-player games."""

    wins: bool = False
    four: bool = True
    three: bool = False


def always(shown: Shown) -> bool:
    return True


@dataclass(frozen=True)
class Column[Row]:
    key: str
    heading: str | Promise
    value: Callable[[Row], Any]
    format: Format = Format.COUNT
    when: Callable[[Shown], bool] = always
    on: frozenset[Medium] = EVERYWHERE
    sort: str | None = None  # the page sorts by it (``standings.SORT_KEYS``)
    strong: bool = False  # the page and the PDF set it in bold
    signed: bool = False  # the page and the PDF colour it by its sign
    heads_row: bool = False  # the row's heading (the member's name: a link on the page)


@dataclass
class Table[Row]:
    """A table's columns in the page's order (the CSV's too).

    ``orders`` gives a medium's own order where it differs, by key: a spreadsheet is read by
    column letter (people's formulas point at them) and the printed sheets are compared
    with last month's, so each keeps the order it has always had. A column an order does
    not name comes after those it does."""

    columns: tuple[Column[Row], ...]
    orders: dict[Medium, tuple[str, ...]] = field(default_factory=dict)

    @property
    def by_key(self) -> dict[str, Column[Row]]:
        return {c.key: c for c in self.columns}

    def shown(self, medium: Medium, shown: Shown = Shown()) -> list[Column[Row]]:
        """The columns shown in ``medium`` for a table like ``shown``, in that medium's
        order."""
        columns = [c for c in self.columns if medium in c.on and c.when(shown)]
        if order := self.orders.get(medium):
            place = {key: i for i, key in enumerate(order)}
            columns.sort(key=lambda c: place.get(c.key, len(place)))
        return columns

    def with_column(
        self, column: Column[Row], *, after: str | None = None
    ) -> tuple[Column[Row], ...]:
        """This table's columns with one more (after the column ``after``, or last)."""
        at = len(self.columns) if after is None else [c.key for c in self.columns].index(after) + 1
        return (*self.columns[:at], column, *self.columns[at:])
