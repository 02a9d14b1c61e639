"""What the tests build, in one place: record sheets (good, malformed and hostile), the
worked table, a club of games, form posts, the processes a test starts, and readers of what
the app writes. Test modules import these from here; no test module imports another."""

from __future__ import annotations

import functools
import importlib
import io
import os
import random
import re
import shlex
import struct
import subprocess
import sys
import zipfile
from collections.abc import Callable, Sequence
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.core.management.sql import emit_post_migrate_signal
from django.db import connection
from django.db.models import F
from django.urls import URLPattern, URLResolver, get_resolver
from openpyxl import Workbook, load_workbook
from playwright.sync_api import Page
from pypdf import PdfReader

from members.models import Club, ClubRole, Invitation, Member
from members.roles import ORGANIZER
from members.scopes import in_club, scopes_disabled
from scoring.models import (
    Answer,
    Award,
    BigHand,
    CalendarLink,
    ClubSettings,
    DrawnPlace,
    Hanchan,
    HanchanResult,
    HandLevel,
    Meet,
    PlayerEntry,
    Report,
    ReportStatus,
    RuleSet,
    StandingsGroup,
    settlement_writes,
)
from scoring.reports.cells import headings
from scoring.reports.xlsx import TITLE_ROWS
from scoring.standings import STANDINGS, Medium, Period, Shown

ROOT = Path(__file__).resolve().parents[1]
"""The project's folder (manage.py, README.md)."""


# --- hostile and malformed Excel files, built from the good one -----------------------

SHEET = "xl/worksheets/sheet1.xml"


MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


DATA_ROW = (
    b'<row><c t="inlineStr"><is><t>2025-04-09</t></is></c><c t="inlineStr"><is><t>wed</t>'
    b'</is></c><c><v>1</v></c><c><v>1</v></c><c t="inlineStr"><is><t>E</t></is></c>'
    b'<c t="inlineStr"><is><t>Higashiyama</t></is></c><c><v>32600</v></c></row>'
)


def good_xlsx() -> bytes:
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


def vm_kb(field: str) -> int:
    status = Path("/proc/self/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+) kB", status, re.MULTILINE)[1])  # type: ignore[index]


# --- record sheets -------------------------------------------------------------------

HEADER = "日付,例会,卓,回戦,席,氏名,持ち点,錯和,満貫以上"


# DOMAIN.md's worked table, then a second game at table 2.
GOOD_ROWS = [
    "2025-04-09,水曜会,1,1,東,東山 一郎,32600,1,満貫;役満(国士無双)",
    "2025-04-09,水曜会,1,1,南,南野 花子,30000,,",
    "2025-04-09,水曜会,1,1,西,西川 次郎,30000,,",
    "2025-04-09,水曜会,1,1,北,北村 三郎,27400,,跳満",
    "2025/4/9,水曜会,2,1,東,東野 圭,45000,,",
    "2025/4/9,水曜会,2,1,南,南田 京子,35000,,",
    "2025/4/9,水曜会,2,1,西,西村 明,25000,,",
    "2025/4/9,水曜会,2,1,北,北山 進,15000,,",
]


NAMES = [
    "東山 一郎",
    "南野 花子",
    "西川 次郎",
    "北村 三郎",
    "東野 圭",
    "南田 京子",
    "西村 明",
    "北山 進",
]


def csv_bytes(rows=GOOD_ROWS, header=HEADER, encoding="utf-8", bom=False) -> bytes:
    text = "\r\n".join([header, *rows]) + "\r\n"
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode(encoding)


def xlsx_bytes(rows=GOOD_ROWS, header=HEADER) -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.append(header.split(","))
    for row in rows:
        cells = row.split(",")
        cells[2], cells[3], cells[6] = int(cells[2]), int(cells[3]), int(cells[6])
        sheet.append(cells)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def replace_row(index, row):
    rows = list(GOOD_ROWS)
    rows[index] = row
    return rows


