"""A report a newer one of the same request replaced (same period, filters, kind and
language: ``Spec.key``, the row's ``spec_key``) before a worker took it is not made: during a
meet each save makes a new digest. Asked for again with the data back as it was, it is the
newest again (``unreplaced``). What a page holding a replaced report shows is the newer one
(``asking.current``)."""

from __future__ import annotations

from django.utils import timezone

from scoring.models import Report, ReportStatus


def unreplaced(report: Report) -> bool:
    """Put a report a newer one had replaced back in the queue: it is asked for again (the
    data is back as it was), so it is the newest now. True when this caller did so."""
    replaced = Report.objects.filter(pk=report.pk, status=ReportStatus.REPLACED)
    return bool(replaced.update(status=ReportStatus.QUEUED, task_id="", step="", done=0, total=0))


def replaced_by_newer(report_id: int) -> bool:
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
