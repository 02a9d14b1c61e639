"""HTML to PDF with WeasyPrint, in this process or, for a long report, in parallel.

WeasyPrint lays out a document in one thread; the half-year report (a page or two for each
of fifty members) takes it about 15 s. Its member pages do not depend on one another, so
``write_parallel`` makes the front matter and groups of member pages as separate PDFs in
worker processes, joins them with pypdf and stamps the page numbers ("3 / 110") on the joined
pages, which no part could know alone.

This module imports no Django: the workers start from a fork server that loads only it.
Images (the members' charts) travel beside the HTML as bytes and are fetched by name
(``chart:12.jpg``), rather than as data URIs in the HTML, which WeasyPrint would parse.
"""

from __future__ import annotations

import gc
import io
import logging
import multiprocessing
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

logger = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parents[2] / "static"
BASE_URL = STATIC.as_uri() + "/"
IMAGE_SCHEME = "chart:"

# The fork server loads WeasyPrint once; each worker forked from it starts in milliseconds.
_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload([__name__])

Part = tuple[str, Mapping[str, bytes]]  # HTML and the images it names


class _ImageFetcher(URLFetcher):
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
        return document.write_pdf(font_config=FontConfiguration())
    finally:
        if enabled:
            gc.enable()


def _write_part(part: Part) -> bytes:
    return write_pdf(*part)


def write_parallel(
    parts: Iterable[Part], page_numbers: Callable[[int], str], *, processes: int
) -> bytes:
    """Make each part a PDF in ``processes`` workers, join them in order and stamp each page
    with the page numbers from ``page_numbers(n)``: the HTML of ``n`` pages that hold nothing
    but those numbers, laid out as the parts' pages are. Each part goes to a worker as soon
    as ``parts`` yields it, so the caller can prepare the next one meanwhile."""
    parts = iter(parts)
    sent: list[Part] = []
    try:
        with ProcessPoolExecutor(processes, mp_context=_context) as pool:
            futures = []
            for part in parts:
                sent.append(part)
                futures.append(pool.submit(_write_part, part))
            pdfs = [future.result() for future in futures]
    except BrokenProcessPool:
        # A worker died (out of memory, killed): make the report here rather than fail.
        logger.warning("PDF workers failed; making the report in one process", exc_info=True)
        pdfs = [write_pdf(*part) for part in [*sent, *parts]]
    return _join(pdfs, page_numbers)


def _join(pdfs: Sequence[bytes], page_numbers: Callable[[int], str]) -> bytes:
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    writer = PdfWriter()
    for pdf in pdfs:
        writer.append(PdfReader(io.BytesIO(pdf)))
    stamps = PdfReader(io.BytesIO(write_pdf(page_numbers(len(writer.pages)))))
    for page, stamp in zip(writer.pages, stamps.pages, strict=True):
        page.merge_page(stamp)
        page.compress_content_streams()  # merging left the page's drawing uncompressed
    first = PdfReader(io.BytesIO(pdfs[0]))
    if first.metadata:
        writer.add_metadata(first.metadata)  # the title
    if "/Lang" in first.root_object:
        writer.root_object[NameObject("/Lang")] = first.root_object["/Lang"]  # ja
    output = io.BytesIO()
    writer.write(output)
    return output.getvalue()
