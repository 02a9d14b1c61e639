"""Every game as CSV, in the import format (scoring/imports.py), UTF-8 with a BOM so that
Excel in Japan opens it correctly. Lays out ``standings.game_rows``; counts nothing.

It carries all that a game holds (rule set, deposits held, chombo, big hands, note), so an
export imports back into an empty score book and exports again byte for byte. Text that a
spreadsheet would run as a formula is written behind an apostrophe (``imports.neutralise``).

``GAMES`` declares the games table once, for this CSV and the Excel's games sheet. It lives
here, not beside ``game_rows``, because its headings and labels are the import format's
(``imports.COLUMNS``), and the import reader sits above the standings today.
"""

from __future__ import annotations

import csv
import io

from scoring.imports import COLUMNS, KIND_LABELS
from scoring.models import SEAT_NAMES, MeetKind, format_big_hands
from scoring.reports.cells import csv_text, headings
from scoring.standings import Filters, GameRow, game_rows
from scoring.standings.columns import Column, Format, Medium, Table

SHEET_ONLY = frozenset({Medium.SHEET})
# The Excel's games sheet lists the round before the table, and each player's place and P
# after the score.
SHEET_ORDER = (
    "date",
    "meet",
    "round",
    "table",
    "seat",
    "name",
    "score",
    "place",
    "total",
    "chombo",
    "big_hands",
    "rule_set",
    "deposits",
    "note",
)

GAMES: Table[GameRow] = Table(
    (
        Column("date", COLUMNS["date"][0], lambda g: g.played_on, Format.DATE),
        Column("meet", COLUMNS["meet"][0], lambda g: KIND_LABELS[MeetKind(g.kind)], Format.TEXT),
        Column("table", COLUMNS["table"][0], lambda g: g.table_no),
        Column("round", COLUMNS["round"][0], lambda g: g.round_no),
        Column("seat", COLUMNS["seat"][0], lambda g: SEAT_NAMES[g.seat], Format.TEXT),
        Column("name", COLUMNS["name"][0], lambda g: g.name, Format.TEXT),
        Column("score", COLUMNS["score"][0], lambda g: g.score, Format.POINTS),
        Column("place", "順位", lambda g: g.place, on=SHEET_ONLY),
        Column("total", "P", lambda g: g.total, Format.P, on=SHEET_ONLY),
        Column("chombo", COLUMNS["chombo"][0], lambda g: g.chombo or None),
        Column(
            "big_hands",
            COLUMNS["big_hands"][0],
            lambda g: format_big_hands(g.big_hands) or None,
            Format.TEXT,
        ),
        Column("rule_set", COLUMNS["rule_set"][0], lambda g: g.rule_set, Format.TEXT),
        Column("deposits", COLUMNS["deposits"][0], lambda g: g.deposits_held or None),
        Column("note", COLUMNS["note"][0], lambda g: g.note or None, Format.TEXT),
    ),
    orders={Medium.SHEET: SHEET_ORDER},
)
"""Every game, a row per player: the CSV's columns are the import format's, in its order."""


def render_games_csv(filters: Filters) -> tuple[str, str, bytes]:
    """(filename, content type, bytes) of the games a set of filters selects."""
    columns = GAMES.shown(Medium.CSV)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(headings(columns))
    writer.writerows(
        [csv_text(c.format, c.value(row)) for c in columns] for row in game_rows(filters)
    )
    return (
        f"shirakaba-games-{filters.period.key}.csv",
        "text/csv; charset=utf-8",
        b"\xef\xbb\xbf" + buffer.getvalue().encode("utf-8"),
    )
