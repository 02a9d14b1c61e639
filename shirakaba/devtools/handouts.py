"""The handouts' type, measured from the files themselves: every run of text a PDF draws,
with its size in points (the font's size times the scale of the text and page matrices, as
a reader's eye gets it) and where it stands, read back with pypdf. ``measure_handouts`` prints
the figures; the tests hold the handouts to them (nothing under 9 pt)."""

from __future__ import annotations

import io
import math
import statistics
from dataclasses import dataclass

from pypdf import PdfReader

SMALLEST_PT = 9.0  # no printed text under this, for members in their 60s and 70s


@dataclass(frozen=True)
class Run:
    """A run of text as drawn: its characters, size (pt), and where its baseline starts
    (points from the page's lower left corner), on which page (0-based)."""

    text: str
    size: float
    x: float
    y: float
    page: int


def text_runs(pdf: bytes) -> list[Run]:
    """Every run of visible text in ``pdf``, in the order drawn."""
    runs: list[Run] = []
    for number, page in enumerate(PdfReader(io.BytesIO(pdf)).pages):

        def visit(
            text: str,
            cm: list[float],
            tm: list[float],
            font: object,
            size: float,
            number: int = number,
        ) -> None:
            shown = "".join(text.split())
            if not shown:
                return
            # The text matrix times the page's: its vertical scale is the type's size.
            c = tm[2] * cm[0] + tm[3] * cm[2]
            d = tm[2] * cm[1] + tm[3] * cm[3]
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            runs.append(Run(shown, round(size * math.hypot(c, d), 2), x, y, number))

        page.extract_text(visitor_text=visit)
    return runs


@dataclass(frozen=True)
class Measure:
    """A handout's type: the smallest and the median size of its characters (pt), the share
    of its characters under ``SMALLEST_PT``, and how many characters it has."""

    smallest: float
    median: float
    under: float
    characters: int

    @classmethod
    def of(cls, *pdfs: bytes) -> Measure:
        sizes = [run.size for pdf in pdfs for run in text_runs(pdf) for _ in run.text]
        if not sizes:
            return cls(0.0, 0.0, 0.0, 0)
        under = sum(1 for s in sizes if s < SMALLEST_PT) / len(sizes)
        return cls(min(sizes), statistics.median(sizes), under, len(sizes))


def small_text(pdf: bytes, smallest: float = SMALLEST_PT) -> list[tuple[float, str]]:
    """The runs of ``pdf`` set under ``smallest`` pt, each once: (size, text)."""
    return sorted({(r.size, r.text) for r in text_runs(pdf) if r.size < smallest})
