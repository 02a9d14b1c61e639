"""Long PDF reports made of parts, each laid out once, kept, and shared among workers.

The half-year report is its front matter (cover and standings, the 満貫以上 list, attendance)
and a page or two for each member. Each of those is a part (``ReportPart``) kept by a digest
of what it shows: its HTML, the charts it names and the version of what lays reports out
(``kept.template_version``). What depends on every member at once (the page numbers, a
member's rank) is not in any part: ``weasy.join`` stamps it onto the joined pages. So after
one more meet only the parts whose HTML changed are laid out again: the members who played
and the front matter; a member who did not play keeps their part.

``make_all`` is the one way parts are made. It claims the parts not kept yet one by one, in
order, and lays them out in this process; with ``share`` (in a worker) it first queues a
``make_report_part`` task for each, last first and ahead of reports not started, so that every
other idle worker takes parts from the other end. Whoever moves a part from queued to being made makes it; the others skip
it. Then it waits for the parts others are making, and takes one back if its maker has died.
With one worker, or in ``export_report``, every part is made here, in the same way.

The help is fair between clubs (``share_fairly``): while a report of another club waits that
no worker has begun, the help with a club's report goes behind every report waiting, so one
club's big report does not make another club wait. Its maker goes on making its parts itself,
and once that report is begun the help comes first again.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.tasks import task
from django.utils import timezone
from django_tasks_db import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from members.models import club_in_scope
from members.scopes import scopes_disabled
from scoring.models import Report, ReportPart, ReportStatus
from scoring.reports import heartbeat, keep, kept_files, read, weasy
from scoring.reports.charts import cumulative_chart
from scoring.reports.kept import KEEP_FOR, template_version

# How often a maker waiting for the parts other workers are making looks again (seconds).
WAIT = 0.05
# The priority of a part's task: idle workers help finish a report being made before they
# start on the next one queued (``make_report``, priority 0).
HELPING = 10
# The priority of the help with a club's report while another club's report waits that no
# worker has begun: behind every report (``share_fairly``).
YIELDED = -10
# How often a maker counts the parts made, for its progress (seconds).
COUNT_EVERY = 0.5
# Rows read or written in one query (SQLite's older limit on parameters is 999).
BATCH = 500

# What a chart is drawn from: the arguments of ``charts.draw_cumulative_chart``, its running
# totals as strings (JSON has no decimals).
ChartArgs = tuple[list[str], list[str], str, str]


@dataclass(frozen=True)
class Piece:
    """A part to make: its HTML and the charts it names (name → what it is drawn from)."""

    html: str
    charts: dict[str, ChartArgs] = field(default_factory=dict)

    @property
    def digest(self) -> str:
        recipe = json.dumps([template_version(), self.html, self.charts], sort_keys=True)
        return hashlib.sha256(recipe.encode()).hexdigest()


class PartFailed(Exception):
    """A part could not be made (its error, from whichever worker tried)."""


def part_name(digest: str) -> str:
    """The name of a part's file in the reports storage (``kept_files``)."""
    return f"parts/{digest}.pdf"


def read_part(digest: str) -> bytes:
    """A kept part's PDF, whole: pikepdf joins bytes, wherever the storage keeps them."""
    return read(part_name(digest))


def _batches[T](items: Sequence[T]) -> Iterable[Sequence[T]]:
    for start in range(0, len(items), BATCH):
        yield items[start : start + BATCH]


