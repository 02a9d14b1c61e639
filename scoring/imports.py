"""Reading record sheets (CSV or XLSX) into games: all or nothing, every error with its row.

The format (one row per player per game; a game is the rows with the same date, meet kind,
table and round). Columns by header name, in any order, Japanese or English:

    日付 date          2025-04-09 or 2025/4/9 (an Excel date cell works too)
    例会 meet          水曜会 / 土曜会 / その他 (or wed / sat / other)
    卓 table           1, 2, …
    回戦 round         1, 2, …
    席 seat            東 南 西 北 (東 is the first dealer)
    氏名 name          as the member is written (spaces and full/half width do not matter);
                       a guest's ends 「（ゲスト）」 (a new member so marked is made a guest)
    持ち点 score       32600 (32,600, ▲3,200, −3200, ー3200 work too: ``notation.parse_score``)
    錯和 chombo        a count; empty = 0            (optional column)
    満貫以上 big_hands  empty, or 満貫;跳満;役満(国士無双) (optional column)
    ルール rule_set     the rule set's name; empty = the meet's (a new meet: the default)
    供託 deposits      deposits held (預かり) at the end, in points; empty = 0 (optional)
    備考 note          the game's note (optional)

The last three belong to the game: every row of a game gives the same value (or leaves it
empty). The games CSV (``reports/games_csv.py``) writes exactly this format (its columns: ``notation.COLUMNS``), so an export
imports back into an empty score book and exports again byte for byte.

CSV may be UTF-8 (with or without BOM) or Shift_JIS/cp932 as Japanese Excel saves it; a
sheet Excel saved as 「Unicode テキスト」 (UTF-16 with a BOM, tabs between cells) is read too,
as is tab-separated text in the other encodings. An XLSX file is read from its first sheet. Nothing is written unless the whole file is right.
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

from members.models import NAME_LENGTH, Member, name_key, no_control_characters
from scoring.models import Hanchan, Meet, PlayerEntry, RuleSet
from scoring.notation import (
    COLUMNS,
    FORMULA_STARTS,
    KIND_LABELS,
    KIND_WORDS,
    MEET_DATES,
    SEAT_NAMES,
    MeetKind,
    meet_date,
    parse_big_hands,
    parse_score,
    split_guest_mark,
)
from scoring.spreadsheets import MAX_ROWS, read_sheet

GAME_COLUMNS = ("rule_set", "deposits", "note")
"""Columns that belong to the whole game: its rows must agree."""
NOTE_LENGTH = 200
REQUIRED = ("date", "meet", "table", "round", "seat", "name", "score")
HEADER_TO_KEY = {name: key for key, names in COLUMNS.items() for name in names}
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
    rule_set: str = ""
    deposits: int = 0
    note: str = ""
    guest: bool = False  # the name was marked 「（ゲスト）」


@dataclass
class PlannedGame:
    day: date
    kind: str
    table_no: int
    round_no: int
    rows: list[ImportRow]
    rule_set: RuleSet | None = None  # from the ルール column, when given
    deposits: int = 0
    note: str = ""

    @property
    def label(self) -> str:
        return _("%(date)s %(kind)s round %(round)s table %(table)s") % {
            "date": meet_date(self.day),
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
    new_guests: set[str] = field(default_factory=set)  # name_key of new members marked guests
    rule_set: RuleSet | None = None
    members: dict[str, Member] = field(default_factory=dict)  # name_key -> known member

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
    encodings, or XLSX), read within the bounds of scoring/spreadsheets.py."""
    return read_sheet(data, max_rows=MAX_ROWS)


# --- reading cells ---------------------------------------------------------------------


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = str(value)
    if text.startswith("'") and text[1:].startswith(FORMULA_STARTS):
        text = text[1:]
    return text.strip()


def _parse_date(value: Any) -> date:
    if isinstance(value, datetime):
        return _in_meet_dates(value.date())
    if isinstance(value, date):
        return _in_meet_dates(value)
    text = _text(value)
    match = re.fullmatch(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})", text)
    if not match:
        raise ValueError(
            _("%(value)s is not a date (write 2025-04-09 or 2025/4/9).") % {"value": text}
        )
    try:
        day = date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        raise ValueError(_("%(value)s is not a date that exists.") % {"value": text}) from None
    return _in_meet_dates(day)


def _in_meet_dates(day: date) -> date:
    first, last = MEET_DATES
    if not first <= day <= last:
        raise ValueError(
            _("%(value)s is outside the dates a meet may have (%(first)s to %(last)s).")
            % {"value": day.isoformat(), "first": first.year, "last": last.year}
        )
    return day


def _largest(model: type[models.Model], name: str) -> int | None:
    """The largest value a model's field takes (its MaxValueValidator), if it has one: the
    preview refuses what saving would refuse."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)  # a column of the model, not a reverse relation
    limits = [v.limit_value for v in field.validators if isinstance(v, MaxValueValidator)]
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
    plan = ImportPlan(rule_set=rule_set or RuleSet.objects.default_or_none())
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
            "score": _parse_score,
            "chombo": lambda v: _parse_int(v, minimum=0, what=_("Chombo")) if _text(v) else 0,
            "big_hands": _parse_hands,
            "rule_set": _text,
            "deposits": lambda v: _parse_int(v, minimum=0, what=_("Deposits")) if _text(v) else 0,
            "note": _parse_note,
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
                name=values["name"][0],
                guest=values["name"][1],
                score=values["score"],
                chombo=values["chombo"],
                big_hands=values["big_hands"],
                rule_set=values["rule_set"],
                deposits=values["deposits"],
                note=values["note"],
            )


def _parse_score(value: Any) -> int:
    """A score cell: an Excel number as it is, text through the one score reader."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _parse_int(value, what=_("The score"))
    try:
        return parse_score(_text(value))
    except ValidationError as error:
        raise ValueError(" ".join(error.messages)) from None


