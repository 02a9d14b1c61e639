"""In Chromium, with real report workers (`manage.py db_worker`): the half-year PDF asked for
from the standings shows its progress, then downloads; asked for again it is the same file at
once; after one more game is entered, the next report includes it."""

import io
from datetime import date
from pathlib import Path

import pytest
from django_tasks_db.models import DBTaskResult
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from members.models import Member
from scoring.models import Hanchan, Meet, PlayerEntry, Report, RuleSet
from tests.builders import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def text_of(download) -> str:
    data = Path(download.path()).read_bytes()
    assert data.startswith(b"%PDF-")
    return "".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


def test_the_half_year_pdf_shows_progress_then_downloads_and_is_kept(
    page: Page,
    live_server,
    club,
    workers,
):
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.goto(f"{live_server.url}/standings/?period=2025-H2")
    pdf_link = page.locator(".downloads").get_by_role("link", name="PDF", exact=True)

    with page.expect_download(timeout=180_000) as first:
        pdf_link.click()
        expect(page.locator(".report-progress progress")).to_be_visible()
    assert first.value.suggested_filename.endswith(".pdf")
    first_bytes = Path(first.value.path()).read_bytes()
    assert "青木" in text_of(first.value)
    assert Report.objects.count() == 1

    # Asked again, unchanged: the same file, straight from what was kept.
    with page.expect_download(timeout=10_000) as again:
        pdf_link.click()
    assert Path(again.value.path()).read_bytes() == first_bytes
    reports = DBTaskResult.objects.filter(task_path__endswith="make_report")
    tasks = DBTaskResult.objects.count()  # the report's, and its parts' (shared by the workers)
    assert reports.count() == 1

    # One more game, with a newcomer: the next report is made again and includes it.
    rule = RuleSet.objects.default()
    newcomer = Member.objects.create(name="大森", furigana="おおもり")
    players = [newcomer, *club[:3]]
    meet = Meet.objects.create(date=date(2025, 10, 8), kind="wed", rule_set=rule)
    scores = [45_000, 30_000, 25_000, 20_000]
    Hanchan(meet=meet, table_no=1, round_no=1, rule_set=rule).record(
        [PlayerEntry(m, i, s) for i, (m, s) in enumerate(zip(players, scores, strict=True))]
    )
    page.reload()
    with page.expect_download(timeout=180_000) as after:
        page.locator(".downloads").get_by_role("link", name="PDF", exact=True).click()
        expect(page.locator(".report-progress progress")).to_be_visible()
    assert "大森" in text_of(after.value)
    assert reports.count() == 2
    # Only what changed was laid out again: the newcomer's part, the three others who played,
    # the front matter and the stamps that changed; not every member's part again.
    assert DBTaskResult.objects.count() - tasks - 1 < tasks - 1
