"""What is kept is bounded: kept reports nobody asked for in ``kept.KEEP_FOR`` are removed,
and those a newer file of the same report replaced ``REPLACED_AFTER`` ago, with the parts no
report used; then, while the kept files are more than ``settings.REPORTS_MAX_BYTES`` in all,
the least recently used (asked for or made) first. Run after each report is made."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Min, Sum
from django.utils import timezone

from members.scopes import scopes_disabled
from scoring.models import Report, ReportPart, ReportStatus
from scoring.reports import kept_files, parts
from scoring.reports.kept import KEEP_FOR, kept_name

# A kept file nobody asked for in ``kept.KEEP_FOR`` is removed; so is one a newer file of the
# same report replaced more than REPLACED_AFTER ago (a page still polling for it can finish).
REPLACED_AFTER = timedelta(hours=1)
# A kept file asked for or made this recently is not pruned to bound the total size (a page
# is about to fetch it); nor is a part while a report begun before it was used is being made.
IN_USE = timedelta(minutes=10)


@scopes_disabled()
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


@scopes_disabled()
def kept_size() -> int:
    """The kept reports' and parts' files, in bytes (what ``REPORTS_MAX_BYTES`` bounds)."""
    return sum(
        rows.filter(status=ReportStatus.READY).aggregate(total=Sum("size"))["total"] or 0
        for rows in (Report.objects, ReportPart.objects)
    )


def _bound_size(now: Any) -> int:
    """Remove kept reports and parts, the least recently used (asked for, made) first, until
    their files are at most ``REPORTS_MAX_BYTES`` in all; none in use (``IN_USE``)."""
    ready_reports = Report.objects.filter(status=ReportStatus.READY)
    ready_parts = ReportPart.objects.filter(status=ReportStatus.READY)
    total = kept_size()
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
