"""Standings: the one place that aggregates stored results into plain rows.

Pages, PDF and Excel reports only lay out what these functions return; nothing else counts.
Each function runs a fixed number of queries, whatever the number of members or games.

Every standings table is for one standings group (成績グループ, DOMAIN.md): P from different rule
systems is never added together. The filters name the group (the club's by default) and,
within it, optionally one rule set. Only the games CSV reads every game of a period.

Places are those stored at settlement ("1 + the number of players with a strictly higher
score", DOMAIN.md); "last" is the last place of the game's own rule set (4th, or 3rd at a
3-player table), also stored at settlement (``is_last``), as are the meet's date
(``played_on``) and the game's rule set, so that a period's standings are one pass over a
covering index. Place counts keep 3- and 4-player games apart (a three-player last is a last,
never a four-player 3位); the last-avoid rate counts both. In a group where no rule set
counts scores (カンターン, 1-0-0-0) the standings count wins (1st places).

Sums of P come from the database. SQLite adds decimals in floating point, so each sum is
rounded to a tenth: exact while the accumulated error stays below 0.05 P, which holds far
beyond any club's or federation's number of games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property

from django.db.models import Count, Max, Q, QuerySet, Sum

from members.models import Member
from scoring import draw
from scoring.models import (
    BigHand,
    Hanchan,
    HanchanResult,
    Meet,
    MeetKind,
    RuleSet,
    StandingsGroup,
    seat_label,
)
from scoring.periods import FIRST_DAY as FIRST_DAY
from scoring.periods import LAST_DAY as LAST_DAY
from scoring.periods import Period as Period
from scoring.periods import PeriodKind as PeriodKind
from scoring.periods import PeriodOutOfRange as PeriodOutOfRange

TENTH = Decimal("0.1")
HUNDREDTH = Decimal("0.01")
THOUSANDTH = Decimal("0.001")


@dataclass(frozen=True)
class Filters:
    period: Period = field(default_factory=Period.all_time)
    kind: str = ""  # "" for every meet kind, else a MeetKind value
    group: StandingsGroup | None = None  # the standings group; None: the club's
    rule_set: RuleSet | None = None  # one rule set of the group, or None for all of them
    min_games: int = 0  # 規定打数: below it, the rate columns stay empty
    every_group: bool = False  # every game whatever its group (the games CSV only)

    @cached_property
    def standings_group(self) -> StandingsGroup | None:
        """The group these filters count: the rule set's, the one named, or the club's."""
        if self.every_group:
            return None
        if self.rule_set is not None:
            return self.rule_set.group
        return self.group or StandingsGroup.club()

    @cached_property
    def group_rule_sets(self) -> list[RuleSet]:
        """Every rule set of the group (empty: every game is counted)."""
        group = self.standings_group
        return list(group.rule_sets.all()) if group is not None else []

    @property
    def rule_sets(self) -> list[RuleSet]:
        """The rule sets whose games are counted (empty: every game)."""
        return [self.rule_set] if self.rule_set is not None else self.group_rule_sets

    @property
    def is_club_group(self) -> bool:
        return self.rule_set is None and any(r.is_default for r in self.group_rule_sets)

    @property
    def file_key(self) -> str:
        """What a report's file name says of these filters: the period, and the group or rule
        set when it is not the club's group."""
        if self.rule_set is not None:
            return f"{self.period.key}-rule{self.rule_set.pk}"
        group = self.standings_group
        if group is None or self.is_club_group:
            return self.period.key
        return f"{self.period.key}-group{group.pk}"

    @property
    def label(self) -> str:
        """The group (and rule set) counted, for headings: 日本健康麻将協会 / 白樺会・白樺会 三人打ち;
        empty for the club's group as a whole, which every report is for unless it says."""
        group = self.standings_group
        if group is None or self.is_club_group:
            return ""
        if self.rule_set is not None:
            return f"{group.name}・{self.rule_set.name}"
        return group.name

    @property
    def heading(self) -> str:
        """The period, and the group when it is not the club's: 2025年度 上期　日本健康麻将協会."""
        return "　".join(part for part in (self.period.label, self.label) if part)

    @property
    def three_player_ids(self) -> list[int]:
        return [r.pk for r in self.rule_sets if r.players == 3]


