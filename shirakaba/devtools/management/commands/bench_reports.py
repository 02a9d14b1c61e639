"""Benchmark of the half-year reports as tasks (a measurement, not a test).

Builds (once, in the scratch database DATABASE_URL names) ``--members`` members playing a 上期
of 720 games for 50 members, in proportion for more (12 tables a meet for 50 members, more
for more members, at most 50; the meets spread over the half-year; those attending a meet
play its three rounds, as at the club's meets), then, for the half-year
PDF and the Excel workbook, measures, with ``--workers`` real ``manage.py db_worker`` processes (default 2)
started fresh for each report, the files kept in a scratch directory:

- from nothing: no file or part kept, no chart drawn (workers that have made nothing yet);
- unchanged: the same report asked for again (the digest, then the kept file);
- after one more meet: a meet of the bench's size added (48 of 50 members play), and after
  one more meet of 4 tables (16 players, the club's size), the report asked for again;
- the peak memory of each worker (VmHWM);
- and for each, the CPU seconds the workers used: on a busy machine the times stretch with
  the others' work, the CPU seconds much less.

``--layout`` measures instead what each part of the half-year PDF costs to lay out, in this
process, one after the other: the CPU seconds of its chart, of WeasyPrint's layout and of
writing its PDF, and its pages (CPU time, so that other work on the machine counts less); then
what the report costs besides: the members' records and every part's HTML, the stamps (ranks
and page numbers) and the join.

``--beside-another-club`` measures the workers' fair sharing between clubs instead: a small
club of 15 members (made once, short name ``bench-small``, with a half-year of games at 3
tables a meet) asks for its half-year PDF while this club's big one is being made, its parts
queued for the idle workers; then, with the workers idle and everything made afresh, the small
club's PDF alone.

Each time is from asking, as a member's click does (``asking.ask``: the report queued), to
the report being ready. The machine's speed drifts, so a fixed pure-Python loop is timed
before and after: figures are comparable only alongside it.
"""

import multiprocessing
import os
import random
import time
from datetime import date, timedelta
from itertools import accumulate
from typing import Any, TextIO, cast

from django.core.management.base import CommandError
from django_tasks_db.models import DBTaskResult

from members.models import Club, Member, default_club
from members.scopes import ClubCommand, in_club, scopes_disabled
from scoring.clubs import make_club
from scoring.models import (
    Hanchan,
    HanchanResult,
    Meet,
    PlayerEntry,
    Report,
    ReportPart,
    ReportStatus,
    RuleSet,
)
from scoring.notation import MeetKind
from scoring.reports import weasy
from scoring.reports.asking import ask
from scoring.reports.parts import chart_of, make_report_part
from scoring.reports.pdf import _stamps as pdf_stamps
from scoring.reports.pdf import number_runs, report_pieces, standings_title, total_stamp
from scoring.reports.specs import Spec
from scoring.standings import Filters, Period
from shirakaba.devtools.management.commands.bench_standings import PREFIX
from shirakaba.devtools.management.commands.bench_standings import Command as StandingsBench
from shirakaba.devtools.workers import Workers, scratch_reports

FIRST_DAY = date(2025, 4, 2)
# The bench's meets are spread over the 上期 (April 2 to September 18), so the report has six
# months, and the meets added afterwards still fall in it.
SPREAD = 170
# The short name of the bench's small club (``--beside-another-club``).
SMALL = "bench-small"


def _loop(n: int = 30_000_000) -> float:
    start, total = time.perf_counter(), 0
    for i in range(n):
        total += i
    return time.perf_counter() - start


def reference() -> str:
    """How fast this machine runs now: seconds for 30 million additions in pure Python on
    one core, then on both cores at once."""
    one = _loop()
    with multiprocessing.get_context("fork").Pool(2) as pool:  # this module needs Django
        both = pool.map(_loop, [30_000_000, 30_000_000])
    return f"reference loop {one:.2f} s on one core, {both[0]:.2f} s and {both[1]:.2f} s on two"


