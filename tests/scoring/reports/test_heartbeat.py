"""A worker that died (kill -9, out of memory, the machine lost) leaves what it was making
marked as being made. Its maker beats (``beat_at``) every few seconds while it works; a row
being made with no beat for ``ABANDONED_AFTER`` is taken back: a report's page or a new ask
puts it in the queue again (its own task row, so the queue shows no phantom RUNNING task), a
report's maker makes a part itself. A report whose worker died three times fails and offers
to try again. The real processes are killed in
tests/scoring/management/commands/test_db_worker.py."""

import threading
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.core.management import get_commands
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scoring.management.commands import db_worker
from scoring.models import ABANDONED_AFTER, Report, ReportPart, ReportStatus
from scoring.reports import making, parts, registry, taking_up, weasy
from scoring.reports.asking import ask
from scoring.reports.heartbeat import Heartbeat, of_process
from scoring.reports.specs import Spec
from scoring.standings import Filters, Period

pytestmark = pytest.mark.django_db
DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def fake_render(monkeypatch) -> None:
    """A report laid out at once (these tests make no PDF; test_db_worker.py does)."""
    monkeypatch.setattr(
        registry,
        "render",
        lambda spec, progress, share=False: ("r.pdf", "application/pdf", b"%PDF-"),
    )


@pytest.fixture
def queued(settings, recorded_game) -> Report:
    """A half-year PDF asked for and queued in the database, as a member's page does."""
    settings.TASKS = DATABASE_QUEUE
    return ask(Spec.of("standings.pdf", Filters(period=Period.parse("2025-H1"))))


def taken_by_a_worker(report: Report, *, beat: timedelta, workers: int = 1) -> DBTaskResult:
    """What ``db_worker`` and ``make`` do when a worker takes ``report``: its task RUNNING,
    the row being made at 3 / 54, the last beat ``beat`` ago (after ``workers`` tries)."""
    task = DBTaskResult.objects.get(id=report.task_id)
    for n in range(workers):
        task.claim(f"worker-{n}")
    assert Report.claim(report.pk)
    Report.objects.filter(pk=report.pk).update(
        step="成績表と会員別ページ",
        done=3,
        total=54,
        started_at=timezone.now() - timedelta(hours=1),
        beat_at=timezone.now() - beat,
    )
    return task


def poll(client, report: Report) -> str:
    return client.get(f"/reports/{report.digest}/", headers=HTMX).content.decode()


def test_a_report_whose_maker_stopped_beating_is_queued_again_by_its_page(member_client, queued):
    task = taken_by_a_worker(queued, beat=ABANDONED_AFTER + timedelta(seconds=1))
    html = poll(member_client, queued)
    assert "3 / 54" not in html  # no progress that nobody is making
    assert "作成の順番を待っています" in html and 'hx-trigger="every 1s"' in html
    row = Report.objects.get()
    assert (row.status, row.done, row.total, row.step) == (ReportStatus.QUEUED, 0, 0, "")
    # Its own task is queued again (no phantom RUNNING), for the next worker: nothing new.
    task.refresh_from_db()
    assert (task.status, task.worker_ids) == ("READY", ["worker-0"])
    assert DBTaskResult.objects.count() == 1 and row.task_id == str(task.id)
    # The worker that takes it makes it.
    assert making.make(row.pk) == ReportStatus.READY


def test_a_report_whose_maker_beats_is_left_to_it_however_long_it_takes(member_client, queued):
    # Started an hour ago (beyond the old fixed 30 minutes), but its maker beat 5 s ago.
    task = taken_by_a_worker(queued, beat=timedelta(seconds=5))
    assert "3 / 54" in poll(member_client, queued)
    again = ask(Spec.from_json(queued.spec))
    assert again.pk == queued.pk and again.status == ReportStatus.MAKING
    task.refresh_from_db()
    assert task.status == "RUNNING" and DBTaskResult.objects.count() == 1


def test_asked_for_again_a_report_whose_maker_died_is_queued_again(queued):
    task = taken_by_a_worker(queued, beat=ABANDONED_AFTER + timedelta(seconds=1))
    again = ask(Spec.from_json(queued.spec))
    assert again.pk == queued.pk and again.status == ReportStatus.QUEUED
    task.refresh_from_db()
    assert task.status == "READY" and DBTaskResult.objects.count() == 1


def test_a_report_whose_worker_died_three_times_fails_and_offers_to_try_again(
    member_client, queued
):
    task = taken_by_a_worker(queued, beat=timedelta(minutes=1), workers=3)
    html = poll(member_client, queued)
    assert "作成できませんでした" in html and "hx-trigger" not in html
    assert f'action="/reports/{queued.digest}/again"' in html
    row = Report.objects.get()
    assert row.status == ReportStatus.FAILED and "3" in row.error
    task.refresh_from_db()
    assert task.status == "FAILED"
    # Trying again queues it anew (a new task), and leads back to its page.
    tried = member_client.post(f"/reports/{queued.digest}/again")
    assert tried.status_code == 302 and tried["Location"] == f"/reports/{queued.digest}/"
    row.refresh_from_db()
    assert row.status == ReportStatus.QUEUED
    assert DBTaskResult.objects.filter(status="READY").count() == 1
    assert member_client.get(f"/reports/{queued.digest}/again").status_code == 405


def test_a_report_made_in_a_request_that_died_is_made_when_its_page_is_polled(
    member_client, recorded_game
):
    # Made in a request (no task), whose process was killed while it made it.
    report = Report.objects.create(
        digest=registry.digest_of(
            Spec.of("standings.pdf", Filters(period=Period.parse("2025-H1")))
        ),
        spec=Spec.of("standings.pdf", Filters(period=Period.parse("2025-H1"))).as_json(),
        spec_key="x",
        asked_at=timezone.now(),
        status=ReportStatus.MAKING,
        started_at=timezone.now() - timedelta(minutes=1),
        done=3,
        total=54,
    )
    html = poll(member_client, report)  # the tests' tasks run as they are queued
    assert "data-autodownload" in html
    assert Report.objects.get().status == ReportStatus.READY