def _refuse_control_characters(text: str) -> None:
    try:
        no_control_characters(text)
    except ValidationError as error:
        raise ValueError(" ".join(error.messages)) from None


def _parse_note(value: Any) -> str:
    text = _text(value)
    _refuse_control_characters(text)
    if len(text) > NOTE_LENGTH:
        raise ValueError(_("The note is longer than %(n)s characters.") % {"n": NOTE_LENGTH})
    return text


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


def _parse_name(value: Any) -> tuple[str, bool]:
    """The name, and whether it is marked a guest's (``notation.split_guest_mark``)."""
    text, guest = split_guest_mark(re.sub(r"[ 　]+", " ", _text(value)))
    if not text:
        raise ValueError(_("The name is empty."))
    _refuse_control_characters(text)
    if len(text) > NAME_LENGTH:
        raise ValueError(
            _("The name is longer than %(limit)d characters.") % {"limit": NAME_LENGTH}
        )
    return text, guest


def _parse_hands(value: Any) -> list[tuple[str, str]]:
    return parse_big_hands(_text(value))


def _resolve_members(rows: list[ImportRow], plan: ImportPlan, create: bool) -> None:
    """Match names whatever their spaces and width (山田　花子 = 山田 花子); with ``create``,
    one new member per name so written, never a duplicate because of spacing."""
    plan.members = {name_key(m.name): m for m in Member.objects.all()}
    new_keys: set[str] = set()
    for row in rows:
        key = name_key(row.name)
        if create and row.guest and key not in plan.members:
            plan.new_guests.add(key)
        if key in plan.members or key in new_keys:
            continue
        if create:
            new_keys.add(key)
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
    rule_sets = {r.name: r for r in RuleSet.objects.select_related("group")}
    for game in plan.games:
        values = {}
        for column in GAME_COLUMNS:
            given = {getattr(r, column) for r in game.rows} - {"", 0}
            if len(given) > 1:
                plan.error(
                    game.rows[0].row,
                    COLUMNS[column][0],
                    _("%(game)s: its rows give different values (%(values)s).")
                    % {"game": game.label, "values": "、".join(sorted(map(str, given)))},
                )
            values[column] = given.pop() if given else None
        game.deposits = values["deposits"] or 0
        game.note = values["note"] or ""
        if values["rule_set"]:
            game.rule_set = rule_sets.get(values["rule_set"])
            if game.rule_set is None:
                plan.error(
                    game.rows[0].row,
                    COLUMNS["rule_set"][0],
                    _("No rule set is called %(name)s.") % {"name": values["rule_set"]},
                )
    _check_one_table_per_round(plan)


def _check_one_table_per_round(plan: ImportPlan) -> None:
    """A player sits at one table per round: the file may not seat anyone twice."""
    seated: dict[tuple[date, str, int, str], PlannedGame] = {}
    for game in plan.games:
        for row in game.rows:
            key = (game.day, game.kind, game.round_no, name_key(row.name))
            other = seated.setdefault(key, game)
            if other is not game:
                plan.error(
                    row.row,
                    "氏名",
                    _("%(name)s already plays at table %(table)s in round %(round)s.")
                    % {"name": row.name, "table": other.table_no, "round": game.round_no},
                )


def _check_against_database(plan: ImportPlan) -> None:
    """Settle every game (without saving) and look for games that exist already."""
    assert plan.rule_set is not None
    meets = {
        (m.date, m.kind): m
        for m in Meet.objects.filter(date__in={g.day for g in plan.games}).select_related(
            "rule_set"
        )
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
                plan.members.get(name_key(r.name))
                or stand_ins.setdefault(
                    name_key(r.name), Member(pk=-len(stand_ins) - 1, name=r.name)
                ),
                r.seat,
                r.score,
                r.chombo,
                r.big_hands,
            )
            for r in game.rows
        ]
        probe = Hanchan(
            meet=meet or Meet(date=game.day, kind=game.kind, rule_set=plan.rule_set),
            table_no=game.table_no,
            round_no=game.round_no,
            rule_set=game_rule_set(game, meet, plan),
            deposits_held=game.deposits,
            note=game.note,
        )
        try:
            probe.settle(entries)
            probe.full_clean(exclude=["meet"], validate_unique=False, validate_constraints=False)
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


def game_rule_set(game: PlannedGame, meet: Meet | None, plan: ImportPlan) -> RuleSet:
    """The ルール column's rule set; else the meet's; else the import's (the default)."""
    if game.rule_set is not None:
        return game.rule_set
    if meet is not None:
        return meet.rule_set
    assert plan.rule_set is not None
    return plan.rule_set


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
            member = Member.objects.create(
                name=name,
                furigana="",
                is_guest=name_key(name) in plan.new_guests,
                note=_("Made by an import."),
            )
            plan.members[name_key(name)] = member
        meets: dict[tuple[date, str], Meet] = {}
        for game in plan.games:
            key = (game.day, game.kind)
            if key not in meets:
                meets[key], _created = Meet.objects.get_or_create(
                    date=game.day, kind=game.kind, defaults={"rule_set": plan.rule_set}
                )
            meet = meets[key]
            hanchan = Hanchan(
                meet=meet,
                table_no=game.table_no,
                round_no=game.round_no,
                rule_set=game_rule_set(game, meet, plan),
                deposits_held=game.deposits,
                note=game.note,
            )
            # Players not yet on the meet's attendance are added to it by ``record``.
            hanchan.record(
                [
                    PlayerEntry(
                        plan.members[name_key(r.name)], r.seat, r.score, r.chombo, r.big_hands
                    )
                    for r in game.rows
                ]
            )
    return plan
