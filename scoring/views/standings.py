"""Standings and members' own records: pages that lay out what standings.py returns."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from members.models import Member
from members.roles import is_organizer, open_to_visitors_when, organizer_required
from scoring.forms import filters_from, query_number
from scoring.models import HEAD_TO_HEAD_MOST, ClubSettings, StandingsGroup
from scoring.notation import MeetKind
from scoring.rating import START
from scoring.reports.cells import lay_out
from scoring.reports.charts import cumulative_chart, places_chart
from scoring.standings import (
    STANDINGS,
    Filters,
    Medium,
    Period,
    PeriodKind,
    PlaceColumns,
    Rating,
    by_seat,
    compute_rating,
    compute_standings,
    counts_wins,
    head_to_head,
    latest_day,
    member_games,
    member_record,
    pair_matrix,
    rating_players,
    rating_rows,
    shown_for,
    sort_rating,
    sort_standings,
    summary_items,
    tied_note,
)
from scoring.views import HtmxHttpRequest


def query_for(filters: Filters, **changes: Any) -> str:
    """The query string of these filters, with some values changed."""
    group = filters.standings_group
    values: dict[str, Any] = {
        "period": filters.period.key,
        "kind": filters.kind,
        "group": group.pk if group is not None and not filters.is_club_group else "",
        "rule": filters.rule_set.pk if filters.rule_set else "",
        "min": filters.min_games or "",
        "guests": "1" if filters.guests else "",
    }
    values.update(changes)
    return urlencode({k: v for k, v in values.items() if v not in ("", None)})


def period_links(filters: Filters, latest: date | None = None) -> list[dict[str, Any]]:
    """The month, half-year and year around the period, and all time.

    They are those of ``latest``, the latest game shown (月間 from 2026年度 下期 opens the
    month of its last meet, not an empty October), or else of the period's first day."""
    day = latest or filters.period.start or timezone.localdate()
    links = []
    for label, period in [
        (_("Month"), Period.containing(day, PeriodKind.MONTH)),
        (_("Half-year"), Period.containing(day, PeriodKind.HALF)),
        (_("Fiscal year"), Period.containing(day, PeriodKind.FISCAL_YEAR)),
        (_("All time"), Period.all_time()),
    ]:
        links.append(
            {
                "label": label,
                "query": query_for(filters, period=period.key),
                "current": period == filters.period,
            }
        )
    return links


def context_for(filters: Filters, latest: date | None = None) -> dict[str, Any]:
    """What the period's navigation and filters need; ``latest``: the day of the latest game
    shown (the club's by default)."""
    previous, following = filters.period.previous(), filters.period.next()
    return {
        "filters": filters,
        "period_links": period_links(filters, latest or latest_day(filters)),
        "previous_query": query_for(filters, period=previous.key) if previous else "",
        "next_query": query_for(filters, period=following.key) if following else "",
        "kinds": [("", _("All meets")), *MeetKind.choices],
        "groups": StandingsGroup.objects.all(),
        "group": filters.standings_group,
        "rule_sets": filters.group_rule_sets,
        "query": query_for(filters),
    }


@organizer_required
@require_POST
def standings_visibility(request: HttpRequest) -> HttpResponse:
    """The organizer opens the standings page to visitors, or closes it again."""
    club = ClubSettings.load()
    club.standings_public = request.POST.get("public") == "1"
    club.save()
    if club.standings_public:
        messages.success(request, _("The standings are now open to visitors."))
    else:
        messages.success(request, _("The standings are now for members only."))
    return redirect("scoring:standings")


def download_links(filters: Filters) -> list[tuple[str, str]]:
    """The standings page's downloads, for exactly the filters shown."""
    query = query_for(filters)
    return [
        (_("PDF"), f"{reverse('scoring:standings-pdf')}?{query}"),
        (_("Excel"), f"{reverse('scoring:standings-xlsx')}?{query}"),
        (_("CSV (every game)"), f"{reverse('scoring:games-csv')}?{query}"),
    ]


