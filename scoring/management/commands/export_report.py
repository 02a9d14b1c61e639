"""Write a report for the organizer's scripts.

    python manage.py export_report --period 2025-H1 --format pdf --output FILE
    python manage.py export_report --from 2025-05-01 --to 2025-06-30 --format xlsx --output FILE
    python manage.py export_report --meet 2025-04-09 --format pdf --output FILE

Periods: 2025-04 (a month), 2025-H1 (上期: April–September 2025), 2025-H2 (下期: October 2025
– March 2026), FY2025 (the fiscal year), all.

``--group`` names a standings group (成績グループ) by name or number: the standings PDF and Excel
are for the club's group unless it is given. The games CSV holds every game of the period,
whatever its group, unless ``--group`` is given.
"""

from datetime import date
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.models import Meet, StandingsGroup
from scoring.reports.games_csv import render_games_csv
from scoring.reports.pdf import render_meet_pdf, render_standings_pdf
from scoring.reports.xlsx import render_standings_xlsx
from scoring.standings import Filters, Period


class Command(BaseCommand):
    help = "Write the standings (PDF, Excel, CSV) of a period, or a meet's sheet (PDF)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--period", help="2025-04, 2025-H1, 2025-H2, FY2025 or all")
        parser.add_argument("--from", dest="start", type=date.fromisoformat)
        parser.add_argument("--to", dest="end", type=date.fromisoformat)
        parser.add_argument("--meet", type=date.fromisoformat, help="a meet's date (YYYY-MM-DD)")
        parser.add_argument("--kind", choices=["wed", "sat", "other"], help="with --meet")
        parser.add_argument("--format", choices=["pdf", "xlsx", "csv"], default="pdf")
        parser.add_argument("--group", help="a standings group's name or number")
        parser.add_argument("--output", type=Path, required=True)

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
            rendered = render_meet_pdf(meets.get())
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
            renderer = {
                "pdf": render_standings_pdf,
                "xlsx": render_standings_xlsx,
                "csv": render_games_csv,
            }
            rendered = renderer[fmt](filters)
        _filename, _type, content = rendered
        options["output"].write_bytes(content)
        self.stdout.write(f"Wrote {options['output']} ({len(content):,} bytes).")

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
