"""One member's record: the summary among the others, every game with a running total,
the months, and the daily sheet."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext_lazy as _

from scoring.models import HanchanResult, Meet
from scoring.notation import COLUMNS, MeetKind, points, rate, seat_label, sign_class, signed_p
from scoring.standings.club import (
    Filters,
    PlaceColumns,
    StandingRow,
    compute_standings,
    results_for,
)
from scoring.standings.columns import Column, Format, Table, TablePlace

RECENT_GAMES = 10
"""How many of a member's games their page lists, newest first."""


@dataclass
class GameLine:
    """One game of a member, for the daily sheet, the cumulative chart and the recent games
    (each links to its meet)."""

    meet_id: int
    date: date
    meet_kind: str
    round_no: int
    table_no: int
    seat: str
    score: int
    place: int
    players: int  # at the table: 3 or 4
    total: Decimal
    cumulative: Decimal
    big_hands: list[str]
    chombo: int

    @property
    def table_place(self) -> TablePlace:
        return TablePlace(self.place, self.players)


@dataclass
class MonthLine:
    month: date
    games: int
    total: Decimal
    places: tuple[int, int, int, int]  # 4-player games
    places3: tuple[int, int, int] = (0, 0, 0)  # 3-player games


@dataclass
class DayLine:
    """One meet of a member's daily sheet (日別成績表)."""

    date: date
    meet_kind: str
    games: list[GameLine]
    total: Decimal

    def by_round(self, rounds: int) -> list[GameLine | None]:
        """The games in round order, a gap where the member sat a round out."""
        games = {g.round_no: g for g in self.games}
        return [games.get(n) for n in range(1, rounds + 1)]


@dataclass
class RecordLine:
    """A game's line of the printed 個人成績表: the game, and the day's total on the day's last
    game (None on the others)."""

    game: GameLine
    day_total: Decimal | None


@dataclass
class MonthSheet:
    """A month of the printed 個人成績表: its games' lines, then its subtotal (``month``)."""

    month: MonthLine
    lines: list[RecordLine]


@dataclass
class MemberRecord:
    summary: StandingRow | None
    games: list[GameLine]
    months: list[MonthLine]
    meets: list[DayLine]  # the daily sheet, meet by meet

    @property
    def rounds(self) -> int:
        """The most rounds of any meet in the record (at least ``Meet.ROUNDS``, the club's
        custom)."""
        return max([Meet.ROUNDS, *(g.round_no for g in self.games)])

    def recent(self, limit: int = RECENT_GAMES) -> list[GameLine]:
        """The latest ``limit`` games, newest first (the member's page)."""
        return self.games[::-1][:limit]

    @property
    def month_sheets(self) -> list[MonthSheet]:
        """Every game a line, month by month (the months of ``months``), each day's total on
        its last game: the club's 個人成績表, 「各個人の一戦ごとの成績」 (sheet 002)."""
        last_of_day = {id(day.games[-1]): day.total for day in self.meets}
        sheets = {m.month: MonthSheet(m, []) for m in self.months}
        for g in self.games:
            line = RecordLine(g, last_of_day.get(id(g)))
            sheets[g.date.replace(day=1)].lines.append(line)
        return list(sheets.values())

    @property
    def round_range(self) -> range:
        return range(1, self.rounds + 1)

    @property
    def places(self) -> tuple[int, int, int, int]:
        """The member's 4-player games at 1st … 4th, counted from the games themselves (the
        same as the summary's, which needs the club's standings)."""
        counts = [0, 0, 0, 0]
        for g in self.games:
            if g.players != 3:
                counts[g.place - 1] += 1
        return (counts[0], counts[1], counts[2], counts[3])

    @property
    def places3(self) -> tuple[int, int, int]:
        """The member's 3-player games at 1st … 3rd."""
        counts = [0, 0, 0]
        for g in self.games:
            if g.players == 3:
                counts[g.place - 1] += 1
        return (counts[0], counts[1], counts[2])

    @property
    def place_columns(self) -> PlaceColumns:
        """``PlaceColumns.of`` the member's own games."""
        three = any(g.players == 3 for g in self.games)
        return PlaceColumns(four=any(g.players != 3 for g in self.games) or not three, three=three)