def prepare(pieces: Sequence[Piece]) -> list[ReportPart]:
    """The parts of ``pieces``, in order: kept ones as they are, new ones queued. A failed
    part, or a kept one whose file is gone, is queued again. Each is marked used now (what
    pruning goes by)."""
    now = timezone.now()
    by_digest = {piece.digest: piece for piece in pieces}
    digests = list(by_digest)
    known: set[str] = set()
    for batch in _batches(digests):
        rows = ReportPart.objects.filter(digest__in=batch)
        known.update(rows.values_list("digest", flat=True))
        rows.update(used_at=now)
    ReportPart.objects.bulk_create(
        [
            ReportPart(digest=d, html=by_digest[d].html, charts=by_digest[d].charts, used_at=now)
            for d in digests
            if d not in known
        ],
        batch_size=100,
        ignore_conflicts=True,  # made at the same moment by another report: the same part
    )
    parts: dict[str, ReportPart] = {}
    for batch in _batches(digests):
        fields = ("pk", "digest", "status", "started_at")
        parts.update(
            (p.digest, p) for p in ReportPart.objects.filter(digest__in=batch).only(*fields)
        )
    for part in parts.values():
        gone = part.status == ReportStatus.READY and not kept_files().exists(part_name(part.digest))
        if part.status == ReportStatus.FAILED or gone:
            _queue_again(part, by_digest[part.digest])
    return [parts[piece.digest] for piece in pieces]


def _queue_again(part: ReportPart, piece: Piece) -> None:
    ReportPart.objects.filter(pk=part.pk, status=part.status).update(
        status=ReportStatus.QUEUED, error="", started_at=None, html=piece.html, charts=piece.charts
    )
    part.status = ReportStatus.QUEUED


def chart_of(args: Sequence[Any]) -> bytes:
    """A member's chart from what its part names (a JSON list), drawn or from the cache."""
    labels, cumulative, title, y_label = args
    return cumulative_chart(
        labels, [Decimal(v) for v in cumulative], title, y_label, fmt="jpeg", grey=True
    )


def make_part(part_id: int) -> bool:
    """Lay out the part ``part_id`` and keep it, if this caller is the one that moves it from
    queued to being made; False when it was not queued (made or being made elsewhere)."""
    if not ReportPart.claim(part_id):
        return False
    part = ReportPart.objects.get(pk=part_id)
    try:
        with heartbeat.of_process().beating(ReportPart, part_id):
            images = {name: chart_of(args) for name, args in part.charts.items()}
            pdf, pages = weasy.lay_out(part.html, images)
            keep(part_name(part.digest), pdf)
    except Exception as error:
        ReportPart.failed(part_id, error)
        raise
    # Kept now: what it was made from is given again if it is ever needed again.
    ReportPart.made(part_id, pages=pages, size=len(pdf), html="", charts={})
    return True


@task()
def make_report_part(part_id: int, club: int | None = None) -> bool:
    """The background task: ``make_part`` in whichever worker is free, helping a report of
    ``club`` (what ``share_fairly`` goes by; a part itself is no club's, only its digest)."""
    return make_part(part_id)


def queue(parts: Sequence[ReportPart]) -> None:
    """Queue a ``make_report_part`` task for each part of ``parts`` not kept yet, the last
    first, for idle workers to take, as help with a report of the club in scope: ahead of the
    reports waiting, unless another club's report waits (``share_fairly``)."""
    club = club_in_scope()
    with transaction.atomic():  # one commit for them all
        for part in reversed(parts):
            if part.status != ReportStatus.READY:
                make_report_part.using(priority=HELPING).enqueue(part.pk, club)
    share_fairly()


def share_fairly() -> None:
    """Fair sharing between clubs: each club's help queued (``make_report_part``) comes before
    the reports waiting (``HELPING``), unless a report of another club waits that no worker has
    begun; then it goes behind every report waiting (``YIELDED``), so the next idle worker
    begins that report instead of helping. The helped report's own maker goes on making its
    parts; once the other club's report is begun, the help comes first again.

    Called after every change to what waits: a report queued (``making.queue``) or queued again
    (``taking_up``), a report begun (``making.make``), help queued (``queue``). Each caller has
    committed its change before it calls, and the calls take their turns (the help's rows
    locked), so the last call sees every change made before it."""
    if not isinstance(make_report_part.get_backend(), DatabaseBackend):
        return  # run as they are queued (the tests' immediate backend): no queue to order
    help_queued = DBTaskResult.objects.ready().filter(task_path=make_report_part.module_path)
    with transaction.atomic():
        if not list(help_queued.select_for_update().values_list("pk", flat=True)):
            return
        waiting = _clubs_waiting()
        if len(waiting) == 1:
            (club,) = waiting
            # Only this club waits: its own help comes first; every other club's (and a task
            # queued before clubs, with no club) goes behind its report.
            its_own = Q(args_kwargs__args__1=club)
            help_queued.filter(its_own, priority=YIELDED).update(priority=HELPING)
            others = ~its_own | Q(args_kwargs__args__1__isnull=True)
            help_queued.filter(others, priority=HELPING).update(priority=YIELDED)
        elif waiting:  # clubs wait: each club's help goes behind another's report
            help_queued.filter(priority=HELPING).update(priority=YIELDED)
        else:
            help_queued.filter(priority=YIELDED).update(priority=HELPING)


