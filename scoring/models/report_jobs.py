"""What the report workers make and keep: reports and the parts of long ones, each a row named
by the digest of what it holds (``scoring.reports.making`` and ``parts``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from members.models import ScopedToClub, club_field


class ReportStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    MAKING = "making", _("being made")
    READY = "ready", _("ready")
    FAILED = "failed", _("failed")
    # A newer report of the same request was asked for before a worker took this one: it is
    # not made, and its page leads to the newer one (``scoring.reports.replacing``).
    REPLACED = "replaced", _("replaced")


# A row being made whose maker has not beaten (``beat_at``) for this long is abandoned: its
# worker died. The maker beats every few seconds (``scoring.reports.heartbeat.BEAT``).
ABANDONED_AFTER = timedelta(seconds=30)


class MadeByWorker(models.Model):
    """What a report worker makes once and keeps, named by ``digest`` (a report, or a part of
    one). The unique digest is the single flight: whoever moves the row from queued to being
    made (``claim``) makes it; the others find it made, or being made. Its maker beats
    (``beat_at``) while it works; a row being made with no beat for ``ABANDONED_AFTER`` is
    taken back (``take_back``).

    What the workers do to a row by its key (claim it, beat, take it back, finish it) reads it
    with the base manager, in no club's scope: the heartbeat's thread is in none."""

    digest = models.CharField(max_length=64, unique=True)
    status = models.CharField(
        max_length=8, choices=ReportStatus.choices, default=ReportStatus.QUEUED
    )
    error = models.TextField(blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    beat_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @classmethod
    def claim(cls, pk: int) -> bool:
        """Move row ``pk`` from queued to being made; True when this caller did."""
        queued = cls._base_manager.filter(pk=pk, status=ReportStatus.QUEUED)
        now = timezone.now()
        return bool(queued.update(status=ReportStatus.MAKING, started_at=now, beat_at=now))

    @staticmethod
    def silent_since(moment: datetime) -> models.Q:
        """Rows whose maker has not beaten since ``moment`` (rows from before the beats: not
        started since)."""
        return models.Q(beat_at__lt=moment) | models.Q(beat_at__isnull=True, started_at__lt=moment)

    def is_abandoned(self, now: datetime) -> bool:
        """Being made, by a maker that has not beaten for ``ABANDONED_AFTER``."""
        last = self.beat_at or self.started_at
        return (
            self.status == ReportStatus.MAKING and last is not None and now - last > ABANDONED_AFTER
        )

    @classmethod
    def take_back(cls, pk: int, now: datetime, **fields: object) -> bool:
        """Move row ``pk``, abandoned by its maker, back to queued (or to ``fields``'
        status); True when this caller did."""
        abandoned = cls._base_manager.filter(pk=pk, status=ReportStatus.MAKING).filter(
            cls.silent_since(now - ABANDONED_AFTER)
        )
        return bool(abandoned.update(**{"status": ReportStatus.QUEUED, **fields}))

    @classmethod
    def failed(cls, pk: int, error: BaseException) -> None:
        """Row ``pk`` could not be made: ``error`` says why."""
        cls._base_manager.filter(pk=pk).update(
            status=ReportStatus.FAILED, error=repr(error)[:2000], finished_at=timezone.now()
        )

    @classmethod
    def made(cls, pk: int, **fields: object) -> None:
        """Row ``pk`` is made and kept; ``fields`` are what the making found out."""
        cls._base_manager.filter(pk=pk).update(
            status=ReportStatus.READY, finished_at=timezone.now(), **fields
        )


class Report(MadeByWorker):
    """A report file asked for (a PDF, Excel or CSV), made once by a task and kept.

    ``digest`` names exactly what the file holds: the kind of report, what it is of (period,
    filters, member, meet), the language, the version of the templates and code that lay it
    out, and a fingerprint of the games it counts (``scoring.reports.registry.digest_of``). Its unique
    index makes the row the single flight: the same report asked for again while it is being
    made finds this row, and its task is queued once. The file lives under
    ``DATA_DIR/reports/`` named by the digest. ``spec`` is what the task needs to make it;
    ``step``, ``done`` and ``total`` are its progress, written by the task as it goes.
    """

    club = club_field("reports")
    spec = models.JSONField()
    spec_key = models.CharField(max_length=64, db_index=True)  # the same report, any data
    task_id = models.CharField(max_length=64, blank=True)
    filename = models.CharField(max_length=200, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    size = models.PositiveIntegerField(default=0)
    step = models.CharField(max_length=100, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    asked_at = models.DateTimeField()
    # Who asked for it first (none for those queued by a finalise): how many reports one
    # person has waiting is limited (``settings.REPORTS_PER_PERSON``).
    asked_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = ScopedToClub()

    class Meta:
        verbose_name = _("report file")
        verbose_name_plural = _("report files")

    def __str__(self) -> str:
        return f"{self.filename or self.spec_key[:12]} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("scoring:report", args=[self.digest])


class ReportPart(MadeByWorker):
    """A piece of a long PDF report, laid out once and kept: a part of the front matter, or
    one member's pages (``scoring.reports.parts``).

    ``digest`` names exactly what the piece shows: its HTML, the charts it names and the
    version of what lays reports out. A report made again after a change finds the pieces
    that did not change here, kept, and lays out only the rest. ``html`` and ``charts`` (what
    each chart is drawn from) are all a worker needs to make it, on any machine that shares
    the database and the reports directory (emptied once it is made; given again if its file
    is ever lost); ``pages`` is how many pages it came to.
    """

    html = models.TextField()
    charts = models.JSONField(default=dict)
    pages = models.PositiveIntegerField(default=0)
    size = models.PositiveIntegerField(default=0)  # of its file, in bytes
    used_at = models.DateTimeField()

    class Meta:
        verbose_name = _("part of a report")
        verbose_name_plural = _("parts of reports")

    def __str__(self) -> str:
        return f"{self.digest[:12]} ({self.status})"
