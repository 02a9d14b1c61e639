"""Reading an uploaded sheet (CSV or XLSX) into rows, within fixed bounds of bytes, rows,
columns and work, whatever the file says about itself.

A file from outside may be hostile: a 1.6 KB XLSX can declare a sheet of a million rows by
sixteen thousand columns, a 5 MB zip can unpack to gigabytes of XML. So nothing here trusts a
declared size. The zip's parts are checked by their unpacked sizes before any is inflated
(``zipfile`` never inflates a part beyond the size it declares), every XML part is streamed
element by element and each element dropped once read (memory does not grow with the file),
only the columns under the header are kept, and reading stops at the first limit crossed, with
a message that says which. openpyxl is not used for reading: its read-only mode still parses a
whole row, and whole parts such as the shared strings and styles, before we could stop it. Its
small pure helpers (number formats, Excel dates) are used, so values come out as openpyxl would
give them with ``data_only=True``.

The header is the first row with anything in it; its last filled cell (at most
``MAX_COLUMNS``) sets how many columns of every later row are read. Rows with nothing in them
are skipped.
"""

from __future__ import annotations

import csv
import io
import posixpath
import re
import zipfile
from collections.abc import Iterator
from typing import IO, Any

from django.utils.translation import gettext as _
from lxml import etree
from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format, is_timedelta_format
from openpyxl.utils.cell import get_column_letter
from openpyxl.utils.datetime import CALENDAR_MAC_1904, WINDOWS_EPOCH, from_excel, from_ISO8601

MB = 1_048_576
MAX_BYTES = 5 * MB
"""A club's whole history is well under 1 MB; anything over 5 MB is refused."""
MAX_ROWS = 50_000
"""Rows with something in them, the header included."""
MAX_COLUMNS = 40
"""Columns right of this one are never read (the format has a dozen)."""
MAX_CELL_CHARS = 2_000

# The zip (XLSX). A real record sheet of 50,000 rows unpacks to about 25 MB of sheet XML at
# about 14 to 1; these leave room for that and refuse what no spreadsheet makes.
MAX_PARTS = 1_000
MAX_UNPACKED = 80 * MB
MAX_SHEET_XML = 64 * MB
MAX_OTHER_XML = 16 * MB  # the shared strings, styles, workbook, relationships …
MAX_RATIO = 100  # unpacked / packed, for parts over 1 MB
MAX_TAGS = 6_000_000  # tags in one part: bounds the time a part takes (the example: 2.2 M)
MAX_TAGS_HELD = 150_000  # tags the parser may hold at once (about 55 MB); a row has < 70,000
DROP_EVERY = 50_000  # tags: what has been read is dropped this often (and every 1,024 rows)
MAX_SHEET_ROWS = 1_048_576  # Excel's own last row
MAX_SHEET_ENTRIES = 1_000_000  # rows and cells looked at, empty ones too (the example: 0.5 M)
MAX_SHARED_STRINGS = 200_000
MAX_CELL_STYLES = 65_536  # Excel makes at most 64,000

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
OFFICE_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PACKAGE_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
CELL, ROW, VALUE, TEXT, RUN = MAIN + "c", MAIN + "row", MAIN + "v", MAIN + "t", MAIN + "r"
INLINE, SHARED, SHEET_DATA = MAIN + "is", MAIN + "si", MAIN + "sheetData"
RELATIONSHIP = PACKAGE_REL + "Relationship"
CELL_REF = re.compile(r"([A-Z]{1,3})([0-9]{1,7})")
COLUMN_NUMBERS = {get_column_letter(n): n for n in range(1, MAX_COLUMNS + 1)}


UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


class SheetError(ValueError):
    """The file cannot be read, or crosses a limit; the message says which, for the user."""


def too_large(size: int) -> str:
    return _("The file is too large (%(size)s MB; at most %(limit)s MB).") % {
        "size": f"{size / MB:.1f}",
        "limit": MAX_BYTES // MB,
    }


def read_sheet(data: bytes, *, max_rows: int = MAX_ROWS) -> list[list[Any]]:
    """The rows with anything in them, the header first, each cut to the header's width.

    CSV in UTF-8 (with or without BOM) or Shift_JIS/cp932, text with tabs between cells in
    those or in UTF-16 with a BOM (Excel's 「Unicode テキスト」), or the first worksheet of an
    XLSX file. Raises SheetError with a message for the user.
    """
    if len(data) > MAX_BYTES:
        raise SheetError(too_large(len(data)))
    if not data.strip():
        raise SheetError(_("The file is empty."))
    table = _Table(max_rows)
    if data[:4] == b"PK\x03\x04":
        _read_xlsx(data, table)
    elif data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise SheetError(
            _(
                "This is an old Excel file (.xls) or one protected by a password. Save it "
                "as an Excel workbook (.xlsx) without a password, or as CSV."
            )
        )
    elif data.startswith(UTF16_BOMS):  # Excel's 「Unicode テキスト」 (tabs between cells)
        _read_csv(_decode_utf16(data), table)
    elif b"\x00" in data[:8192]:
        raise SheetError(_("This is not a CSV or Excel (XLSX) file."))
    else:
        _read_csv(decode(data), table)
    return table.rows