MALFORMED_MESSAGES = {
    "truncated xml": "壊れています",
    "no sheet": "シートがありません",
    "bad shared string": "壊れています",
    "not a workbook": "Excel のブックではありません",
    "lying sizes": "この Excel ファイルは読めません",
    "old xls": "古い Excel ファイル（.xls）",
}


# --- games in the database -------------------------------------------------------------

WORKED_SCORES = (32_600, 30_000, 30_000, 27_400)
"""DOMAIN.md's worked table: 東 32,600 / 南 30,000 / 西 30,000 / 北 27,400."""


def worked_table(
    members, chombo_east: int = 0, hands_east: Sequence[tuple[str, str]] = ()
) -> list[PlayerEntry]:
    """The worked table, seated 東 南 西 北 in the order of ``members``. Under the club's rule:
    東 +32.6, 南 and 西 0.0 each, 北 −32.6; with one chombo for 東, 東 +22.6 (DOMAIN.md)."""
    return [
        PlayerEntry(
            m,
            seat,
            score,
            chombo_east if seat == 0 else 0,
            big_hands=hands_east if seat == 0 else (),
        )
        for seat, (m, score) in enumerate(zip(members, WORKED_SCORES, strict=True))
    ]


def put_back_migrated_data() -> None:
    """The rule sets and standings groups as the migrations leave them, for tests whose
    database was flushed (``transaction=True``). Idempotent. After a test with
    ``serialized_rollback`` Django flushes without ``post_migrate`` (no content types,
    permissions or roles' groups): those come back as ``migrate`` makes them."""
    club_gone = not Club.objects.filter(pk=Club.DEFAULT_PK).exists()
    if club_gone or not Group.objects.filter(name=ORGANIZER).exists():
        emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    again = importlib.import_module("scoring.migrations.0007_read_the_sheets_again")
    for values, group_name in again.as_migrated():
        group, _ = StandingsGroup.objects.get_or_create(name=group_name)
        RuleSet.objects.update_or_create(name=values["name"], defaults={**values, "group": group})


def seat_field(key):
    """A seat row's field by a short name: score_3 is the form's seat-3-score."""
    match = re.fullmatch(r"(player|score|chombo|hands|guest)_([0-3])", key)
    return f"seat-{match[2]}-{match[1]}" if match else key


def game_post(club_rule, **overrides):
    """The worked table of DOMAIN.md, typed by furigana prefixes; 北 left blank."""
    data = {
        "table_no": "2",
        "round_no": "1",
        "rule_set": str(club_rule.pk),
        "unit": "points",
        "deposits_held": "0",
        "seat-0-player": "ひがし",
        "seat-0-score": "32600",
        "seat-1-player": "みなみ",
        "seat-1-score": "30000",
        "seat-2-player": "にし",
        "seat-2-score": "30000",
        "seat-3-player": "きた",
        "seat-3-score": "",
        "seat-0-chombo": "1",
        "seat-0-hands": "満貫;役満(国士無双)",
    }
    data.update({seat_field(key): value for key, value in overrides.items()})
    return data


