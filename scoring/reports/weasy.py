"""HTML to PDF with WeasyPrint, in this process or, for a long report, in parallel.

WeasyPrint lays out a document in one thread; the half-year report (a page or two for each
of fifty members) takes it about 15 s. Its member pages do not depend on one another, so
``write_parallel`` makes the front matter and groups of member pages as separate PDFs in
worker processes, joins them with pypdf and stamps the page numbers ("3 / 110") on the joined
pages, which no part could know alone.

The workers run no Django: they start from a fork server that loads only this module and
the charts' drawing functions.
Images (the members' charts) travel beside the HTML as bytes, or as what to draw them from
when they are not in the cache (the workers draw them, in parallel too), and are fetched by
name (``chart:12.jpg``) rather than as data URIs in the HTML, which WeasyPrint would parse.
"""

from __future__ import annotations

import gc
import io
import logging
import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, cast

from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

logger = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parents[2] / "static"
BASE_URL = STATIC.as_uri() + "/"
IMAGE_SCHEME = "chart:"

# The fork server loads WeasyPrint and matplotlib once; each worker forked from it starts
# in milliseconds.
_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload([__name__, "scoring.reports.charts"])

# A drawing: a module-level function (a worker imports it by name), its arguments, options.
Drawing = tuple[Callable[..., bytes], tuple[object, ...], dict[str, object]]
# A part of a report: its HTML, the images it names, and the images still to be drawn.
Part = tuple[str, Mapping[str, bytes], Mapping[str, Drawing]]
# The HTML of the page-number stamps for pages ``numbers`` of ``total``.
PageNumbers = Callable[[range, int], str]


# WeasyPrint ships no types, so its URLFetcher is Any to mypy.
class _ImageFetcher(URLFetcher):  # type: ignore[misc]
    """Serve ``chart:NAME`` from the images given; everything else (the font) as usual."""

    def __init__(self, images: Mapping[str, bytes]) -> None:
        super().__init__(allowed_protocols={"file", "chart"})
        self.images = images

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        if url.startswith(IMAGE_SCHEME):
            body = self.images[url.removeprefix(IMAGE_SCHEME)]
            return URLFetcherResponse(url, body, {"Content-Type": "image/jpeg"})
        return super().fetch(url, headers)


def write_pdf(html: str, images: Mapping[str, bytes] | None = None) -> bytes:
    """One HTML document as PDF, in this process.

    The cyclic garbage collector is paused meanwhile: layout makes hundreds of thousands of
    boxes that live until the end, and each collection would walk them all again (the
    half-year report takes about 15 % less time without it)."""
    document = HTML(string=html, base_url=BASE_URL, url_fetcher=_ImageFetcher(images or {}))
    enabled = gc.isenabled()
    gc.disable()
    try:
        pdf: bytes = document.write_pdf(font_config=FontConfiguration())
        return pdf
    finally:
        if enabled:
            gc.enable()


def chunks[S: Sequence[Any]](items: S, n: int) -> list[S]:
    """``items`` in ``n`` runs of nearly equal length, in order (none empty)."""
    size, extra = divmod(len(items), n)
    runs: list[S] = []
    start = 0
    for i in range(n):
        end = start + size + (1 if i < extra else 0)
        # A slice of a list, tuple or range is one of its own kind; Sequence's stub says only
        # Sequence.
        runs.append(cast(S, items[start:end]))
        start = end
    return [run for run in runs if run]


def _write_part(part: Part) -> tuple[bytes, dict[str, bytes]]:
    """A part as PDF, and the images it drew (for the caller to keep)."""
    html, images, drawings = part
    drawn = {name: draw(*args, **options) for name, (draw, args, options) in drawings.items()}
    return write_pdf(html, {**images, **drawn}), drawn


def write_parallel(
    parts: Iterable[Part],
    page_numbers: PageNumbers,
    *,
    processes: int,
    on_part: Callable[[int], None] | None = None,
) -> tuple[bytes, dict[str, bytes]]:
    """Make each part a PDF in ``processes`` workers, join them in order and stamp each page
    with its number. Each part goes to a worker as soon as ``parts`` yields it, so the
    caller can prepare the next one meanwhile; the workers also draw the parts' missing
    images. Returns the PDF and the images drawn.

    ``page_numbers(numbers, total)`` gives the HTML of blank pages, one for each of
    ``numbers``, that hold nothing but that page's number, laid out as the parts' pages are;
    the workers make them too, in as many runs as there are workers. ``on_part(n)`` is told
    each time the first ``n`` parts are made."""
    parts = iter(parts)
    sent: list[Part] = []

    def sending() -> Iterator[Part]:
        for part in parts:
            sent.append(part)
            yield part

    try:
        with ProcessPoolExecutor(processes, mp_context=_context) as pool:
            return _make(pool.submit, sending(), page_numbers, processes, on_part)
    except BrokenProcessPool:
        # A worker died (out of memory, killed): make the report here rather than fail.
        logger.warning("PDF workers failed; making the report in one process", exc_info=True)
        return _make(_here, [*sent, *parts], page_numbers, 1, on_part)


def _here[T](fn: Callable[..., T], *args: Any) -> Future[T]:
    """``pool.submit`` without a pool: run ``fn`` now."""
    future: Future[T] = Future()
    future.set_result(fn(*args))
    return future


def _make(
    submit: Callable[..., Future[Any]],
    parts: Iterable[Part],
    page_numbers: PageNumbers,
    processes: int,
    on_part: Callable[[int], None] | None = None,
) -> tuple[bytes, dict[str, bytes]]:
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    made = []
    for future in [submit(_write_part, part) for part in parts]:
        made.append(future.result())
        if on_part is not None:
            on_part(len(made))
    readers = [PdfReader(io.BytesIO(pdf)) for pdf, _drawn in made]
    total = sum(len(reader.pages) for reader in readers)
    runs = chunks(range(1, total + 1), processes)
    stamping = [submit(write_pdf, page_numbers(run, total)) for run in runs]

    writer = PdfWriter()  # joined while the page numbers are made
    for reader in readers:
        writer.append(reader)
    first = readers[0]
    if first.metadata:
        writer.add_metadata(first.metadata)  # the title
    if "/Lang" in first.root_object:
        writer.root_object[NameObject("/Lang")] = first.root_object["/Lang"]  # ja
    stamps = [page for s in stamping for page in PdfReader(io.BytesIO(s.result())).pages]
    for page, stamp in zip(writer.pages, stamps, strict=True):
        page.merge_page(stamp)
        page.compress_content_streams()  # merging left the page's drawing uncompressed
    output = io.BytesIO()
    writer.write(output)
    drawn = {name: image for _pdf, images in made for name, image in images.items()}
    return output.getvalue(), drawn
