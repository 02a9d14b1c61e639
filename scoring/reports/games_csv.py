"""Every game as CSV, in the import format (scoring/imports.py), UTF-8 with a BOM so that
Excel in Japan opens it correctly. Lays out ``standings.game_rows``; counts nothing.

It carries all that a game holds (rule set, deposits held, chombo, big hands, note), so an
export imports back into an empty score book and exports again byte for byte. Text that a
spreadsheet would run as a formula is written behind an apostrophe (``notation.neutralise``).

The games table is declared once (``standings.games.GAMES``), for this CSV and the Excel's
games sheet.
"""

from __future__ import annotations

import csv
import io

from scoring.reports.cells import csv_text, headings
from scoring.standings import GAMES, Filters, game_rows
from scoring.standings.columns import Medium


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
