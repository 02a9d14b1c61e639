"""Every file the app hands out, one kind each in one registry (``HANDOUTS``), as pretix's
exporters are: a key, the spec it reads from the request, who may ask for it, a renderer
that returns (file name, content type, bytes), whether it is made at once or queued, and
whether it is kept by a fingerprint of what it shows. The views answer every kind through
one entry point (``views/downloads.py: handout``); docs/reports.md has the table.

A kind kept as a report (``Report``) is kept by a digest (``digest_of``) of its spec, of the
version of what lays files out and of its fingerprint, and asking for it goes through
``asking.py``. A kind made at once and not kept as a report is made in the request that asks
(``made_now``): through the cache by the same digest when it is kept there, else anew.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum

from django.core.cache import cache
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from members.models import Club, Member, club_in_scope
from scoring.forms import CertificateDayForm, filters_from, query_number
from scoring.meet_draw import stored_draw
from scoring.models import CalendarLink, ClubSettings, Meet, RuleSet
from scoring.planning import coming_meets
from scoring.reports import (
    Progress,
    fingerprints,
    games_csv,
    ical,
    news,
    no_progress,
    pdf,
    score_table,
    table_draw,
    xlsx,
)
from scoring.reports.kept import template_version
from scoring.reports.specs import Rendered, Spec, sha
from scoring.standings import Filters, Period, PeriodKind, compute_awards

# How long a kind kept in the cache is kept there (it names the day it is made: a day).
CACHED_FOR = 24 * 3600
# How far back the calendar feed goes: a phone's calendar drops an event the feed no longer
# holds, so the meets of the last two months stay in it, not only the coming ones.
FEED_KEEPS = timedelta(days=62)

Renderer = Callable[[Spec, Progress, bool], Rendered]
"""Lays a file out: its spec, told the progress; with the flag, shared among workers. Each
calls its module's renderer by name, so the module is what is replaced in a test."""
SpecReader = Callable[..., Spec]
"""Reads a kind's spec from the request and the URL's parameters (404 for no such object)."""


class Who(StrEnum):
    """Who may ask for a kind (anyone else is sent to sign in, or refused, as by any page)."""

    MEMBER = "members"  # a signed-in login with a club role (会員 or 記録係)
    ORGANIZER = "the organizer"  # 記録係 only; a member is refused (403)
    VISITOR_WHEN_OPEN = "members; visitors while the schedule is open"
    TOKEN = "a member's secret address (no sign-in)"


class Made(StrEnum):
    """When a kind is made."""

    AT_ONCE = "at once"  # in the request that asks
    QUEUED = "queued"  # by a report worker (``db_worker``); the page shows its progress
    BY_PERIOD = "a month at once, longer queued"


class Kept(StrEnum):
    """Whether, and by what, a made file is kept."""

    AS_REPORT = "kept, by a fingerprint of what it shows"  # a ``Report``, its file stored
    IN_CACHE = "in the cache, by a fingerprint of what it shows"  # Django's cache, a day
    NOT = "not kept"


@dataclass(frozen=True)
class Handout:
    """One kind of file the app hands out."""

    key: str
    what: str
    spec: SpecReader
    who: Who
    render: Renderer
    made: Made
    kept: Kept
    # What it shows, for its digest (kept kinds); None: the standings' (``fingerprints``).
    fingerprint: Callable[[Spec], object] | None = None
    # Shown in place by a page (inline: a picture, a printout), or downloaded (attachment).
    # A kind not kept as a report is always shown in place.
    shown: bool = False
    # Whether visitors may ask now (``Who.VISITOR_WHEN_OPEN``).
    open_when: Callable[[], bool] | None = None
    # Whether a secret address is a member's (``Who.TOKEN``).
    token_holds: Callable[[str], bool] | None = None
    # The answer's Cache-Control, where it says more than the site's default.
    cache_control: str = ""
    # Printed with the club's choices for handouts (the minus sign, − or ▲), which its
    # digest then takes too.
    printed: bool = False


# --- what each kind reads from the request ------------------------------------------------


def _standings(kind: str) -> SpecReader:
    def read(request: HttpRequest) -> Spec:
        return Spec.of(kind, filters_from(request))

    return read


def _every_game(request: HttpRequest) -> Spec:
    """Every game of the period (and meet kind) shown, whatever its group: the club's data."""
    shown = filters_from(request)
    return Spec.of("games.csv", Filters(period=shown.period, kind=shown.kind, every_group=True))