@open_to_visitors_when(ClubSettings.standings_are_public)
@vary_on_headers("HX-Request")
@require_safe
def standings(request: HtmxHttpRequest) -> HttpResponse:
    """The standings table; open to visitors only when the organizer opened it (or the
    STANDINGS_PUBLIC setting does)."""
    filters = filters_from(request)
    sort = request.GET.get("sort", "position")
    rows = sort_standings(compute_standings(filters), sort)
    shown = shown_for(filters, rows)
    columns = STANDINGS.shown(Medium.PAGE, shown)
    table = lay_out(columns, rows)
    context = {
        **context_for(filters),
        "rows": rows,
        "sort": sort,
        "table": table,
        "shown": shown,
        "tied_note": tied_note(counts_wins(filters)),
    }
    if is_organizer(request.user):
        context["visibility"] = {
            "public": ClubSettings.standings_are_public(),
            "forced": settings.STANDINGS_PUBLIC,
        }
    context["downloads"] = download_links(filters)
    context["rating_query"] = query_for(filters, period="")
    template = "scoring/standings.html"
    if request.htmx:
        template += "#standings"
    return render(request, template, context)


def rating_for(request: HttpRequest, filters: Filters, member_id: int | None = None) -> Rating:
    """The rating the query string names: the filters' standings group, at ``players`` 3 or 4
    (the group's 4-player rating when it has one)."""
    group = filters.standings_group or StandingsGroup.clubs_own()
    choices = rating_players(group) or [4]
    players = query_number(request.GET.get("players"))
    return compute_rating(group, players if players in choices else choices[0], member_id=member_id)


@open_to_visitors_when(ClubSettings.standings_are_public)
@vary_on_headers("HX-Request")
@require_safe
def rating_table(request: HtmxHttpRequest) -> HttpResponse:
    """The rating table (レーティング) beside the standings: a group's 4- or 3-player rating,
    sortable, with the standings' minimum of games and guests left out unless asked.
    Open to visitors when the standings are."""
    filters = filters_from(request)
    rating = rating_for(request, filters)
    sort = request.GET.get("sort", "position")
    rows = sort_rating(rating_rows(rating, filters.min_games, filters.guests), sort)
    group = rating.group
    query = query_for(filters, period="", players=rating.players)
    context = {
        "filters": filters,
        "rating": rating,
        "rows": rows,
        "sort": sort,
        "query": query,
        "groups": StandingsGroup.objects.all(),
        "group": group,
        "player_tabs": [
            (n, query_for(filters, period="", players=n))
            for n in rating_players(group, filters.group_rule_sets)
        ],
        "standings_query": query_for(filters),
    }
    template = "scoring/rating.html"
    if request.htmx:
        template += "#rating"
    return render(request, template, context)


def member_ratings(filters: Filters, member: Member) -> list[Rating]:
    """The member's ratings in the filters' group (4-player, then 3-player), those with games
    of theirs, each with the member's games and changes."""
    group = filters.standings_group or StandingsGroup.clubs_own()
    rule_sets = filters.group_rule_sets
    found = []
    for players in rating_players(group, rule_sets):
        rating = compute_rating(group, players, member_id=member.pk, rule_sets=rule_sets)
        if rating.history:
            found.append(rating)
    return found


