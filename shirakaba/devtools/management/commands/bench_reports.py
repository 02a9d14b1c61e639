"""Benchmark of the half-year reports as tasks (a measurement, not a test).

Builds (once, in the scratch database DATABASE_URL names) ``--members`` members playing a 上期
of 720 games for 50 members, in proportion for more (12 tables a meet for 50 members, more
for more members, at most 50), then, for the
half-year PDF and the Excel workbook, measures what issue 17 asks:

- from nothing: no file kept, no chart drawn (a worker that has made nothing yet);
- unchanged: the same report asked for again (the digest, then the kept file);
- after one more meet: a meet of the same size added, the report asked for again;
- the peak memory of the process that made them (and of its PDF layout processes).

Each report is made by ``making.ask(..., here=True)``, the very function a worker runs, in a
process forked for the purpose (so its peak memory is its own), with the files kept in a
scratch directory. The machine's speed drifts, so a fixed pure-Python loop is timed before
and after: figures are comparable only alongside it. ``PDF_PROCESSES=1`` in the environment
measures the PDF without the parallel layout processes.
"""

import multiprocessing
import random
import resource
import tempfile
import time
from datetime import date, timedelta
from typing import Any, TextIO, cast

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connections
from django.test.utils import override_settings

from members.models import Member
from scoring.models import Hanchan, HanchanResult, Meet, PlayerEntry, RuleSet
from scoring.reports.making import Spec, ask
from scoring.standings import Filters, Period
from shirakaba.devtools.management.commands.bench_standings import PREFIX
from shirakaba.devtools.management.commands.bench_standings import Command as StandingsBench

FIRST_DAY = date(2025, 4, 2)


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
    """One more meet: ``tables`` tables × 3 rounds of the bench's members, recorded as the
    organizer records games (Hanchan.record)."""
    rng = random.Random(day.toordinal())
    rule = RuleSet.objects.default()
    people = list(Member.objects.filter(name__startswith=PREFIX))
    meet = Meet.objects.create(date=day, kind="wed", rule_set=rule)
    for round_no in (1, 2, 3):
        players = rng.sample(people, min(len(people), tables * 4))
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


def _scenario(kind: str, members: int, reports_dir: str, out: Any, more: bool) -> None:
    """In a forked process: from nothing, unchanged, (with ``more``) one more meet and after
    it, each time told as it is measured; then the peak memory of this process and of the
    children it waited for."""
    with override_settings(REPORTS_DIR=reports_dir):
        spec = Spec.of(kind, Filters(period=Period.parse("2025-H1")))
        times: dict[str, float] = {}

        def timed(label: str) -> None:
            start = time.perf_counter()
            report = ask(spec, here=True)
            times[label] = time.perf_counter() - start
            assert report.status == "ready", report.error
            print(f"  {kind} {label}: {times[label]:.2f} s", flush=True)

        timed("from nothing")
        timed("unchanged")
        if more:
            last = Meet.objects.order_by("-date").values_list("date", flat=True).first()
            assert last is not None
            add_meet(last + timedelta(days=1), tables_for(members))
            timed("after one more meet")
            timed("unchanged again")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    out.send((times, own, children))
    out.close()


class Command(BaseCommand):
    help = "Time the half-year PDF and Excel reports as tasks (scratch databases only)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--members", type=int, default=50)
        parser.add_argument("--kinds", default="standings.pdf,standings.xlsx")
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
            builder.build(members, games_for(members), FIRST_DAY, tables=tables)
        members = Member.objects.count()
        self.stdout.write(f"machine: {reference()} (lower is faster)")
        context = multiprocessing.get_context("fork")
        for kind in options["kinds"].split(","):
            games = HanchanResult.objects.filter(played_on__lte=date(2025, 9, 30)).count() // 4
            connections.close_all()  # the child opens its own
            receive, send = context.Pipe(duplex=False)
            with tempfile.TemporaryDirectory() as reports_dir:
                child = context.Process(
                    target=_scenario,
                    args=(kind, members, reports_dir, send, options["more"]),
                )
                child.start()
                while not receive.poll(1):
                    if not child.is_alive():
                        raise CommandError(f"the {kind} run failed (its traceback is above)")
                times, own, children = receive.recv()
                child.join()
            label = {"standings.pdf": "half-year PDF", "standings.xlsx": "half-year Excel"}[kind]
            processes = settings.PDF_PROCESSES if kind.endswith("pdf") else 1
            self.stdout.write(
                f"{label}: {members} members, {games} games, {processes} layout process(es): "
                + ", ".join(f"{k} {v:.2f} s" for k, v in times.items())
                + f"; peak memory {own:.0f} MB (maker), {children:.0f} MB (its largest child process)"
            )
        self.stdout.write(f"machine: {reference()} at the end")