def tables_for(members: int) -> int:
    """12 tables for 50 members, as many more as more members need, at most 50 (the most a
    meet may have)."""
    return max(1, min(50, members * 12 // 50))


def games_for(members: int) -> int:
    """720 games in the half-year for 50 members (20 meets of 12 tables × 3 rounds), in
    proportion for more."""
    return members * 720 // 50


def add_meet(day: date, tables: int) -> None:
    """One more meet: ``tables`` tables × 3 rounds, the same members attending all three
    (drawn afresh each round), recorded as the organizer records games (Hanchan.record)."""
    rng = random.Random(day.toordinal())
    rule = RuleSet.objects.default()
    people = list(Member.objects.filter(name__startswith=PREFIX))
    attending = rng.sample(people, min(len(people), tables * 4))
    meet = Meet.objects.create(date=day, kind=MeetKind.WEDNESDAY, rule_set=rule)
    for round_no in (1, 2, 3):
        players = rng.sample(attending, len(attending))
        for t in range(len(players) // 4):
            first = [rng.randrange(50, 560) * 100 for _ in range(3)]
            scores = [*first, 120_000 - sum(first)]
            Hanchan(meet=meet, table_no=t + 1, round_no=round_no, rule_set=rule).record(
                [
                    PlayerEntry(p, seat, s)
                    for seat, (p, s) in enumerate(
                        zip(players[t * 4 : t * 4 + 4], scores, strict=True)
                    )
                ]
            )


def ready(spec: Spec) -> float:
    """Ask for the report as a member's click does (queued for the workers) and wait until it
    is ready; seconds from asking to ready."""
    start = time.perf_counter()
    return finished(ask(spec), start)


def finished(report: Report, start: float) -> float:
    """Wait until ``report`` is ready; seconds since ``start`` (``time.perf_counter``)."""
    while report.status not in (ReportStatus.READY, ReportStatus.FAILED):
        time.sleep(0.02)
        report.refresh_from_db()
    if report.status == ReportStatus.FAILED:
        raise CommandError(report.error)
    return time.perf_counter() - start


class Command(ClubCommand):
    help = "Time the half-year PDF and Excel reports as tasks (scratch databases only)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--members", type=int, default=50)
        parser.add_argument("--kinds", default="standings.pdf,standings.xlsx")
        parser.add_argument("--workers", type=int, default=2, help="db_worker processes")
        parser.add_argument(
            "--layout",
            action="store_true",
            help="measure what each part of the half-year PDF costs to lay out, here, instead",
        )
        parser.add_argument(
            "--beside-another-club",
            dest="beside",
            action="store_true",
            help="measure a small club's half-year PDF while this club's is being made, instead",
        )
        parser.add_argument(
            "--no-more-meet",
            dest="more",
            action="store_false",
            help="leave out the run after one more meet",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if Member.objects.exclude(name__startswith=PREFIX).exists():
            raise CommandError("This database holds real members; use a scratch database.")
        members = options["members"]
        if not HanchanResult.objects.exists():
            out, err = cast(TextIO, self.stdout), cast(TextIO, self.stderr)
            builder = StandingsBench(stdout=out, stderr=err)
            tables = tables_for(members)
            builder.build(
                members, games_for(members), FIRST_DAY, tables=tables, days=SPREAD, attending=True
            )
        members = Member.objects.count()
        self.stdout.write(f"machine: {reference()} (lower is faster)")
        if options["layout"]:
            self.layout()
            return
        if options["beside"]:
            self.beside_another_club(options["workers"])
            return
        for kind in options["kinds"].split(","):
            self.measure(kind, members, options["workers"], options["more"])
        self.stdout.write(f"machine: {reference()} at the end")

    def layout(self) -> None:
        """Each part of the half-year PDF laid out here, once: the front matter's one by one,
        the members' added up (with the mean and the largest), in CPU seconds; then what a
        report made of parts costs besides its parts: reading the standings and the members'
        records and making every part's HTML (all the members' HTML is made for every
        report, to know which parts are kept), the stamps (the ranks, and the page numbers
        laid out once the parts are made) and joining."""
        start = time.process_time()
        pieces = report_pieces(Filters(period=Period.parse("2025-H1")))
        before = time.process_time() - start
        weasy.lay_out("<p></p>")  # the font loaded, as in a worker after its first part
        self.stdout.write(f"{'part':<22}{'pages':>6}{'chart':>8}{'layout':>8}{'PDF':>8}{'all':>8}")
        members: list[tuple[str, float, float, float, float]] = []
        made: list[tuple[bytes, int]] = []
        for label, piece in pieces:
            start = time.process_time()
            images = {name: chart_of(args) for name, args in piece.charts.items()}
            drawn = time.process_time() - start
            pdf, pages, laid_out, written = weasy.timed(piece.html, images)
            made.append((pdf, pages))
            line = (label, pages, drawn, laid_out, written)
            if piece.charts:
                members.append(line)
            else:
                self.stdout.write(self.costs(*line))
        if members:
            total = [sum(m[i] for m in members) for i in range(1, 5)]  # type: ignore[misc]
            self.stdout.write(self.costs(f"{len(members)} members", *total))
            self.stdout.write(self.costs("a member (mean)", *(t / len(members) for t in total)))
            largest = max(members, key=lambda m: m[2] + m[3] + m[4])
            self.stdout.write(self.costs(f"largest: {largest[0]}", *largest[1:]))
        self.stdout.write(f"records and every part's HTML: {before:.3f} s")
        self.stamps_and_join(made, len(members))

    def stamps_and_join(self, made: list[tuple[bytes, int]], ranked: int) -> None:
        """The stamps of the parts ``made`` (their PDFs and pages), laid out as the report lays
        them out, and the parts joined and stamped (``ranked`` members, the last parts)."""
        ranks = pdf_stamps([{"label": "", "rank": k} for k in range(1, ranked + 1)], ranked)
        _ranks, pages, laid_out, written = weasy.timed(ranks.html)
        self.stdout.write(self.costs("stamps: ranks", pages, 0, laid_out, written))
        counts = [pages for _pdf, pages in made]
        total = sum(counts)
        numbers: list[bytes] = []
        spent = [0.0, 0.0]
        for run in number_runs(total):
            stamp, _pages, laid_out, written = weasy.timed(run.html)
            numbers.append(stamp)
            spent = [spent[0] + laid_out, spent[1] + written]
        self.stdout.write(self.costs(f"stamps: numbers ({len(numbers)})", total, 0, *spent))
        half = Filters(period=Period.parse("2025-H1"))
        heading = total_stamp(total, standings_title(half.period), half.heading)
        of_total, _pages, laid_out, written = weasy.timed(heading.html)
        self.stdout.write(self.costs("stamps: total, heading", 1, 0, laid_out, written))
        starts = [0, *accumulate(counts)]
        firsts = {starts[len(made) - ranked + i]: i for i in range(ranked)}
        start = time.process_time()
        weasy.join([pdf for pdf, _pages in made], numbers, of_total, _ranks, firsts)
        self.stdout.write(f"joined: {time.process_time() - start:.3f} s")

    @staticmethod
    def costs(label: str, pages: float, chart: float, laid_out: float, written: float) -> str:
        return (
            f"{label[:21]:<22}{pages:>6.0f}{chart:>8.3f}{laid_out:>8.3f}{written:>8.3f}"
            f"{chart + laid_out + written:>8.3f}"
        )

    def small_club(self) -> Club:
        """The bench's small club (``SMALL``): 15 members, a half-year at 3 tables a meet."""
        club = Club.objects.filter(slug=SMALL).first() or make_club(SMALL, "小さな会")
        with in_club(club):
            if not HanchanResult.objects.exists():
                out, err = cast(TextIO, self.stdout), cast(TextIO, self.stderr)
                builder = StandingsBench(stdout=out, stderr=err)
                builder.build(15, games_for(15), FIRST_DAY, tables=3, days=SPREAD, attending=True)
        return club

    def beside_another_club(self, workers: int) -> None:
        """The small club's half-year PDF asked for while this club's is being made (once its
        parts are queued for the idle workers), then alone; each with fresh workers and
        nothing kept."""
        small = self.small_club()
        spec = Spec.of("standings.pdf", Filters(period=Period.parse("2025-H1")))
        ours = Club.objects.get(pk=default_club())
        database_url = os.environ.get("DATABASE_URL", "")
        times: dict[str, float] = {}
        for beside in (True, False):
            with scopes_disabled():
                Report.objects.all().delete()
            ReportPart.objects.all().delete()
            with scratch_reports() as folder:
                pool = Workers(
                    workers, database_url=database_url, reports_dir=folder, logs_dir=folder
                )
                try:
                    if beside:
                        start = time.perf_counter()
                        big = ask(spec)
                        helping = DBTaskResult.objects.ready().filter(
                            task_path=make_report_part.module_path
                        )
                        while not helping.exists():  # its parts queued for the idle workers
                            time.sleep(0.02)
                        times["ours begun"] = time.perf_counter() - start
                        with in_club(small):
                            times["theirs beside ours"] = ready(spec)
                        times["ours"] = finished(big, start)
                    else:
                        with in_club(small):
                            times["theirs alone"] = ready(spec)
                finally:
                    pool.stop()
        self.stdout.write(
            f"half-year PDF of {small.name} (15 members) beside {ours.name or ours.slug} "
            f"({Member.objects.count()} members), {workers} worker(s): "
            + ", ".join(f"{k} {v:.2f} s" for k, v in times.items())
        )

    def measure(self, kind: str, members: int, workers: int, more: bool) -> None:
        """From nothing, unchanged, and (with ``more``) after one more meet of the bench's
        size and after one more meet of the club's size (4 tables), each unchanged again;
        told as each is measured, then in one line with the workers' peak memory."""
        label = {"standings.pdf": "half-year PDF", "standings.xlsx": "half-year Excel"}[kind]
        games = HanchanResult.objects.filter(played_on__lte=date(2025, 9, 30)).count() // 4
        Report.objects.all().delete()
        ReportPart.objects.all().delete()
        spec = Spec.of(kind, Filters(period=Period.parse("2025-H1")))
        times: dict[str, float] = {}
        cpu: dict[str, float] = {}
        with scratch_reports() as folder:
            database_url = os.environ.get("DATABASE_URL", "")
            pool = Workers(workers, database_url=database_url, reports_dir=folder, logs_dir=folder)
            try:

                def timed(what: str) -> None:
                    used = pool.cpu()
                    times[what] = ready(spec)
                    cpu[what] = pool.cpu() - used
                    self.stdout.write(
                        f"  {label} {what}: {times[what]:.2f} s (workers' CPU {cpu[what]:.2f} s)"
                    )

                timed("from nothing")
                timed("unchanged")
                if more:
                    for what, tables in [
                        ("after one more meet", tables_for(members)),
                        ("after a meet of 4 tables", 4),
                    ]:
                        last = Meet.objects.order_by("-date").values_list("date", flat=True)[0]
                        add_meet(last + timedelta(days=1), tables)
                        timed(what)
                        timed(f"unchanged {what}")
                peaks = pool.peaks()
            finally:
                pool.stop()
        self.stdout.write(
            f"{label}: {members} members, {games} games, {workers} worker(s): "
            + ", ".join(f"{k} {v:.2f} s (CPU {cpu[k]:.2f} s)" for k, v in times.items())
            + "; peak memory of each worker "
            + ", ".join(f"{peak:.0f} MB" for peak in peaks)
        )
