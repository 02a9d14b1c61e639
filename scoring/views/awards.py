"""The season's awards (表彰): the winners' page and the organizer's list of awards. Each
winner's certificate (賞状, a PDF) is a handout of the registry (``reports/registry.py``,
answered by views/downloads.py). The winners come from ``scoring.standings.awards``."""

from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from members.roles import is_organizer, organizer_required
from scoring.forms import (
    AwardFormSet,
    ByHandAwardForm,
    CertificateDayForm,
    award_periods,
    filters_from,
    query_number,
)
from scoring.models import Award, Measure, StandingsGroup
from scoring.reports.pdf import award_lines
from scoring.standings import Filters, award_notes, compute_awards


def _query(filters: Filters, **changes: Any) -> str:
    """The awards page's query string: period, group, guests."""
    group = filters.standings_group
    values: dict[str, Any] = {
        "period": filters.period.key,
        "group": group.pk if group is not None and not filters.is_club_group else "",
        "guests": "1" if filters.guests else "",
    }
    values.update(changes)
    return urlencode({k: v for k, v in values.items() if v not in ("", None)})


def _period_links(filters: Filters) -> list[dict[str, Any]]:
    """The fiscal year and its two halves around the period shown."""
    day = filters.period.start or timezone.localdate()
    return [
        {
            "label": period.label,
            "query": _query(filters, period=period.key),
            "current": period == filters.period,
        }
        for period in award_periods(day)
    ]


@require_safe
def awards(request: HttpRequest) -> HttpResponse:
    """The winners of the group's awards for a fiscal year or a half-year, each with the
    figure that won; ties all named. Guests are left out unless ``guests=1``."""
    filters = filters_from(request)
    results = compute_awards(filters)
    lines = award_lines(results)
    organizer = is_organizer(request.user)
    certificate = reverse("scoring:award-certificate")
    # The certificates' date: the end of the period, or the day the organizer gives.
    given = "day" in request.GET and request.GET["day"] != ""
    day_form = CertificateDayForm(
        request.GET if given else None, initial={"day": filters.period.end}
    )
    day = day_form.cleaned_data["day"] if given and day_form.is_valid() else None
    dated = {"day": day.isoformat()} if day else {}
    for line in lines:  # each winner with their certificate's address, for the organizer
        line["winners"] = [
            {
                "winner": w,
                "listed_name": w.listed_name,
                "figure": w.figure,
                "certificate": f"{certificate}?"
                + _query(filters, award=line["award"].pk, member=w.member_id, **dated),
            }
            for w in line["winners"]
        ]
    context = {
        "filters": filters,
        "lines": lines,
        "notes": award_notes(results),
        "period_links": _period_links(filters),
        "groups": StandingsGroup.objects.all(),
        "group": filters.standings_group,
        "guests_query": _query(filters, guests="" if filters.guests else "1"),
        "edit_query": _query(filters),
        "can_edit": organizer,
        # a period not over yet: its winners are 途中経過 until its last day
        "running_until": _running_until(filters),
        "day_form": day_form if organizer else None,
    }
    return render(request, "scoring/awards.html", context)


def _running_until(filters: Filters) -> date | None:
    """The last day of the period shown if it has not ended: its awards may still change."""
    end = filters.period.end
    return end if end is not None and end >= timezone.localdate() else None


@organizer_required
@require_http_methods(["GET", "HEAD", "POST"])
def award_edit(request: HttpRequest) -> HttpResponse:
    """The organizer's list of the group's awards (name, order, given or not, eligibility),
    and an award given by hand (敢闘賞) with its winner."""
    filters = filters_from(request)
    group = filters.standings_group or StandingsGroup.clubs_own()
    awards_of_group = Award.objects.of_group(group)
    periods = award_periods(filters.period.start or timezone.localdate())
    formset = AwardFormSet(
        request.POST if request.method == "POST" else None,
        queryset=awards_of_group.exclude(measure=Measure.BY_HAND),
        prefix="awards",
    )
    by_hand = ByHandAwardForm(periods=periods, initial={"period_key": filters.period.key})
    if request.method == "POST":
        if "add" in request.POST:
            by_hand = ByHandAwardForm(request.POST, periods=periods)
            if by_hand.is_valid():
                award = by_hand.save(commit=False)
                award.group = group
                last = awards_of_group.aggregate(last=Max("position"))["last"] or 0
                award.position = last + 1
                award.save()
                messages.success(request, _("The award was added."))
                return redirect(f"{reverse('scoring:award-edit')}?{_query(filters)}")
        elif formset.is_valid():
            formset.save()
            messages.success(request, _("The awards were saved."))
            return redirect(f"{reverse('scoring:award-edit')}?{_query(filters)}")
    context = {
        "filters": filters,
        "group": group,
        "formset": formset,
        "by_hand": by_hand,
        "given_by_hand": awards_of_group.filter(measure=Measure.BY_HAND).select_related("winner"),
        "query": _query(filters),
    }
    return render(request, "scoring/awards_edit.html", context)


@organizer_required
@require_POST
def award_delete(request: HttpRequest) -> HttpResponse:
    """Take back an award given by hand (the awards won by a figure are turned off instead)."""
    award = get_object_or_404(
        Award, pk=query_number(request.POST.get("award")), measure=Measure.BY_HAND
    )
    award.delete()
    messages.success(request, _("The award was taken back."))
    filters = filters_from(request)
    return redirect(f"{reverse('scoring:award-edit')}?{_query(filters)}")
