"""Limits on reports (issue 26): a reports directory the server cannot write gives every kind
of report the same clear page, and nothing half-written."""

import errno
import resource
import signal
from pathlib import Path

import pytest

from scoring.models import Report, ReportStatus
from scoring.reports import keep

pytestmark = pytest.mark.django_db

EVERY_KIND = (
    "/reports/games.csv?period=2025-H1",
    "/reports/standings.pdf?period=2025-04",  # a month's: made in the request
    "/reports/standings.pdf?period=2025-H1",  # the half-year's: made of parts by a worker
    "/reports/standings.xlsx?period=2025-H1",
    "/members/{member}/record.pdf?period=2025-H1",
    "/meets/{meet}/sheet.pdf",
)
UNWRITABLE = "サーバーがファイルを書き込めません"
COULD_NOT = "作成できませんでした"


@pytest.fixture
def unwritable(settings, tmp_path):
    """A reports directory under a regular file: no one, not even root, can make it."""
    (tmp_path / "file").write_text("not a directory")
    settings.REPORTS_DIR = tmp_path / "file" / "reports"


@pytest.mark.slow
@pytest.mark.parametrize("url", EVERY_KIND)
@pytest.mark.parametrize("who", ["member", "organizer"])
def test_an_unwritable_reports_directory_gives_every_report_the_same_clear_page(
    url, who, member_client, organizer_client, recorded_game, four_members, unwritable
):
    client = member_client if who == "member" else organizer_client
    url = url.format(member=four_members[0].pk, meet=recorded_game.meet.pk)
    response = client.get(url, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert COULD_NOT in page
    # The organizer, who can do something about it, is told why; a member is not.
    assert (UNWRITABLE in page) == (who == "organizer")
    report = Report.objects.get()
    assert report.status == ReportStatus.FAILED
    # From a page with htmx: the same message in the fragment.
    fragment = client.get(url, headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and COULD_NOT in fragment.content.decode()


@pytest.mark.slow
@pytest.mark.parametrize("url", EVERY_KIND)
def test_a_full_disk_gives_the_organizer_the_same_page_and_leaves_no_half_file(
    url, organizer_client, recorded_game, four_members, settings, monkeypatch
):
    """Each write into the reports directory gets half its bytes onto the disk, then fails
    as a full disk does (writes elsewhere, such as WeasyPrint's fonts, go through)."""
    write = Path.write_bytes
    reports = Path(settings.REPORTS_DIR)

    def half_then_full(self: Path, data: bytes) -> int:
        if not self.is_relative_to(reports):
            return write(self, data)
        write(self, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", half_then_full)
    url = url.format(member=four_members[0].pk, meet=recorded_game.meet.pk)
    page = organizer_client.get(url, follow=True).content.decode()
    assert COULD_NOT in page and UNWRITABLE in page
    assert [p for p in Path(settings.REPORTS_DIR).rglob("*") if p.is_file()] == []


def test_a_file_the_disk_could_not_hold_is_not_left_half_written(tmp_path):
    """A real short write: the process may write no more than 1,000 bytes a file, as on a
    disk that fills up in the middle of a report."""
    kept = tmp_path / "reports" / "digest"
    limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    before = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1000, limits[1]))
    try:
        with pytest.raises(OSError) as raised:
            keep(kept, b"x" * 5000)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)
        signal.signal(signal.SIGXFSZ, before)
    assert raised.value.errno == errno.EFBIG
    assert list((tmp_path / "reports").iterdir()) == []