HANDS = "big_hands_listed"
"""Where ``_record_results`` puts each result's big hands: a list (``Prefetch``'s ``to_attr``).
Prefetched into the related manager instead, Django builds a queryset for every result to hold
them, which was two thirds of reading the 50-member bench's 3,000 results."""


RECORD_FIELDS = (
    *("member", "meet", "seat", "score", "place", "total_points", "chombo"),
    *("hanchan__round_no", "hanchan__table_no", "hanchan__meet__date", "hanchan__meet__kind"),
    "rule_set__players",
)
"""What ``_record`` reads of a result and the rows it is selected with: the rest is not loaded
(a report reads every result of the period: 3,000 at the 50-member bench)."""


def _record_results(filters: Filters) -> QuerySet[HanchanResult]:
    return (
        results_for(filters)
        .select_related("hanchan__meet", "rule_set")
        .prefetch_related(Prefetch("big_hands", to_attr=HANDS))
        .only(*RECORD_FIELDS)
        .order_by("played_on", "meet__kind", "hanchan__round_no")
    )


def member_record(
    member_id: int, filters: Filters, standings: list[StandingRow] | None = None
) -> MemberRecord:
    """A member's summary (placed among the others), every game with a running total, and a
    monthly table (four queries; two when the period's ``standings`` are passed in)."""
    if standings is None:
        standings = compute_standings(filters)
    summary = next((r for r in standings if r.member_id == member_id), None)
    return _record(summary, _record_results(filters).filter(member_id=member_id))


def member_games(member_id: int, filters: Filters) -> MemberRecord:
    """A member's own games in the period, with their running total, monthly table and place
    counts, but no summary (``summary`` is None): what the member's charts draw, without the
    club's standings that placing the member among the others takes (two queries)."""
    return _record(None, _record_results(filters).filter(member_id=member_id))


def member_records(filters: Filters, standings: list[StandingRow]) -> dict[int, MemberRecord]:
    """``member_record`` for every member in the period's ``standings`` at once (two queries),
    for the reports that have a page or a sheet per member."""
    by_member: dict[int, list[HanchanResult]] = {row.member_id: [] for row in standings}
    for result in _record_results(filters).filter(member_id__in=list(by_member)):
        by_member[result.member_id].append(result)
    return {row.member_id: _record(row, by_member[row.member_id]) for row in standings}


def _record(summary: StandingRow | None, results: Iterable[HanchanResult]) -> MemberRecord:
    kinds = dict(MeetKind.choices)
    games: list[GameLine] = []
    running = Decimal(0)
    for r in results:
        running += r.total_points
        meet = r.hanchan.meet
        games.append(
            GameLine(
                meet_id=r.meet_id,
                date=meet.date,
                meet_kind=str(kinds.get(meet.kind, meet.kind)),
                round_no=r.hanchan.round_no,
                table_no=r.hanchan.table_no,
                seat=seat_label(r.seat),
                score=r.score,
                place=r.place,
                players=r.rule_set.players,
                total=r.total_points,
                cumulative=running,
                big_hands=[str(h) for h in getattr(r, HANDS)],
                chombo=r.chombo,
            )
        )
    months: dict[date, MonthLine] = {}
    for g in games:
        key = g.date.replace(day=1)
        line = months.setdefault(key, MonthLine(key, 0, Decimal(0), (0, 0, 0, 0)))
        line.games += 1
        line.total += g.total
        if g.players == 3:
            three = list(line.places3)
            three[g.place - 1] += 1
            line.places3 = (three[0], three[1], three[2])
        else:
            four = list(line.places)
            four[g.place - 1] += 1
            line.places = (four[0], four[1], four[2], four[3])
    meets: list[DayLine] = []
    for g in games:
        if meets and meets[-1].date == g.date and meets[-1].meet_kind == g.meet_kind:
            meets[-1].games.append(g)
            meets[-1].total += g.total
        else:
            meets.append(DayLine(g.date, g.meet_kind, [g], g.total))
    return MemberRecord(summary, games, list(months.values()), meets)


