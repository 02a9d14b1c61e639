"""The type of every handout, measured from the files themselves (a measurement, not a test).

    DATABASE_URL=sqlite:////tmp/ho/demo.sqlite3 python manage.py measure_handouts

Makes each handout of a half-year the way the app makes it, in this process (nothing kept, no part of
an earlier run reused):
the half-year report, the monthly sheet of its last month with games, the meet sheet (例会成績
表) of its last meet with games, that meet's record sheet (記録用紙) and draw (its kept draw, or
one drawn for its attendance and not saved), the 回覧板 of its month, the certificate (賞状) of
every winner of every award, the score table of the default rule set, and the news card of
the meet; then prints, for each, the smallest and the median size of its characters in points
(the card's in pixels of the 1,080-pixel-wide picture, and its size), the share under 9 pt,
and the time it took to make. ``--keep DIR`` writes the files there too, to look at, or to
compare page by page with another version's (``pdftoppm -png``, then ``cmp``).
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError
from django.db.models import Count, Max
from PIL import Image
from pypdf import PdfReader

from members.scopes import ClubCommand
from scoring.meet_draw import DrawnRound, DrawnTable, MeetDraw, stored_draw
from scoring.models import HanchanResult, Meet, RuleSet
from scoring.reports import news
from scoring.reports.pdf import (
    notice_meets,
    render_certificate_pdf,
    render_meet_pdf,
    render_notice_pdf,
    render_record_sheet_pdf,
    render_standings_pdf,
)
from scoring.reports.score_table import render_score_table_pdf
from scoring.reports.table_draw import render_draw_pdf
from scoring.standings import Filters, Period, compute_awards
from shirakaba.devtools.handouts import Measure
from shirakaba.devtools.workers import scratch_reports

LINK = "https://example.org/standings/"  # the news' text carries it; the card must not


def as_played(meet: Meet) -> MeetDraw:
    """The meet's tables as they were played, as a draw (for a meet with no kept draw)."""
    tables: dict[tuple[int, int], list[Any]] = {}
    results = HanchanResult.objects.filter(meet=meet).select_related("member", "hanchan")
    for r in results.order_by("hanchan__round_no", "hanchan__table_no", "seat"):
        tables.setdefault((r.hanchan.round_no, r.hanchan.table_no), []).append(r.member)
    rounds = sorted({round_no for round_no, _ in tables})
    return MeetDraw(
        tuple(
            DrawnRound(
                n,
                tuple(DrawnTable(n, t, tuple(p)) for (r, t), p in sorted(tables.items()) if r == n),
                (),
            )
            for n in rounds
        ),
        (0,),
    )


def _pages(*pdfs: bytes) -> int:
    return sum(len(PdfReader(io.BytesIO(pdf)).pages) for pdf in pdfs)


class Command(ClubCommand):
    help = "Measure the type of every handout (smallest and median size) from the PDFs."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--period", help="a half-year, e.g. 2025-H2 (default: the latest)")
        parser.add_argument("--keep", type=Path, help="a folder to write the handouts to")

    def handle(self, *args: Any, **options: Any) -> None:
        # Nothing kept is reused (the half-year's parts): every handout is made from nothing.
        self.keep: Path | None = options["keep"]
        if self.keep:
            self.keep.mkdir(parents=True, exist_ok=True)
        with scratch_reports():
            self.measure(options["period"])

    def kept(self, name: str, files: list[bytes], suffix: str = "pdf") -> None:
        """``files`` written to ``--keep``'s folder as NAME-1.pdf, NAME-2.pdf, …"""
        if self.keep:
            stem = name.split(" (")[0].replace(" ", "-")
            for number, data in enumerate(files, start=1):
                (self.keep / f"{stem}-{number}.{suffix}").write_bytes(data)

    def measure(self, period: str | None) -> None:
        latest = HanchanResult.objects.aggregate(day=Max("played_on"))["day"]
        if latest is None:
            raise CommandError("No games: load the demo club (load_demo) or run bench_reports.")
        half = Period.parse(period) if period else Period.containing(latest)
        filters = Filters(period=half)
        meet = (
            Meet.objects.filter(date__gte=half.start, date__lte=half.end)
            .annotate(games=Count("hanchans"))
            .filter(games__gt=0)
            .order_by("-date")
            .first()
        )
        if meet is None:
            raise CommandError(f"No meet with games in {half.label}.")
        month = Period.month(meet.date.year, meet.date.month)
        self.stdout.write(
            f"{half.label}: {HanchanResult.objects.filter(played_on__gte=half.start, played_on__lte=half.end).count() // 4}"
            f" games; the meet {meet.date} ({meet.hanchans.count()} games)"
        )
        self.stdout.write(
            f"{'handout':<28}{'files':>6}{'pages':>6}{'smallest':>10}{'median':>9}"
            f"{'under 9pt':>11}{'seconds':>9}"
        )

        def row(name: str, make: Callable[[], list[bytes]], unit: str = "pt") -> None:
            start = time.perf_counter()
            pdfs = make()
            took = time.perf_counter() - start
            self.kept(name, pdfs)
            if not pdfs:
                self.stdout.write(f"{name:<28}  (none)")
                return
            m = Measure.of(*pdfs)
            self.stdout.write(
                f"{name:<28}{len(pdfs):>6}{_pages(*pdfs):>6}{m.smallest:>8.1f}{unit}"
                f"{m.median:>7.1f}{unit}{m.under:>10.0%}{took:>9.2f}"
            )

        row("half-year report", lambda: [render_standings_pdf(filters)[2]])
        row("monthly sheet", lambda: [render_standings_pdf(Filters(period=month))[2]])
        row("meet sheet", lambda: [render_meet_pdf(meet)[2]])
        drawn = stored_draw(meet) or as_played(meet)
        row("record sheet", lambda: [render_record_sheet_pdf(meet, drawn)])
        row("draw", lambda: [render_draw_pdf(meet, drawn)])
        first = date(meet.date.year, meet.date.month, 1)
        row("notice (kairanban)", lambda: [render_notice_pdf(first, list(notice_meets(first)))[2]])
        row(
            "certificates",
            lambda: [
                render_certificate_pdf(result, winner, filters)[2]
                for result in compute_awards(filters)
                for winner in result.winners
            ],
        )
        row("score table", lambda: [render_score_table_pdf(RuleSet.objects.default())])
        self.card(meet)

    def card(self, meet: Meet) -> None:
        """The news card: its type in pixels of the picture, and the picture's size."""
        start = time.perf_counter()
        told = news.meet_news(meet, LINK)
        pdf = news.news_pdf(told)
        png = news.news_png(told)
        took = time.perf_counter() - start
        self.kept("news card", [pdf])
        self.kept("news card", [png], suffix="png")
        width_pt = float(PdfReader(io.BytesIO(pdf)).pages[0].mediabox.width)
        picture = Image.open(io.BytesIO(png))
        px = picture.width / width_pt  # pixels of the picture per point of the page
        m = Measure.of(pdf)
        self.stdout.write(
            f"{'news card':<28}{1:>6}{1:>6}{m.smallest * px:>8.1f}px"
            f"{m.median * px:>7.1f}px{'':>10}{took:>9.2f}"
            f"   {picture.width} × {picture.height} px"
            + (", a URL in it" if "example.org" in _card_text(pdf) else "")
        )


def _card_text(pdf: bytes) -> str:
    return "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
