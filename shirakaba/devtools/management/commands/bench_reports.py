"""Benchmark of the half-year reports for 50 members (a measurement, not a test).

Builds (once, in the scratch database DATABASE_URL names) 50 members playing a 上期 of
meets, then prints the time to make the half-year PDF (with a page per member) and the Excel
workbook. Goals: PDF under 10 s, Excel under 2 s.

This machine's speed drifts (on the same code, a fixed pure-Python loop has taken from 1.7 s
to 6.4 s within an hour, and its two cores do not always keep pace), so the command times such
a loop before and after: figures are comparable only alongside it. The PDF is laid out by
``settings.PDF_PROCESSES`` worker processes; ``--one-process`` also times it made in this
process alone, for the gain under the same conditions.
"""

import multiprocessing
import statistics
import time
from datetime import date
from typing import Any, TextIO, cast

from django.conf import settings
from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandError
from django.test.utils import override_settings

from members.models import Member
from scoring.models import HanchanResult
from scoring.reports.pdf import render_standings_pdf
from scoring.reports.xlsx import render_standings_xlsx
from scoring.standings import Filters, Period
from shirakaba.devtools.management.commands.bench_standings import PREFIX
from shirakaba.devtools.management.commands.bench_standings import Command as StandingsBench


def _loop(n: int = 30_000_000) -> float:
    start, total = time.perf_counter(), 0
    for i in range(n):
        total += i
    return time.perf_counter() - start


def reference() -> str:
    """How fast this machine runs now: seconds for 30 million additions in pure Python on
    one core, then on both cores at once (the PDF uses both; they do not always keep pace)."""
    one = _loop()
    with multiprocessing.get_context("fork").Pool(2) as pool:  # this module needs Django
        both = pool.map(_loop, [30_000_000, 30_000_000])
    return f"reference loop {one:.2f} s on one core, {both[0]:.2f} s and {both[1]:.2f} s on two"


class Command(BaseCommand):
    help = "Time the half-year PDF and Excel reports for 50 members (scratch databases only)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--members", type=int, default=50)
        parser.add_argument("--games", type=int, default=720)  # 20 meets × 12 tables × 3
        parser.add_argument("--repeat", type=int, default=3)
        parser.add_argument(
            "--one-process",
            action="store_true",
            help="also time the PDF made in this process alone (PDF_PROCESSES=1)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if Member.objects.exclude(name__startswith=PREFIX).exists():
            raise CommandError("This database holds real members; use a scratch database.")
        if not HanchanResult.objects.exists():
            # BaseCommand wraps what it is given in an OutputWrapper (a TextIOBase, which
            # serves as a TextIO, as the stubs ask); ours are wrapped again, as before.
            out, err = cast(TextIO, self.stdout), cast(TextIO, self.stderr)
            builder = StandingsBench(stdout=out, stderr=err)
            builder.build(options["members"], options["games"], date(2025, 4, 2), tables=12)
        filters = Filters(period=Period.parse("2025-H1"))
        members = Member.objects.count()
        games = HanchanResult.objects.filter(played_on__lte=date(2025, 9, 30)).count() // 4
        self.stdout.write(f"machine: {reference()} (lower is faster)")
        processes = settings.PDF_PROCESSES
        runs = [
            # Cold: no chart drawn yet (as after the data changed); warm: every chart cached.
            (f"PDF (charts not cached, {processes} processes)", render_standings_pdf, True, None),
            (f"PDF (charts cached, {processes} processes)", render_standings_pdf, False, None),
            # The same in this process alone, for the gain under the same conditions.
            ("PDF (charts cached, in one process)", render_standings_pdf, False, 1),
            ("Excel", render_standings_xlsx, False, None),
        ]
        for label, render, cold, only in runs:
            if only is not None and not options["one_process"]:
                continue
            render(filters)  # warm-up (imports, fonts)
            times, size = [], 0
            for _ in range(options["repeat"]):
                if cold:
                    cache.clear()
                start = time.perf_counter()
                with override_settings(PDF_PROCESSES=only or processes):
                    _name, _type, content = render(filters)
                times.append(time.perf_counter() - start)
                size = len(content)
            self.stdout.write(
                f"half-year {label}: {members} members, {games} games: "
                f"{statistics.median(times):.2f} s (median of {options['repeat']}; runs "
                + ", ".join(f"{t:.1f}" for t in times)
                + f"), {size:,} bytes"
            )
        self.stdout.write(f"machine: {reference()} at the end")
