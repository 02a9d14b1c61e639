"""Making a report: ``make`` lays out a queued report (``registry.render``), writing its
progress (which part, n of N) into its row as it goes, beating while it works
(``heartbeat.py``), and keeps the file in the reports storage (``STORAGES["reports"]``, by
default ``DATA_DIR/reports/``) by its digest; then prunes (``pruning.py``). The task
``make_report`` runs it in a worker (``manage.py db_worker``), which other workers help with;
a kind made at once runs the same function in the request that asks (``asking.py``), and
``export_report`` in its own process.

Only the caller that moves the row from queued to being made makes it, so a report queued
twice is made once; a report a newer one of the same request replaced is not made
(``replacing.py``).
"""

from __future__ import annotations

import time

from django.tasks import task

from members.scopes import in_club
from scoring.models import Report, ReportStatus
from scoring.reports import Progress, heartbeat, keep, no_progress, parts, registry
from scoring.reports.kept import kept_name
from scoring.reports.pruning import prune
from scoring.reports.replacing import replaced_by_newer
from scoring.reports.specs import Spec


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
    the same request replaced is not made (``replacing.py``).

    Made in the report's club's scope, whoever calls: a worker's task, a request, a command,
    or the sweep that takes up abandoned reports (in no club's scope)."""
    club = Report._base_manager.values_list("club_id", flat=True).get(pk=report_id)
    with in_club(club):
        return _make_in_club(report_id, progress, share=share)


def _make_in_club(report_id: int, progress: Progress, *, share: bool) -> str:
    if replaced_by_newer(report_id):
        return str(ReportStatus.REPLACED)
    claimed = Report.claim(report_id)
    report = Report.objects.get(pk=report_id)
    if not claimed:
        return str(report.status)
    if report.task_id:  # a worker's: begun, it waits for one no more (``parts.share_fairly``)
        parts.share_fairly()
    spec = Spec.from_json(report.spec)
    try:
        rendering = _RowProgress(report_id, progress)
        with heartbeat.of_process().beating(Report, report_id):
            filename, content_type, content = registry.render(spec, rendering, share=share)
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


def queue(report: Report, priority: int = 0) -> None:
    """Queue ``make_report`` for ``report`` at ``priority``, note its task in the row, and make
    room for it: the help queued for other clubs' reports goes behind it
    (``parts.share_fairly``), so that one club's big report does not make another wait."""
    result = make_report.using(priority=priority).enqueue(report.pk)
    Report.objects.filter(pk=report.pk, task_id="").update(task_id=result.id)
    parts.share_fairly()
