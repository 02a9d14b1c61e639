"""Print-ready PDF reports (A4, Japanese) drawn by WeasyPrint from HTML templates.

Every number comes from ``standings.py`` or the stored games; these functions only lay them
out. The Japanese font ships with the project (``static/fonts/ipaexg.ttf``, IPA Font License)
and is embedded in the PDF, so a machine without Japanese fonts prints it correctly.
Each renderer returns ``(filename, content_type, bytes)``. The half-year report's member
pages are laid out in parallel (``weasy.write_parallel``) when it has many members.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Meet
from scoring.reports import Progress, no_progress, weasy
from scoring.reports.charts import cumulative_chart
from scoring.standings import (
    Filters,
    MemberRecord,
    Period,
    PeriodKind,
    PlaceColumns,
    StandingRow,
    big_hand_list,
    compute_standings,
    counts_wins,
    meet_sheet,
    member_record,
    member_records,
)
from scoring.templatetags.scoring_tags import meet_date

CONTENT_TYPE = "application/pdf"
# A report with member pages for at least this many members is laid out in parallel, its
# member pages in this many parts per worker process.
PARALLEL_MIN_MEMBERS = 12
PARTS_PER_PROCESS = 5


def _html(template: str, context: dict[str, Any]) -> str:
    return render_to_string(template, {**context, "made_on": timezone.localdate()})


def _member_page(row: StandingRow, record: MemberRecord, *, draw: bool = True) -> dict[str, Any]:
    """What a member's page shows. Its cumulative-P chart, a JPEG fetched by name, comes from
    the cache or is drawn here; with ``draw=False`` a missing one is left to the worker
    process that lays out the page (``_drawings``)."""
    args = (
        [f"{g.date:%-m/%-d}" for g in record.games],
        [g.cumulative for g in record.games],
        _("Cumulative P"),
        _("P"),
    )
    jpeg = (
        cumulative_chart(*args, fmt="jpeg") if draw else cumulative_chart.cached(*args, fmt="jpeg")
    )
    name = f"{row.member_id}.jpg"
    return {
        "row": row,
        "record": record,
        "chart": weasy.IMAGE_SCHEME + name,
        "name": name,
        "chart_args": args,
        "jpeg": jpeg,
    }


def _member_pages(
    rows: list[StandingRow], records: dict[int, MemberRecord], *, draw: bool = True
) -> list[dict[str, Any]]:
    return [_member_page(row, records[row.member_id], draw=draw) for row in rows]


def _images(members: list[dict[str, Any]]) -> dict[str, bytes]:
    return {m["name"]: m["jpeg"] for m in members if m["jpeg"] is not None}


def _drawings(members: list[dict[str, Any]]) -> dict[str, weasy.Drawing]:
    options: dict[str, object] = {"fmt": "jpeg"}
    return {
        m["name"]: (cumulative_chart.draw, m["chart_args"], options)
        for m in members
        if m["jpeg"] is None
    }


def _standings_pdf(
    context: dict[str, Any], with_members: bool, progress: Progress = no_progress
) -> bytes:
    """The standings report, its member pages laid out in parallel when there are many.
    ``progress`` is told the members whose pages are made, n of N."""
    filters, rows = context["filters"], context["rows"]
    processes = settings.PDF_PROCESSES
    step = _("Member pages") if with_members else _("Standings")
    total = len(rows) if with_members else 1
    progress(step, 0, total)
    if not with_members or processes < 2 or len(rows) < PARALLEL_MIN_MEMBERS:
        members = _member_pages(rows, member_records(filters, rows)) if with_members else []
        html = _html("reports/standings.html", {**context, "members": members})
        pdf = weasy.write_pdf(html, _images(members))
        progress(step, total, total)
        return pdf

    context = {**context, "numbers_stamped": True}

    def parts() -> Iterator[weasy.Part]:
        # The front matter goes to a worker before the member pages are even gathered;
        # then the member pages in several parts per worker (their lengths differ, and
        # small parts keep both workers busy to the end); the charts not in the cache are
        # drawn by the workers too. Page numbers come afterwards.
        yield _html("reports/standings.html", {**context, "members": []}), {}, {}
        records = member_records(filters, rows)
        for run in weasy.chunks(rows, PARTS_PER_PROCESS * processes):
            members_in_part.append(len(run))
            members = _member_pages(run, records, draw=False)
            chart_args.update((m["name"], m["chart_args"]) for m in members)
            page_context = {**context, "members": members, "only_members": True}
            html = _html("reports/standings.html", page_context)
            yield html, _images(members), _drawings(members)

    def page_numbers(numbers: range, total: int) -> str:
        return _html("reports/page_numbers.html", {"numbers": numbers, "total": total})

    def on_part(made: int) -> None:
        progress(step, sum(members_in_part[:made]), total)

    chart_args: dict[str, tuple[object, ...]] = {}
    members_in_part = [0]  # the front matter, then each part's members
    pdf, drawn = weasy.write_parallel(parts(), page_numbers, processes=processes, on_part=on_part)
    for name, jpeg in drawn.items():  # the charts the workers drew, for the next report
        cumulative_chart.store(jpeg, *chart_args[name], fmt="jpeg")
    return pdf


def is_monthly(period: Period) -> bool:
    """A period within one calendar month (a month, or a range inside one) has the monthly
    report: no member pages."""
    return bool(
        period.start
        and period.end
        and period.start.month == period.end.month
        and period.start.year == period.end.year
    )


def standings_title(period: Period) -> str:
    """月間成績表, 半期成績表, 年間成績表, or 成績表 for any other span."""
    if is_monthly(period):
        return _("Monthly standings")
    if period.kind is PeriodKind.HALF:
        return _("Half-year standings")
    if period.kind is PeriodKind.FISCAL_YEAR:
        return _("Annual standings")
    return _("Standings")


def render_standings_pdf(
    filters: Filters, *, with_members: bool | None = None, progress: Progress = no_progress
) -> tuple[str, str, bytes]:
    """月間成績表 for a month; 半期成績表 (with a page per member) for a half-year or longer."""
    monthly = is_monthly(filters.period)
    if with_members is None:
        with_members = not monthly
    rows = compute_standings(filters)
    context = {
        "title": standings_title(filters.period),
        "filters": filters,
        "period_label": filters.heading,
        "rows": rows,
        "place_columns": PlaceColumns.of(rows),
        "wins": counts_wins(filters),
        "big_hands": big_hand_list(filters),
        "chombo_rows": [r for r in rows if r.chombo],
        "attendance": sorted(rows, key=lambda r: (-r.meets, r.furigana)),
        "cover": with_members,
    }
    kind = "monthly" if monthly else "standings"
    return (
        f"shirakaba-{kind}-{filters.file_key}.pdf",
        CONTENT_TYPE,
        _standings_pdf(context, with_members, progress),
    )


def render_member_pdf(member_id: int, filters: Filters) -> tuple[str, str, bytes]:
    """One member's page of the half-year report, for the period chosen."""
    record = member_record(member_id, filters)
    members = []
    if record.summary is not None:
        members.append(_member_page(record.summary, record))
    context = {
        "title": _("Personal record"),
        "filters": filters,
        "period_label": filters.heading,
        "members": members,
        "only_members": True,
        "place_columns": PlaceColumns.of([record.summary] if record.summary else []),
    }
    html = _html("reports/standings.html", context)
    return (
        f"shirakaba-member-{member_id}-{filters.file_key}.pdf",
        CONTENT_TYPE,
        weasy.write_pdf(html, _images(members)),
    )


def render_meet_pdf(meet: Meet) -> tuple[str, str, bytes]:
    """例会成績表: every entered game of one meet, round by round, and the day's standings,
    ready to post on the wall."""
    sheet = meet_sheet(meet)
    context = {
        "title": _("Meet sheet"),
        "meet": meet,
        "period_label": f"{meet_date(meet.date)} {meet.get_kind_display()}",
        "sheet": sheet,
    }
    return (
        f"shirakaba-meet-{meet.date:%Y-%m-%d}-{meet.kind}.pdf",
        CONTENT_TYPE,
        weasy.write_pdf(_html("reports/meet.html", context)),
    )
