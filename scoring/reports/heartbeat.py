"""How a worker making a report (or a part of one) says it is alive, and what becomes of the
task of one that died.

django-tasks-db 0.13 records which workers took a task (``DBTaskResult.worker_ids``) but not
whether they are still alive: a worker killed with SIGKILL (or lost with its machine) leaves
its task RUNNING and what it was making marked as being made, for ever. So the maker beats:
while rows are held in ``beating``, a thread of the process writes the time into their
``beat_at`` every ``BEAT`` seconds (a thread, since one WeasyPrint layout holds the making
thread for seconds). A row being made with no beat for ``models.ABANDONED_AFTER`` is taken
back (``MadeByWorker.take_back``): a report's page or a new ask queues the report again
(``making``), a report's maker makes a part itself (``parts``); and the dead worker's task is
queued again (``requeue``), so the queue shows no task RUNNING that nobody runs.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import DatabaseError, connections
from django.tasks import Task
from django.utils import timezone
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from scoring.models import MadeByWorker, ReportStatus

logger = logging.getLogger(__name__)

# How often a maker beats (seconds): a sixth of ``ABANDONED_AFTER``, so that a beat or two
# lost to a busy database does not give work away.
BEAT = 5.0

_lock = threading.Lock()
_held: dict[tuple[type[MadeByWorker], int], int] = {}
_thread: threading.Thread | None = None


@contextmanager
def beating(model: type[MadeByWorker], pk: int) -> Iterator[None]:
    """Beat for the row ``pk`` of ``model`` while the block makes it."""
    global _thread
    key = (model, pk)
    with _lock:
        _held[key] = _held.get(key, 0) + 1
        if _thread is None:
            _thread = threading.Thread(target=_beat, name="report-heartbeat", daemon=True)
            _thread.start()
    try:
        yield
    finally:
        with _lock:
            _held[key] -= 1
            if not _held[key]:
                del _held[key]


def idle() -> bool:
    """True when this process holds nothing and its beating thread has ended."""
    with _lock:
        return _thread is None


def _beat() -> None:
    """The beating thread: every ``BEAT`` seconds, the rows held are beaten; it ends when none
    is held (a process making nothing keeps no thread, and no connection)."""
    global _thread
    while True:
        threading.Event().wait(BEAT)
        with _lock:
            if not _held:
                _thread = None
                return
            held = list(_held)
        try:
            beat(held)
        finally:
            connections.close_all()  # this thread's own connection: none kept between beats


def beat(held: list[tuple[type[MadeByWorker], int]]) -> None:
    """Write the time into the rows ``held`` still being made."""
    now = timezone.now()
    by_model: dict[type[MadeByWorker], list[int]] = {}
    for model, pk in held:
        by_model.setdefault(model, []).append(pk)
    for model, pks in by_model.items():
        try:
            rows = model._default_manager.filter(pk__in=pks, status=ReportStatus.MAKING)
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
