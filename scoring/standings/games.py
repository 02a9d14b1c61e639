"""Every game of a period, one row per player (the games CSV, the Excel games sheet), and
the period's big hands."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from scoring.models import BigHand
from scoring.notation import (
    COLUMNS,
    GUEST_MARK,
    KIND_LABELS,
    SEAT_NAMES,
    MeetKind,
    format_big_hands,
)
from scoring.standings.club import TENTH, Filters, guests_condition, results_for, selection
from scoring.standings.columns import Column, Format, Medium, Table


@dataclass(frozen=True)
class GameRow:
    """One player's line of a game, with all its game holds: what the games CSV and the Excel
    games sheet list (one row source, two renderers)."""

    played_on: date
    kind: str  # a MeetKind value
    round_no: int
    table_no: int
    seat: int
    name: str
    score: int
    chombo: int
    big_hands: tuple[tuple[str, str], ...]  # (HandLevel, yakuman name)
    place: int
    total: Decimal
    rule_set: str
    deposits_held: int
    note: str
    guest: bool = False  # the player is a guest: the name is written marked 「（ゲスト）」

    @property
    def listed_name(self) -> str:
        return f"{self.name}{GUEST_MARK}" if self.guest else self.name


def game_rows(filters: Filters) -> list[GameRow]:
    """Every selected game, one row per player, in sheet order (date, meet kind, round, table,
    seat): plain values from one query, and one for the big hands."""
    results = results_for(filters)
    hands: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for result_id, level, yakuman_name in (
        BigHand.objects.filter(result__in=results)
        .order_by("pk")
        .values_list("result_id", "level", "yakuman_name")
    ):
        hands[result_id].append((level, yakuman_name))
    fields = (
        "pk",
        "played_on",
        "meet__kind",
        "hanchan__round_no",
        "hanchan__table_no",
        "seat",
        "member__name",
        "score",
        "chombo",
        "place",
        "total_points",
        "rule_set__name",
        "hanchan__deposits_held",
        "hanchan__note",
        "member__is_guest",
    )
    ordered = results.order_by(
        "played_on", "meet__kind", "hanchan__round_no", "hanchan__table_no", "seat"
    )
    return [
        GameRow(
            played_on=v[1],
            kind=v[2],
            round_no=v[3],
            table_no=v[4],
            seat=v[5],
            name=v[6],
            score=v[7],
            chombo=v[8],
            big_hands=tuple(hands.get(v[0], ())),
            place=v[9],
            total=Decimal(v[10]).quantize(TENTH),
            rule_set=v[11],
            deposits_held=v[12],
            note=v[13],
            guest=v[14],
        )
        for v in ordered.values_list(*fields)
    ]


def big_hand_list(filters: Filters) -> list[dict[str, object]]:
    """Every mangan-or-better hand in the period, in date order (one query); guests' only
    when the filters ask for guests, their names marked 「（ゲスト）」."""
    hands = BigHand.objects.filter(
        selection(filters, "result__"), guests_condition(filters, "result__")
    )
    return [
        {
            "date": h.result.hanchan.meet.date,
            "name": h.result.member.name + (GUEST_MARK if h.result.member.is_guest else ""),
            "level": h.get_level_display(),
            "yakuman_name": h.yakuman_name,
            "round_no": h.result.hanchan.round_no,
            "table_no": h.result.hanchan.table_no,
        }
        for h in hands.select_related("result__member", "result__hanchan__meet").order_by(
            "result__hanchan__meet__date", "result__hanchan__round_no", "id"
        )
    ]


SHEET_ONLY = frozenset({Medium.SHEET})
# The Excel's games sheet lists the round before the table, and each player's place and P
# after the score.
SHEET_ORDER = (
    "date",
    "meet",
    "round",
    "table",
    "seat",
    "name",
    "score",
    "place",
    "total",
    "chombo",
    "big_hands",
    "rule_set",
    "deposits",
    "note",
)

GAMES: Table[GameRow] = Table(
    (
        Column("date", COLUMNS["date"][0], lambda g: g.played_on, Format.DATE),
        Column("meet", COLUMNS["meet"][0], lambda g: KIND_LABELS[MeetKind(g.kind)], Format.TEXT),
        Column("table", COLUMNS["table"][0], lambda g: g.table_no),
        Column("round", COLUMNS["round"][0], lambda g: g.round_no),
        Column("seat", COLUMNS["seat"][0], lambda g: SEAT_NAMES[g.seat], Format.TEXT),
        # A guest's name marked 「（ゲスト）」: the import reads the mark back.
        Column("name", COLUMNS["name"][0], lambda g: g.listed_name, Format.TEXT),
        Column("score", COLUMNS["score"][0], lambda g: g.score, Format.POINTS),
        Column("place", "順位", lambda g: g.place, on=SHEET_ONLY),
        Column("total", "P", lambda g: g.total, Format.P, on=SHEET_ONLY),
        Column("chombo", COLUMNS["chombo"][0], lambda g: g.chombo or None),
        Column(
            "big_hands",
            COLUMNS["big_hands"][0],
            lambda g: format_big_hands(g.big_hands) or None,
            Format.TEXT,
        ),
        Column("rule_set", COLUMNS["rule_set"][0], lambda g: g.rule_set, Format.TEXT),
        Column("deposits", COLUMNS["deposits"][0], lambda g: g.deposits_held or None),
        Column("note", COLUMNS["note"][0], lambda g: g.note or None, Format.TEXT),
    ),
    orders={Medium.SHEET: SHEET_ORDER},
)
"""Every game, a row per player: the CSV's columns are the import format's, in its order."""
