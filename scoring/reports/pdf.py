"""Print-ready PDF reports (A4, Japanese) drawn by WeasyPrint from HTML templates.

Every number comes from ``standings.py`` or the stored games; these functions only lay them
out. The Japanese font ships with the project (``static/fonts/ipaexg.ttf``, IPA Font License)
and is embedded in the PDF, so a machine without Japanese fonts prints it correctly.
Each renderer returns ``(filename, content_type, bytes)``.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Hanchan, Meet
from scoring.reports.charts import cumulative_chart
from scoring.standings import (
    Filters,
    MemberRecord,
    Period,
    big_hand_list,
    compute_standings,
    counts_wins,
    member_record,
    member_records,
)
from scoring.templatetags.scoring_tags import meet_date

STATIC = Path(__file__).resolve().parents[2] / "static"
CONTENT_TYPE = "application/pdf"


def _pdf(template: str, context: dict[str, Any]) -> bytes:
    from weasyprint import HTML  # ~0.7 s to import: only when a PDF is made
    from weasyprint.text.fonts import FontConfiguration

    html = render_to_string(template, {**context, "made_on": timezone.localdate()})
    return HTML(string=html, base_url=str(STATIC) + "/").write_pdf(font_config=FontConfiguration())


def _chart(record: MemberRecord) -> str:
    """The member's cumulative-P chart as a JPEG data URI."""
    jpeg = cumulative_chart(
        [f"{g.date:%-m/%-d}" for g in record.games],
        [g.cumulative for g in record.games],
        _("Cumulative P"),
        _("P"),
        fmt="jpeg",
    )
    return "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")


def render_standings_pdf(
    filters: Filters, *, with_members: bool | None = None
) -> tuple[str, str, bytes]:
    """月間成績表 for a month; 半期成績表 (with a page per member) for a half-year or longer."""
    period = filters.period
    monthly = bool(
        period.start
        and period.end
        and period.start.month == period.end.month
        and period.start.year == period.end.year
    )
    if with_members is None:
        with_members = not monthly
    rows = compute_standings(filters)
    members = []
    if with_members:
        records = member_records(filters, rows)
        for row in rows:
            record = records[row.member_id]
            members.append({"row": row, "record": record, "chart": _chart(record)})
    if monthly:
        title = _("Monthly standings")
    elif re.fullmatch(r"\d{4}-H[12]", period.key):
        title = _("Half-year standings")
    elif period.key.startswith("FY"):
        title = _("Annual standings")
    else:
        title = _("Standings")
    context = {
        "title": title,
        "filters": filters,
        "period_label": period.label,
        "rows": rows,
        "wins": counts_wins(filters),
        "big_hands": big_hand_list(filters),
        "chombo_rows": [r for r in rows if r.chombo],
        "attendance": sorted(rows, key=lambda r: (-r.meets, r.furigana)),
        "members": members,
        "cover": with_members,
    }
    kind = "monthly" if monthly else "standings"
    return (
        f"shirakaba-{kind}-{period.key}.pdf",
        CONTENT_TYPE,
        _pdf("reports/standings.html", context),
    )


def render_member_pdf(member_id: int, filters: Filters) -> tuple[str, str, bytes]:
    """One member's page of the half-year report, for the period chosen."""
    record = member_record(member_id, filters)
    members = []
    if record.summary is not None:
        members.append({"row": record.summary, "record": record, "chart": _chart(record)})
    context = {
        "title": _("Personal record"),
        "filters": filters,
        "period_label": filters.period.label,
        "members": members,
        "only_members": True,
    }
    return (
        f"shirakaba-member-{member_id}-{filters.period.key}.pdf",
        CONTENT_TYPE,
        _pdf("reports/standings.html", context),
    )


def render_meet_pdf(meet: Meet) -> tuple[str, str, bytes]:
    """例会成績表: every table and round of one meet, ready to post on the wall."""
    games = (
        Hanchan.objects.filter(meet=meet)
        .select_related("rule_set")
        .prefetch_related("results__member", "results__big_hands")
        .order_by("round_no", "table_no")
    )
    rounds: dict[int, list[Hanchan]] = {}
    for game in games:
        rounds.setdefault(game.round_no, []).append(game)
    day_filters = Filters(period=Period.between(meet.date, meet.date), kind=meet.kind)
    context = {
        "title": _("Meet sheet"),
        "meet": meet,
        "period_label": f"{meet_date(meet.date)} {meet.get_kind_display()}",
        "rounds": sorted(rounds.items()),
        "day_rows": compute_standings(day_filters),
    }
    return (
        f"shirakaba-meet-{meet.date:%Y-%m-%d}-{meet.kind}.pdf",
        CONTENT_TYPE,
        _pdf("reports/meet.html", context),
    )
