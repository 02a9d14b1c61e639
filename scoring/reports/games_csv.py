"""Every game as CSV, in the import format (scoring/imports.py), UTF-8 with a BOM so that
Excel in Japan opens it correctly. Lays out stored results; counts nothing."""

from __future__ import annotations

import csv
import io

from scoring.imports import COLUMNS, KIND_LABELS
from scoring.models import SEAT_NAMES, HanchanResult, MeetKind, format_big_hands
from scoring.standings import Filters, listed_results

HEADER = [COLUMNS[key][0] for key in COLUMNS]


def render_games_csv(filters: Filters) -> tuple[str, str, bytes]:
    """(filename, content type, bytes) of the games a set of filters selects."""
    results = listed_results(filters)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(HEADER)
    for r in results:
        writer.writerow(row_for(r))
    return (
        f"shirakaba-games-{filters.period.key}.csv",
        "text/csv; charset=utf-8",
        b"\xef\xbb\xbf" + buffer.getvalue().encode("utf-8"),
    )


def row_for(result: HanchanResult) -> list[str]:
    hands = format_big_hands([(h.level, h.yakuman_name) for h in result.big_hands.all()])
    return [
        result.played_on.isoformat(),
        KIND_LABELS[MeetKind(result.meet.kind)],
        str(result.hanchan.table_no),
        str(result.hanchan.round_no),
        SEAT_NAMES[result.seat],
        result.member.name,
        str(result.score),
        str(result.chombo) if result.chombo else "",
        hands,
    ]