def _member(request: HttpRequest, pk: int) -> Spec:
    member = get_object_or_404(Member, pk=pk)
    return Spec.of("member.pdf", filters_from(request), member=member.pk)


def _meet(kind: str) -> SpecReader:
    def read(request: HttpRequest, pk: int) -> Spec:
        return Spec.of(kind, meet=get_object_or_404(Meet, pk=pk).pk)

    return read


def _news(request: HttpRequest, pk: int) -> Spec:
    """A meet's news card: ``?card=1`` the second (a card for each 16 players), the first by
    default and for anything not a card's number."""
    meet = get_object_or_404(Meet, pk=pk)
    number = query_number(request.GET.get("card"))
    if number is None or number > 99:
        number = 0
    return Spec.of("news.png", meet=meet.pk, link=news.standings_link(request), card=number)


def _notice(request: HttpRequest) -> Spec:
    """A month's meets (``?month=2026-12``; this month by default)."""
    month = timezone.localdate().replace(day=1)
    try:
        period = Period.parse(request.GET.get("month", ""))
    except ValueError:  # none, not a period, or outside the meets' years: this month
        period = None
    if period is not None and period.kind is PeriodKind.MONTH and period.start is not None:
        month = period.start
    return Spec.of("notice.pdf", Filters(Period.month(month.year, month.month)))


def _rule_set(request: HttpRequest, pk: int) -> Spec:
    return Spec.of("score-table.pdf", rule_set=get_object_or_404(RuleSet, pk=pk).pk)


def _drawn_meet(kind: str) -> SpecReader:
    def read(request: HttpRequest, pk: int) -> Spec:
        meet = get_object_or_404(Meet.objects.select_related("rule_set"), pk=pk)
        return Spec.of(kind, meet=meet.pk)

    return read


def _certificate(request: HttpRequest) -> Spec:
    """One winner (``member``) of one award (``award``) of the period shown, dated ``day``
    when the organizer gave one (``CertificateDayForm``; the end of the period otherwise)."""
    award = query_number(request.GET.get("award"))
    member = query_number(request.GET.get("member"))
    day = CertificateDayForm.day_of(request.GET)
    return Spec.of(
        "certificate.pdf",
        filters_from(request),
        member=member,
        award=award,
        day=day.isoformat() if day else "",
    )


def _calendar(kind: str) -> SpecReader:
    def read(request: HttpRequest) -> Spec:
        return Spec.of(kind)

    return read


def _token_holds(token: str) -> bool:
    """Whether ``token`` is the secret calendar address of an active member."""
    return CalendarLink.objects.filter(token=token, member__is_active=True).exists()


# --- how each kind is laid out -------------------------------------------------------------


def _meet_of(spec: Spec) -> Meet:
    assert spec.meet is not None
    return Meet.objects.select_related("rule_set__group").get(pk=spec.meet)


def _month_of(spec: Spec) -> date:
    month = Period.parse(spec.period).start
    assert month is not None
    return month


def _standings_pdf(spec: Spec, progress: Progress, share: bool) -> Rendered:
    return pdf.render_standings_pdf(spec.filters(), progress=progress, share=share)


def _standings_xlsx(spec: Spec, progress: Progress, share: bool) -> Rendered:
    return xlsx.render_standings_xlsx(spec.filters(), progress=progress)


def _games_csv(spec: Spec, progress: Progress, share: bool) -> Rendered:
    return games_csv.render_games_csv(spec.filters())


def _member_pdf(spec: Spec, progress: Progress, share: bool) -> Rendered:
    assert spec.member is not None
    return pdf.render_member_pdf(spec.member, spec.filters())


def _meet_pdf(spec: Spec, progress: Progress, share: bool) -> Rendered:
    assert spec.meet is not None
    return pdf.render_meet_pdf(Meet.objects.get(pk=spec.meet))


def _news_png(spec: Spec, progress: Progress, share: bool) -> Rendered:
    return news.render_news_png(_meet_of(spec), spec.link, spec.card)


def _notice_pdf(spec: Spec, progress: Progress, share: bool) -> Rendered:
    month = _month_of(spec)
    return pdf.render_notice_pdf(month, list(pdf.notice_meets(month)))


