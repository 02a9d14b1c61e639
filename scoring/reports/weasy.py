"""HTML to PDF with WeasyPrint, and joining PDFs made apart.

A long report is made of parts laid out separately (``parts.py``), by one worker or several;
``join`` puts their PDFs together with pikepdf and stamps each page with what no part could
know alone: its number among all the pages ("3 / 110") and, on a member's first page, their
rank among all the members.

Every handout but the news card extends ``templates/reports/base.html`` and shares the rules of
``static/reports/report.css`` (``REPORT_STYLE``), parsed once in each thread and given to each
document as a user style sheet (``report_style``).

Images (the members' charts) travel beside the HTML as bytes and are fetched by name
(``chart:12.jpg``) rather than as data URIs in the HTML, which WeasyPrint would parse.
"""

from __future__ import annotations

import gc
import io
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

import pikepdf
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

STATIC = Path(__file__).resolve().parents[2] / "static"
BASE_URL = STATIC.as_uri() + "/"
IMAGE_SCHEME = "chart:"
REPORT_STYLE = STATIC / "reports" / "report.css"


# WeasyPrint ships no types, so its URLFetcher is Any to mypy.
class _ImageFetcher(URLFetcher):  # type: ignore[misc]
    """Serve ``chart:NAME`` from ``images`` (set for each document), and the app's own static
    files (the font); nothing else. A handout's HTML holds what a database holds, and a
    restored database is not trusted: a link to a file of the server (``<a rel=attachment
    href=file:///…/secret_key>``) would attach it to the PDF. What is refused is left out of
    the document (WeasyPrint logs it and goes on)."""

    def __init__(self) -> None:
        super().__init__(allowed_protocols={"file", "chart"})
        self.images: Mapping[str, bytes] = {}

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        if url.startswith(IMAGE_SCHEME):
            body = self.images[url.removeprefix(IMAGE_SCHEME)]
            return URLFetcherResponse(url, body, {"Content-Type": "image/jpeg"})
        parsed = urlsplit(url)
        path = Path(url2pathname(unquote(parsed.path))).resolve()
        if parsed.scheme != "file" or not path.is_relative_to(STATIC):
            raise ValueError(f"{url}: not one of the app's static files")
        return super().fetch(path.as_uri(), headers)


_local = threading.local()


MINUS_SIGNS = ("−", "▲")
"""The signs a handout writes a negative number with (``ClubSettings.negative_sign``)."""


def signed_with(html: str, minus: str) -> str:
    """``html`` with each negative number's sign written as the club writes it (``minus``: −,
    or the club's own ▲). Every U+2212 a handout prints is a negative number's sign. Any
    other ``minus`` (a restored database can hold anything) is −: it goes into the HTML
    after the template has escaped what it writes."""
    return html if minus == "−" or minus not in MINUS_SIGNS else html.replace("−", minus)


def _fonts() -> FontConfiguration:
    """This thread's font configuration, made once: it loads the report's font (an
    ``@font-face`` rule) the first time and finds it loaded afterwards, which saves a fifth of
    the time of a small document such as a member's part."""
    fonts: FontConfiguration | None = getattr(_local, "fonts", None)
    if fonts is None:
        fonts = _local.fonts = FontConfiguration()
    return fonts


def _fetcher(images: Mapping[str, bytes]) -> _ImageFetcher:
    """This thread's URL fetcher, made once (making one loads the system's certificates for
    HTTPS, 20 ms: 40 % of an empty document's time), serving ``images``."""
    fetcher: _ImageFetcher | None = getattr(_local, "fetcher", None)
    if fetcher is None:
        fetcher = _local.fetcher = _ImageFetcher()
    fetcher.images = images
    return fetcher


def _report_style() -> CSS:
    """The rules every handout shares (``REPORT_STYLE``), parsed once in this thread: parsing
    them and loading their font for every document was a sixth of a member's part of the
    half-year report. WeasyPrint applies a style sheet given to ``render`` as the user's, so a
    document's own rules (its ``<style>``) outrank these whatever their selectors."""
    sheet: CSS | None = getattr(_local, "report_style", None)
    if sheet is None:
        sheet = _local.report_style = CSS(
            filename=str(REPORT_STYLE), font_config=_fonts(), url_fetcher=_fetcher({})
        )
    return sheet


def render(
    html: str, images: Mapping[str, bytes] | None = None, *, report_style: bool = True
) -> Any:
    """WeasyPrint's document of ``html``, laid out (``report_style``: as ``lay_out``)."""
    sheets = [_report_style()] if report_style else []  # first: it uses the fetcher too
    source = HTML(string=html, base_url=BASE_URL, url_fetcher=_fetcher(images or {}))
    return source.render(font_config=_fonts(), stylesheets=sheets)


