"""Reports as tasks of Django's tasks framework (``django.tasks``), made once and kept.

Asking for a report (``ask``) finds or creates its ``Report`` row by a digest of what the file
would hold; a new one queues ``make_report`` (run by ``manage.py db_worker``, or at once for a
small report: the same function, called in the request). The task lays the report out with
``pdf.py``, ``xlsx.py`` or ``games_csv.py``, writing its progress (which part, n of N) into the
row as it goes, and keeps the file in the reports storage (``STORAGES["reports"]``, by default
``DATA_DIR/reports/``) by its digest. Asked for again unchanged, the kept file is served at
once; asked for while it is being made, the same row is found and nothing more is queued.
``export_report`` runs the same ``make`` in its own process.

Two files a page shows in place are kept the same way and made at once in the request that
first asks: the news picture (``news.png``, about a second to draw) and the 回覧板
(``notice.pdf``). Each has a fingerprint of its own, of exactly what it shows
(``OWN_FINGERPRINTS``). A request asking for one that another request is making waits for it
(``awaited``): however many ask at once, it is drawn once.

The digest covers: the kind of report and what it is of (period, meet kind, group, rule set,
minimum of games, member, meet), the language, the version of everything that lays reports
out (``template_version``: the report templates, these modules and the Japanese catalogue),
and a fingerprint of what the report shows (``fingerprint``): the count, ids, points and
latest change of the games counted, the meets' days and kinds, the members' names, and the
latest change of any rule set or group (their history). A change to any of these makes a
new digest, so a kept file is never stale, and nothing else does (a member's 出欠 is on no
report), so a kept file is served again; old files are pruned (``prune``).

Limits: one person may have at most ``settings.REPORTS_PER_PERSON`` reports queued or being
made (``TooManyReports``; the reports a finalise queues are no one's); an organizer's report
goes ahead of the members' waiting (``ORGANIZER_FIRST``); a report a newer one of the same
request (``spec_key``) replaced before a worker took it is not made (``REPLACED``: its page
leads to the newer one, ``current``); the kept files are at most ``settings.REPORTS_MAX_BYTES``
in all, the least recently used removed first (``prune``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, Max, Min, OuterRef, Sum
from django.tasks import task
from django.utils import timezone, translation

from members.models import Member
from members.roles import is_organizer
from scoring.models import (
    ABANDONED_AFTER,
    Award,
    DrawnPlace,
    Hanchan,
    HanchanResult,
    Meet,
    Report,
    ReportPart,
    ReportStatus,
    RuleSet,
    StandingsGroup,
)
from scoring.reports import (
    NotKept,
    Progress,
    games_csv,
    heartbeat,
    keep,
    kept_files,
    news,
    no_progress,
    parts,
    pdf,
    xlsx,
)
from scoring.reports.kept import KEEP_FOR, template_version
from scoring.standings import Filters, Period, PeriodKind, results_for

logger = logging.getLogger(__name__)


class ReportKind(StrEnum):
    """What a report can be; ``RENDERERS`` gives each its renderer."""

    STANDINGS_PDF = "standings.pdf"
    STANDINGS_XLSX = "standings.xlsx"
    GAMES_CSV = "games.csv"  # every game
    MEMBER_PDF = "member.pdf"
    MEET_PDF = "meet.pdf"  # a meet's sheet
    NEWS_PNG = "news.png"  # a meet's news (例会速報) as a picture, shown in its page
    NOTICE_PDF = "notice.pdf"  # 回覧板: a month's meets


# Made in the request that asks (the same function the task runs): they take well under a
# second. The standings PDF of one month has no member pages and is small too. The news
# picture takes about a second (two for a meet of 240 games), but its page shows it in place,
# where nothing could follow a report's progress.
SMALL_KINDS = {
    ReportKind.GAMES_CSV,
    ReportKind.MEMBER_PDF,
    ReportKind.MEET_PDF,
    ReportKind.NEWS_PNG,
    ReportKind.NOTICE_PDF,
}
# A kept file nobody asked for in ``kept.KEEP_FOR`` is removed; so is one a newer file of the
# same report replaced more than REPLACED_AFTER ago (a page still polling for it can finish).
REPLACED_AFTER = timedelta(hours=1)
# A report whose worker died (no heartbeat for ``models.ABANDONED_AFTER``) is queued again;
# after this many tries it fails (it may be what kills its worker), and can be tried again.
TRIES = 3
# The priority of an organizer's report: ahead of the members' waiting (0), behind the parts
# of a report begun (``parts.HELPING``). It is the organizer who prints at the meet.
ORGANIZER_FIRST = 5
# A kept file asked for or made this recently is not pruned to bound the total size (a page
# is about to fetch it); nor is a part while a report begun before it was used is being made.
IN_USE = timedelta(minutes=10)
# How long a request for a file a page shows in place waits for the request making it
# (``awaited``), and how often it looks; then it is led to the file's own page.
WAIT_SECONDS = 20.0
LOOK_EVERY = 0.1

Rendered = tuple[str, str, bytes]


@dataclass(frozen=True)
class Spec:
    """What report to make: JSON-able, so a task carries it and a digest can be taken."""

    kind: str
    period: str = ""
    meet_kind: str = ""
    group: int | None = None
    rule_set: int | None = None
    min_games: int = 0
    every_group: bool = False
    guests: bool = False  # the tables show guests too (?guests=1)
    member: int | None = None
    meet: int | None = None
    link: str = ""  # the address at the foot of the news picture
    language: str = "ja"

    @classmethod
    def of(
        cls,
        kind: str,
        filters: Filters | None = None,
        *,
        member: int | None = None,
        meet: int | None = None,
        link: str = "",
    ) -> Spec:
        """The spec of a report of ``filters`` (or of a meet), in the active language."""
        language = translation.get_language() or settings.LANGUAGE_CODE
        if filters is None:
            return cls(kind=kind, meet=meet, link=link, language=language)
        return cls(
            kind=kind,
            period=filters.period.key,
            meet_kind=filters.kind,
            group=filters.group.pk if filters.group else None,
            rule_set=filters.rule_set.pk if filters.rule_set else None,
            min_games=filters.min_games,
            every_group=filters.every_group,
            guests=filters.guests,
            member=member,
            meet=meet,
            language=language,
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Spec:
        return cls(**data)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    def filters(self) -> Filters:
        group = StandingsGroup.objects.get(pk=self.group) if self.group is not None else None
        rule_set = (
            RuleSet.objects.select_related("group").get(pk=self.rule_set)
            if self.rule_set is not None
            else None
        )
        return Filters(
            period=Period.parse(self.period),
            kind=self.meet_kind,
            group=group,
            rule_set=rule_set,
            min_games=self.min_games,
            every_group=self.every_group,
            guests=self.guests,
        )

    @property
    def key(self) -> str:
        """The same report whatever the data: which kept files replace one another."""
        return _sha(self.as_json())

    @property
    def is_small(self) -> bool:
        if self.kind in SMALL_KINDS:
            return True
        if self.kind == "standings.pdf":
            return Period.parse(self.period).is_monthly
        return False


def _sha(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


GAMES_COUNTED = {
    "n": Count("pk"),
    "ids": Sum("pk"),
    "points": Sum("total_points"),
    "changed": Max("hanchan__updated_at"),
}
"""What ``fingerprint`` sums of the results a report counts."""


def fingerprint(spec: Spec) -> list[object]:
    """What changes whenever what a report shows changes, and (as far as a few small queries
    can tell) nothing else: a kept file is served again until then. Seven to nine queries,
    whatever the size of the club.

    Every report shows games: their number, the sum of their result ids, their points and
    the latest time any of them was recorded or changed (a game changed in place bumps its
    ``updated_at``, a game removed or added changes the count and the ids). A report of a
    period also shows the rating at its end (the member pages, the awards), which reads every
    game before it in the order of their days, so the group's games up to its end are counted
    the same way. Then what it shows of the meets (``_meets_shown``, ``_meet_shown``) and of
    the members (``_members_shown``), read from the rows themselves; and the latest change of
    the rule sets and the groups (their names, players, ladders; edited seldom), and of the
    awards in the reports that carry them. Nothing else: a member's 出欠, the attendance of
    a meet (but on its own sheet), a planned meet, a meet's venue or start are on none of
    the reports, so asking again after them finds the kept file."""
    labels = [_latest_change(model) for model in (RuleSet, StandingsGroup)]
    if spec.kind == ReportKind.MEET_PDF:
        assert spec.meet is not None
        counted = HanchanResult.objects.filter(meet_id=spec.meet).aggregate(**GAMES_COUNTED)
        return [counted, _meet_shown(spec.meet), _members_shown(), labels]
    filters = spec.filters()
    counted = results_for(filters).aggregate(**GAMES_COUNTED)
    before_the_end = HanchanResult.objects.all()
    if filters.rule_sets:
        before_the_end = before_the_end.filter(rule_set__in=filters.rule_sets)
    if filters.period.end is not None:
        before_the_end = before_the_end.filter(played_on__lte=filters.period.end)
    earlier = before_the_end.aggregate(
        n=Count("pk"), ids=Sum("pk"), changed=Max("hanchan__updated_at")
    )
    if spec.kind == ReportKind.STANDINGS_PDF and pdf.has_awards(filters.period):
        labels.append(_latest_change(Award))
    return [counted, earlier, _meets_shown(filters.period), _members_shown(), labels]


def _latest_change(model: type[Award] | type[RuleSet] | type[StandingsGroup]) -> object:
    """When any row of ``model`` last changed (its history): one query."""
    return model.history.aggregate(latest=Max("history_date"))["latest"]


def _meets_shown(period: Period) -> str:
    """What a report of ``period`` shows of the meets (one query): the day and kind of each
    meet with games in it (the daily sheets, the 満貫以上 list), and the day of each meet with
    games before it (the order of the games the rating at its end reads; the results carry
    the day, but moving a meet does not change its games' ``updated_at``). A planned meet,
    without games, is on no report; nor is any meet's attendance, venue, start or note."""
    played = Exists(Hanchan.objects.filter(meet=OuterRef("pk")))
    meets = Meet.objects.filter(played)
    if period.end is not None:
        meets = meets.filter(date__lte=period.end)
    start = period.start
    return _sha(
        [
            (pk, day, kind) if start is None or day >= start else (pk, day)
            for pk, day, kind in meets.order_by("pk").values_list("pk", "date", "kind")
        ]
    )


def _meet_shown(meet_id: int) -> list[object]:
    """What a meet's sheet shows of its meet (three queries): its day, kind, rule set and
    note, its attendance (「12 attending」) and its table draw (who played instead of whom)."""
    meet = Meet.objects.filter(pk=meet_id).values_list("date", "kind", "rule_set", "note")
    attending = Meet.attendees.through.objects.filter(meet_id=meet_id)
    drawn = DrawnPlace.objects.filter(meet_id=meet_id)
    return [
        list(meet),
        list(attending.order_by("member_id").values_list("member_id", flat=True)),
        _sha(list(drawn.order_by("pk").values_list("pk", "round_no", "table_no", "member_id"))),
    ]


def _members_shown() -> str:
    """What the reports show of the members (one query): name, furigana (the order within a
    rank) and whether a guest (the mark, and left out unless asked for). Of every member, in
    short rows: cheaper than finding who is on the report, and a club has a few hundred."""
    members = Member.objects.order_by("pk").values_list("pk", "name", "furigana", "is_guest")
    return _sha(list(members))


class TooManyReports(Exception):
    """The person asking has as many reports queued or being made as they may have."""

    def __init__(self, waiting: list[Report]) -> None:
        super().__init__(f"{len(waiting)} reports waiting")
        self.waiting = waiting


def digest_of(spec: Spec) -> str:
    own = OWN_FINGERPRINTS.get(ReportKind(spec.kind))
    return _sha([spec.as_json(), template_version(), own(spec) if own else fingerprint(spec)])


def kept_name(report: Report) -> str:
    """The name of the report's file in the reports storage (``kept_files``)."""
    return report.digest


def is_kept(report: Report) -> bool:
    return report.status == ReportStatus.READY and kept_files().exists(kept_name(report))


def could_not_keep(report: Report) -> bool:
    """Whether the report failed because its file (or a part's) could not be written: the
    disk is full or the reports directory cannot be written, which only whoever runs the
    server can put right."""
    return report.status == ReportStatus.FAILED and f"{NotKept.__name__}(" in report.error


class Maker(StrEnum):
    """Who makes a report that ``ask`` finds missing."""

    BY_SIZE = "by_size"  # a small one this request, at once; a larger one a worker (pages)
    THIS_PROCESS = "this_process"  # this process, at once, whatever its size (the command)
    WORKER = "worker"  # a worker, through the queue, whatever its size (after a finalise)


def ask(
    spec: Spec,
    *,
    by: User | None = None,
    maker: Maker = Maker.BY_SIZE,
    progress: Progress | None = None,
) -> Report:
    """The report of ``spec``: kept already, being made, or made now by ``maker``. The
    same report asked for again while it is queued or being made is not queued again: the
    unique digest is the single flight. A new report asked for ``by`` a person who has
    ``REPORTS_PER_PERSON`` waiting already raises ``TooManyReports``."""
    digest = digest_of(spec)
    now = timezone.now()
    try:
        with transaction.atomic():
            if by is not None:
                _within_limit(by, digest)
            report, created = Report.objects.get_or_create(
                digest=digest,
                defaults={
                    "spec": spec.as_json(),
                    "spec_key": spec.key,
                    "asked_at": now,
                    "asked_by": by,
                },
            )
    except IntegrityError:  # asked for at the same moment elsewhere: that one is queued
        report, created = Report.objects.get(digest=digest), False
    if not created:
        Report.objects.filter(pk=report.pk).update(asked_at=now)
        again = _queued_again(report, now) or _unreplaced(report)
        if not again:
            return report
    if maker is Maker.THIS_PROCESS or (maker is Maker.BY_SIZE and spec.is_small):
        try:
            make(report.pk, progress or no_progress)
        except Exception:  # the row says it failed, and why; the asker is shown so
            logger.exception("%s could not be made", spec.kind)
    else:
        priority = ORGANIZER_FIRST if by is not None and is_organizer(by) else 0
        result = make_report.using(priority=priority).enqueue(report.pk)
        Report.objects.filter(pk=report.pk, task_id="").update(task_id=result.id)
    report.refresh_from_db()
    return report


def _within_limit(by: User, digest: str) -> None:
    """Raise ``TooManyReports`` when ``by`` has as many reports waiting as they may and this
    one is new. Inside the transaction that creates it; the person's row is locked first, so
    two of their requests at once are counted one after the other (SQLite's immediate
    transactions do that already)."""
    if Report.objects.filter(digest=digest).exists():
        return  # asked for already: nothing new is queued
    User.objects.select_for_update().filter(pk=by.pk).values("pk").first()
    waiting = Report.objects.filter(
        asked_by=by, status__in=(ReportStatus.QUEUED, ReportStatus.MAKING)
    ).order_by("pk")
    if waiting.count() >= settings.REPORTS_PER_PERSON:
        raise TooManyReports(list(waiting))


def _unreplaced(report: Report) -> bool:
    """Put a report a newer one had replaced back in the queue: it is asked for again (the
    data is back as it was), so it is the newest now. True when this caller did so."""
    replaced = Report.objects.filter(pk=report.pk, status=ReportStatus.REPLACED)
    return bool(replaced.update(status=ReportStatus.QUEUED, task_id="", step="", done=0, total=0))


def _replaced(report_id: int) -> bool:
    """Mark the queued report ``report_id`` replaced, and so not to be made, when a newer
    report of the same request (asked for later, not failed) exists. True when it did."""
    report = Report.objects.filter(pk=report_id, status=ReportStatus.QUEUED).first()
    if report is None:
        return False
    newer = (
        Report.objects.filter(spec_key=report.spec_key, asked_at__gt=report.asked_at)
        .exclude(pk=report_id)
        .exclude(status__in=(ReportStatus.FAILED, ReportStatus.REPLACED))
    )
    if not newer.exists():
        return False
    queued = Report.objects.filter(pk=report_id, status=ReportStatus.QUEUED)
    return bool(queued.update(status=ReportStatus.REPLACED, finished_at=timezone.now()))


def current(report: Report, by: User | None = None) -> Report:
    """What a page holding ``report`` shows: the report, or if a newer one replaced it the
    newest of its request (asked for again, ``by`` whoever looks, if none is left)."""
    if report.status != ReportStatus.REPLACED:
        return report
    newest = (
        Report.objects.filter(spec_key=report.spec_key)
        .exclude(status=ReportStatus.REPLACED)
        .order_by("-asked_at")
        .first()
    )
    return newest or ask(Spec.from_json(report.spec), by=by)


def _queued_again(report: Report, now: Any) -> bool:
    """Put a failed report, a kept one whose file is gone, or one whose maker died back in
    the queue; True when this caller did so (and so makes or queues it)."""
    if report.status == ReportStatus.MAKING:
        return report.is_abandoned(now) and _take_back(report, now)
    gone = report.status == ReportStatus.READY and not kept_files().exists(kept_name(report))
    if not (report.status == ReportStatus.FAILED or gone):
        return False
    reset = Report.objects.filter(pk=report.pk, status=report.status)
    return bool(
        reset.update(status=ReportStatus.QUEUED, error="", task_id="", step="", done=0, total=0)
    )


def awaited(report: Report, by: User | None = None, *, within: float | None = None) -> Report:
    """``report`` once it is made (or failed), waited for while another request makes it,
    ``within`` seconds at most (``WAIT_SECONDS``): what a file a page shows in place needs (a
    picture cannot poll a progress page). One whose maker died is taken up (``take_up``:
    this request makes it), one a newer report replaced is followed (``current``)."""
    deadline = time.monotonic() + (WAIT_SECONDS if within is None else within)
    while True:
        report = current(take_up(report), by)
        waiting = report.status in (ReportStatus.QUEUED, ReportStatus.MAKING)
        if not waiting or time.monotonic() >= deadline:
            return report
        time.sleep(LOOK_EVERY)


def _take_back(report: Report, now: Any) -> bool:
    """A report whose maker died (``heartbeat``): its own task queued again, for the next
    worker; failed after ``TRIES`` workers died making it. True when it has no task to queue
    again (it was made in a request, or its task is gone): the caller makes or queues it."""
    task = heartbeat.running_task(make_report, report.task_id)
    if task is not None and len(task.worker_ids) >= TRIES:
        error = RuntimeError(f"its worker stopped {len(task.worker_ids)} times while making it")
        fields = {"error": repr(error), "finished_at": now}
        if Report.take_back(report.pk, now, status=ReportStatus.FAILED, **fields):
            task.set_failed(error)
            report.status = ReportStatus.FAILED
        return False
    fresh = {"step": "", "done": 0, "total": 0, "task_id": report.task_id if task else ""}
    if not Report.take_back(report.pk, now, **fresh):
        return False  # taken back by another caller at the same moment
    report.status = ReportStatus.QUEUED
    if task is None:
        return True
    heartbeat.requeue(task)
    return False


def take_up(report: Report) -> Report:
    """``report`` as it is now, queued again first if its maker died: what a report's page
    polls, so it never shows progress that nobody is making."""
    now = timezone.now()
    if report.is_abandoned(now) and _take_back(report, now):
        spec = Spec.from_json(report.spec)
        if spec.is_small:
            try:
                make(report.pk)
            except Exception:  # the row says it failed, and the page offers to try again
                logger.exception("Report %s could not be made", report.pk)
        else:
            result = make_report.enqueue(report.pk)
            Report.objects.filter(pk=report.pk, task_id="").update(task_id=result.id)
    report.refresh_from_db()
    return report


def take_up_abandoned() -> int:
    """Every report whose maker died, taken up again (``take_up``): what each worker does every
    ``SWEEP`` seconds, so a report nobody is waiting for (one queued after a finalise) is made
    too. Returns how many were taken up."""
    now = timezone.now()
    abandoned = Report.objects.filter(status=ReportStatus.MAKING).filter(
        Report.silent_since(now - ABANDONED_AFTER)
    )
    taken = 0
    for report in abandoned:
        take_up(report)
        taken += 1
    return taken


Renderer = Callable[["Spec", Progress, bool], Rendered]
"""Lays out a report: its spec, told the progress; with the flag, shared among workers.
Each calls its module's renderer by name, so the module is what is replaced in a test."""


def _meet_pdf(spec: Spec, progress: Progress, share: bool) -> Rendered:
    assert spec.meet is not None
    return pdf.render_meet_pdf(Meet.objects.get(pk=spec.meet))


def _member_pdf(spec: Spec, progress: Progress, share: bool) -> Rendered:
    assert spec.member is not None
    return pdf.render_member_pdf(spec.member, spec.filters())


def _meet_of(spec: Spec) -> Meet:
    assert spec.meet is not None
    return Meet.objects.select_related("rule_set__group").get(pk=spec.meet)


def _month_of(spec: Spec) -> date:
    month = Period.parse(spec.period).start
    assert month is not None
    return month


def _news_png(spec: Spec, progress: Progress, share: bool) -> Rendered:
    return news.render_news_png(_meet_of(spec), spec.link)


def _notice_pdf(spec: Spec, progress: Progress, share: bool) -> Rendered:
    month = _month_of(spec)
    return pdf.render_notice_pdf(month, list(pdf.notice_meets(month)))


RENDERERS: dict[ReportKind, Renderer] = {
    ReportKind.STANDINGS_PDF: lambda spec, progress, share: pdf.render_standings_pdf(
        spec.filters(), progress=progress, share=share
    ),
    ReportKind.STANDINGS_XLSX: lambda spec, progress, share: xlsx.render_standings_xlsx(
        spec.filters(), progress=progress
    ),
    ReportKind.GAMES_CSV: lambda spec, progress, share: games_csv.render_games_csv(spec.filters()),
    ReportKind.MEMBER_PDF: _member_pdf,
    ReportKind.MEET_PDF: _meet_pdf,
    ReportKind.NEWS_PNG: _news_png,
    ReportKind.NOTICE_PDF: _notice_pdf,
}

# The kinds that show something other than the standings' games, each with a fingerprint of
# exactly what it shows; the others share ``fingerprint``.
OWN_FINGERPRINTS: dict[ReportKind, Callable[[Spec], object]] = {
    ReportKind.NEWS_PNG: lambda spec: news.fingerprint(_meet_of(spec)),
    ReportKind.NOTICE_PDF: lambda spec: pdf.notice_fingerprint(_month_of(spec)),
}


def render(spec: Spec, progress: Progress = no_progress, *, share: bool = False) -> Rendered:
    """Lay the report out with its kind's renderer (``RENDERERS``). With ``share``, other
    workers may make parts of it (``parts.py``)."""
    with translation.override(spec.language):
        return RENDERERS[ReportKind(spec.kind)](spec, progress, share)


class _RowProgress:
    """Writes progress into the report's row, at most every ``every`` seconds (and always
    the last step), and passes it on."""

    def __init__(self, report_id: int, then: Progress, every: float = 0.3) -> None:
        self.report_id, self.then, self.every = report_id, then, every
        self.last = 0.0

    def __call__(self, step: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.last >= self.every or done == total:
            self.last = now
            Report.objects.filter(pk=self.report_id).update(step=step[:100], done=done, total=total)
        self.then(step, done, total)


def make(report_id: int, progress: Progress = no_progress, *, share: bool = False) -> str:
    """Make the queued report ``report_id`` and keep its file; return its status. With
    ``share`` (in a worker), idle workers make parts of it too.

    Only the caller that moves the row from queued to being made makes it, so a report
    queued twice (a worker and ``export_report``) is made once. A report a newer one of
    the same request replaced is not made (``_replaced``)."""
    if _replaced(report_id):
        return str(ReportStatus.REPLACED)
    claimed = Report.claim(report_id)
    report = Report.objects.get(pk=report_id)
    if not claimed:
        return str(report.status)
    spec = Spec.from_json(report.spec)
    try:
        rendering = _RowProgress(report_id, progress)
        with heartbeat.of_process().beating(Report, report_id):
            filename, content_type, content = render(spec, rendering, share=share)
            keep(kept_name(report), content)
    except Exception as error:
        Report.failed(report_id, error)
        raise
    Report.made(report_id, filename=filename, content_type=content_type, size=len(content), step="")
    prune()
    return str(ReportStatus.READY)


@task()
def make_report(report_id: int) -> str:
    """The background task: ``make`` in a worker (``manage.py db_worker``), which other
    workers help with."""
    return make(report_id, share=True)


def prune(now: Any = None) -> int:
    """Remove kept reports nobody asked for in ``KEEP_FOR``, and those a newer file of the
    same report replaced ``REPLACED_AFTER`` ago; their rows go too; and the parts no report
    used in ``KEEP_FOR``; then, while the files kept are more than ``REPORTS_MAX_BYTES`` in
    all, the least recently used (``_bound_size``). Returns how many."""
    now = now or timezone.now()
    removed = 0
    newest: dict[str, Any] = {}
    ready = Report.objects.filter(status=ReportStatus.READY).order_by("-finished_at")
    for report in ready.only("pk", "digest", "spec_key", "finished_at", "asked_at"):
        replaced = report.spec_key in newest and (
            report.finished_at is None or now - newest[report.spec_key] > REPLACED_AFTER
        )
        newest.setdefault(report.spec_key, report.finished_at)
        if replaced or now - report.asked_at > KEEP_FOR:
            kept_files().delete(kept_name(report))
            report.delete()
            removed += 1
    old = Report.objects.filter(asked_at__lt=now - KEEP_FOR).exclude(status=ReportStatus.MAKING)
    removed += old.delete()[0]
    removed += parts.prune(now)
    return removed + _bound_size(now)


def _bound_size(now: Any) -> int:
    """Remove kept reports and parts, the least recently used (asked for, made) first, until
    their files are at most ``REPORTS_MAX_BYTES`` in all; none in use (``IN_USE``)."""
    ready_reports = Report.objects.filter(status=ReportStatus.READY)
    ready_parts = ReportPart.objects.filter(status=ReportStatus.READY)
    total = sum(
        rows.aggregate(total=Sum("size"))["total"] or 0 for rows in (ready_reports, ready_parts)
    )
    if total <= settings.REPORTS_MAX_BYTES:
        return 0
    in_use_since = now - IN_USE
    begun = Report.objects.filter(status=ReportStatus.MAKING).aggregate(first=Min("started_at"))
    fields = ("pk", "digest", "size", "finished_at")
    kept: list[tuple[Any, bool, int, str, int]] = [
        (max(asked, made or asked), True, pk, digest, size)
        for pk, digest, size, made, asked in ready_reports.values_list(*fields, "asked_at")
    ]
    parts_since = min(in_use_since, begun["first"] or in_use_since)
    kept += [
        (max(used, made or used), False, pk, digest, size)
        for pk, digest, size, made, used in ready_parts.values_list(*fields, "used_at")
    ]
    gone_reports: list[int] = []
    gone_parts: list[int] = []
    for used, is_report, pk, digest, size in sorted(kept):
        if total <= settings.REPORTS_MAX_BYTES:
            break
        if used >= (in_use_since if is_report else parts_since):
            continue
        if is_report:
            kept_files().delete(digest)
            gone_reports.append(pk)
        else:
            kept_files().delete(parts.part_name(digest))
            gone_parts.append(pk)
        total -= size
    for model, pks in ((Report, gone_reports), (ReportPart, gone_parts)):
        for start in range(0, len(pks), parts.BATCH):
            model.objects.filter(pk__in=pks[start : start + parts.BATCH]).delete()
    return len(gone_reports) + len(gone_parts)


def queue_after_finalise(meet_id: int, **signal: object) -> None:
    """Ready before anyone asks: a finalised meet's month and half-year reports (the PDF and
    the Excel of the club's standings) are queued. The receiver of ``signals.meet_finalised``
    (connected in ``ScoringConfig.ready``)."""
    meet = Meet.objects.get(pk=meet_id)
    with translation.override(settings.LANGUAGE_CODE):
        for period in (
            Period.containing(meet.date, PeriodKind.MONTH),
            Period.containing(meet.date),
        ):
            for kind in ("standings.pdf", "standings.xlsx"):
                report = ask(Spec.of(kind, Filters(period=period)), maker=Maker.WORKER)
                logger.info("%s of %s: %s", kind, period.key, report.status)