MEMBER_GAMES: Table[GameLine] = Table(
    (
        Column("date", COLUMNS["date"][0], lambda g: g.date, Format.DATE),
        Column("meet", COLUMNS["meet"][0], lambda g: g.meet_kind, Format.TEXT),
        Column("round", COLUMNS["round"][0], lambda g: g.round_no),
        Column("table", COLUMNS["table"][0], lambda g: g.table_no),
        Column("seat", COLUMNS["seat"][0], lambda g: g.seat, Format.TEXT),
        Column("score", COLUMNS["score"][0], lambda g: g.score, Format.POINTS),
        Column("place", "順位", lambda g: g.table_place, Format.TABLE_PLACE),
        Column("total", "P", lambda g: g.total, Format.P),
        Column("cumulative", "累計", lambda g: g.cumulative, Format.P),
        Column("chombo", COLUMNS["chombo"][0], lambda g: g.chombo or None),
        Column(
            "big_hands",
            COLUMNS["big_hands"][0],
            lambda g: "、".join(g.big_hands) or None,
            Format.TEXT,
        ),
    )
)
"""A member's games, one row each (the Excel's sheet per member): the record sheet's own
headings (``notation.COLUMNS``), as on the games sheet, and the place, P and running total."""


@dataclass(frozen=True)
class SummaryItem:
    """One heading of a member's summary and its figure as written: the member's page (its
    ``dl``) and the printed 個人成績表 (its boxes) both lay out ``summary_items``."""

    key: str
    label: str
    value: str
    note: str = ""  # beside the figure, smaller (the big hands by kind, the below-zero rate)
    css: str = ""  # the figure's sign, for the page's colour
    term: str = ""  # the heading is a hard word of scoring.glossary: the page explains it


def summary_items(s: StandingRow, *, wins: bool, rank: bool = True) -> list[SummaryItem]:
    """A member's summary for the period, heading by heading, in the order shown. ``wins``:
    the group counts wins (a rule set that counts no scores); ``rank``: the member's place
    among the others (the printed page leaves it out: a part of the half-year report is laid
    out without the others, its rank stamped on afterwards). Each kind of game has its own
    average place: the 4-player one when the member played 4-player games, the 3-player one
    and its places when they played 3-player games."""
    items = [SummaryItem("rank", str(_("Rank")), str(s.position))] if rank else []
    items += [
        SummaryItem("total", str(_("Total P")), signed_p(s.total), css=sign_class(s.total)),
        SummaryItem("games", str(_("Games")), str(s.games)),
        SummaryItem("average", str(_("Average P")), signed_p(s.average)),
    ]
    if wins:
        items.append(SummaryItem("wins", str(_("Wins")), str(s.wins)))
    if s.games4:
        label = _("4-player average place") if s.games3 else _("Average place")
        items.append(SummaryItem("average_place", str(label), str(s.average_place)))
    if s.games3:
        a, b, c = s.places3
        places3 = _("1st %(a)s, 2nd %(b)s, 3rd %(c)s") % {"a": a, "b": b, "c": c}
        items += [
            SummaryItem("places3", str(_("3-player places")), str(places3)),
            SummaryItem("average_place3", str(_("3-player average place")), str(s.average_place3)),
        ]
    kinds = "・".join(f"{label} {n}" for label, n in s.big_hand_kinds)
    below_rate = f"({rate(s.below_zero_rate)})" if s.below_zero_rate is not None else ""
    items += [
        SummaryItem("top_rate", str(_("Top rate")), rate(s.top_rate)),
        SummaryItem("top_two_rate", str(_("Top-two rate")), rate(s.top_two_rate)),
        SummaryItem("last_avoid_rate", str(_("Last-avoid rate")), rate(s.last_avoid_rate)),
        SummaryItem("best_game", str(_("Best game")), signed_p(s.best_game)),
        SummaryItem("highest_score", str(_("Highest score")), points(s.highest_score)),
        SummaryItem("worst_game", str(_("Worst game")), signed_p(s.worst_game)),
        SummaryItem(
            "below_zero",
            str(_("Below zero")),
            str(s.below_zero),
            note=below_rate,
            term="below_zero",
        ),
        SummaryItem(
            "big_hands",
            str(_("Mangan or better")),
            str(s.big_hand_total),
            note=kinds,
            term="mangan",
        ),
        SummaryItem("chombo", str(_("Chombo")), str(s.chombo), term="chombo"),
        SummaryItem("meets", str(_("Meets attended")), str(s.meets)),
    ]
    return items
