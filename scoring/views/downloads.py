"""Downloads: the reports as PDF, Excel and CSV, made by tasks and kept.

Asking for a report (``scoring.reports.making.ask``) gives its ``Report`` row: kept already
(the file is sent at once), or queued for a worker, or, for a small one, made in this request
by the same function the worker runs. A plain request for a report not ready is redirected to
the report's own page, which shows its progress and then the download. From a page with htmx,
the same links answer with that page's progress fragment, swapped in beside the buttons and
polled every second until the file is ready; the fragment then holds the download link, which
static/js/downloads.js follows at once.

Two files a page shows in place, the news picture (例会速報) and the 回覧板, are reports made
at once and kept too: the request that first asks makes it, one asking meanwhile waits for it
(``making.awaited``), and either is given the file itself, inline.

A person with as many reports waiting as they may have (``making.TooManyReports``) is told so,
with the way to each of them, instead of a new one being queued. The page of a report a newer
one replaced leads to the newer one (``making.current``).
"""

from __future__ import annotations

from typing import cast

from django.conf import settings
from django.contrib.auth.models import User
from django.http import FileResponse, Http404, HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from members.models import Member
from members.roles import is_organizer
from scoring.forms import filters_from
from scoring.models import Meet, Report, ReportStatus
from scoring.reports import kept_files, where_kept
from scoring.reports.making import (
    Spec,
    TooManyReports,
    ask,
    awaited,
    could_not_keep,
    current,
    is_kept,
    kept_name,
    take_up,
)
from scoring.reports.news import standings_link
from scoring.standings import Filters, Period, PeriodKind
from scoring.views import HtmxHttpRequest


def _progress(request: HttpRequest, report: Report, *, whole: bool = False) -> HttpResponseBase:
    template = "scoring/report.html" + ("" if whole else "#report-progress")
    context = {
        "report": report,
        "ready": is_kept(report),
        # The organizer is told why, since someone must free the disk or fix the directory.
        "cannot_write": could_not_keep(report) and is_organizer(request.user),
        "reports_dir": where_kept(),
    }
    return render(request, template, context)


def _file(report: Report, *, attachment: bool = True) -> FileResponse:
    """The kept file, read through the reports storage (on this machine or another): to
    download, or (``attachment`` false) for the browser to show."""
    response = FileResponse(
        kept_files().open(kept_name(report), "rb"),
        as_attachment=attachment,
        filename=report.filename,
        content_type=report.content_type,
    )
    response["Cache-Control"] = "private, max-age=0"
    return response


def _asker(request: HttpRequest) -> User:
    """The person asking: the report views are for signed-in club members only."""
    return cast(User, request.user)


def _too_many(request: HtmxHttpRequest, full: TooManyReports) -> HttpResponseBase:
    template = "scoring/reports_waiting.html" + ("#reports-waiting" if request.htmx else "")
    context = {"waiting": full.waiting, "limit": settings.REPORTS_PER_PERSON}
    return render(request, template, context, status=200 if request.htmx else 429)


@vary_on_headers("HX-Request")
def _answer(request: HtmxHttpRequest, spec: Spec) -> HttpResponseBase:
    """The file when it is kept (and not asked for by htmx), else its progress; or, when the
    person has as many reports waiting as they may, that (htmx swaps only a 200)."""
    try:
        report = ask(spec, by=_asker(request))
    except TooManyReports as full:
        return _too_many(request, full)
    if request.htmx:
        return _progress(request, report)
    if is_kept(report):
        return _file(report)
    return redirect(report)


def _shown(request: HtmxHttpRequest, spec: Spec) -> HttpResponseBase:
    """A file a page shows in place, itself: made in this request when nobody has it, waited
    for while another request makes it; if it could not be made (or is still being made
    after the wait), its report's page says so."""
    try:
        report = awaited(ask(spec, by=_asker(request)), _asker(request))
    except TooManyReports as full:
        return _too_many(request, full)
    if is_kept(report):
        return _file(report, attachment=False)
    return redirect(report)


@require_safe
def report(request: HtmxHttpRequest, digest: str) -> HttpResponseBase:
    """A report's progress: the whole page, or (htmx, polling) the fragment alone. A report
    a newer one replaced leads to the newer one (polling, its fragment polls that one); one
    whose worker died is queued again first (``take_up``)."""
    found = take_up(get_object_or_404(Report, digest=digest))
    try:
        shown = current(found, _asker(request))
    except TooManyReports as full:
        return _too_many(request, full)
    if shown.pk != found.pk and not request.htmx:
        return redirect(shown)
    return _progress(request, shown, whole=not request.htmx)


@require_POST
def report_again(request: HtmxHttpRequest, digest: str) -> HttpResponseBase:
    """Try a report that could not be made again: asked for anew, as its button did."""
    found = get_object_or_404(Report, digest=digest)
    try:
        return redirect(ask(Spec.from_json(found.spec), by=_asker(request)))
    except TooManyReports as full:
        return _too_many(request, full)


@require_safe
def report_file(request: HttpRequest, digest: str) -> HttpResponseBase:
    found = get_object_or_404(Report, digest=digest)
    if is_kept(found):
        return _file(found)
    if found.status == ReportStatus.READY:  # its file was pruned meanwhile
        raise Http404
    return redirect(found)


@require_safe
def standings_pdf(request: HtmxHttpRequest) -> HttpResponseBase:
    return _answer(request, Spec.of("standings.pdf", filters_from(request)))


@require_safe
def standings_xlsx(request: HtmxHttpRequest) -> HttpResponseBase:
    return _answer(request, Spec.of("standings.xlsx", filters_from(request)))


@require_safe
def games_csv(request: HtmxHttpRequest) -> HttpResponseBase:
    """Every game of the period (and meet kind) shown, whatever its group: the club's data."""
    shown = filters_from(request)
    filters = Filters(period=shown.period, kind=shown.kind, every_group=True)
    return _answer(request, Spec.of("games.csv", filters))


@require_safe
def member_pdf(request: HtmxHttpRequest, pk: int) -> HttpResponseBase:
    member = get_object_or_404(Member, pk=pk)
    return _answer(request, Spec.of("member.pdf", filters_from(request), member=member.pk))


@require_safe
def meet_pdf(request: HtmxHttpRequest, pk: int) -> HttpResponseBase:
    meet = get_object_or_404(Meet, pk=pk)
    return _answer(request, Spec.of("meet.pdf", meet=meet.pk))


@require_safe
def news_picture(request: HtmxHttpRequest, pk: int) -> HttpResponseBase:
    """例会速報 as a picture: what the news page shows and its 「共有」 hands on."""
    meet = get_object_or_404(Meet, pk=pk)
    return _shown(request, Spec.of("news.png", meet=meet.pk, link=standings_link(request)))


@require_safe
def notice_pdf(request: HtmxHttpRequest) -> HttpResponseBase:
    """回覧板: a month's meets (``?month=2026-12``; this month by default) on an A4 page."""
    month = timezone.localdate().replace(day=1)
    try:
        period = Period.parse(request.GET.get("month", ""))
    except ValueError:  # none, not a period, or outside the meets' years: this month
        period = None
    if period is not None and period.kind is PeriodKind.MONTH and period.start is not None:
        month = period.start
    return _shown(request, Spec.of("notice.pdf", Filters(Period.month(month.year, month.month))))
