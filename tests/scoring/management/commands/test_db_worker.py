"""End to end with real workers: a report asked for is queued, two `manage.py db_worker`
processes (django-tasks-db) make it, its parts shared between them, while the page polls its
progress; the file downloads, and asked for again it comes from what was kept, with nothing
queued. A worker and a web server with data directories of their own share a report through
the reports storage. On SQLite and on PostgreSQL (whichever DATABASE_URL the run uses)."""

import io
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.test import Client
from django_tasks_db.models import DBTaskResult
from pypdf import PdfReader

from scoring.models import Report, ReportPart, ReportStatus
from shirakaba.devtools.workers import Workers
from shirakaba.supervise import die_with_parent
from tests.builders import database_url, make_club, put_back_migrated_data

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def migrated_data(transactional_db):
    """A transactional test's database may have been flushed by the one before: put back the
    rule sets and groups the migrations made (before ``club_rule`` reads them)."""
    put_back_migrated_data()


def test_real_workers_make_the_report_the_page_polls_and_the_kept_file_comes_again(
    member_client, club_rule, workers
):
    make_club(club_rule, members=8, meets=2)
    asked = member_client.get("/reports/standings.pdf?period=2025-H2")
    assert asked.status_code == 302  # to the report's page: queued, not made in the request
    report = Report.objects.get()
    assert asked["Location"] == f"/reports/{report.digest}/"
    assert DBTaskResult.objects.filter(task_path__endswith="make_report").count() == 1

    seen = set()
    deadline = time.monotonic() + 180
    while True:
        fragment = member_client.get(asked["Location"], headers={"HX-Request": "true"})
        html = fragment.content.decode()
        if "data-autodownload" in html:
            break
        assert "作成できませんでした" not in html
        seen.add("progress" if "<progress" in html else html)
        assert all(w.poll() is None for w in workers), "a worker stopped"
        assert time.monotonic() < deadline, "no report within 3 minutes"
        time.sleep(0.3)
    assert seen == {"progress"}  # every poll before it was ready showed the progress bar

    file_url = f"/reports/{report.digest}/file"
    data = b"".join(member_client.get(file_url).streaming_content)
    assert data.startswith(b"%PDF-")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    assert "会員000" in text

    # The parts (the front matter, a member's pages each, the stamps) were queued as tasks
    # too, and the other worker made some of them while the first made the rest and joined
    # them.
    report_task = DBTaskResult.objects.get(task_path__endswith="make_report")
    part_tasks = DBTaskResult.objects.filter(task_path__endswith="make_report_part")
    assert part_tasks.count() == ReportPart.objects.count() > 8
    assert {t.status for t in DBTaskResult.objects.all()} == {"SUCCESSFUL"}
    helped = [t for t in part_tasks if t.return_value and t.worker_ids != report_task.worker_ids]
    assert helped, "the second worker made no part"

    tasks = DBTaskResult.objects.count()
    again = member_client.get("/reports/standings.pdf?period=2025-H2")
    assert again.status_code == 200
    assert b"".join(again.streaming_content) == data
    assert Report.objects.get().status == ReportStatus.READY
    assert DBTaskResult.objects.count() == tasks  # nothing more was queued


# Killed workers: the half-year PDF of a club big enough that its making takes several seconds.
BIG_CLUB = {"members": 40, "meets": 3}
MINUTE = 60


def page_polled(client, url: str) -> str:
    html = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert "作成できませんでした" not in html
    return html


def ready_within(client, url: str, seconds: float) -> float:
    """Poll the report's page as a member's browser does until the file is offered; how long
    it took."""
    start = time.monotonic()
    while "data-autodownload" not in page_polled(client, url):
        assert time.monotonic() - start < seconds, f"not ready within {seconds} s"
        time.sleep(0.5)
    return time.monotonic() - start


def a_valid_pdf(client, report: Report) -> bytes:
    data = b"".join(client.get(f"/reports/{report.digest}/file").streaming_content)
    assert data.startswith(b"%PDF-")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    assert "会員000" in text and "会員039" in text
    return data