class _Table:
    """Collects the rows with anything in them and knows how many columns to read."""

    def __init__(self, max_rows: int) -> None:
        self.rows: list[list[Any]] = []
        self.max_rows = max_rows
        self.width = MAX_COLUMNS  # until the header is found

    def add(self, number: int, cells: list[Any]) -> None:
        """Row ``number`` of the file (as a spreadsheet counts, for messages)."""
        del cells[self.width :]
        filled = [i for i, value in enumerate(cells) if _filled(value)]
        if not filled:
            return
        for value in cells:
            if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
                raise SheetError(
                    _("Row %(row)s has a cell of more than %(n)s characters.")
                    % {"row": number, "n": f"{MAX_CELL_CHARS:,}"}
                )
        if not self.rows:
            self.width = filled[-1] + 1
            del cells[self.width :]
        if len(self.rows) >= self.max_rows:
            raise SheetError(_("The file has more than %(n)s rows.") % {"n": f"{self.max_rows:,}"})
        self.rows.append(cells)


def _filled(value: Any) -> bool:
    return value is not None and not (isinstance(value, str) and not value.strip())


# --- CSV -------------------------------------------------------------------------------


def _read_csv(text: str, table: _Table) -> None:
    """Cells between commas, or between tabs when the first line has more tabs than commas
    (a sheet saved as text: Excel's 「Unicode テキスト」 or 「テキスト（タブ区切り）」)."""
    first_line = text.lstrip("\r\n").partition("\n")[0]
    delimiter = "\t" if first_line.count("\t") > first_line.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        for row in reader:
            table.add(reader.line_num, row)
    except csv.Error as error:
        raise SheetError(
            _("Line %(line)s of the CSV file cannot be read (%(reason)s).")
            % {"line": reader.line_num, "reason": error}
        ) from None


def _decode_utf16(data: bytes) -> str:
    """UTF-16 behind its byte-order mark, as Excel saves 「Unicode テキスト」 (little-endian)."""
    try:
        return data.decode("utf-16")  # reads the BOM for the byte order and drops it
    except UnicodeDecodeError:
        raise SheetError(
            _("The file's characters cannot be read (use UTF-8 or Shift_JIS).")
        ) from None


def decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for encoding in ("utf-8", "cp932"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise SheetError(_("The file's characters cannot be read (use UTF-8 or Shift_JIS)."))


# --- XLSX ------------------------------------------------------------------------------


def _damaged() -> SheetError:
    return SheetError(_("This Excel file cannot be read (it is damaged)."))


def _read_xlsx(data: bytes, table: _Table) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        _check_zip(archive)
        _XlsxReader(archive).read_first_sheet(table)
    except SheetError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError) as error:
        # Not a zip after all, a damaged one, or packed in a way zipfile cannot unpack.
        raise SheetError(_("This Excel file cannot be read.")) from error
    except (etree.LxmlError, OSError, ValueError, IndexError, KeyError, OverflowError) as error:
        # Broken XML, a part missing, a shared string that is not there, a wrong number …
        raise _damaged() from error