def fake_parts(monkeypatch, count: int) -> list[ReportPart]:
    """``count`` parts, laid out by a stand-in for WeasyPrint (a one-page "PDF")."""
    monkeypatch.setattr(weasy, "lay_out", lambda html, images: (b"%PDF-1.7 " + html.encode(), 1))
    return parts.prepare([parts.Piece(html=f"<p>part {n}</p>") for n in range(count)])


def test_a_part_whose_maker_stopped_beating_is_taken_back_and_a_beating_one_waited_for(
    monkeypatch, settings
):
    settings.TASKS = DATABASE_QUEUE
    busy, dead, free = fake_parts(monkeypatch, 3)
    long_ago = timezone.now() - timedelta(hours=1)
    # Another worker makes `busy` (started an hour ago, beating); the one making `dead` died
    # 31 s ago, in the middle of its task.
    ReportPart.objects.filter(pk=busy.pk).update(
        status=ReportStatus.MAKING, started_at=long_ago, beat_at=timezone.now()
    )
    ReportPart.objects.filter(pk=dead.pk).update(
        status=ReportStatus.MAKING,
        started_at=long_ago,
        beat_at=timezone.now() - ABANDONED_AFTER - timedelta(seconds=1),
    )
    dead_task = parts.make_report_part.enqueue(dead.pk)
    DBTaskResult.objects.get(id=dead_task.id).claim("dead-worker")
    finished_elsewhere = []

    def sleep(seconds: float) -> None:  # meanwhile, the other worker finishes `busy`
        assert ReportPart.objects.get(pk=dead.pk).status == ReportStatus.READY
        ReportPart.objects.filter(pk=busy.pk).update(status=ReportStatus.QUEUED)
        assert parts.make_part(busy.pk)
        finished_elsewhere.append(busy.pk)

    monkeypatch.setattr(parts, "time", SimpleNamespace(sleep=sleep, monotonic=lambda: 0.0))
    parts.make_all(ReportPart.objects.filter(pk__in=[busy.pk, dead.pk, free.pk]).order_by("pk"))
    assert finished_elsewhere == [busy.pk]  # waited for, not taken back
    assert set(ReportPart.objects.values_list("status", flat=True)) == {ReportStatus.READY}
    # The dead worker's task is queued again: no phantom RUNNING task.
    assert DBTaskResult.objects.get(id=dead_task.id).status == "READY"


def wait_until(condition, seconds: float) -> bool:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return True
        threading.Event().wait(0.02)
    return condition()


@pytest.mark.django_db(transaction=True)
def test_a_maker_beats_while_it_works_and_stops_when_done():
    beats = Heartbeat(every=0.05)  # the test's own: no thread of another test is in its way
    part = ReportPart.objects.create(
        digest="d" * 64, html="", used_at=timezone.now(), status=ReportStatus.QUEUED
    )
    assert ReportPart.claim(part.pk)
    claimed = ReportPart.objects.get().beat_at
    assert claimed is not None  # claiming is the first beat
    with beats.beating(ReportPart, part.pk):
        # WeasyPrint holding this thread for a long layout: the beat goes on beside it.
        beaten = wait_until(lambda: ReportPart.objects.get().beat_at > claimed, 2)
        assert beaten, "no beat while the part was being made"
    ReportPart.made(part.pk)
    assert wait_until(beats.idle, 2)  # the thread ends when nothing is being made
    last = ReportPart.objects.get().beat_at
    threading.Event().wait(0.2)
    assert ReportPart.objects.get().beat_at == last


def test_a_maker_beats_with_the_process_heartbeat_and_a_test_has_its_own(heartbeat):
    """Every maker beats with the process's heartbeat; each test installs its own (the
    ``heartbeat`` fixture), whose thread has ended when the test ends."""
    assert of_process() is heartbeat and heartbeat.idle()
    with heartbeat.beating(ReportPart, 1):
        assert not heartbeat.idle()
    heartbeat.stop()
    assert heartbeat.idle()


def test_a_worker_sweep_takes_up_a_report_nobody_is_waiting_for(queued):
    """A report queued after a finalise has no page polling it: each worker's sweep
    (``db_worker``, every ``SWEEP`` seconds) takes it up; a beating one is left alone."""
    task = taken_by_a_worker(queued, beat=ABANDONED_AFTER + timedelta(seconds=1))
    assert taking_up.take_up_abandoned() == 1
    task.refresh_from_db()
    assert task.status == "READY"
    assert Report.objects.get().status == ReportStatus.QUEUED
    assert taking_up.take_up_abandoned() == 0  # queued again, nothing more to take up


def test_a_beating_report_is_not_swept(queued):
    taken_by_a_worker(queued, beat=timedelta(seconds=5))
    assert taking_up.take_up_abandoned() == 0
    assert Report.objects.get().status == ReportStatus.MAKING


def test_the_sweeper_runs_until_stopped(queued, monkeypatch):
    assert get_commands()["db_worker"] == "scoring"  # ours stands in for django-tasks-db's
    swept = threading.Event()
    monkeypatch.setattr(taking_up, "take_up_abandoned", lambda: swept.set() or 0)
    stop = threading.Event()
    sweeper = threading.Thread(target=db_worker.sweep, args=(stop, 0.01))
    sweeper.start()
    assert swept.wait(5)
    stop.set()
    sweeper.join(5)
    assert not sweeper.is_alive()