def lay_out(
    html: str, images: Mapping[str, bytes] | None = None, *, report_style: bool = True
) -> tuple[bytes, int]:
    """One HTML document as PDF, and how many pages it has. ``report_style``: the document
    extends ``reports/base.html`` and takes the rules of ``REPORT_STYLE`` (every handout but
    the news card).

    The cyclic garbage collector is paused meanwhile: layout makes hundreds of thousands of
    boxes that live until the end, and each collection would walk them all again (the
    half-year report takes about 15 % less time without it)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        document = render(html, images, report_style=report_style)
        pdf: bytes = document.write_pdf()
        return pdf, len(document.pages)
    finally:
        if enabled:
            gc.enable()


def timed(html: str, images: Mapping[str, bytes] | None = None) -> tuple[bytes, int, float, float]:
    """``lay_out`` of a report's part, and the CPU seconds (this process's) of WeasyPrint's
    layout and of writing the PDF: for measuring what a part costs (``bench_reports
    --layout``)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.process_time()
        document = render(html, images)
        laid_out = time.process_time()
        pdf: bytes = document.write_pdf()
        return pdf, len(document.pages), laid_out - start, time.process_time() - laid_out
    finally:
        if enabled:
            gc.enable()


def write_pdf(
    html: str, images: Mapping[str, bytes] | None = None, *, report_style: bool = True
) -> bytes:
    """One HTML document as PDF (``report_style``: as ``lay_out``)."""
    return lay_out(html, images, report_style=report_style)[0]


def join(
    pdfs: Sequence[bytes],
    numbers: Sequence[bytes],
    total: bytes,
    ranks: bytes,
    rank_on: Mapping[int, int],
) -> bytes:
    """The parts' PDFs (read from the reports storage), in order, as one, with pikepdf (qpdf).
    Page i of the joined PDF is stamped with page i of ``numbers`` (their pages one after the
    other: "i /"), every page but the first with the one page of ``total`` (one form shared
    by all), and the pages in ``rank_on`` also with page ``rank_on[i]`` of ``ranks`` (each
    stamp a form drawn over the page). The parts' bookmarks are kept, pointing at the joined
    pages; the first part gives the document's title and language."""
    joined = pikepdf.Pdf.new()
    sources = [pikepdf.Pdf.open(io.BytesIO(pdf)) for pdf in pdfs]
    stamps = [pikepdf.Pdf.open(io.BytesIO(pdf)) for pdf in [*numbers, total, ranks]]
    outline: list[pikepdf.OutlineItem] = []
    for source in sources:
        outline.extend(_bookmarks(source, offset=len(joined.pages)))
        joined.pages.extend(source.pages)
    number_pages = [page for stamp in stamps[:-2] for page in stamp.pages]
    of_total = joined.copy_foreign(stamps[-2].pages[0].as_form_xobject())
    rank_pages = stamps[-1].pages
    for index, page in enumerate(joined.pages):
        whole = pikepdf.Rectangle(page.mediabox)
        page.add_overlay(number_pages[index], whole)
        if index:
            page.add_overlay(of_total, whole)
        if index in rank_on:
            page.add_overlay(rank_pages[rank_on[index]], whole)
    with joined.open_outline() as bookmarks:
        bookmarks.root.extend(outline)
    first = sources[0]
    if "/Title" in first.docinfo:
        joined.docinfo["/Title"] = first.docinfo["/Title"]
    if "/Lang" in first.Root:
        joined.Root.Lang = first.Root.Lang  # ja
    output = io.BytesIO()
    joined.save(output)
    for pdf in [*sources, *stamps]:
        pdf.close()
    return output.getvalue()


def _bookmarks(source: pikepdf.Pdf, offset: int) -> list[pikepdf.OutlineItem]:
    """The bookmarks of ``source`` (with their children) for the joined PDF, whose pages from
    ``offset`` on are this source's."""
    pages: dict[tuple[int, int], int] = {
        page.obj.objgen: number for number, page in enumerate(source.pages)
    }

    def copy(item: pikepdf.OutlineItem) -> pikepdf.OutlineItem:
        target = item.destination
        number = pages.get(target[0].objgen, 0) if isinstance(target, pikepdf.Array) else 0
        new = pikepdf.OutlineItem(str(item.title), offset + number)
        new.children.extend(copy(child) for child in item.children)
        return new

    with source.open_outline() as outline:
        return [copy(item) for item in outline.root]