@require_safe
def member_detail(request: HttpRequest, pk: int) -> HttpResponse:
    member = get_object_or_404(Member, pk=pk)
    filters = filters_from(request)
    if member.is_guest:  # a guest's own page counts their games whatever the switch says
        filters = replace(filters, guests=True)
    record = member_record(member.pk, filters)
    latest = max((g.date for g in record.games), default=None)
    least = ClubSettings.load().head_to_head_min
    pdf = f"{reverse('scoring:member-pdf', args=[member.pk])}?{query_for(filters)}"
    return render(
        request,
        "members/member_detail.html",
        {
            **context_for(filters, latest),
            "member": member,
            "record": record,
            "summary": (
                summary_items(record.summary, wins=counts_wins(filters)) if record.summary else []
            ),
            "place_columns": PlaceColumns.of([record.summary] if record.summary else []),
            "downloads": [(_("PDF"), pdf)],
            "pairs": head_to_head(filters, member.pk, least),
            "pairs_least": least,
            "seats": by_seat(filters, member.pk),
            "recent": record.recent(),
            "ratings": [
                {
                    "rating": rating,
                    "row": rating.row_for(member.pk),
                    "games": list(reversed(rating.history)),
                    "query": query_for(filters, players=rating.players),
                }
                for rating in member_ratings(filters, member)
            ],
        },
    )


@organizer_required
@require_http_methods(["GET", "HEAD", "POST"])
def head_to_head_matrix(request: HttpRequest) -> HttpResponse:
    """Head-to-head for the whole club, for the organizers: each cell is how many times the
    row's player finished above the column's, of the games they sat together. The organizer
    sets here how many games together a member's page asks of a tablemate (POST)."""
    filters = filters_from(request)
    club = ClubSettings.load()
    if request.method == "POST":
        least = query_number(request.POST.get("least"))
        if least is None or not 1 <= least <= HEAD_TO_HEAD_MOST:
            messages.error(
                request,
                _("Write a whole number from 1 to %(most)s.") % {"most": HEAD_TO_HEAD_MOST},
            )
        else:
            club.head_to_head_min = least
            club.save()
            messages.success(
                request,
                _("Members' pages now list tablemates met %(n)s times or more.") % {"n": least},
            )
        return redirect(f"{reverse('scoring:head-to-head')}?{query_for(filters)}")
    return render(
        request,
        "scoring/head_to_head.html",
        {**context_for(filters), "matrix": pair_matrix(filters), "least": club.head_to_head_min},
    )


@require_safe
def member_chart(request: HttpRequest, pk: int, chart: str) -> HttpResponse:
    """The member's charts as SVG images (cumulative P, places), for the filters of the page
    that shows them (its query string; ``size=compact``: the phone's narrower cumulative
    chart). Each draws the member's own games only: the club's
    standings, which the page computed, are not computed again here."""
    member = get_object_or_404(Member, pk=pk)
    filters = filters_from(request)
    record = member_games(member.pk, filters)
    if chart == "rating":
        rating = rating_for(request, filters, member.pk)
        svg = cumulative_chart(
            [f"{g.day:%-m/%-d}" for g in rating.history],
            [Decimal(g.change.after) / 100 for g in rating.history],
            _("Rating (R)"),
            "R",
            compact=request.GET.get("size") == "compact",
            baseline=Decimal(START) / 100,
        )
        return HttpResponse(svg, content_type="image/svg+xml")
    if chart == "cumulative":
        labels: list[str] = [f"{g.date:%-m/%-d}" for g in record.games]
        svg = cumulative_chart(
            labels,
            [g.cumulative for g in record.games],
            _("Cumulative P"),
            _("P"),
            compact=request.GET.get("size") == "compact",
        )
    else:
        labels = []
        counts: list[int] = []
        groups: list[tuple[str, int]] = []
        columns = record.place_columns
        if columns.four:
            labels += [_("1st"), _("2nd"), _("3rd"), _("4th")]
            counts += list(record.places)
            groups.append((_("4 players"), 4))
        if columns.three:
            # 1位 2位 3位 under 三人打ち: 「三人打ち1位」 under each bar ran together.
            labels += [_("1st"), _("2nd"), _("3rd")]
            counts += list(record.places3)
            groups.append((_("3 players"), 3))
        svg = places_chart(
            labels,
            counts,
            _("Games at each place"),
            groups=groups if columns.three else (),
        )
    return HttpResponse(svg, content_type="image/svg+xml")  # not kept: PrivateAnswersMiddleware