def _rule_set_of(spec: Spec) -> RuleSet:
    assert spec.rule_set is not None
    return RuleSet.objects.get(pk=spec.rule_set)


def _score_table_pdf(spec: Spec, progress: Progress, share: bool) -> Rendered:
    rule_set = _rule_set_of(spec)
    name = f"shirakaba-score-table-{rule_set.pk}.pdf"
    return name, "application/pdf", score_table.render_score_table_pdf(rule_set)


def _score_table_shown(spec: Spec) -> object:
    return score_table.shown(_rule_set_of(spec))


def _drawn_meet_of(spec: Spec) -> Meet:
    assert spec.meet is not None
    return Meet.objects.select_related("rule_set").get(pk=spec.meet)


def _draw_pdf(spec: Spec, progress: Progress, share: bool) -> Rendered:
    meet = _drawn_meet_of(spec)
    name = f"shirakaba-draw-{meet.date:%Y-%m-%d}-{meet.kind}.pdf"
    return name, "application/pdf", table_draw.render_draw_pdf(meet, stored_draw(meet))


def _record_sheet_pdf(spec: Spec, progress: Progress, share: bool) -> Rendered:
    meet = _drawn_meet_of(spec)
    name = f"shirakaba-record-sheet-{meet.date:%Y-%m-%d}-{meet.kind}.pdf"
    return name, "application/pdf", pdf.render_record_sheet_pdf(meet, stored_draw(meet))


def _certificate_pdf(spec: Spec, progress: Progress, share: bool) -> Rendered:
    """404 for anyone who did not win the award in the period."""
    filters = spec.filters()
    for result in compute_awards(filters):
        if result.award.pk != spec.award:
            continue
        for winner in result.winners:
            if winner.member_id == spec.member:
                day = date.fromisoformat(spec.day) if spec.day else None
                return pdf.render_certificate_pdf(result, winner, filters, day)
    raise Http404(_("No such winner of this award in this period."))


def _schedule_ics(spec: Spec, progress: Progress, share: bool) -> Rendered:
    meets = coming_meets(timezone.localdate() - FEED_KEEPS)
    return "shirakaba.ics", ical.CONTENT_TYPE, ical.schedule_calendar(meets)