def no_task_left_running(seconds: float = 30) -> None:
    """The dead worker's task was queued again and run to its end: none RUNNING for ever."""
    deadline = time.monotonic() + seconds
    while DBTaskResult.objects.filter(status="RUNNING").exists():
        assert time.monotonic() < deadline, "a task stays RUNNING"
        time.sleep(0.2)


def worker_id(log) -> str:
    """The id a worker took (django-tasks-db logs it as it starts)."""
    line = next(line for line in log.read_text().splitlines() if "worker_id=" in line)
    return line.split("worker_id=")[1].split()[0]


def test_a_report_whose_worker_was_killed_is_made_by_a_new_worker_within_a_minute(
    member_client, club_rule, settings, tmp_path
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    make_club(club_rule, **BIG_CLUB)
    options = {"database_url": database_url(), "reports_dir": settings.REPORTS_DIR}
    (tmp_path / "first").mkdir()
    first = Workers(1, logs_dir=tmp_path / "first", interval=0.1, **options)
    try:
        url = member_client.get("/reports/standings.pdf?period=2025-H2")["Location"]
        deadline = time.monotonic() + 3 * MINUTE
        while not (report := Report.objects.get()).done >= 3:  # some parts made: 3 / 46
            assert report.status != ReportStatus.READY, "made before it could be killed"
            assert time.monotonic() < deadline, "no progress within 3 minutes"
            time.sleep(0.05)
        first.processes[0].kill()  # kill -9, in the middle of the report
        first.processes[0].wait()
        killed = Report.objects.get()
        print(f"killed at {killed.done} / {killed.total}")
        assert killed.status == ReportStatus.MAKING
    finally:
        first.stop()
    (tmp_path / "second").mkdir()
    second = Workers(1, logs_dir=tmp_path / "second", interval=0.1, **options)
    try:
        took = ready_within(member_client, url, MINUTE)
        print(f"ready {took:.1f} s after the kill and a new worker")
        report = Report.objects.get()
        assert report.status == ReportStatus.READY
        a_valid_pdf(member_client, report)
        task = DBTaskResult.objects.get(task_path__endswith="make_report")
        no_task_left_running()
        task.refresh_from_db()
        assert task.status == "SUCCESSFUL" and len(task.worker_ids) == 2  # killed, then new
    finally:
        second.stop()


def test_a_part_held_by_a_killed_worker_is_made_by_the_other_within_a_minute(
    member_client, club_rule, settings, tmp_path
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    make_club(club_rule, **BIG_CLUB)
    pool = Workers(
        2,
        database_url=database_url(),
        reports_dir=settings.REPORTS_DIR,
        logs_dir=tmp_path,
        interval=0.1,
    )
    try:
        ids = [worker_id(log) for log in pool.logs]
        url = member_client.get("/reports/standings.pdf?period=2025-H2")["Location"]
        deadline = time.monotonic() + 3 * MINUTE
        held = None
        while held is None:  # the worker helping with the parts, as it holds one
            assert Report.objects.get().status != ReportStatus.READY, "made before the kill"
            assert time.monotonic() < deadline, "no helper held a part within 3 minutes"
            maker = DBTaskResult.objects.get(task_path__endswith="make_report").worker_ids
            for task in DBTaskResult.objects.filter(
                task_path__endswith="make_report_part", status="RUNNING"
            ):
                part = ReportPart.objects.get(pk=task.args_kwargs["args"][0])
                if task.worker_ids != maker and part.status == ReportStatus.MAKING:
                    held = (task, part)
            time.sleep(0.02)
        task, part = held
        helper = pool.processes[ids.index(task.worker_ids[-1])]
        helper.kill()
        helper.wait()
        took = ready_within(member_client, url, MINUTE)
        print(f"ready {took:.1f} s after the helper was killed")
        assert ReportPart.objects.get(pk=part.pk).status == ReportStatus.READY
        a_valid_pdf(member_client, Report.objects.get())
        no_task_left_running()
    finally:
        pool.stop()


def test_a_worker_stopped_with_sigterm_finishes_the_report_in_hand_and_exits(
    member_client, club_rule, settings, tmp_path
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    make_club(club_rule, **BIG_CLUB)
    pool = Workers(
        1, database_url=database_url(), reports_dir=settings.REPORTS_DIR, logs_dir=tmp_path
    )
    try:
        member_client.get("/reports/standings.pdf?period=2025-H2")
        deadline = time.monotonic() + 3 * MINUTE
        while not Report.objects.get().done >= 3:
            assert time.monotonic() < deadline, "no progress within 3 minutes"
            time.sleep(0.05)
        pool.processes[0].terminate()
        assert pool.processes[0].wait(2 * MINUTE) == 0
        assert Report.objects.get().status == ReportStatus.READY
        a_valid_pdf(member_client, Report.objects.get())
    finally:
        pool.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def web_server(env: dict[str, str], log: Path) -> Iterator[str]:
    """gunicorn serving the app with ``env`` added to its environment, until the block ends;
    its base URL."""
    port = free_port()
    command = ["-m", "gunicorn", "shirakaba.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"]
    with log.open("w") as output:
        process = subprocess.Popen(
            [sys.executable, *command],
            cwd=settings.BASE_DIR,
            env={**os.environ, **env},
            stdout=output,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent,  # a killed test run ends it too
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + MINUTE
        while True:
            assert process.poll() is None, "gunicorn stopped: " + log.read_text()
            assert time.monotonic() < deadline, "gunicorn did not answer: " + log.read_text()
            try:
                httpx.get(f"{base}/login/")
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(30)


def test_a_report_a_worker_made_with_one_data_directory_is_served_by_a_web_server_with_another(
    bob, club_rule, tmp_path
):
    """Two machines, as far as one host can show them: the worker has the data directory A,
    the web server (gunicorn) B; they share only the database and the reports storage (a
    directory S here, a bucket between real machines), and the secret key, so that a person
    signed in stays signed in whichever web server answers."""
    make_club(club_rule, members=8, meets=2)
    machine_a, machine_b, shared = tmp_path / "a", tmp_path / "b", tmp_path / "shared"
    both = {"SECRET_KEY": settings.SECRET_KEY, "SHIRAKABA_CACHE_URL": ""}
    web = {
        **both,
        "DATABASE_URL": database_url(),
        "SHIRAKABA_DATA_DIR": str(machine_b),
        "SHIRAKABA_REPORTS_DIR": str(shared),
        "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
    }
    signed_in = Client()
    signed_in.force_login(bob)  # the session is a row in the shared database
    cookies = {"sessionid": signed_in.cookies["sessionid"].value}
    pool = Workers(
        1,
        database_url=database_url(),
        reports_dir=shared,
        logs_dir=tmp_path,
        interval=0.1,
        env={**both, "SHIRAKABA_DATA_DIR": str(machine_a)},
    )
    try:
        with (
            web_server(web, tmp_path / "web.log") as base,
            httpx.Client(base_url=base, cookies=cookies) as browser,
        ):
            asked = browser.get("/reports/standings.pdf?period=2025-H2")
            assert asked.status_code == 302  # queued by the web server, for the worker
            report = Report.objects.get()
            assert asked.headers["Location"] == f"/reports/{report.digest}/"
            deadline = time.monotonic() + 3 * MINUTE
            while "data-autodownload" not in (
                html := browser.get(asked.headers["Location"], headers={"HX-Request": "true"}).text
            ):
                assert "作成できませんでした" not in html
                assert pool.alive(), "the worker stopped"
                assert time.monotonic() < deadline, "no report within 3 minutes"
                time.sleep(0.3)
            served = browser.get(f"/reports/{report.digest}/file")
    finally:
        pool.stop()
    assert served.status_code == 200 and served.content.startswith(b"%PDF-")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(served.content)).pages)
    assert "会員000" in text
    task = DBTaskResult.objects.get(task_path__endswith="make_report")
    assert task.status == "SUCCESSFUL" and task.worker_ids  # made by the worker, not the web
    # Kept in the shared storage only: neither machine's data directory holds a report.
    assert (shared / report.digest).read_bytes() == served.content
    for machine in (machine_a, machine_b):
        assert not (machine / "reports").exists()
    # The cache is each machine's own (the charts the worker drew are in A's).
    assert list((machine_a / "cache").iterdir()) and not (machine_b / "cache").exists()
