"""Reading record sheets (CSV or XLSX) into games: all or nothing, every error with its row.

The format (one row per player per game; a game is the rows with the same date, meet kind,
table and round). Columns by header name, in any order, Japanese or English:

    日付 date          2025-04-09 or 2025/4/9 (an Excel date cell works too)
    例会 meet          水曜会 / 土曜会 / その他 (or wed / sat / other)
    卓 table           1, 2, …
    回戦 round         1, 2, …
    席 seat            東 南 西 北 (東 is the first dealer)
    氏名 name          as the member is written
    持ち点 score       32600 (32,600 and −3,200 work too)
    錯和 chombo        a count; empty = 0            (optional column)
    満貫以上 big_hands  empty, or 満貫;跳満;役満(国士無双) (optional column)

CSV may be UTF-8 (with or without BOM) or Shift_JIS/cp932 as Japanese Excel saves it; an
XLSX file is read from its first sheet. Nothing is written unless the whole file is right.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models, transaction
from django.utils.translation import gettext as _

from members.models import Member
from scoring.models import (
    SEAT_NAMES,
    Hanchan,
    Meet,
    MeetKind,
    PlayerEntry,
    RuleSet,
    parse_big_hands,
)
from scoring.sheets import MAX_ROWS, read_sheet

COLUMNS = {
    "date": ("日付", "date"),
    "meet": ("例会", "meet"),
    "table": ("卓", "table"),
    "round": ("回戦", "round"),
    "seat": ("席", "seat"),
    "name": ("氏名", "name"),
    "score": ("持ち点", "score"),
    "chombo": ("錯和", "chombo"),
    "big_hands": ("満貫以上", "big_hands"),
}
REQUIRED = ("date", "meet", "table", "round", "seat", "name", "score")
HEADER_TO_KEY = {name: key for key, names in COLUMNS.items() for name in names}
KIND_WORDS = {
    "水曜会": MeetKind.WEDNESDAY,
    "土曜会": MeetKind.SATURDAY,
    "その他": MeetKind.OTHER,
    **{kind.value: kind for kind in MeetKind},
}
KIND_LABELS = {MeetKind.WEDNESDAY: "水曜会", MeetKind.SATURDAY: "土曜会", MeetKind.OTHER: "その他"}
SEAT_WORDS = {name: i for i, name in enumerate(SEAT_NAMES)} | {
    "e": 0,
    "s": 1,
    "w": 2,
    "n": 3,
}


@dataclass(frozen=True)
class RowError:
    row: int  # 1 = the header row, as a spreadsheet numbers it; 0 = the file as a whole
    column: str  # the header as written, or ""
    message: str

    def __str__(self) -> str:
        where = []
        if self.row:
            where.append(_("row %(row)s") % {"row": self.row})
        if self.column:
            where.append(_("column %(column)s") % {"column": self.column})
        prefix = "、".join(where)
        return f"{prefix}：{self.message}" if prefix else self.message


@dataclass
class ImportRow:
    row: int
    day: date
    kind: str
    table_no: int
    round_no: int
    seat: int
    name: str
    score: int
    chombo: int
    big_hands: list[tuple[str, str]]


@dataclass
class PlannedGame:
    day: date
    kind: str
    table_no: int
    round_no: int
    rows: list[ImportRow]

    @property
    def label(self) -> str:
        return _("%(date)s %(kind)s round %(round)s table %(table)s") % {
            "date": self.day.isoformat(),
            "kind": KIND_LABELS[MeetKind(self.kind)],
            "round": self.round_no,
            "table": self.table_no,
        }


MAX_ERRORS = 100
"""Errors kept to show; the rest are only counted (a bad file can have hundreds of thousands)."""


@dataclass
class ImportPlan:
    """What a file would do, or why it cannot."""

    errors: list[RowError] = field(default_factory=list)  # the first MAX_ERRORS
    more_errors: int = 0  # and how many more there are
    games: list[PlannedGame] = field(default_factory=list)
    new_meets: list[tuple[date, str]] = field(default_factory=list)
    new_members: list[str] = field(default_factory=list)
    rule_set: RuleSet | None = None

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def error_count(self) -> int:
        return len(self.errors) + self.more_errors

    def error(self, row: int, column: str, message: str) -> None:
        if len(self.errors) < MAX_ERRORS:
            self.errors.append(RowError(row, column, message))
        else:
            self.more_errors += 1


class ImportRefused(Exception):
    def __init__(self, plan: ImportPlan) -> None:
        self.plan = plan
        super().__init__("; ".join(str(e) for e in plan.errors[:5]))


# --- reading the file ------------------------------------------------------------------


def read_table(data: bytes) -> list[list[Any]]:
    """The file's rows with anything in them, the header first (CSV in any of the accepted
    encodings, or XLSX), read within the bounds of scoring/sheets.py."""
    return read_sheet(data, max_rows=MAX_ROWS)


# --- reading cells ---------------------------------------------------------------------


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _parse_date(value: Any) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = _text(value)
    match = re.fullmatch(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})", text)
    if not match:
        raise ValueError(
            _("%(value)s is not a date (write 2025-04-09 or 2025/4/9).") % {"value": text}
        )
    try:
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        raise ValueError(_("%(value)s is not a date that exists.") % {"value": text}) from None


def _largest(model: type[models.Model], name: str) -> int | None:
    """The largest value a model's field takes (its MaxValueValidator), if it has one: the
    preview refuses what saving would refuse."""
    limits = [
        v.limit_value
        for v in model._meta.get_field(name).validators
        if isinstance(v, MaxValueValidator)
    ]
    return min(limits, default=None)


def _parse_int(
    value: Any, *, minimum: int | None = None, maximum: int | None = None, what: str
) -> int:
    if isinstance(value, bool):
        raise ValueError(_("%(what)s must be a number.") % {"what": what})
    if isinstance(value, int):
        number = value
    elif isinstance(value, float):
        if not value.is_integer():
            raise ValueError(_("%(what)s must be a whole number.") % {"what": what})
        number = int(value)
    else:
        text = _text(value).replace(",", "").replace("，", "").replace("−", "-").replace("▲", "-")
        text = text.translate(str.maketrans("０１２３４５６７８９－", "0123456789-"))
        if not re.fullmatch(r"-?\d{1,9}", text):
            raise ValueError(
                _("%(what)s must be a number (%(value)s given).")
                % {"what": what, "value": _text(value)}
            )
        number = int(text)
    if minimum is not None and number < minimum:
        raise ValueError(_("%(what)s must be %(min)s or more.") % {"what": what, "min": minimum})
    if maximum is not None and number > maximum:
        raise ValueError(_("%(what)s must be %(max)s or less.") % {"what": what, "max": maximum})
    return number


# --- planning --------------------------------------------------------------------------


def plan_import(
    data: bytes, *, create_members: bool = False, rule_set: RuleSet | None = None
) -> ImportPlan:
    """Read and check a whole file; nothing is written. ``plan.errors`` lists every problem."""
    plan = ImportPlan(rule_set=rule_set or RuleSet.objects.filter(is_default=True).first())
    try:
        table = read_table(data)
    except ValueError as error:
        plan.error(0, "", str(error))
        return plan
    table = [row for row in table if any(_text(cell) for cell in row)]
    if not table:
        plan.error(0, "", _("The file is empty."))
        return plan
    if len(table) > MAX_ROWS:
        plan.error(0, "", _("The file has more than %(n)s rows.") % {"n": f"{MAX_ROWS:,}"})
        return plan
    header = [_text(cell) for cell in table[0]]
    columns = _read_header(header, plan)
    if not plan.ok:
        return plan
    rows = list(_read_rows(table[1:], header, columns, plan))
    if not rows and plan.ok:
        plan.error(0, "", _("The file has a header but no rows."))
    _resolve_members(rows, plan, create_members)
    _group_games(rows, plan)
    if plan.ok:
        _check_against_database(plan)
    return plan


def _read_header(header: list[str], plan: ImportPlan) -> dict[str, int]:
    columns: dict[str, int] = {}
    for index, name in enumerate(header):
        key = HEADER_TO_KEY.get(name) or HEADER_TO_KEY.get(name.lower())
        if key is None:
            if name:
                plan.error(
                    1,
                    name,
                    _("Unknown column. The columns are: %(names)s")
                    % {"names": ", ".join(n for n, _e in COLUMNS.values())},
                )
            continue
        if key in columns:
            plan.error(1, name, _("This column appears twice."))
        columns[key] = index
    missing = [COLUMNS[key][0] for key in REQUIRED if key not in columns]
    if missing:
        plan.error(1, "", _("Missing columns: %(names)s") % {"names": "、".join(missing)})
    return columns


def _read_rows(
    body: Iterable[list[Any]], header: list[str], columns: dict[str, int], plan: ImportPlan
) -> Iterable[ImportRow]:
    for number, cells in enumerate(body, start=2):

        def cell(key: str, cells: list[Any] = cells) -> Any:
            index = columns.get(key)
            return cells[index] if index is not None and index < len(cells) else None

        values: dict[str, Any] = {}
        readers = {
            "date": _parse_date,
            "meet": _parse_kind,
            "table": lambda v: _parse_int(
                v, minimum=1, maximum=_largest(Hanchan, "table_no"), what=_("The table")
            ),
            "round": lambda v: _parse_int(
                v, minimum=1, maximum=_largest(Hanchan, "round_no"), what=_("The round")
            ),
            "seat": _parse_seat,
            "name": _parse_name,
            "score": lambda v: _parse_int(v, what=_("The score")),
            "chombo": lambda v: _parse_int(v, minimum=0, what=_("Chombo")) if _text(v) else 0,
            "big_hands": _parse_hands,
        }
        for key, read in readers.items():
            try:
                values[key] = read(cell(key))
            except (ValueError, ValidationError) as error:
                message = (
                    " ".join(error.messages) if isinstance(error, ValidationError) else str(error)
                )
                plan.error(number, header[columns[key]] if key in columns else "", message)
        if len(values) == len(readers):
            yield ImportRow(
                row=number,
                day=values["date"],
                kind=values["meet"],
                table_no=values["table"],
                round_no=values["round"],
                seat=values["seat"],
                name=values["name"],
                score=values["score"],
                chombo=values["chombo"],
                big_hands=values["big_hands"],
            )


def _parse_kind(value: Any) -> str:
    text = _text(value)
    kind = KIND_WORDS.get(text) or KIND_WORDS.get(text.lower())
    if kind is None:
        raise ValueError(_("%(value)s is not a meet (水曜会, 土曜会 or その他).") % {"value": text})
    return kind.value


def _parse_seat(value: Any) -> int:
    text = _text(value)
    seat = SEAT_WORDS.get(text) if text else None
    if seat is None:
        seat = SEAT_WORDS.get(text.lower())
    if seat is None:
        raise ValueError(_("%(value)s is not a seat (東, 南, 西 or 北).") % {"value": text})
    return seat


def _parse_name(value: Any) -> str:
    text = re.sub(r"[ 　]+", " ", _text(value))
    if not text:
        raise ValueError(_("The name is empty."))
    if len(text) > 40:
        raise ValueError(_("The name is longer than 40 characters."))
    return text


def _parse_hands(value: Any) -> list[tuple[str, str]]:
    return parse_big_hands(_text(value))


def _resolve_members(rows: list[ImportRow], plan: ImportPlan, create: bool) -> None:
    known = set(
        Member.objects.filter(name__in={r.name for r in rows}).values_list("name", flat=True)
    )
    for row in rows:
        if row.name in known or row.name in plan.new_members:
            continue
        if create:
            plan.new_members.append(row.name)
        else:
            plan.error(row.row, "氏名", _("No member is called %(text)s.") % {"text": row.name})


def _group_games(rows: list[ImportRow], plan: ImportPlan) -> None:
    games: dict[tuple[date, str, int, int], PlannedGame] = {}
    for row in rows:
        key = (row.day, row.kind, row.table_no, row.round_no)
        game = games.setdefault(key, PlannedGame(row.day, row.kind, row.table_no, row.round_no, []))
        game.rows.append(row)
    plan.games = sorted(games.values(), key=lambda g: (g.day, g.kind, g.round_no, g.table_no))


def _check_against_database(plan: ImportPlan) -> None:
    """Settle every game (without saving) and look for games that exist already."""
    assert plan.rule_set is not None
    meets = {
        (m.date, m.kind): m
        for m in Meet.objects.filter(date__in={g.day for g in plan.games}).select_related(
            "rule_set"
        )
    }
    members = {
        m.name: m
        for m in Member.objects.filter(name__in={r.name for g in plan.games for r in g.rows})
    }
    existing = set(
        Hanchan.objects.filter(meet__in=meets.values()).values_list(
            "meet__date", "meet__kind", "table_no", "round_no"
        )
    )
    duplicates = []
    stand_ins: dict[str, Member] = {}  # members still to be made: one stand-in per name
    for game in plan.games:
        meet = meets.get((game.day, game.kind))
        if meet is None and (game.day, game.kind) not in plan.new_meets:
            plan.new_meets.append((game.day, game.kind))
        if (game.day, game.kind, game.table_no, game.round_no) in existing:
            duplicates.append(game.label)
            continue
        if meet is not None and meet.is_final:
            plan.error(
                game.rows[0].row, "", _("%(game)s: the meet is finalised.") % {"game": game.label}
            )
            continue
        entries = [
            PlayerEntry(
                members.get(r.name)
                or stand_ins.setdefault(r.name, Member(pk=-len(stand_ins) - 1, name=r.name)),
                r.seat,
                r.score,
                r.chombo,
                r.big_hands,
            )
            for r in game.rows
        ]
        rule_set = meet.rule_set if meet is not None else plan.rule_set
        probe = Hanchan(
            meet=meet or Meet(date=game.day, kind=game.kind, rule_set=rule_set), rule_set=rule_set
        )
        try:
            probe.settle(entries)
        except ValidationError as error:
            rows = ", ".join(str(r.row) for r in game.rows)
            for message in error.messages:
                plan.error(
                    game.rows[0].row,
                    "",
                    _("%(game)s (rows %(rows)s): %(message)s")
                    % {"game": game.label, "rows": rows, "message": message},
                )
    if duplicates:
        plan.error(
            0,
            "",
            _("These games are in the score book already: %(games)s")
            % {"games": "、".join(duplicates[:20]) + ("…" if len(duplicates) > 20 else "")},
        )


# --- importing -------------------------------------------------------------------------


def import_results(
    data: bytes, *, create_members: bool = False, rule_set: RuleSet | None = None
) -> ImportPlan:
    """Check the whole file, then write it in one transaction. Raise ImportRefused if wrong."""
    plan = plan_import(data, create_members=create_members, rule_set=rule_set)
    if not plan.ok:
        raise ImportRefused(plan)
    assert plan.rule_set is not None
    with transaction.atomic():
        for name in plan.new_members:
            # Furigana is left empty for the organizer to fill in (the member form asks for it).
            Member.objects.create(name=name, furigana="", note=_("Made by an import."))
        members = {
            m.name: m
            for m in Member.objects.filter(name__in={r.name for g in plan.games for r in g.rows})
        }
        meets: dict[tuple[date, str], Meet] = {}
        for game in plan.games:
            key = (game.day, game.kind)
            if key not in meets:
                meets[key], _created = Meet.objects.get_or_create(
                    date=game.day, kind=game.kind, defaults={"rule_set": plan.rule_set}
                )
            meet = meets[key]
            meet.attendees.add(*(members[r.name] for r in game.rows))
            hanchan = Hanchan(
                meet=meet, table_no=game.table_no, round_no=game.round_no, rule_set=meet.rule_set
            )
            hanchan.record(
                [
                    PlayerEntry(members[r.name], r.seat, r.score, r.chombo, r.big_hands)
                    for r in game.rows
                ]
            )
    return plan