@dataclass
class StandingRow:
    member_id: int
    name: str
    furigana: str
    games: int
    total: Decimal
    places: tuple[int, int, int, int]  # 4-player games at 1st … 4th
    lasts: int  # games at the last place of that game's rule set (3- and 4-player)
    place_sum: int  # of the 4-player games
    best_game: Decimal
    highest_score: int
    below_zero: int
    chombo: int
    meets: int
    big_hands: dict[str, int] = field(default_factory=dict)  # level -> count
    position: int = 0
    qualified: bool = True  # has the minimum number of games for the rate columns
    places3: tuple[int, int, int] = (0, 0, 0)  # 3-player games at 1st … 3rd
    place_sum3: int = 0  # of the 3-player games

    @property
    def wins(self) -> int:
        return self.places[0] + self.places3[0]

    @property
    def games3(self) -> int:
        return sum(self.places3)

    @property
    def games4(self) -> int:
        return self.games - self.games3

    @property
    def average(self) -> Decimal:
        return (self.total / self.games).quantize(TENTH, ROUND_HALF_UP)

    @property
    def average_place(self) -> Decimal | None:
        """Of the 4-player games (a 3-player place is not a 4-player one)."""
        if not self.games4:
            return None
        return (Decimal(self.place_sum) / self.games4).quantize(HUNDREDTH, ROUND_HALF_UP)

    @property
    def average_place3(self) -> Decimal | None:
        if not self.games3:
            return None
        return (Decimal(self.place_sum3) / self.games3).quantize(HUNDREDTH, ROUND_HALF_UP)

    def _rate(self, count: int) -> Decimal | None:
        if not self.qualified:
            return None
        return (Decimal(count) / self.games).quantize(THOUSANDTH, ROUND_HALF_UP)

    @property
    def top_rate(self) -> Decimal | None:
        return self._rate(self.wins)

    @property
    def top_two_rate(self) -> Decimal | None:
        return self._rate(self.places[0] + self.places[1] + self.places3[0] + self.places3[1])

    @property
    def last_avoid_rate(self) -> Decimal | None:
        return self._rate(self.games - self.lasts)

    @property
    def big_hand_total(self) -> int:
        return sum(self.big_hands.values())


def selection(filters: Filters, path: str = "") -> Q:
    """The filters as a condition on HanchanResult, reached through ``path`` (e.g. "result__").

    The period and the rule sets are read from what each result carries (``played_on``,
    ``rule_set``), so they need no join.
    """
    condition = Q()
    period = filters.period
    if period.start is not None:
        condition &= Q(**{f"{path}played_on__gte": period.start})
    if period.end is not None:
        condition &= Q(**{f"{path}played_on__lte": period.end})
    if filters.kind:
        condition &= Q(**{f"{path}meet__kind": filters.kind})
    if not filters.every_group:
        condition &= Q(**{f"{path}rule_set__in": [r.pk for r in filters.rule_sets]})
    return condition


def results_for(filters: Filters) -> QuerySet[HanchanResult]:
    """The stored results a set of filters selects."""
    return HanchanResult.objects.filter(selection(filters))


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
        )
        for v in ordered.values_list(*fields)
    ]


def counts_wins(filters: Filters) -> bool:
    """カンターン: when no counted rule set counts scores (1-0-0-0), rank by wins."""
    return bool(filters.rule_sets) and not any(r.scores_count for r in filters.rule_sets)


def compute_standings(filters: Filters) -> list[StandingRow]:
    """One row per member with games in the period, best first (three queries)."""
    three = Q(rule_set__in=filters.three_player_ids)
    query = (
        results_for(filters)
        .values("member_id")
        .annotate(
            games=Count("id"),
            total=Sum("total_points"),
            p1=Count("id", filter=Q(place=1) & ~three),
            p2=Count("id", filter=Q(place=2) & ~three),
            p3=Count("id", filter=Q(place=3) & ~three),
            p4=Count("id", filter=Q(place=4) & ~three),
            t1=Count("id", filter=Q(place=1) & three),
            t2=Count("id", filter=Q(place=2) & three),
            t3=Count("id", filter=Q(place=3) & three),
            lasts=Count("id", filter=Q(is_last=True)),
            place_sum=Sum("place", filter=~three, default=0),
            place_sum3=Sum("place", filter=three, default=0),
            best_game=Max("total_points"),
            highest_score=Max("score"),
            below_zero=Count("id", filter=Q(score__lt=0)),
            chombo=Sum("chombo"),
            meets=Count("meet", distinct=True),
        )
        .order_by()
    )
    rows = list(query)
    names = dict(
        (m["pk"], (m["name"], m["furigana"]))
        for m in Member.objects.filter(pk__in=[r["member_id"] for r in rows]).values(
            "pk", "name", "furigana"
        )
    )
    hands: dict[int, dict[str, int]] = defaultdict(dict)
    for item in (
        BigHand.objects.filter(selection(filters, "result__"))
        .values("result__member_id", "level")
        .annotate(n=Count("id"))
        .order_by()
    ):
        hands[item["result__member_id"]][item["level"]] = item["n"]

    standings = [
        StandingRow(
            member_id=r["member_id"],
            name=names[r["member_id"]][0],
            furigana=names[r["member_id"]][1],
            games=r["games"],
            total=Decimal(r["total"]).quantize(TENTH, ROUND_HALF_UP),
            places=(r["p1"], r["p2"], r["p3"], r["p4"]),
            places3=(r["t1"], r["t2"], r["t3"]),
            place_sum3=r["place_sum3"],
            lasts=r["lasts"],
            place_sum=r["place_sum"],
            best_game=Decimal(r["best_game"]).quantize(TENTH, ROUND_HALF_UP),
            highest_score=r["highest_score"],
            below_zero=r["below_zero"],
            chombo=r["chombo"],
            meets=r["meets"],
            big_hands=hands.get(r["member_id"], {}),
            qualified=r["games"] >= filters.min_games,
        )
        for r in rows
    ]
    by_wins = counts_wins(filters)

    def score(row: StandingRow) -> Decimal:
        return Decimal(row.wins) if by_wins else row.total

    standings.sort(key=lambda row: (-score(row), row.furigana, row.name))
    for index, row in enumerate(standings):
        same = index and score(standings[index - 1]) == score(row)
        row.position = standings[index - 1].position if same else index + 1
    return standings


