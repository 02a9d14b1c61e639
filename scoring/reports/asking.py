"""Asking for a report: ``ask`` finds or creates its ``Report`` row by the digest of what
the file would hold (``registry.digest_of``). Kept already, the file is there; otherwise it
is made in this request (a kind made at once) or queued for a worker (``making.make_report``);
asked for again while it is queued or being made, the same row is found and nothing more is
queued: it is made once. A file a page shows in place is waited for while another request
makes it (``awaited``).

Limits: one person may have at most ``settings.REPORTS_PER_PERSON`` reports queued or being
made (``TooManyReports``; the reports a finalise queues are no one's); an organizer's report
goes ahead of the members' waiting (``ORGANIZER_FIRST``); the page of a report a newer one
replaced leads to the newer one (``current``, ``replacing.py``).
"""

from __future__ import annotations

import logging
import time
from enum import StrEnum

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from members.roles import is_organizer
from scoring.models import Report, ReportStatus
from scoring.reports import Progress, no_progress
from scoring.reports.making import make, queue
from scoring.reports.registry import digest_of, made_at_once
from scoring.reports.replacing import unreplaced
from scoring.reports.specs import Spec
from scoring.reports.taking_up import queued_again, take_up

logger = logging.getLogger(__name__)

# The priority of an organizer's report: ahead of the members' waiting (0), behind the parts
# of a report begun (``parts.HELPING``). It is the organizer who prints at the meet.
ORGANIZER_FIRST = 5
# How long a request for a file a page shows in place waits for the request making it
# (``awaited``), and how often it looks; then it is led to the file's own page.
WAIT_SECONDS = 20.0
LOOK_EVERY = 0.1


class TooManyReports(Exception):
    """The person asking has as many reports queued or being made as they may have."""

    def __init__(self, waiting: list[Report]) -> None:
        super().__init__(f"{len(waiting)} reports waiting")
        self.waiting = waiting


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
        again = queued_again(report, now) or unreplaced(report)
        if not again:
            return report
    if maker is Maker.THIS_PROCESS or (maker is Maker.BY_SIZE and made_at_once(spec)):
        try:
            make(report.pk, progress or no_progress)
        except Exception:  # the row says it failed, and why; the asker is shown so
            logger.exception("%s could not be made", spec.kind)
    else:
        queue(report, ORGANIZER_FIRST if by is not None and is_organizer(by) else 0)
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


def shown_in_place(spec: Spec, by: User | None = None) -> Report:
    """A file a page shows in place: asked for, and waited for while another request makes
    it (``awaited``)."""
    return awaited(ask(spec, by=by), by)


def followed(report: Report, by: User | None = None) -> Report:
    """What a report's page shows of ``report``: taken up first if its maker died
    (``take_up``), and the newer report if one replaced it (``current``)."""
    return current(take_up(report), by)


def asked_again(report: Report, by: User | None = None) -> Report:
    """A report that could not be made, asked for anew, as its button does."""
    return ask(Spec.from_json(report.spec), by=by)
