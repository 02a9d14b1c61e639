"""End to end with real workers: a report asked for is queued, two `manage.py db_worker`
processes (django-tasks-db) make it, its parts shared between them, while the page polls its
progress; the file downloads, and asked for again it comes from what was kept, with nothing
queued. On SQLite and on
PostgreSQL (whichever DATABASE_URL the run uses)."""

import io
import time

import pytest
from django.db import connection
from django_tasks_db.models import DBTaskResult
from pypdf import PdfReader

from scoring.models import Report, ReportPart, ReportStatus
from shirakaba.devtools.workers import Workers
from tests.conftest import put_back_migrated_data
from tests.scoring.test_standings_views import make_club

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def database_url() -> str:
    """The test database, as the worker process must reach it."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    user = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{user}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture(autouse=True)
def migrated_data(transactional_db):
    """A transactional test's database may have been flushed by the one before: put back the
    rule sets and groups the migrations made (before ``club_rule`` reads them)."""
    put_back_migrated_data()


@pytest.fixture
def workers(settings, tmp_path):
    """Queue into the database, and run two `db_worker` processes on it until the test ends
    (each one started and looking for tasks before the test goes on)."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    pool = Workers(
        2,
        database_url=database_url(),
        reports_dir=settings.REPORTS_DIR,
        logs_dir=tmp_path,
        interval=0.1,
    )
    yield pool.processes
    pool.stop()


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
