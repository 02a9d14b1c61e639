"""Charts of a member's record, drawn by matplotlib as SVG.

Glyphs are written as paths (``svg.fonttype = "path"``), so the SVG shows Japanese labels in any
browser and in the PDF report without a Japanese font on the reader's machine. The font that
shapes them ships with the project: ``static/fonts/ipaexg.ttf`` (IPA Font License). These
functions only lay out numbers that the standings package (``scoring/standings/``) computed."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import matplotlib
from django.core.cache import cache

matplotlib.use("Agg")

from matplotlib import font_manager
from matplotlib.figure import Figure
from matplotlib.typing import RcKeyType

FONT_FILE = Path(__file__).resolve().parents[2] / "static" / "fonts" / "ipaexg.ttf"
font_manager.fontManager.addfont(str(FONT_FILE))
FONT = font_manager.FontProperties(fname=str(FONT_FILE)).get_name()

INK = "#111111"
ACCENT = "#1d4d2b"
NEGATIVE = "#a1001b"
GRID = "#c9cfc9"
PLACE_COLOURS = ["#1d4d2b", "#4f7d5b", "#b98a2f", "#a1001b"]
# The printed chart's two sides of the baseline: a light grey above, grey hatching below.
GREY_ABOVE = "#d9d9d9"
GREY_BELOW = "#6b6b6b"

STYLE: dict[RcKeyType, Any] = {
    "font.family": FONT,
    "font.size": 11,
    "svg.fonttype": "path",
    "svg.hashsalt": "shirakaba",  # the same data always gives the same SVG
    "axes.edgecolor": INK,
    "axes.labelcolor": INK,
    "xtick.color": INK,
    "ytick.color": INK,
}


# How charts are drawn, in the cache's keys: the cache outlives the server (it is in files), and
# a chart drawn by older code or another matplotlib is not served for new data.
DRAWING = hashlib.sha256(Path(__file__).read_bytes() + matplotlib.__version__.encode()).hexdigest()[
    :16
]


class CachedChart:
    """A chart drawing function whose charts are kept in the cache under a digest of
    everything they are drawn from.

    Drawing takes matplotlib about 0.1 s; the same figures always give the same chart, so a
    chart is drawn once and no change of data can leave a stale one behind. The cache is the
    one ``SHIRAKABA_CACHE_URL`` chooses (a file cache under the data directory by default), so
    the web server's processes and the report workers share what any of them drew. ``draw`` is
    the plain function; ``cached`` and ``store`` let the caller look a chart up and keep one
    drawn elsewhere (a report's part keeps its chart's recipe and draws it when it is made)."""

    def __init__(self, draw: Callable[..., bytes]) -> None:
        self.draw = draw
        self.__doc__ = draw.__doc__

    def key(self, *args: object, **kwargs: object) -> str:
        recipe = repr((DRAWING, self.draw.__name__, args, sorted(kwargs.items())))
        return "chart:" + hashlib.sha256(recipe.encode()).hexdigest()

    def cached(self, *args: object, **kwargs: object) -> bytes | None:
        chart: bytes | None = cache.get(self.key(*args, **kwargs))
        return chart

    def store(self, chart: bytes, *args: object, **kwargs: object) -> None:
        cache.set(self.key(*args, **kwargs), chart, timeout=24 * 3600)

    def __call__(self, *args: object, **kwargs: object) -> bytes:
        chart = self.cached(*args, **kwargs)
        if chart is None:
            chart = self.draw(*args, **kwargs)
            self.store(chart, *args, **kwargs)
        return chart


def _save(figure: Figure, fmt: str) -> bytes:
    """SVG for the browser; JPEG (150 dpi) for the PDF, where WeasyPrint draws a raster image
    far faster than thousands of glyph paths, and embeds a JPEG as it is (a PNG it decodes
    and compresses again, alpha channel apart). Fixed margins rather than a tight bounding
    box, which draws the figure twice: a half-year report draws fifty of them."""
    buffer = io.BytesIO()
    with matplotlib.rc_context(STYLE):
        if fmt == "svg":
            figure.savefig(buffer, format=fmt, bbox_inches="tight", metadata={"Date": None})
        else:
            figure.subplots_adjust(left=0.1, right=0.98, top=0.88, bottom=0.12)
            options = {"quality": 92} if fmt == "jpeg" else {"compress_level": 1}
            figure.savefig(buffer, format=fmt, dpi=150, pil_kwargs=options)
    return buffer.getvalue()


def meet_ticks(labels: Sequence[str], most: int = 8) -> list[tuple[float, str]]:
    """Where the x-axis names each meet: ``labels`` holds one date a game, in order; each run
    of games on one date gets one tick at its middle (games numbered from 1), so a meet of
    three games reads 「10/8」 once, not three times. Beyond ``most`` meets, every n-th."""
    runs: list[tuple[int, int, str]] = []  # first game, last game, date
    for number, label in enumerate(labels, start=1):
        if runs and runs[-1][2] == label:
            runs[-1] = (runs[-1][0], number, label)
        else:
            runs.append((number, number, label))
    step = -(-len(runs) // most) if runs else 1  # ceiling division
    return [((first + last) / 2, label) for first, last, label in runs[::step]]


def meet_boundaries(labels: Sequence[str]) -> list[float]:
    """Between which games the meet changes (x positions halfway between them)."""
    return [n + 0.5 for n in range(1, len(labels)) if labels[n] != labels[n - 1]]


def draw_cumulative_chart(
    labels: Sequence[str],
    cumulative: Sequence[Decimal],
    title: str,
    y_label: str,
    fmt: str = "svg",
    compact: bool = False,
    baseline: Decimal = Decimal(0),
    grey: bool = False,
) -> bytes:
    """A line of the running total of P, one point per game; the x-axis names the meets by
    date (``labels``: one date a game), with a faint line between two meets. ``compact`` is
    the phone's chart: narrower, so the labels keep their size on a 390-px screen.
    ``baseline``: the level drawn as the axis line and filled from (0 P; the rating's start,
    R 1500, for a chart of R). ``grey``: for paper from a black-and-white printer, the line
    black and the two sides of the baseline told apart by shade and hatching, not by colour."""
    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(4.0, 3.0) if compact else (7.0, 3.0), dpi=96)
        axes = figure.subplots()
        xs = list(range(1, len(cumulative) + 1))
        ys = [float(v) for v in cumulative]  # drawing only: the figures were summed exactly
        base = float(baseline)
        axes.axhline(base, color=INK, linewidth=0.8)
        # One collection of lines, not an axvline each: a year's fifty meets took a quarter of
        # the drawing time in fifty Line2D objects.
        axes.vlines(
            meet_boundaries(labels),
            0,
            1,
            transform=axes.get_xaxis_transform(),
            colors=GRID,
            linewidth=0.8,
        )
        axes.plot(xs, ys, color=INK if grey else ACCENT, linewidth=2, marker="o", markersize=3)
        if ys:
            below = [y < base for y in ys]
            above = [not b for b in below]
            if grey:
                axes.fill_between(xs, ys, base, where=above, color=GREY_ABOVE, linewidth=0)
                axes.fill_between(
                    xs,
                    ys,
                    base,
                    where=below,
                    facecolor="white",
                    edgecolor=GREY_BELOW,
                    hatch="////",
                    linewidth=0,
                )
            else:
                axes.fill_between(xs, ys, base, where=below, color=NEGATIVE, alpha=0.12)
                axes.fill_between(xs, ys, base, where=above, color=ACCENT, alpha=0.12)
        ticks = meet_ticks(labels, most=4 if compact else 8)
        axes.set_xticks([x for x, _ in ticks], [label for _, label in ticks], fontsize=11)
        axes.tick_params(axis="y", labelsize=11)
        if xs:
            axes.set_xlim(0.5, len(xs) + 0.5)
        axes.set_ylabel(y_label)
        # The title where matplotlib would place it (no ticks at the top), said outright: placing it
        # measures every tick label first, a quarter of the drawing (the same bytes either way).
        axes.set_title(title, loc="left", fontsize=12, y=1.0)
        axes.grid(axis="y", color=GRID, linewidth=0.6)
        axes.spines[["top", "right"]].set_visible(False)
        return _save(figure, fmt)


def draw_places_chart(
    labels: Sequence[str],
    counts: Sequence[int],
    title: str,
    fmt: str = "svg",
    groups: Sequence[tuple[str, int]] = (),
) -> bytes:
    """Bars of how often the member finished at each place.

    ``groups`` names runs of bars, in order: (四人打ち, 4), (三人打ち, 3). Each run stands
    apart from the next, its name under its bars' short labels (1位 2位 …), so that seven
    bars keep readable labels in the chart's 403 px (「三人打ち1位」 under each bar ran into
    its neighbours')."""
    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(4.2, 3.0), dpi=96)
        axes = figure.subplots()
        xs: list[float] = []
        spans: list[tuple[str, float, float]] = []
        for name, size in groups or [("", len(counts))]:
            start = len(xs) + 0.6 * len(spans)  # a gap of 0.6 bar between two groups
            xs += [start + n for n in range(size)]
            spans.append((name, start, start + size - 1))
        colours = [c for _name, size in groups or [("", len(counts))] for c in PLACE_COLOURS[:size]]
        bars = axes.bar(xs, counts, color=colours)
        axes.set_xticks(xs, labels)
        for name, first, last in spans:
            if name:
                axes.annotate(
                    name,
                    xy=((first + last) / 2, 0),
                    xycoords=("data", "axes fraction"),
                    xytext=(0, -24),
                    textcoords="offset points",
                    ha="center",
                    va="top",
                    fontsize=10,
                )
        axes.bar_label(bars, labels=[str(c) for c in counts], padding=2)
        axes.set_title(title, loc="left", fontsize=12, y=1.0)
        axes.set_ylim(0, max([*counts, 1]) * 1.2)
        axes.yaxis.set_visible(False)
        axes.spines[["top", "right", "left"]].set_visible(False)
        return _save(figure, fmt)


cumulative_chart = CachedChart(draw_cumulative_chart)
places_chart = CachedChart(draw_places_chart)
