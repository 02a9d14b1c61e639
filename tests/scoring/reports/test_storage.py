"""Reports kept through Django's storage API (``STORAGES["reports"]``): with a backend that is
not this machine's file system (Django's in-memory storage stands for an object store), a
report and its parts are kept there, served from there, joined from there and pruned there,
and nothing is written under the reports directory."""

import io
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.files.storage import InMemoryStorage
from django.utils import timezone
from pypdf import PdfReader

from scoring.models import Report, ReportPart, ReportStatus
from scoring.reports import NotKept, keep, kept_files, read, where_kept
from scoring.reports.kept import could_not_keep, kept_name
from scoring.reports.pruning import prune

pytestmark = pytest.mark.django_db
IN_MEMORY = "django.core.files.storage.InMemoryStorage"


@pytest.fixture
def elsewhere(settings) -> InMemoryStorage:
    """The reports storage: not the file system."""
    settings.STORAGES = {**settings.STORAGES, "reports": {"BACKEND": IN_MEMORY}}
    storage = kept_files()
    assert isinstance(storage, InMemoryStorage)
    return storage


def files_under(directory: Path) -> list[Path]:
    return [p for p in directory.rglob("*") if p.is_file()]


def test_a_report_kept_in_another_storage_is_served_from_it(
    member_client, recorded_game, elsewhere, settings
):
    response = member_client.get("/reports/games.csv?period=all")
    assert response.status_code == 200
    served = b"".join(response.streaming_content)
    report = Report.objects.get()
    assert report.status == ReportStatus.READY
    assert elsewhere.exists(kept_name(report)) and read(kept_name(report)) == served
    again = member_client.get(f"/reports/{report.digest}/file")
    assert b"".join(again.streaming_content) == served
    assert files_under(Path(settings.REPORTS_DIR)) == []


@pytest.mark.slow  # makes the half-year PDF
def test_the_half_year_pdf_is_joined_from_parts_read_from_the_storage(
    member_client, recorded_game, elsewhere, settings
):
    response = member_client.get("/reports/standings.pdf?period=2025-H1")
    assert response.status_code == 200
    pdf = PdfReader(io.BytesIO(b"".join(response.streaming_content)))
    assert "東山" in "".join(page.extract_text() for page in pdf.pages)
    made = ReportPart.objects.filter(status=ReportStatus.READY)
    assert made.count() > 4  # the front matter, a part a member, the stamps
    assert all(
        elsewhere.exists(f"parts/{digest}.pdf") for digest in made.values_list("digest", flat=True)
    )
    assert files_under(Path(settings.REPORTS_DIR)) == []


def test_a_kept_file_is_replaced_whole_and_pruned_from_the_storage(elsewhere):
    long_ago = timezone.now() - timedelta(days=31)
    report = Report.objects.create(
        digest="a" * 64,
        spec={},
        spec_key="a",
        status=ReportStatus.READY,
        asked_at=long_ago,
        finished_at=long_ago,
    )
    keep(kept_name(report), b"first")
    keep(kept_name(report), b"again")  # the same name: replaced, not kept beside it
    assert elsewhere.listdir("") == ([], ["a" * 64])
    assert read(kept_name(report)) == b"again"
    assert prune() == 1
    assert not elsewhere.exists(kept_name(report)) and not Report.objects.exists()


class Refusing(InMemoryStorage):
    """An object store that refuses every write (a bucket its key may not write)."""

    def _save(self, name, content):
        raise PermissionError("AccessDenied")


def test_a_storage_that_refuses_the_file_fails_the_report_as_one_that_could_not_keep_it(
    member_client, recorded_game, settings
):
    refusing = f"{__name__}.Refusing"
    settings.STORAGES = {**settings.STORAGES, "reports": {"BACKEND": refusing}}
    with pytest.raises(NotKept, match=f"AccessDenied: {refusing}"):
        keep("digest", b"content")
    assert kept_files().listdir("") == ([], [])
    member_client.get("/reports/games.csv?period=all")
    report = Report.objects.get()
    assert report.status == ReportStatus.FAILED and could_not_keep(report)
    assert where_kept() == refusing