HANDOUTS: dict[str, Handout] = {
    kind.key: kind
    for kind in (
        Handout(
            key="standings.pdf",
            printed=True,
            what="成績表: the standings of a period, print-ready (a half-year's with every "
            "member's pages)",
            spec=_standings("standings.pdf"),
            who=Who.MEMBER,
            render=_standings_pdf,
            made=Made.BY_PERIOD,
            kept=Kept.AS_REPORT,
        ),
        Handout(
            key="standings.xlsx",
            what="the standings, every game and a sheet a member, in Excel",
            spec=_standings("standings.xlsx"),
            who=Who.MEMBER,
            render=_standings_xlsx,
            made=Made.QUEUED,
            kept=Kept.AS_REPORT,
        ),
        Handout(
            key="games.csv",
            what="every game of the period, in the import format",
            spec=_every_game,
            who=Who.MEMBER,
            render=_games_csv,
            made=Made.AT_ONCE,
            kept=Kept.AS_REPORT,
        ),
        Handout(
            key="member.pdf",
            printed=True,
            what="a member's record",
            spec=_member,
            who=Who.MEMBER,
            render=_member_pdf,
            made=Made.AT_ONCE,
            kept=Kept.AS_REPORT,
        ),
        Handout(
            key="meet.pdf",
            printed=True,
            what="例会成績表: a meet's sheet",
            spec=_meet("meet.pdf"),
            who=Who.MEMBER,
            render=_meet_pdf,
            made=Made.AT_ONCE,
            kept=Kept.AS_REPORT,
        ),
        Handout(
            key="news.png",
            printed=True,
            what="例会速報: a meet's news as a picture to share",
            spec=_news,
            who=Who.MEMBER,
            render=_news_png,
            made=Made.AT_ONCE,
            kept=Kept.AS_REPORT,
            fingerprint=lambda spec: news.fingerprint(_meet_of(spec)),
            shown=True,
        ),
        Handout(
            key="notice.pdf",
            what="回覧板: a month's meets on an A4 page",
            spec=_notice,
            who=Who.MEMBER,
            render=_notice_pdf,
            made=Made.AT_ONCE,
            kept=Kept.AS_REPORT,
            fingerprint=lambda spec: pdf.notice_fingerprint(_month_of(spec)),
            shown=True,
        ),
        Handout(
            key="score-table.pdf",
            what="点数計算表: a rule set's score table on one A4 page",
            spec=_rule_set,
            who=Who.MEMBER,
            render=_score_table_pdf,
            made=Made.AT_ONCE,
            kept=Kept.IN_CACHE,
            fingerprint=_score_table_shown,
            shown=True,
        ),
        Handout(
            key="draw.pdf",
            what="卓組み表: a meet's table draw, three rounds on one A4 page",
            spec=_drawn_meet("draw.pdf"),
            who=Who.MEMBER,
            render=_draw_pdf,
            made=Made.AT_ONCE,
            kept=Kept.NOT,
            shown=True,
        ),
        Handout(
            key="record-sheet.pdf",
            what="記録用紙: the record sheets of a meet's draw, to print for the tables",
            spec=_drawn_meet("record-sheet.pdf"),
            who=Who.MEMBER,
            render=_record_sheet_pdf,
            made=Made.AT_ONCE,
            kept=Kept.NOT,
            shown=True,
        ),
        Handout(
            key="certificate.pdf",
            what="賞状: one winner's A4 certificate of an award",
            spec=_certificate,
            who=Who.ORGANIZER,
            render=_certificate_pdf,
            made=Made.AT_ONCE,
            kept=Kept.NOT,
            shown=True,
        ),
        Handout(
            key="schedule.ics",
            what="the coming meets as a calendar feed, at one address",
            spec=_calendar("schedule.ics"),
            who=Who.VISITOR_WHEN_OPEN,
            render=_schedule_ics,
            made=Made.AT_ONCE,
            kept=Kept.NOT,
            shown=True,
            open_when=ClubSettings.schedule_is_public,
            cache_control="private, no-store",
        ),
        Handout(
            key="member-schedule.ics",
            what="the same feed at a member's secret address, for a calendar app",
            spec=_calendar("member-schedule.ics"),
            who=Who.TOKEN,
            render=_schedule_ics,
            made=Made.AT_ONCE,
            kept=Kept.NOT,
            shown=True,
            token_holds=_token_holds,
            cache_control="private, no-store",
        ),
    )
}


def kind_of(spec: Spec) -> Handout:
    return HANDOUTS[spec.kind]


def made_at_once(spec: Spec) -> bool:
    """Whether a file is made in the request that asks (the same function a worker runs): a
    small one, or one a page shows in place, where nothing could follow a progress page. A
    month's standings PDF has no member pages and is small too."""
    made = kind_of(spec).made
    if made is Made.BY_PERIOD:
        return Period.parse(spec.period).is_monthly
    return made is Made.AT_ONCE


def digest_of(spec: Spec) -> str:
    """What a kept file is kept by: its spec, the version of what lays files out and the
    fingerprint of what it shows; and its club, unless the site's one club (whose digests
    are as they were before clubs, so its kept files still answer): two clubs' reports of one
    spec and alike data are two files, each found in its own club only."""
    kind = kind_of(spec)
    shown = kind.fingerprint(spec) if kind.fingerprint else fingerprints.fingerprint(spec)
    printed_with = ClubSettings.minus() if kind.printed else None
    club = club_in_scope()
    of_club = [] if club in (None, Club.DEFAULT_PK) else [f"club {club}"]
    return sha([spec.as_json(), template_version(), shown, printed_with, *of_club])


def render(spec: Spec, progress: Progress = no_progress, *, share: bool = False) -> Rendered:
    """Lay the file out with its kind's renderer, in the spec's language. With ``share``,
    other workers may make parts of it (``parts.py``)."""
    with translation.override(spec.language):
        return kind_of(spec).render(spec, progress, share)


def made_now(spec: Spec) -> Rendered:
    """A kind not kept as a report, made in this request: taken from the cache by its digest
    when it is kept there and was made already, else laid out (and kept there)."""
    if kind_of(spec).kept is not Kept.IN_CACHE:
        return render(spec, no_progress)
    key = f"handout:{digest_of(spec)}"
    made: Rendered | None = cache.get(key)
    if made is None:
        made = render(spec, no_progress)
        cache.set(key, made, CACHED_FOR)
    return made
