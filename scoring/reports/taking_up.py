"""A report whose maker died (kill -9, out of memory, its machine lost: no heartbeat for
``models.ABANDONED_AFTER``, ``heartbeat.py``) is taken up: its own task queued again for the
next worker, or, made in a request that died, made by whoever looks next (``take_up``: a
report's page as it polls, a new ask, each worker's sweep, ``take_up_abandoned``). After
``TRIES`` workers died making it, it fails (it may be what kills them), and can be tried
again."""

from __future__ import annotations

import logging
from typing import Any

from django.utils import timezone

from members.scopes import scopes_disabled
from scoring.models import ABANDONED_AFTER, Report, ReportStatus
from scoring.reports import heartbeat, kept_files, parts
from scoring.reports.kept import kept_name
from scoring.reports.making import make, make_report, queue
from scoring.reports.registry import made_at_once
from scoring.reports.specs import Spec

logger = logging.getLogger(__name__)

# A report whose worker died (no heartbeat for ``models.ABANDONED_AFTER``) is queued again;
# after this many tries it fails (it may be what kills its worker), and can be tried again.
TRIES = 3


def queued_again(report: Report, now: Any) -> bool:
    """Put a failed report, a kept one whose file is gone, or one whose maker died back in
    the queue; True when this caller did so (and so makes or queues it)."""
    if report.status == ReportStatus.MAKING:
        return report.is_abandoned(now) and take_back(report, now)
    gone = report.status == ReportStatus.READY and not kept_files().exists(kept_name(report))
    if not (report.status == ReportStatus.FAILED or gone):
        return False
    reset = Report.objects.filter(pk=report.pk, status=report.status)
    return bool(
        reset.update(status=ReportStatus.QUEUED, error="", task_id="", step="", done=0, total=0)
    )


def take_back(report: Report, now: Any) -> bool:
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
    parts.share_fairly()  # it waits again
    return False


def take_up(report: Report) -> Report:
    """``report`` as it is now, queued again first if its maker died: what a report's page
    polls, so it never shows progress that nobody is making."""
    now = timezone.now()
    if report.is_abandoned(now) and take_back(report, now):
        spec = Spec.from_json(report.spec)
        if made_at_once(spec):
            try:
                make(report.pk)
            except Exception:  # the row says it failed, and the page offers to try again
                logger.exception("Report %s could not be made", report.pk)
        else:
            queue(report)
    report.refresh_from_db()
    return report


@scopes_disabled()
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
