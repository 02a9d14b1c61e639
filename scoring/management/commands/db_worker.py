"""``manage.py db_worker``: django-tasks-db's worker, which also sweeps for reports whose
worker died.

A worker killed with SIGKILL leaves the report it was making marked as being made; its page,
or asking for it again, queues it afresh (``taking_up.take_up``). A report nobody is waiting for
(those queued after a finalise) would wait for the next person to ask; so every worker looks,
every ``SWEEP`` seconds, for reports with no heartbeat for ``ABANDONED_AFTER`` and takes them
up. This command stands in for django-tasks-db's own (the ``scoring`` app is listed before
``django_tasks_db`` in INSTALLED_APPS, so this one is found first); its options are the same.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from typing import Any

from django.db import DatabaseError, connections
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV
from django_tasks_db.management.commands.db_worker import Command as WorkerCommand

from scoring.reports import taking_up
from scoring.reports.heartbeat import WORKER_BEAT, worker_beat, worker_stopped

logger = logging.getLogger(__name__)

# How often a worker sweeps (seconds): with ABANDONED_AFTER (30 s), a dead worker's report is
# taken up at most 40 s after its last heartbeat.
SWEEP = 10.0


def beat(stop: threading.Event, name: str) -> None:
    """Until ``stop`` is set: say this worker is alive (the health page) every ``WORKER_BEAT``,
    in its row of the database; then take the row away."""
    while True:
        try:
            worker_beat(name)
        except DatabaseError:  # a locked or lost database: the next beat tries again
            logger.warning("The worker's beat could not be written", exc_info=True)
        finally:
            connections.close_all()  # this thread's own connection: none kept between beats
        if stop.wait(WORKER_BEAT):
            break
    try:
        worker_stopped(name)
    except DatabaseError:
        logger.warning("The worker's end could not be written", exc_info=True)
    finally:
        connections.close_all()


def sweep(stop: threading.Event, every: float = SWEEP) -> None:
    """Until ``stop`` is set: take up abandoned reports every ``every`` seconds."""
    while not stop.wait(every):
        try:
            taken = taking_up.take_up_abandoned()
        except DatabaseError:  # a locked or lost database: the next sweep tries again
            logger.warning("Sweeping for abandoned reports failed", exc_info=True)
            continue
        finally:
            connections.close_all()
        if taken:
            logger.info("Took up %d report(s) whose worker stopped", taken)


class Command(WorkerCommand):
    help = "Run report tasks (django-tasks-db's db_worker), and take up reports whose worker died."

    def handle(self, *args: Any, **options: Any) -> None:
        if (
            options.get("reload")
            and not options.get("batch")
            and os.environ.get(DJANGO_AUTORELOAD_ENV) != "true"
        ):
            # The autoreloader's watcher (``make start``): the worker is its child, which
            # beats and sweeps itself; the watcher counted as a second worker.
            super().handle(*args, **options)
            return
        stop = threading.Event()
        sweeper = threading.Thread(target=sweep, args=(stop,), name="report-sweeper", daemon=True)
        sweeper.start()
        name = f"{socket.gethostname()}:{os.getpid()}"
        beater = threading.Thread(target=beat, args=(stop, name), name="worker-beat", daemon=True)
        beater.start()
        try:
            super().handle(*args, **options)
        finally:
            stop.set()
            beater.join(timeout=2)