@dataclass(frozen=True)
class PlaceColumns:
    """Which place counts a table shows: 4-player (1位–4位) and 3-player (三人打ち1位–3位),
    each when its games are there (4-player when there is nothing at all)."""

    four: bool
    three: bool

    @classmethod
    def of(cls, rows: Iterable[StandingRow]) -> PlaceColumns:
        rows = list(rows)
        three = any(r.games3 for r in rows)
        return cls(four=any(r.games4 for r in rows) or not three, three=three)


SORT_KEYS = {
    "position": lambda r: (r.position,),
    "name": lambda r: (r.furigana, r.name),
    "games": lambda r: (-r.games, r.position),
    "total": lambda r: (r.position,),
    "average": lambda r: (-r.average, r.position),
    "average_place": lambda r: (r.average_place is None, r.average_place or 0, r.position),
    "top_rate": lambda r: (r.top_rate is None, -(r.top_rate or 0), r.position),
    "top_two_rate": lambda r: (r.top_two_rate is None, -(r.top_two_rate or 0), r.position),
    "last_avoid_rate": lambda r: (r.last_avoid_rate is None, -(r.last_avoid_rate or 0), r.position),
    "best_game": lambda r: (-r.best_game, r.position),
    "highest_score": lambda r: (-r.highest_score, r.position),
    "big_hands": lambda r: (-r.big_hand_total, r.position),
    "chombo": lambda r: (-r.chombo, r.position),
    "meets": lambda r: (-r.meets, r.position),
}


def sort_standings(rows: list[StandingRow], key: str) -> list[StandingRow]:
    """Reorder for display (positions stay as computed). Unknown keys keep the order."""
    sort_key = SORT_KEYS.get(key)
    return sorted(rows, key=sort_key) if sort_key else rows


# --- one meet --------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetLine:
    """One player's line of a game on a meet's sheet."""

    seat: int
    seat_name: str  # 東 南 西 北
    member_id: int
    name: str
    score: int
    place: int
    total: Decimal
    chombo: int
    big_hands: tuple[str, ...]  # 満貫, 役満(国士無双), … in the order entered


@dataclass(frozen=True)
class SheetGame:
    """One entered game of a meet: where it was played, its rule set, the deposits held and
    its players' lines in seat order."""

    game_id: int
    round_no: int
    table_no: int
    rule_set_id: int
    rule_set_name: str
    deposits_held: int  # points left on the table (預かり)
    deposits_p: Decimal  # what they take off the table's P total (0 or negative)
    lines: tuple[SheetLine, ...]


@dataclass(frozen=True)
class SheetRound:
    """The games entered in one round, by table."""

    round_no: int
    games: tuple[SheetGame, ...]


@dataclass(frozen=True)
class SheetCell:
    """One table of one round of a meet's grid, with its game or None when not entered."""

    table_no: int
    game: SheetGame | None


@dataclass(frozen=True)
class GridRound:
    round_no: int
    cells: tuple[SheetCell, ...]


