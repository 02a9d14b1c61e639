"""Hostile and malformed record sheets, made on the fly, and a measurement of reading one.

The files are built from the good XLSX of test_imports.py with some of its parts replaced.
Run as a script to write them into a folder (to measure them by hand, docs/security.md, "Hostile files"):

    .venv/bin/python -m tests.scoring.hostile_files write DIR [--full-bomb]

or to read one file in this process under a memory limit and print what it took:

    .venv/bin/python -m tests.scoring.hostile_files measure FILE [--limit-mb 200]
"""

from __future__ import annotations

import io
import json
import os
import re
import resource
import struct
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

SHEET = "xl/worksheets/sheet1.xml"
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
DATA_ROW = (
    b'<row><c t="inlineStr"><is><t>2025-04-09</t></is></c><c t="inlineStr"><is><t>wed</t>'
    b'</is></c><c><v>1</v></c><c><v>1</v></c><c t="inlineStr"><is><t>E</t></is></c>'
    b'<c t="inlineStr"><is><t>Higashiyama</t></is></c><c><v>32600</v></c></row>'
)


def good_xlsx() -> bytes:
    from tests.scoring.test_imports import xlsx_bytes

    return xlsx_bytes()


def with_parts(
    replace: dict[str, bytes] | None = None,
    drop: tuple[str, ...] = (),
    *,
    level: int = 6,
) -> bytes:
    """The good XLSX with some parts replaced (or added) and some left out."""
    replace = replace or {}
    source = zipfile.ZipFile(io.BytesIO(good_xlsx()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as target:
        for name in source.namelist():
            if name not in drop and name not in replace:
                target.writestr(name, source.read(name))
        for name, content in replace.items():
            target.writestr(name, content)
    return out.getvalue()


def sheet_xml(rows: bytes, dimension: str | None = None) -> bytes:
    """A sheet of these rows; without a dimension unless one is given (openpyxl's reader
    trusts a dimension and would read no further than it says)."""
    header = good_sheet_xml().split(b"<sheetData>")[0]
    declared = f'<dimension ref="{dimension}"/>'.encode() if dimension else b""
    header = re.sub(rb'<dimension ref="[^"]*"/>', declared, header)
    return header + b"<sheetData>" + rows + b"</sheetData></worksheet>"


def good_sheet_xml() -> bytes:
    return zipfile.ZipFile(io.BytesIO(good_xlsx())).read(SHEET)


def good_rows_xml() -> bytes:
    return good_sheet_xml().split(b"<sheetData>")[1].split(b"</sheetData>")[0]


# --- hostile: too big, too wide, too many ----------------------------------------------


def dimension_bomb() -> bytes:
    """3 KB that declares a sheet of 1,048,576 rows by 16,384 columns (XFD), with a cell in
    its last row."""
    last = b'<row r="1048576"><c r="A1048576"><v>1</v></c></row>'
    return with_parts(
        {SHEET: sheet_xml(good_rows_xml() + last, "A1:XFD1048576")},
        drop=("xl/theme/theme1.xml", "docProps/app.xml", "docProps/core.xml"),
        level=9,
    )


def zip_bomb(unpacked_mb: int = 100) -> bytes:
    """A sheet of ``unpacked_mb`` MB of rows, packed about a thousand to one."""
    source = zipfile.ZipFile(io.BytesIO(good_xlsx()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for name in source.namelist():
            if name != SHEET:
                target.writestr(name, source.read(name))
        with target.open(SHEET, "w", force_zip64=True) as sheet:
            head, tail = sheet_xml(b"@").split(b"@")
            sheet.write(head + good_rows_xml().split(b"</row>")[0] + b"</row>")
            block = DATA_ROW * 4096
            for _ in range(unpacked_mb * 1_048_576 // len(block)):
                sheet.write(block)
            sheet.write(tail)
    return out.getvalue()


def packed_too_tightly() -> bytes:
    """Under every size limit, but packed far tighter than any spreadsheet (3 MB → 4 KB)."""
    return with_parts({SHEET: sheet_xml(b"<row/>" * 500_000)}, level=9)


def cells(n: int) -> bytes:
    """``n`` empty cells in column Z (right of the header), each its own reference."""
    return b"".join(b'<c r="Z%d"/>' % i for i in range(n))


def wide_row() -> bytes:
    """Every row as wide as Excel allows: 16,375 cells right of the header's 9 columns."""
    rows = good_rows_xml().replace(b"</row>", cells(16_375) + b"</row>")
    return with_parts({SHEET: sheet_xml(rows)})


def endless_row() -> bytes:
    """One row of 1,000,000 cells: more than a row can hold."""
    rows = good_rows_xml().replace(b"</row>", cells(1_000_000) + b"</row>", 2)
    return with_parts({SHEET: sheet_xml(rows)})


def empty_rows() -> bytes:
    """A million empty rows after the data, each with its number."""
    rows = b"".join(b'<row r="%d"/>' % i for i in range(10, 1_048_577))
    return with_parts({SHEET: sheet_xml(good_rows_xml() + rows)})


def styled_cells() -> bytes:
    """A border drawn round A1:L200000: 2.4 million cells with a style and nothing in them."""
    row = b"".join(b'<c r="%s%%d" s="1"/>' % letter.encode() for letter in "ABCDEFGHIJKL")
    body = b"".join(
        b'<row r="%d">' % i + row.replace(b"%d", b"%d" % i) + b"</row>" for i in range(10, 200_000)
    )
    return with_parts({SHEET: sheet_xml(good_rows_xml() + body)})


def too_many_rows(n: int = 60_000) -> bytes:
    """60,000 rows and then broken XML: only a reader that stops at the 50,000-row limit,
    while reading, says so (one that reads everything first finds the break)."""
    body = b"".join(DATA_ROW.replace(b"<v>1</v>", b"<v>%d</v>" % i, 1) for i in range(n))
    return with_parts({SHEET: sheet_xml(good_rows_xml() + body)[:-30]})


def many_texts() -> bytes:
    """400,000 different texts in the shared strings."""
    strings = b"".join(b"<si><t>%d</t></si>" % i for i in range(400_000))
    table = f'<sst xmlns="{MAIN}">'.encode() + strings + b"</sst>"
    rels = zipfile.ZipFile(io.BytesIO(good_xlsx())).read("xl/_rels/workbook.xml.rels")
    rels = rels.replace(
        b"</Relationships>",
        b'<Relationship Id="rId9" Target="sharedStrings.xml" Type="http://schemas.'
        b'openxmlformats.org/officeDocument/2006/relationships/sharedStrings"/></Relationships>',
    )
    return with_parts({"xl/sharedStrings.xml": table, "xl/_rels/workbook.xml.rels": rels})


def many_styles() -> bytes:
    """Four hundred thousand cell styles (Excel makes at most 64,000)."""
    styles = (
        f'<styleSheet xmlns="{MAIN}"><cellXfs>'.encode()
        + b"".join(b'<xf numFmtId="14" fontId="%d"/>' % i for i in range(400_000))
        + b"</cellXfs></styleSheet>"
    )
    return with_parts({"xl/styles.xml": styles})


def everything_at_once() -> bytes:
    """Just under each limit at once: 199,999 texts, 65,000 styles, 990,000 rows and cells."""
    strings = b"".join(b"<si><t>%d</t></si>" % i for i in range(199_999))
    styles = b"".join(b'<xf numFmtId="14" fontId="%d"/>' % i for i in range(65_000))
    row = b"".join(b'<c r="%s%%d" s="1"/>' % letter.encode() for letter in "ABCDEFGHI")
    body = b"".join(
        b'<row r="%d">' % i + row.replace(b"%d", b"%d" % i) + b"</row>" for i in range(10, 99_000)
    )
    rels = zipfile.ZipFile(io.BytesIO(good_xlsx())).read("xl/_rels/workbook.xml.rels")
    rels = rels.replace(
        b"</Relationships>",
        b'<Relationship Id="rId9" Target="sharedStrings.xml" Type="http://schemas.'
        b'openxmlformats.org/officeDocument/2006/relationships/sharedStrings"/></Relationships>',
    )
    return with_parts(
        {
            SHEET: sheet_xml(good_rows_xml() + body),
            "xl/sharedStrings.xml": f'<sst xmlns="{MAIN}">'.encode() + strings + b"</sst>",
            "xl/_rels/workbook.xml.rels": rels,
            "xl/styles.xml": f'<styleSheet xmlns="{MAIN}"><cellXfs>'.encode()
            + styles
            + b"</cellXfs></styleSheet>",
        }
    )


def full_bomb() -> bytes:
    """Like the file of the issue (4.8 MB holding 1.4 GB): 4.7 MB holding 1.2 GB of sheet
    XML, as much as fits under the 5 MB upload limit (slow to make)."""
    return zip_bomb(1_200)


HOSTILE: dict[str, Callable[[], bytes]] = {
    "dimension": dimension_bomb,
    "zip bomb": zip_bomb,
    "packed too tightly": packed_too_tightly,
    "wide row": wide_row,
    "endless row": endless_row,
    "empty rows": empty_rows,
    "styled cells": styled_cells,
    "too many rows": too_many_rows,
    "many texts": many_texts,
    "many styles": many_styles,
    "everything at once": everything_at_once,
}


# --- malformed -------------------------------------------------------------------------


def truncated_xml() -> bytes:
    return with_parts({SHEET: good_sheet_xml()[:1500]})


def no_sheet() -> bytes:
    workbook = zipfile.ZipFile(io.BytesIO(good_xlsx())).read("xl/workbook.xml")
    return with_parts({"xl/workbook.xml": re.sub(rb"<sheets>.*</sheets>", b"<sheets/>", workbook)})


def bad_shared_string() -> bytes:
    rows = good_rows_xml().replace(
        b'<c r="C2" t="n"><v>1</v></c>', b'<c r="C2" t="s"><v>99</v></c>'
    )
    assert b'"s"><v>99<' in rows
    return with_parts({SHEET: sheet_xml(rows)})


def not_a_workbook() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        target.writestr("readme.txt", "nothing to see")
    return out.getvalue()


def lying_sizes() -> bytes:
    """The sheet's entry in the zip's directory says 2,000 bytes; it holds far more."""
    data = bytearray(with_parts({SHEET: sheet_xml(good_rows_xml() * 50)}))
    entry = data.index(b"PK\x01\x02")
    while True:  # the sheet's entry in the central directory
        name_length = struct.unpack_from("<H", data, entry + 28)[0]
        if data[entry + 46 : entry + 46 + name_length] == SHEET.encode():
            break
        entry = data.index(b"PK\x01\x02", entry + 4)
    struct.pack_into("<I", data, entry + 24, 2_000)
    return bytes(data)


def old_xls() -> bytes:
    return b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 4000


MALFORMED: dict[str, Callable[[], bytes]] = {
    "truncated xml": truncated_xml,
    "no sheet": no_sheet,
    "bad shared string": bad_shared_string,
    "not a workbook": not_a_workbook,
    "lying sizes": lying_sizes,
    "old xls": old_xls,
}


# --- measuring -------------------------------------------------------------------------


def vm_kb(field: str) -> int:
    status = Path("/proc/self/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+) kB", status, re.MULTILINE)[1])  # type: ignore[index]


def measure(path: str, limit_mb: int) -> dict[str, object]:
    """Read one file with ``read_table`` under an address-space limit of what this process
    already uses plus ``limit_mb``; what it took and what it said."""
    from django.utils import translation

    from scoring.imports import read_table

    translation.activate("ja")
    read_table(good_xlsx())  # warm: every module imported, every cache filled
    data = Path(path).read_bytes()
    before_kb = vm_kb("VmSize")
    Path("/proc/self/clear_refs").write_text("5")  # the peak (VmHWM) starts again from here
    rss_before_kb = vm_kb("VmRSS")
    limit = (before_kb + limit_mb * 1024) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    started = time.perf_counter()
    try:
        rows = read_table(data)
        outcome = f"read {len(rows)} rows"
    except ValueError as error:
        outcome = str(error)
    except MemoryError:
        outcome = "MemoryError"
    seconds = time.perf_counter() - started
    return {
        "file": path,
        "bytes": len(data),
        "seconds": round(seconds, 2),
        "extra_rss_mb": round(
            (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before_kb) / 1024, 1
        ),
        "extra_vm_mb": round((vm_kb("VmPeak") - before_kb) / 1024, 1),
        "outcome": outcome,
    }


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shirakaba.settings")
    import django

    django.setup()
    if argv[:1] == ["write"]:
        folder = Path(argv[1])
        folder.mkdir(parents=True, exist_ok=True)
        makers = {**HOSTILE, **MALFORMED}
        if "--full-bomb" in argv:
            makers["full bomb"] = full_bomb
        for name, make in makers.items():
            path = folder / (name.replace(" ", "-") + (".xlsx" if name != "old xls" else ".xls"))
            path.write_bytes(make())
            print(f"{path}  {path.stat().st_size:,} bytes")
    elif argv[:1] == ["measure"]:
        limit = int(argv[argv.index("--limit-mb") + 1]) if "--limit-mb" in argv else 200
        print(json.dumps(measure(argv[1], limit), ensure_ascii=False))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
