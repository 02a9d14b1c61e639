"""Downloads: the reports as PDF, Excel and CSV. Each only lays out standings.py's numbers."""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from members.models import Member
from scoring.models import Meet
from scoring.reports.games_csv import render_games_csv
from scoring.reports.pdf import render_meet_pdf, render_member_pdf, render_standings_pdf
from scoring.reports.xlsx import render_standings_xlsx
from scoring.standings import Filters
from scoring.views_standings import filters_from


def download(request: HttpRequest, rendered: tuple[str, str, bytes]) -> HttpResponse:
    """The file as an attachment; a ``dl`` token is echoed in a cookie so that the page's
    progress indicator (static/js/downloads.js) knows the file has arrived."""
    filename, content_type, content = rendered
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    token = request.GET.get("dl", "")
    if re.fullmatch(r"[A-Za-z0-9]{1,32}", token):  # a cookie name: ASCII only ("ａ".isalnum())
        response.set_cookie(f"dl_{token}", "1", max_age=60, samesite="Lax")
    return response


@require_safe
def standings_pdf(request: HttpRequest) -> HttpResponse:
    return download(request, render_standings_pdf(filters_from(request)))


@require_safe
def standings_xlsx(request: HttpRequest) -> HttpResponse:
    return download(request, render_standings_xlsx(filters_from(request)))


@require_safe
def games_csv(request: HttpRequest) -> HttpResponse:
    """Every game of the period (and meet kind) shown, whatever its group: the club's data."""
    shown = filters_from(request)
    return download(
        request, render_games_csv(Filters(period=shown.period, kind=shown.kind, every_group=True))
    )


@require_safe
def member_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    member = get_object_or_404(Member, pk=pk)
    return download(request, render_member_pdf(member.pk, filters_from(request)))


@require_safe
def meet_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    return download(request, render_meet_pdf(get_object_or_404(Meet, pk=pk)))
