"""Downloads: the reports as PDF, Excel and CSV. Each only lays out standings.py's numbers.

A report is heavy (an all-time PDF: seconds of CPU and hundreds of MB), so each process makes
at most ``REPORTS.at_once`` at the same time; a request that finds them all busy waits up to
``REPORTS.wait`` seconds for a turn, then is answered 503 with Retry-After. The same report
asked for again while it is being made (a double click, a reload) waits for that one and gets
its bytes: it is made once. Until reports become background tasks, this is their bound.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Future

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from members.models import Member
from scoring.models import Meet
from scoring.reports.games_csv import render_games_csv
from scoring.reports.pdf import render_meet_pdf, render_member_pdf, render_standings_pdf
from scoring.reports.xlsx import render_standings_xlsx
from scoring.standings import Filters
from scoring.views.standings import filters_from

Rendered = tuple[str, str, bytes]  # file name, content type, content


class Busy(Exception):
    """Every turn stayed taken for the whole wait."""


class ReportTurns:
    """At most ``at_once`` reports made at a time in this process, each report once."""

    def __init__(self, at_once: int, wait: float) -> None:
        self.at_once, self.wait = at_once, wait
        self._turns = threading.BoundedSemaphore(at_once)
        self._lock = threading.Lock()
        self._making: dict[Hashable, Future[Rendered]] = {}

    def make(self, key: Hashable, render: Callable[[], Rendered]) -> Rendered:
        """``render()``'s result; made here, or by the request already making ``key``."""
        with self._lock:
            making = self._making.get(key)
            if making is None:
                making = self._making[key] = Future()
                mine = True
            else:
                mine = False
        if not mine:
            return making.result()  # raises what the maker raised (Busy too)
        try:
            if not self._turns.acquire(timeout=self.wait):
                raise Busy
            try:
                result = render()
            finally:
                self._turns.release()
        except BaseException as error:
            making.set_exception(error)
            raise
        else:
            making.set_result(result)
            return result
        finally:
            with self._lock:
                del self._making[key]


REPORTS = ReportTurns(at_once=2, wait=10)
RETRY_AFTER = 30  # seconds


def download(
    request: HttpRequest, key: tuple[Hashable, ...], render: Callable[[], Rendered]
) -> HttpResponse:
    """The file as an attachment; a ``dl`` token is echoed in a cookie so that the page's
    progress indicator (static/js/downloads.js) knows the file has arrived (or was refused)."""
    try:
        filename, content_type, content = REPORTS.make((*key, get_language()), render)
    except Busy:
        response = HttpResponse(
            _("Other reports are being made just now. Please try again in a minute."),
            content_type="text/plain; charset=utf-8",
            status=503,
        )
        response["Retry-After"] = str(RETRY_AFTER)
    else:
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    token = request.GET.get("dl", "")
    if re.fullmatch(r"[A-Za-z0-9]{1,32}", token):  # a cookie name: ASCII only ("ａ".isalnum())
        response.set_cookie(f"dl_{token}", "1", max_age=60, samesite="Lax")
    return response


def _identity(filters: Filters) -> tuple[Hashable, ...]:
    rule_set = filters.rule_set.pk if filters.rule_set else None
    group = filters.group.pk if filters.group else None  # None: the club's (no query needed)
    return (filters.period.key, filters.kind, group, rule_set, filters.min_games)


@require_safe
def standings_pdf(request: HttpRequest) -> HttpResponse:
    filters = filters_from(request)
    return download(
        request, ("standings.pdf", *_identity(filters)), lambda: render_standings_pdf(filters)
    )


@require_safe
def standings_xlsx(request: HttpRequest) -> HttpResponse:
    filters = filters_from(request)
    return download(
        request, ("standings.xlsx", *_identity(filters)), lambda: render_standings_xlsx(filters)
    )


@require_safe
def games_csv(request: HttpRequest) -> HttpResponse:
    """Every game of the period (and meet kind) shown, whatever its group: the club's data."""
    shown = filters_from(request)
    filters = Filters(period=shown.period, kind=shown.kind, every_group=True)
    return download(request, ("games.csv", *_identity(filters)), lambda: render_games_csv(filters))


@require_safe
def member_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    member = get_object_or_404(Member, pk=pk)
    filters = filters_from(request)
    return download(
        request,
        ("member.pdf", member.pk, *_identity(filters)),
        lambda: render_member_pdf(member.pk, filters),
    )


@require_safe
def meet_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    meet = get_object_or_404(Meet, pk=pk)
    return download(request, ("meet.pdf", meet.pk), lambda: render_meet_pdf(meet))
