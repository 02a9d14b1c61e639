"""manage.py export_report: a report made here, with a progress bar, kept and written out."""

import pytest
from django.core.management import CommandError, call_command
from openpyxl import load_workbook

from scoring.standings import Filters, Period
from tests.builders import pdf_text

pytestmark = pytest.mark.django_db


H2 = Filters(period=Period.parse("2025-H2"))


@pytest.mark.slow
def test_the_export_command(club, tmp_path):
    for fmt, magic in [("pdf", b"%PDF"), ("xlsx", b"PK\x03\x04"), ("csv", b"\xef\xbb\xbf")]:
        out = tmp_path / f"report.{fmt}"
        call_command("export_report", "--period", "2025-H2", "--format", fmt, "--output", str(out))
        assert out.read_bytes().startswith(magic)
    out = tmp_path / "range.xlsx"
    call_command(
        "export_report",
        "--from",
        "2025-10-01",
        "--to",
        "2025-10-08",
        "--format",
        "xlsx",
        "--output",
        str(out),
    )
    assert load_workbook(out)["成績表"].max_row > 1
    out = tmp_path / "meet.pdf"
    call_command("export_report", "--meet", "2025-10-01", "--output", str(out))
    assert "例会成績表" in pdf_text(out.read_bytes())
    with pytest.raises(CommandError):
        call_command("export_report", "--period", "2025-H3", "--output", str(out))
    with pytest.raises(CommandError):
        call_command("export_report", "--meet", "2024-01-01", "--output", str(out))


def test_export_report_makes_it_here_with_a_progress_bar_and_keeps_it(
    recorded_game, fake, tmp_path, capsys
):
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    call_command("export_report", "--period", "2025-H1", "--output", str(first))
    err = capsys.readouterr().err
    assert "Member pages [####################..........] 2/3" in err
    assert "Member pages [##############################] 3/3" in err
    call_command("export_report", "--period", "2025-H1", "--output", str(second))
    assert first.read_bytes() == second.read_bytes() == b"%PDF call 1"
    assert fake.calls == 1
