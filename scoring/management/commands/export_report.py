"""Write a report for the organizer's scripts.

    python manage.py export_report --period 2025-H1 --format pdf --output FILE
    python manage.py export_report --from 2025-05-01 --to 2025-06-30 --format xlsx --output FILE
    python manage.py export_report --meet 2025-04-09 --format pdf --output FILE

Periods: 2025-04 (a month), 2025-H1 (上期: April–September 2025), 2025-H2 (下期: October 2025
– March 2026), FY2025 (the fiscal year), all.

The report is made by the same code as the web's background task (``scoring.reports.making``),
here, without a worker, with a progress bar on the terminal (stderr); one already kept and
unchanged is copied at once, and one a worker is making just now is waited for.

``--group`` names a standings group (成績グループ) by name or number: the standings PDF and Excel
are for the club's group unless it is given. The games CSV holds every game of the period,
whatever its group, unless ``--group`` is given.
"""

import shutil
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any, TextIO

from django.core.management.base import CommandError

from members.scopes import ClubCommand
from scoring.models import Meet, ReportStatus, StandingsGroup
from scoring.notation import MeetKind
from scoring.reports import kept_files
from scoring.reports.asking import Maker, ask
from scoring.reports.kept import is_kept, kept_name
from scoring.reports.specs import Spec
from scoring.standings import Filters, Period


class _Silent:
    def write(self, text: str) -> None:
        pass

    def flush(self) -> None:
        pass


class ProgressBar:
    """``step [#####.....] n/N`` on one terminal line, redrawn in place."""

    def __init__(self, out: TextIO | _Silent, width: int = 30) -> None:
        self.out, self.width, self.shown = out, width, False

    def __call__(self, step: str, done: int, total: int) -> None:
        filled = self.width * done // total if total else 0
        bar = "#" * filled + "." * (self.width - filled)
        self.out.write(f"\r{step} [{bar}] {done}/{total}   ")
        self.out.flush()
        self.shown = True

    def end(self) -> None:
        if self.shown:
            self.out.write("\n")
            self.out.flush()


class Command(ClubCommand):
    help = "Write the standings (PDF, Excel, CSV) of a period, or a meet's sheet (PDF)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--period", help="2025-04, 2025-H1, 2025-H2, FY2025 or all")
        parser.add_argument("--from", dest="start", type=date.fromisoformat)
        parser.add_argument("--to", dest="end", type=date.fromisoformat)
        parser.add_argument("--meet", type=date.fromisoformat, help="a meet's date (YYYY-MM-DD)")
        parser.add_argument("--kind", choices=MeetKind.values, help="with --meet")
        parser.add_argument("--format", choices=["pdf", "xlsx", "csv"], default="pdf")
        parser.add_argument("--group", help="a standings group's name or number")
        parser.add_argument("--output", type=Path, required=True)
        parser.add_argument(
            "--no-progress",
            dest="progress",
            action="store_false",
            help="no progress bar on stderr",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        fmt = options["format"]
        if options["meet"]:
            if fmt != "pdf":
                raise CommandError("A meet's sheet is a PDF: use --format pdf.")
            meets = Meet.objects.filter(date=options["meet"])
            if options["kind"]:
                meets = meets.filter(kind=options["kind"])
            if meets.count() != 1:
                raise CommandError(
                    f"{meets.count()} meets on {options['meet']}; name one with --kind."
                )
            spec = Spec.of("meet.pdf", meet=meets.get().pk)
        else:
            if options["period"]:
                try:
                    period = Period.parse(options["period"])
                except ValueError as error:
                    raise CommandError(str(error)) from error
            elif options["start"] or options["end"]:
                period = Period.between(options["start"], options["end"])
            else:
                raise CommandError("Give --period, --from/--to, or --meet.")
            group = self._group(options["group"])
            filters = Filters(
                period=period, group=group, every_group=fmt == "csv" and group is None
            )
            kind = {"pdf": "standings.pdf", "xlsx": "standings.xlsx", "csv": "games.csv"}[fmt]
            spec = Spec.of(kind, filters)
        bar = ProgressBar(sys.stderr if options["progress"] else _Silent())  # not self.stderr:
        # Django's wrapper adds a line end to every write
        report = ask(spec, maker=Maker.THIS_PROCESS, progress=bar)
        while report.status in (ReportStatus.QUEUED, ReportStatus.MAKING):  # a worker has it
            bar(report.step or "…", report.done, report.total)
            time.sleep(0.5)
            report.refresh_from_db()
        bar.end()
        if not is_kept(report):
            raise CommandError(f"The report could not be made: {report.error}")
        with (
            kept_files().open(kept_name(report), "rb") as kept,
            open(options["output"], "wb") as out,
        ):
            shutil.copyfileobj(kept, out)
        self.stdout.write(f"Wrote {options['output']} ({report.size:,} bytes).")

    def _group(self, text: str | None) -> StandingsGroup | None:
        if not text:
            return None
        found = StandingsGroup.objects.filter(name=text).first()
        if found is None and text.isascii() and text.isdigit():
            found = StandingsGroup.objects.filter(pk=int(text)).first()
        if found is None:
            names = "、".join(StandingsGroup.objects.values_list("name", flat=True))
            raise CommandError(f"No standings group {text!r}. The groups: {names}")
        return found
