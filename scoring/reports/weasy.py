"""HTML to PDF with WeasyPrint, and joining PDFs made apart.

A long report is made of parts laid out separately (``parts.py``), by one worker or several;
``join`` puts their PDFs together with pypdf and stamps each page with what no part could
know alone: its number among all the pages ("3 / 110") and, on a member's first page, their
rank among all the members.

Images (the members' charts) travel beside the HTML as bytes and are fetched by name
(``chart:12.jpg``) rather than as data URIs in the HTML, which WeasyPrint would parse.
"""

from __future__ import annotations

import gc
import io
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

STATIC = Path(__file__).resolve().parents[2] / "static"
BASE_URL = STATIC.as_uri() + "/"
IMAGE_SCHEME = "chart:"


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


_local = threading.local()


def _fonts() -> FontConfiguration:
    """This thread's font configuration, made once: it loads the report's font (an
    ``@font-face`` rule) the first time and finds it loaded afterwards, which saves a fifth of
    the time of a small document such as a member's part."""
    fonts: FontConfiguration | None = getattr(_local, "fonts", None)
    if fonts is None:
        fonts = _local.fonts = FontConfiguration()
    return fonts


def lay_out(html: str, images: Mapping[str, bytes] | None = None) -> tuple[bytes, int]:
    """One HTML document as PDF, and how many pages it has.

    The cyclic garbage collector is paused meanwhile: layout makes hundreds of thousands of
    boxes that live until the end, and each collection would walk them all again (the
    half-year report takes about 15 % less time without it)."""
    source = HTML(string=html, base_url=BASE_URL, url_fetcher=_ImageFetcher(images or {}))
    enabled = gc.isenabled()
    gc.disable()
    try:
        document = source.render(font_config=_fonts())
        pdf: bytes = document.write_pdf()
        return pdf, len(document.pages)
    finally:
        if enabled:
            gc.enable()


def write_pdf(html: str, images: Mapping[str, bytes] | None = None) -> bytes:
    """One HTML document as PDF."""
    return lay_out(html, images)[0]


def join(pdfs: Sequence[Path], numbers: Path, ranks: Path, rank_on: Mapping[int, int]) -> bytes:
    """The parts' PDFs, in order, as one. Page i of the joined PDF is stamped with page i of
    ``numbers``, and the pages in ``rank_on`` also with page ``rank_on[i]`` of ``ranks``. The
    first part gives the document's title and language."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    readers = [PdfReader(pdf) for pdf in pdfs]
    number_pages, rank_pages = PdfReader(numbers).pages, PdfReader(ranks).pages
    writer = PdfWriter()
    for reader in readers:
        writer.append(reader)
    first = readers[0]
    if first.metadata:
        writer.add_metadata(first.metadata)  # the title
    if "/Lang" in first.root_object:
        writer.root_object[NameObject("/Lang")] = first.root_object["/Lang"]  # ja
    for index, page in enumerate(writer.pages):
        page.merge_page(number_pages[index])
        if index in rank_on:
            page.merge_page(rank_pages[rank_on[index]])
        page.compress_content_streams()  # merging left the page's drawing uncompressed
    output = io.BytesIO()
    writer.write(output)
    return output.getvalue()