@dataclass(frozen=True)
class MeetSheet:
    """What a meet's page and its sheet (例会成績表) show: the entered games round by round,
    the grid they belong in, and the day's standings."""

    rounds: tuple[SheetRound, ...]  # the entered games only
    attending: int
    tables: int  # every table entered, and at least one per rule-set table of those attending
    round_count: int  # every round entered, and at least the club's ``Meet.ROUNDS``
    day_rows: list[StandingRow]  # the day's standings (empty when not asked for)

    @property
    def grid(self) -> list[GridRound]:
        """Every round × every table, the game where one was entered."""
        games = {(g.round_no, g.table_no): g for r in self.rounds for g in r.games}
        return [
            GridRound(
                round_no,
                tuple(SheetCell(t, games.get((round_no, t))) for t in range(1, self.tables + 1)),
            )
            for round_no in range(1, self.round_count + 1)
        ]

    @property
    def next_round(self) -> int:
        return self.round_count + 1

    @property
    def place_columns(self) -> PlaceColumns:
        return PlaceColumns.of(self.day_rows)


def day_filters(meet: Meet) -> Filters:
    """The filters of one meet's day: its date, its kind, its rule set's standings group."""
    return Filters(
        period=Period.between(meet.date, meet.date), kind=meet.kind, group=meet.rule_set.group
    )


def tables_for(meet: Meet, attending: int) -> int:
    """How many tables the attendance fills: as the table draw lays them out (draw.py: 14 →
    4+4+3+3 with tables of three, 4+4+4 and two sitting out with 抜け番), or tables of three
    under a 3-player rule set; at least one."""
    if meet.rule_set.players == 3:
        return max(attending // 3, 1)
    try:
        sizes, _out = draw.table_sizes(attending, draw.Mode(meet.draw_mode))
    except ValueError:  # too few for a table
        return 1
    return max(len(sizes), 1)


def meet_sheet(meet: Meet, *, day_standings: bool = True) -> MeetSheet:
    """One meet's games as plain rows, round by round and table by table (four queries), and
    the day's standings (``compute_standings`` of ``day_filters``; left out with
    ``day_standings=False``)."""
    games = list(
        Hanchan.objects.filter(meet=meet)
        .select_related("rule_set")
        .order_by("round_no", "table_no")
    )
    results = (
        HanchanResult.objects.filter(hanchan__meet=meet)
        .order_by("hanchan_id", "seat")
        .values_list(
            "pk",
            "hanchan_id",
            "seat",
            "member_id",
            "member__name",
            "score",
            "place",
            "total_points",
            "chombo",
        )
    )
    hands: dict[int, list[str]] = defaultdict(list)
    for hand in BigHand.objects.filter(result__hanchan__meet=meet).order_by("result_id", "pk"):
        hands[hand.result_id].append(str(hand))
    lines: dict[int, list[SheetLine]] = defaultdict(list)
    for pk, game_id, seat, member_id, name, score, place, total, chombo in results:
        lines[game_id].append(
            SheetLine(
                seat=seat,
                seat_name=seat_label(seat),
                member_id=member_id,
                name=name,
                score=score,
                place=place,
                total=total,
                chombo=chombo,
                big_hands=tuple(hands.get(pk, ())),
            )
        )
    rounds: dict[int, list[SheetGame]] = defaultdict(list)
    for game in games:
        rounds[game.round_no].append(
            SheetGame(
                game_id=game.pk,
                round_no=game.round_no,
                table_no=game.table_no,
                rule_set_id=game.rule_set_id,
                rule_set_name=game.rule_set.name,
                deposits_held=game.deposits_held,
                deposits_p=game.deposits_p,
                lines=tuple(lines.get(game.pk, ())),
            )
        )
    attending = meet.attendees.count()
    return MeetSheet(
        rounds=tuple(SheetRound(n, tuple(g)) for n, g in sorted(rounds.items())),
        attending=attending,
        tables=max([g.table_no for g in games] + [tables_for(meet, attending)]),
        round_count=max([g.round_no for g in games] + [Meet.ROUNDS]),
        day_rows=compute_standings(day_filters(meet)) if day_standings else [],
    )


# --- one member ------------------------------------------------------------------------


@dataclass
class GameLine:
    """One game of a member, for the daily sheet and the cumulative chart."""

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


def _record_results(filters: Filters) -> QuerySet[HanchanResult]:
    return (
        results_for(filters)
        .select_related("hanchan__meet", "rule_set")
        .prefetch_related("big_hands")
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
                big_hands=[str(h) for h in r.big_hands.all()],
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


def big_hand_list(filters: Filters) -> list[dict[str, object]]:
    """Every mangan-or-better hand in the period, in date order (one query)."""
    hands = BigHand.objects.filter(selection(filters, "result__"))
    return [
        {
            "date": h.result.hanchan.meet.date,
            "name": h.result.member.name,
            "level": h.get_level_display(),
            "yakuman_name": h.yakuman_name,
            "round_no": h.result.hanchan.round_no,
            "table_no": h.result.hanchan.table_no,
        }
        for h in hands.select_related("result__member", "result__hanchan__meet").order_by(
            "result__hanchan__meet__date", "result__hanchan__round_no", "id"
        )
    ]
