"""How a worker making a report (or a part of one) says it is alive, and what becomes of the
task of one that died.

django-tasks-db 0.13 records which workers took a task (``DBTaskResult.worker_ids``) but not
whether they are still alive: a worker killed with SIGKILL (or lost with its machine) leaves
its task RUNNING and what it was making marked as being made, for ever. So the maker beats:
while rows are held in ``beating``, a thread of the process writes the time into their
``beat_at`` every ``BEAT`` seconds (a thread, since one WeasyPrint layout holds the making
thread for seconds). A row being made with no beat for ``models.ABANDONED_AFTER`` is taken
back (``MadeByWorker.take_back``): a report's page or a new ask queues the report again
(``taking_up``), a report's maker makes a part itself (``parts``); and the dead worker's task is
queued again (``requeue``), so the queue shows no task RUNNING that nobody runs.

Each report worker (``manage.py db_worker``) also says it is alive, every ``WORKER_BEAT``
seconds, in a row of its own in the database (``WorkerBeat``, ``worker_beat``: the database is
what every process of the book shares, the cache not always: with ``locmem://`` each has its
own); the organizer's health page counts those that beat lately (``workers_alive``).

What a process holds is the state of one ``Heartbeat`` object, the process's (``of_process``):
a test installs its own, so no thread of one test beats on into the next.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from django.db import DatabaseError, connections
from django.tasks import Task
from django.utils import timezone
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from scoring.models import MadeByWorker, ReportStatus, WorkerBeat

logger = logging.getLogger(__name__)

# How often a maker beats (seconds): a sixth of ``ABANDONED_AFTER``, so that a beat or two
# lost to a busy database does not give work away.
BEAT = 5.0

Held = tuple[type[MadeByWorker], int]


class Heartbeat:
    """The beat of one process: the rows it holds, and the thread that beats them every
    ``every`` seconds while it holds any (with ``every`` None, none: a heartbeat that only
    counts what is held). The process has one (``of_process``); a test installs its own
    (``installed``), which ends with the test: nothing of it outlives it."""

    def __init__(self, every: float | None = BEAT) -> None:
        self.every = every
        self._lock = threading.Lock()
        self._held: dict[Held, int] = {}
        self._thread: threading.Thread | None = None
        self._wake = threading.Event()

    @contextmanager
    def beating(self, model: type[MadeByWorker], pk: int) -> Iterator[None]:
        """Beat for the row ``pk`` of ``model`` while the block makes it."""
        key = (model, pk)
        with self._lock:
            self._held[key] = self._held.get(key, 0) + 1
            if self._thread is None and self.every is not None:
                self._wake.clear()
                self._thread = threading.Thread(
                    target=self._beat, name="report-heartbeat", daemon=True
                )
                self._thread.start()
        try:
            yield
        finally:
            with self._lock:
                self._held[key] -= 1
                if not self._held[key]:
                    del self._held[key]
                if not self._held:
                    self._wake.set()  # nothing held: the thread ends now, not a beat later

    def idle(self) -> bool:
        """True when this process holds nothing and its beating thread has ended."""
        with self._lock:
            return not self._held and self._thread is None

    def stop(self, timeout: float = 5.0) -> None:
        """Wait for the beating thread to end (it ends when nothing is held)."""
        with self._lock:
            thread = self._thread
            self._wake.set()
        if thread is not None:
            thread.join(timeout)

    def _beat(self) -> None:
        """The beating thread: every ``every`` seconds, the rows held are beaten; it ends when
        none is held (a process making nothing keeps no thread, and no connection)."""
        while True:
            self._wake.wait(self.every)
            with self._lock:
                if not self._held:
                    self._thread = None
                    return
                self._wake.clear()
                held = list(self._held)
            try:
                beat(held)
            finally:
                connections.close_all()  # this thread's own connection: none kept between beats


_process = Heartbeat()


def of_process() -> Heartbeat:
    """The heartbeat of this process, which every maker beats with."""
    return _process


@contextmanager
def installed(heartbeat: Heartbeat) -> Iterator[Heartbeat]:
    """Make ``heartbeat`` the process's while the block runs (a test's own), then stop it and
    put the one before back."""
    global _process
    before, _process = _process, heartbeat
    try:
        yield heartbeat
    finally:
        _process = before
        heartbeat.stop()


def beat(held: list[Held]) -> None:
    """Write the time into the rows ``held`` still being made."""
    now = timezone.now()
    by_model: dict[type[MadeByWorker], list[int]] = {}
    for model, pk in held:
        by_model.setdefault(model, []).append(pk)
    for model, pks in by_model.items():
        try:
            rows = model._base_manager.filter(pk__in=pks, status=ReportStatus.MAKING)
            rows.update(beat_at=now)
        except DatabaseError:  # a beat lost (a locked database): the next one may pass
            logger.warning("No heartbeat for %s %s", model.__name__, pks, exc_info=True)


def _running(task: Task[..., Any], **lookups: object) -> list[DBTaskResult[..., Any]]:
    if not isinstance(task.get_backend(), DatabaseBackend):
        return []
    return list(
        DBTaskResult.objects.filter(
            task_path=task.module_path, status=TaskResultStatus.RUNNING, **lookups
        )
    )


def running_task(task: Task[..., Any], task_id: str) -> DBTaskResult[..., Any] | None:
    """The task row ``task_id`` of ``task``, when it is RUNNING (in the database queue)."""
    if not task_id:
        return None
    found = _running(task, id=task_id)
    return found[0] if found else None


def running_tasks_of(task: Task[..., Any], arg: int) -> list[DBTaskResult[..., Any]]:
    """The RUNNING task rows of ``task`` called with ``arg``."""
    return _running(task, args_kwargs__args__0=arg)


def requeue(task_result: DBTaskResult[..., Any]) -> None:
    """Queue again the task of a worker that died: the next worker takes it (and adds its id
    to ``worker_ids``, which so counts the tries)."""
    DBTaskResult.objects.filter(pk=task_result.pk, status=TaskResultStatus.RUNNING).update(
        status=TaskResultStatus.READY, started_at=None
    )


# --- the workers' own beat (the health page) ----------------------------------------------
WORKER_BEAT = 10.0
# A worker is alive when it beat in this long (three beats).
WORKER_ALIVE_FOR = timedelta(seconds=3 * WORKER_BEAT)
# A worker's row silent this long is taken away when another worker beats.
WORKER_FORGOTTEN_AFTER = 10 * WORKER_ALIVE_FOR


def worker_beat(name: str, now: datetime | None = None) -> None:
    """Say that the worker ``name`` (machine and process) is alive ``now``, in its row of the
    database every process of the book shares; take away the rows of workers long silent
    (killed, or lost with their machine)."""
    now = timezone.now() if now is None else now
    WorkerBeat.objects.update_or_create(name=name, defaults={"beat_at": now})
    WorkerBeat.objects.filter(beat_at__lt=now - WORKER_FORGOTTEN_AFTER).delete()


def worker_stopped(name: str) -> None:
    """The worker ``name`` ends: its row goes (the health page counts it no more)."""
    WorkerBeat.objects.filter(name=name).delete()


def workers_alive(now: datetime | None = None) -> dict[str, float]:
    """The workers that beat within ``WORKER_ALIVE_FOR`` before ``now``, by name, with the
    seconds since their beat."""
    now = timezone.now() if now is None else now
    beats = WorkerBeat.objects.filter(beat_at__gt=now - WORKER_ALIVE_FOR).order_by("name")
    # A worker on a machine whose clock is a little ahead beat "just now", not in the future.
    return {b.name: max(0.0, (now - b.beat_at).total_seconds()) for b in beats}
