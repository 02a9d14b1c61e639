"""Every game as CSV, in the import format (scoring/imports.py), UTF-8 with a BOM so that
Excel in Japan opens it correctly. Lays out ``standings.game_rows``; counts nothing.

It carries all that a game holds (rule set, deposits held, chombo, big hands, note), so an
export imports back into an empty score book and exports again byte for byte. Text that a
spreadsheet would run as a formula is written behind an apostrophe (``notation.neutralise``).
"""

from __future__ import annotations

import csv
import io

from scoring.notation import (
    COLUMNS,
    KIND_LABELS,
    SEAT_NAMES,
    MeetKind,
    format_big_hands,
    neutralise,
)
from scoring.standings import Filters, GameRow, game_rows

HEADER = [COLUMNS[key][0] for key in COLUMNS]


def render_games_csv(filters: Filters) -> tuple[str, str, bytes]:
    """(filename, content type, bytes) of the games a set of filters selects."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(HEADER)
    writer.writerows(csv_row(row) for row in game_rows(filters))
    return (
        f"shirakaba-games-{filters.period.key}.csv",
        "text/csv; charset=utf-8",
        b"\xef\xbb\xbf" + buffer.getvalue().encode("utf-8"),
    )


def csv_row(row: GameRow) -> list[str]:
    """One row in the order of ``notation.COLUMNS``."""
    return [
        row.played_on.isoformat(),
        KIND_LABELS[MeetKind(row.kind)],
        str(row.table_no),
        str(row.round_no),
        SEAT_NAMES[row.seat],
        neutralise(row.name),
        str(row.score),
        str(row.chombo) if row.chombo else "",
        neutralise(format_big_hands(row.big_hands)),
        neutralise(row.rule_set),
        str(row.deposits_held) if row.deposits_held else "",
        neutralise(row.note),
    ]