@scopes_disabled()
def _clubs_waiting() -> set[int]:
    """The clubs with a report that waits for a worker, no worker having begun it: queued, its
    task not taken yet. (A report made at once in a request has no task; one whose request died
    before making it waits for its page, not for a worker.)"""
    queued = dict(
        Report.objects.filter(status=ReportStatus.QUEUED)
        .exclude(task_id="")
        .values_list("task_id", "club_id")
    )
    if not queued:
        return set()
    untaken = DBTaskResult.objects.ready().filter(pk__in=list(queued)).values_list("pk", flat=True)
    return {queued[str(pk)] for pk in untaken}


def make_all(
    parts: Sequence[ReportPart],
    *,
    share: bool = False,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Make every part of ``parts`` not kept yet: here, and with ``share`` in other workers
    too (see the module's docstring; ``queue`` may have shared them already). ``progress(n)``
    is told as the parts are made, n of them done (counted at most every ``COUNT_EVERY``
    seconds). Raises ``PartFailed`` with the first error of a part that failed."""
    pending = [p.pk for p in parts if p.status != ReportStatus.READY]
    done = len(parts) - len(pending)
    if progress:
        progress(done)
    if share:
        queue(parts)
    counted = time.monotonic()
    for pk in pending:
        _make_here(pk)
        if progress and time.monotonic() - counted > COUNT_EVERY:
            counted = time.monotonic()
            progress(done + _ready_count(pending))
    while True:
        rows = list(
            ReportPart.objects.filter(pk__in=pending)
            .exclude(status=ReportStatus.READY)
            .only("pk", "status", "started_at", "beat_at", "error")
        )
        if progress:
            progress(len(parts) - len(rows))
        if not rows:
            return
        now = timezone.now()
        for row in rows:
            pk, status = row.pk, row.status
            if status == ReportStatus.FAILED:
                raise PartFailed(row.error)
            if row.is_abandoned(now) and ReportPart.take_back(pk, now):
                status = ReportStatus.QUEUED  # its maker died: its task is queued again too
                for task in heartbeat.running_tasks_of(make_report_part, pk):
                    heartbeat.requeue(task)
            if status == ReportStatus.QUEUED:  # its maker died, or another report requeued it
                _make_here(pk)
        time.sleep(WAIT)


def _make_here(part_id: int) -> None:
    try:
        make_part(part_id)
    except Exception as error:
        raise PartFailed(repr(error)) from error


def _ready_count(pks: Sequence[int]) -> int:
    return ReportPart.objects.filter(pk__in=pks, status=ReportStatus.READY).count()


def made(parts: Sequence[ReportPart]) -> list[ReportPart]:
    """``parts`` read again once made: their page counts."""
    by_pk = {p.pk: p for p in ReportPart.objects.filter(pk__in=[p.pk for p in parts])}
    return [by_pk[p.pk] for p in parts]


def prune(now: datetime | None = None) -> int:
    """Remove the parts no report has used in ``kept.KEEP_FOR``; returns how many."""
    now = now or timezone.now()
    old = ReportPart.objects.filter(used_at__lt=now - KEEP_FOR).exclude(status=ReportStatus.MAKING)
    removed = 0
    storage = kept_files()
    for digest in old.values_list("digest", flat=True).iterator():
        storage.delete(part_name(digest))
        removed += 1
    old.delete()
    return removed