def make_club(club_rule, members: int, meets: int, seed: int = 7) -> list[Member]:
    """``members`` members playing three rounds at every meet, from 2025-10-01 on."""
    rng = random.Random(seed)
    people = [
        Member.objects.create(name=f"会員{i:03d}", furigana=f"かいいん{i:03d}")
        for i in range(members)
    ]
    for m in range(meets):
        meet = Meet.objects.create(
            date=date(2025, 10, 1) + timedelta(days=7 * m), kind="wed", rule_set=club_rule
        )
        for round_no in (1, 2, 3):
            players = rng.sample(people, len(people) // 4 * 4)
            for t in range(len(players) // 4):
                first = [rng.randrange(100, 500) * 100 for _ in range(3)]
                scores = [*first, 120_000 - sum(first)]
                entries = [
                    PlayerEntry(
                        p, seat, s, 0, [(HandLevel.MANGAN, "")] if rng.random() < 0.2 else []
                    )
                    for seat, (p, s) in enumerate(
                        zip(players[t * 4 : t * 4 + 4], scores, strict=True)
                    )
                ]
                Hanchan(meet=meet, table_no=t + 1, round_no=round_no, rule_set=club_rule).record(
                    entries
                )
    return people


def wipe_the_score_book():
    with settlement_writes():
        BigHand.objects.all().delete()
        HanchanResult.objects.all().delete()
        Hanchan.objects.all().delete()
    Meet.objects.all().delete()
    Member.objects.all().delete()


# --- reading what the app writes -------------------------------------------------------

# The standings sheet starts with these columns, as the club asked for them (written out here,
# not taken from the code, so that a change in the code shows).
FIRST_COLUMNS = [
    "順位",
    "氏名",
    "半荘数",
    "合計P",
    "四人打ち平均順位",  # column E: said of which kind of game, its letter kept
    "1位",
    "2位",
    "3位",
    "4位",
    "満貫以上",
    "錯和",
]


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


# --- other processes on a database of the test's -----------------------------------------


def environ(url: str, data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DATABASE_URL=url,
        SHIRAKABA_DATA_DIR=str(data_dir),
        DJANGO_SETTINGS_MODULE="shirakaba.settings",
        SECRET_KEY="backup-test",
    )
    return env


def run(url: str, data_dir: Path, *argv: str) -> str:
    """Run Python (``argv`` as after ``python``) on that database; what it printed."""
    done = subprocess.run(
        [sys.executable, *argv],
        cwd=ROOT,
        env=environ(url, data_dir),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def manage(url: str, data_dir: Path, *args: str) -> str:
    return run(url, data_dir, "manage.py", *args)


# A fresh interpreter works in the site's one club's scope, as a command does (--club).
# (The scope is held by a name: a context manager no name holds is collected at once, and
# its scope with it.)
IN_THE_DEFAULT_CLUB = (
    "import django; django.setup(); from members.scopes import in_club; "
    "_in_the_default_club = in_club(1); _in_the_default_club.__enter__()\n"
)


# Every model a club owns (each with a scoped manager): tests/scoring/test_clubs.py checks
# that this is all of them.
CLUBS_OWN = [
    Member,
    ClubRole,
    Invitation,
    Meet,
    Answer,
    DrawnPlace,
    CalendarLink,
    Hanchan,
    HanchanResult,
    BigHand,
    RuleSet,
    StandingsGroup,
    Award,
    ClubSettings,
    Report,
]


def in_our_club(work: Callable[..., Any]) -> Callable[..., Any]:
    """A thread's work in the site's one club's scope: a new thread starts in no scope."""

    @functools.wraps(work)
    def in_scope(*args: Any, **kwargs: Any) -> Any:
        with in_club(Club.DEFAULT_PK):
            return work(*args, **kwargs)

    return in_scope


def run_python(url: str, data_dir: Path, code: str) -> str:
    """Run ``code`` in a fresh interpreter on that database, in the site's one club's scope;
    its last line of output."""
    return run(url, data_dir, "-c", IN_THE_DEFAULT_CLUB + code).strip().splitlines()[-1]


# --- every URL -------------------------------------------------------------------------

# Tables that change on every request without anyone writing: sessions and sign-in logs.
NOT_CONTENT = {
    "sessions.session",
    "axes.accesslog",
    "axes.accessattempt",
    "admin.logentry",
    # Reports asked for (a GET queues one or makes a small one), the parts of reports, and
    # their tasks: made files kept, not club data.
    "scoring.report",
    "scoring.reportpart",
    "django_tasks_db.dbtaskresult",
}


def patterns(resolver: URLResolver, prefix: str = "") -> list[str]:
    """The route of every pattern, with its prefix."""
    found = []
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            found += patterns(entry, route)
        elif isinstance(entry, URLPattern):
            found.append(route)
    return found


def pk_of(app_label: str, model_name: str) -> int:
    obj = apps.get_model(app_label, model_name).objects.order_by("pk").first()
    assert obj is not None, f"the sample has no {app_label}.{model_name}"
    return obj.pk


def concrete(route: str, sample) -> str:
    """A real path for every route: ids of the sample's objects in place of parameters."""
    if route.startswith("admin/"):
        model = re.match(r"admin/(\w+)/(\w+)/", route)
        if "^(?P<app_label>" in route:
            return "/admin/scoring/"
        if "(?P<url>" in route:
            return "/admin/no-such-page/"
        if route.startswith("admin/r/"):
            ct = ContentType.objects.get_for_model(Member)
            return f"/admin/r/{ct.pk}/{sample['member'].pk}/"
        if "^([^/]+)/history/([^/]+)/$" in route:
            history = apps.get_model(model[1], model[2]).history.order_by("history_id").first()
            ids = f"{history.pk}/history/{history.history_id}/"
            return "/" + route.replace("^([^/]+)/history/([^/]+)/$", ids)
        if "<path:object_id>" in route:
            route = route.replace("<path:object_id>", str(pk_of(model[1], model[2])))
        route = route.replace("<id>", str(sample["user"].pk))
    else:
        ids = {
            "meets/<int:pk>/": sample["meet"].pk,
            "meets/<int:meet_pk>/": sample["meet"].pk,
            "games/<int:pk>/": sample["game"].pk,
            "members/<int:pk>/": sample["member"].pk,
            "members/locks/<int:pk>/": sample["attempt"].pk,
            "members/invitations/<int:pk>/": sample["invitation"].pk,
            "rules/<int:pk>/": sample["rule"].pk,
        }
        for start, pk in ids.items():
            if route.startswith(start):
                route = re.sub(r"<int:\w+>", str(pk), route, count=1)
        route = route.replace("<slug:chart>", "cumulative")
        route = route.replace("<slug:token>", "x" * 43)  # a calendar link no member has
        route = route.replace("<digest:digest>", sample["report"].digest)
    assert "<" not in route and "^" not in route, f"no sample value for {route}"
    return "/" + route


def every_path(sample) -> list[str]:
    paths = [concrete(route, sample) for route in patterns(get_resolver())]
    assert len(paths) > 100  # our pages and the admin's: the walk found them all
    return paths


def content():
    """Every row of every table that holds the club's data, users and permissions."""
    snapshot = {}
    for model in apps.get_models():
        if model._meta.label_lower in NOT_CONTENT:
            continue
        rows = list(model.objects.order_by("pk").values())
        for row in rows:
            row.pop("last_login", None)  # signing in (the tests' force_login) sets it
        snapshot[model._meta.label_lower] = rows
    return snapshot


# --- the production example of docs/running.md -------------------------------------------

RUNNING = ROOT / "docs" / "running.md"


def production_example() -> list[str]:
    """The `export` lines of the first `sh` block under "## Run in production"."""
    section = RUNNING.read_text().split("\n## Run in production\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "docs/running.md's production section has its sh example"
    return [line for line in block[1].splitlines() if line.startswith("export ")]


def production_environment() -> dict[str, str]:
    """The variables the production example of docs/running.md exports, with the values bash gives them
    (its ``$(…)`` run as written)."""
    exports = production_example()
    names = [
        word.split("=", 1)[0]
        for line in exports
        for word in shlex.split(line, comments=True)[1:]
        if "=" in word
    ]
    script = "\n".join([*exports, 'printf "%s\\0" ' + " ".join(f'"${n}"' for n in names)])
    values = subprocess.run(
        ["bash", "-euc", script],
        env={"PATH": os.environ["PATH"]},
        capture_output=True,
        check=True,
    ).stdout.decode()
    return dict(zip(names, values.split("\0")[:-1], strict=True))


# --- the browser -----------------------------------------------------------------------


# Thirteen members who come to a meet day (the browser tests' club).
MEET_DAY_NAMES = [
    "相川 愛",
    "石田 勇",
    "上野 海",
    "江藤 恵",
    "大西 治",
    "加藤 薫",
    "木村 清",
    "工藤 久美",
    "小林 健",
    "斎藤 幸",
    "志村 静",
    "鈴木 進",
    "瀬川 誠",
]


def sign_in(page, live_server, username: str, password: str) -> None:
    """Sign in through the sign-in page, as a person would, and land on the home page."""
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.press("#id_password", "Enter")
    page.wait_for_url(f"{live_server.url}/")


SERIOUS = {"serious", "critical"}


AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page) -> list[str]:
    if not AXE.exists():
        pytest.fail("axe-core is missing: run `make setup` (npm ci --prefix tests/browser)")
    # Evaluated, not added as a script tag: the pages' CSP (script-src 'self') forbids inline
    # scripts, and a test should not have to switch it off to look.
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    result = page.evaluate("async () => await axe.run(document)")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in SERIOUS
    ]


class KeyCounter:
    """Types through page.keyboard and counts every key press (each character is one)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.keys = 0

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.keys += len(text)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.keys += 1


def database_url() -> str:
    """The test database, as the worker process must reach it."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    user = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{user}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


class FakeRenderer:
    """Counts its calls; tells progress through two of three members, as the real one does;
    returns the number of the call in the file, and what the row said meanwhile."""

    def __init__(self) -> None:
        self.calls = 0
        self.rows_seen: list[tuple[str, int, int]] = []

    def __call__(self, filters, *, progress, **kwargs):
        self.calls += 1
        progress("Member pages", 2, 3)
        row = Report.objects.get(status=ReportStatus.MAKING)
        self.rows_seen.append((row.step, row.done, row.total))
        progress("Member pages", 3, 3)
        return (f"{filters.period.key}.pdf", "application/pdf", b"%%PDF call %d" % self.calls)


def making_entry(member, seat, score):
    from scoring.models import PlayerEntry

    return PlayerEntry(member, seat, score, 0, [])


def games_state():
    return (
        list(Hanchan.objects.values_list("id", "version", "table_no")),
        list(HanchanResult.objects.values_list("id", "score", "total_points")),
        list(BigHand.objects.values_list("id", "level")),
    )


CLUB4 = "白樺会 四人打ち"


CLUB3 = "白樺会 三人打ち"


JKMA = "日本健康麻将協会"


PARLOR3 = "三人打ち 30000持ち34000返し"


KANTAN = "カンターン麻雀 (1-0-0-0)"


H1 = Period.parse("2025-H1")


def rule(name: str) -> RuleSet:
    return RuleSet.objects.get(name=name)


def play(meet, table, round_no, rule_set, people, scores, *, deposits=0, chombo=None, hands=None):
    game = Hanchan(
        meet=meet, table_no=table, round_no=round_no, rule_set=rule_set, deposits_held=deposits
    )
    game.record(
        [
            PlayerEntry(m, i, s, (chombo or {}).get(i, 0), (hands or {}).get(i, ()))
            for i, (m, s) in enumerate(zip(people, scores, strict=True))
        ]
    )
    return game


def totals(game) -> list[Decimal]:
    return [r.total_points for r in game.results.order_by("seat")]


def row_of(rows, member):
    return next(r for r in rows if r.member_id == member.pk)


def sheet_rows(data: bytes, name: str = "成績表") -> list[list]:
    """The sheet's rows from its header row on (below the title rows)."""
    rows = load_workbook(io.BytesIO(data))[name].iter_rows(min_row=TITLE_ROWS + 1, values_only=True)
    return [list(r) for r in rows]


def game_post_for(rule_set, players, scores, table=2, round_no=1, **extra):
    data = {
        "table_no": str(table),
        "round_no": str(round_no),
        "rule_set": str(rule_set.pk),
        "unit": "points",
        "deposits_held": "0",
    }
    for seat, (name, score) in enumerate(zip(players, scores, strict=True)):
        data[f"seat-{seat}-player"] = name
        data[f"seat-{seat}-score"] = score
    data.update(extra)
    return data


def rows_now():
    return (
        list(Meet.objects.values_list("id", "date", "kind", "rule_set", "is_final", "note")),
        list(Hanchan.objects.values_list("id", "version", "rule_set", "note", "deposits_held")),
        list(HanchanResult.objects.values_list("id", "score", "total_points", "rule_set")),
        list(BigHand.objects.values_list("id", "level")),
        list(Meet.attendees.through.objects.values_list("meet_id", "member_id")),
    )


def games_under_every_rule(people, club_rule):
    """Games under every shipped rule set in June 2025, with deposits held, chombo, big hands
    and notes."""
    wed = Meet.objects.create(date="2025-06-04", kind="wed", rule_set=club_rule)
    play(
        wed,
        1,
        1,
        rule(CLUB4),
        people[:4],
        [40_000, 30_000, 29_000, 20_000],
        deposits=1_000,
        chombo={1: 1},
        hands={0: [("mangan", ""), ("yakuman", "国士無双")]},
    )
    play(wed, 2, 1, rule(CLUB3), people[4:7], [40_000, 35_000, 15_000])
    Hanchan.objects.filter(meet=wed, table_no=2).update(note='=1+1 三人打ち, "引用"')
    sat = Meet.objects.create(date="2025-06-07", kind="sat", rule_set=rule(JKMA))
    play(sat, 1, 1, rule(JKMA), people[:4], [36_000, 30_000, 20_000, 15_000])
    play(sat, 1, 2, rule(PARLOR3), people[:3], [70_000, 25_000, -5_000])
    play(sat, 1, 3, rule(KANTAN), people[:4], [40_000, 30_000, 17_000, 10_000])


# --- where reports are kept ----------------------------------------------------------------


def reports_kept_in(settings, directory: Path) -> None:
    """Keep the reports' files in ``directory``: the reports storage (the file system) there."""
    settings.REPORTS_DIR = directory
    settings.STORAGES = {
        **settings.STORAGES,
        "reports": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": directory},
        },
    }


def standings_header() -> list[str]:
    """The Excel's standings header for a group of 4-player games counting P: the
    declaration's (``standings.STANDINGS``) in its Excel order."""
    return headings(STANDINGS.shown(Medium.SHEET, Shown()))


def pdf_fonts(data: bytes) -> set[str]:
    """Base names of the fonts that are embedded (have a font file) in the PDF."""
    embedded = set()
    for page in PdfReader(io.BytesIO(data)).pages:
        fonts = page["/Resources"].get_object().get("/Font")
        for font in (fonts.get_object() if fonts else {}).values():
            font = font.get_object()
            for descendant in font.get("/DescendantFonts", []):
                descriptor = descendant.get_object()["/FontDescriptor"].get_object()
                if any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                    embedded.add(str(font["/BaseFont"]).split("+")[-1])
    return embedded


def crossings() -> list[str]:
    """Rows of one club that point at another club's."""
    with scopes_disabled():
        found = [
            *(f"meet {m.pk}" for m in Meet.objects.exclude(rule_set__club=F("club"))),
            *(f"game {g.pk}" for g in Hanchan.objects.exclude(rule_set__club=F("meet__club"))),
            *(
                f"result {r.pk}"
                for r in HanchanResult.objects.exclude(member__club=F("meet__club"))
            ),
            *(f"answer {a.pk}" for a in Answer.objects.exclude(member__club=F("meet__club"))),
            *(
                f"award {a.pk}"
                for a in Award.objects.filter(winner__isnull=False).exclude(
                    winner__club=F("group__club")
                )
            ),
            *(f"rule set {r.pk}" for r in RuleSet.objects.exclude(group__club=F("club"))),
            *(
                f"attendee of {m.pk}"
                for m in Meet.objects.filter(attendees__isnull=False).exclude(
                    attendees__club=F("club")
                )
            ),
            *(
                f"drawn place {d.pk}"
                for d in DrawnPlace.objects.exclude(member__club=F("meet__club"))
            ),
        ]
    return found