def _check_zip(archive: zipfile.ZipFile) -> None:
    """Refuse, from the sizes the zip declares, what would take too long or too much memory."""
    parts = archive.infolist()
    if len(parts) > MAX_PARTS:
        raise SheetError(
            _("This Excel file has %(n)s parts; a workbook has far fewer. It is refused.")
            % {"n": f"{len(parts):,}"}
        )
    unpacked = sum(part.file_size for part in parts)
    if unpacked > MAX_UNPACKED:
        raise SheetError(
            _("This Excel file unpacks to %(size)s MB (at most %(limit)s MB is read).")
            % {"size": f"{unpacked / MB:,.1f}", "limit": MAX_UNPACKED // MB}
        )
    for part in parts:
        if part.flag_bits & 0x1:
            raise SheetError(_("This Excel file cannot be read (it is protected by a password)."))
        if part.file_size > MB and part.file_size > MAX_RATIO * max(part.compress_size, 1):
            raise SheetError(
                _(
                    "A part of this Excel file (%(part)s) is packed %(ratio)s to 1, far more "
                    "than any spreadsheet; it is refused."
                )
                % {
                    "part": part.filename,
                    "ratio": f"{part.file_size // max(part.compress_size, 1):,}",
                }
            )


class _Counted(io.RawIOBase):
    """A part as it is unpacked, counting its tags: too many in the part, or held by the
    parser since what was read was last dropped, stop the reading."""

    def __init__(self, source: IO[bytes], name: str) -> None:
        self.source, self.name = source, name
        self.tags = self.held = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        chunk = self.source.read(size)
        tags = chunk.count(b"<")
        self.tags += tags
        self.held += tags
        if self.tags > MAX_TAGS or self.held > MAX_TAGS_HELD:
            raise SheetError(
                _(
                    "A part of this Excel file (%(part)s) holds more than can be read; it is refused."
                )
                % {"part": self.name}
            )
        return chunk


class _XlsxReader:
    """The first worksheet of a workbook, read as openpyxl reads it with data_only=True."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        self.archive = archive

    def read_first_sheet(self, table: _Table) -> None:
        workbook = self._office_document()
        relations = self._relations(workbook)
        sheet, date1904 = self._first_sheet(workbook, relations)
        self.epoch = CALENDAR_MAC_1904 if date1904 else WINDOWS_EPOCH
        self.shared = self._shared_strings(relations)
        self.dates, self.timedeltas = self._date_styles(relations)
        self._read_rows(sheet, table)

    # The parts and how they are found --------------------------------------------------

    def _elements(self, name: str, limit: int, tags: tuple[str, ...]) -> Iterator[Any]:
        """The elements of a part with these tags, each (with what it holds) as it ends.

        Each is emptied once handled; now and then everything the parser has built before
        it is dropped, so that memory holds a few thousand elements, whatever the part."""
        info = self.archive.getinfo(name)
        if info.file_size > limit:
            raise SheetError(
                _(
                    "A part of this Excel file (%(part)s) unpacks to %(size)s MB "
                    "(at most %(limit)s MB)."
                )
                % {"part": name, "size": f"{info.file_size / MB:,.1f}", "limit": limit // MB}
            )
        handed = 0
        with self.archive.open(info) as part:
            source = _Counted(part, name)
            for _event, element in etree.iterparse(
                source,
                events=("end",),
                tag=tags,
                resolve_entities=False,
                no_network=True,
                load_dtd=False,
                huge_tree=False,
                remove_comments=True,
                remove_pis=True,
            ):
                yield element
                element.clear(keep_tail=False)
                handed += 1
                if source.held > DROP_EVERY or handed % 1024 == 0:
                    node = element
                    while (parent := node.getparent()) is not None:
                        del parent[: parent.index(node)]
                        node = parent
                    source.held = 0

    def _office_document(self) -> str:
        if "_rels/.rels" in self.archive.NameToInfo:
            for element in self._elements("_rels/.rels", MAX_OTHER_XML, (RELATIONSHIP,)):
                if element.get("Type", "").endswith("/officeDocument"):
                    return _target("", element.get("Target", ""))
        raise SheetError(
            _("This Excel file cannot be read (it is a zip file, but not an Excel workbook).")
        )

    def _relations(self, part: str) -> dict[str, tuple[str, str]]:
        """Id → (type, part name) of the relationships of ``part``."""
        folder, name = posixpath.split(part)
        rels = posixpath.join(folder, "_rels", name + ".rels")
        if rels not in self.archive.NameToInfo:
            return {}
        return {
            element.get("Id", ""): (
                element.get("Type", "").rsplit("/", 1)[-1],
                _target(folder, element.get("Target", "")),
            )
            for element in self._elements(rels, MAX_OTHER_XML, (RELATIONSHIP,))
        }

    def _first_sheet(
        self, workbook: str, relations: dict[str, tuple[str, str]]
    ) -> tuple[str, bool]:
        """The part of the first worksheet (chart sheets skipped), and whether dates count
        from 1904."""
        if workbook not in self.archive.NameToInfo:
            raise SheetError(
                _("This Excel file cannot be read (it is a zip file, but not an Excel workbook).")
            )
        date1904 = False
        for element in self._elements(
            workbook, MAX_OTHER_XML, (MAIN + "workbookPr", MAIN + "sheet")
        ):
            if element.tag == MAIN + "workbookPr":
                date1904 = element.get("date1904", "").lower() in ("1", "true")
                continue
            kind, part = relations.get(element.get(OFFICE_REL + "id", ""), ("", ""))
            if kind == "worksheet" and part in self.archive.NameToInfo:
                return part, date1904
        raise SheetError(_("This Excel file cannot be read (it has no sheet)."))

    def _shared_strings(self, relations: dict[str, tuple[str, str]]) -> list[str]:
        part = next((p for kind, p in relations.values() if kind == "sharedStrings"), None)
        if part is None or part not in self.archive.NameToInfo:
            return []
        strings: list[str] = []
        for element in self._elements(part, MAX_OTHER_XML, (SHARED,)):
            if len(strings) == MAX_SHARED_STRINGS:
                raise SheetError(
                    _("This Excel file has more than %(n)s different texts; it is refused.")
                    % {"n": f"{MAX_SHARED_STRINGS:,}"}
                )
            strings.append(_text_of(element))
        return strings

    def _date_styles(self, relations: dict[str, tuple[str, str]]) -> tuple[set[int], set[int]]:
        """The cell styles (by index) whose number format shows a date, or a duration."""
        part = next((p for kind, p in relations.values() if kind == "styles"), None)
        if part is None or part not in self.archive.NameToInfo:
            return set(), set()
        custom: dict[int, str] = {}
        formats: list[str | None] = []
        for element in self._elements(part, MAX_OTHER_XML, (MAIN + "numFmt", MAIN + "xf")):
            if element.tag == MAIN + "numFmt":
                custom[int(element.get("numFmtId", "0"))] = element.get("formatCode", "")
            elif element.getparent().tag == MAIN + "cellXfs":
                if len(formats) == MAX_CELL_STYLES:
                    raise SheetError(
                        _("This Excel file has more than %(n)s cell styles; it is refused.")
                        % {"n": f"{MAX_CELL_STYLES:,}"}
                    )
                number = int(element.get("numFmtId", "0"))
                formats.append(custom.get(number, BUILTIN_FORMATS.get(number)))
        dates = {i for i, fmt in enumerate(formats) if is_date_format(fmt)}
        timedeltas = {i for i, fmt in enumerate(formats) if is_timedelta_format(fmt)}
        return dates, timedeltas

    # The sheet -------------------------------------------------------------------------

    def _read_rows(self, sheet: str, table: _Table) -> None:
        row_number = entries = 0
        for row in self._elements(sheet, MAX_SHEET_XML, (ROW, SHEET_DATA)):
            if row.tag == SHEET_DATA:
                return  # what follows the cells is not needed
            entries += 1
            number = row.get("r")
            row_number = int(number) if number else row_number + 1
            if not 0 < row_number <= MAX_SHEET_ROWS:
                raise _damaged()
            cells: list[Any] = []
            column = 0
            for cell in row.iterchildren(CELL):
                reference = cell.get("r")
                if reference:
                    column = COLUMN_NUMBERS.get(reference.rstrip("0123456789"), 0)
                    if not column:
                        if CELL_REF.fullmatch(reference) is None:
                            raise _damaged()
                        break  # right of the last column ever read
                else:
                    column += 1
                if column > table.width:
                    break  # cells are in column order; the rest are right of the header
                entries += 1
                if len(cell):  # a cell with nothing in it has no <v> or <is>
                    if column > len(cells):
                        cells.extend([None] * (column - len(cells)))
                    cells[column - 1] = self._value(cell)
            if entries > MAX_SHEET_ENTRIES:
                raise SheetError(
                    _(
                        "The sheet has more than %(n)s rows and cells (empty ones too); it is refused."
                    )
                    % {"n": f"{MAX_SHEET_ENTRIES:,}"}
                )
            if cells:
                table.add(row_number, cells)

    def _value(self, cell: Any) -> Any:
        kind = cell.get("t", "n")
        if kind == "inlineStr":
            inline = cell.find(INLINE)
            return None if inline is None else _text_of(inline)
        if len(cell) == 1 and (only := cell[0]).tag == VALUE:  # most cells: one <v>
            value = only.text
        else:
            value = cell.findtext(VALUE)
        if not value:
            return None
        if kind == "n":
            number: int | float = float(value) if any(c in value for c in ".Ee") else int(value)
            style = int(cell.get("s", "0"))
            if style in self.dates:
                try:
                    return from_excel(number, self.epoch, timedelta=style in self.timedeltas)
                except (OverflowError, ValueError):
                    return number
            return number
        if kind == "s":
            index = int(value)
            if not 0 <= index < len(self.shared):
                raise _damaged()
            return self.shared[index]
        if kind == "b":
            return bool(int(value))
        if kind == "d":
            # types-openpyxl leaves from_ISO8601 unannotated (it returns a date/datetime/time).
            return from_ISO8601(value)  # type: ignore[no-untyped-call]
        return value  # "str" (a formula's text), "e" (an error such as #N/A)


def _text_of(element: Any) -> str:
    """The text of a shared or inline string: its own text and its runs', not the furigana."""
    parts = []
    for child in element:
        tag = child.tag
        if tag == TEXT:
            parts.append(child.text or "")
        elif tag == RUN:
            parts.append(child.findtext(TEXT) or "")
    return "".join(parts)


def _target(folder: str, target: str) -> str:
    """A relationship's target as a part name in the zip."""
    if target.startswith("/"):
        return target[1:]
    return posixpath.normpath(posixpath.join(folder, target))
