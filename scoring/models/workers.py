"""The report workers' own beat (the organizer's health page): a row a worker, in the database
every process of the book shares (``scoring.reports.heartbeat.worker_beat``)."""

from __future__ import annotations

from django.db import models


class WorkerBeat(models.Model):
    """A report worker (``manage.py db_worker``) said it was alive at ``beat_at``; ``name`` is
    its machine and process id. It writes the row every ``WORKER_BEAT`` seconds and takes it away
    when it stops; a worker killed leaves its row, which stops counting after
    ``WORKER_ALIVE_FOR`` and is taken away when another worker beats long after."""

    name = models.CharField(max_length=300, unique=True)
    beat_at = models.DateTimeField()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
