"""The club's table: the filters (period, meet kind, standings group, rule set), one row
per member, and the order it is shown in."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import cached_property

from django.db.models import Count, Max, Min, Q, QuerySet, Sum
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from members.models import Member
from scoring.models import BigHand, HanchanResult, RuleSet, StandingsGroup
from scoring.notation import GUEST_MARK, HandLevel
from scoring.periods import Period
from scoring.standings.columns import Column, Format, Medium, Shown, Table

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
    guests: bool = False  # show guests (ゲスト) too; by default the tables leave them out
    every_group: bool = False  # every game whatever its group (the games CSV only)

    @cached_property
    def standings_group(self) -> StandingsGroup | None:
        """The group these filters count: the rule set's, the one named, or the club's."""
        if self.every_group:
            return None
        if self.rule_set is not None:
            return self.rule_set.group
        return self.group or StandingsGroup.clubs_own()

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
        """What a report's file name says of these filters: the period, the group or rule
        set when it is not the club's group, and "guests" when guests are shown."""
        guests = "-guests" if self.guests else ""
        if self.rule_set is not None:
            return f"{self.period.key}-rule{self.rule_set.pk}{guests}"
        group = self.standings_group
        if group is None or self.is_club_group:
            return f"{self.period.key}{guests}"
        return f"{self.period.key}-group{group.pk}{guests}"

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
    worst_game: Decimal = Decimal(0)
    is_guest: bool = False  # a guest (ゲスト), shown only when the filters ask for guests

    @property
    def listed_name(self) -> str:
        """The name as the tables write it: a guest's marked 「（ゲスト）」."""
        return f"{self.name}{GUEST_MARK}" if self.is_guest else self.name

    @property
    def below_zero_rate(self) -> Decimal | None:
        """箱割れ率: the share of games finished below zero (empty below the minimum of games).
        Sheet 002: "④箱割れとなっても局は継続します。" (play goes on below zero), so the final
        score may be negative and is counted as it stands."""
        return self._rate(self.below_zero)

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

    def games_of(self, players: int) -> int:
        """The member's games at tables of ``players`` (4 or 3)."""
        return self.games3 if players == 3 else self.games4

    def place_mean(self, players: int) -> Fraction | None:
        """The exact average place of the member's games at tables of ``players`` (4 or 3),
        None without such games. Sheet 002 places four (一位 … 四位), sheet 000's 3-player game
        three, so the two kinds are never averaged together: a 3-player last is a 3rd, not a
        4-player 3位 (DOMAIN.md). Awards compare these, never the rounded figures."""
        games = self.games_of(players)
        if not games:
            return None
        return Fraction(self.place_sum3 if players == 3 else self.place_sum, games)

    @property
    def average_place(self) -> Decimal | None:
        """Of the 4-player games (a 3-player place is not a 4-player one), to a hundredth."""
        return _hundredths(self.place_mean(4))

    @property
    def average_place3(self) -> Decimal | None:
        """Of the 3-player games, to a hundredth."""
        return _hundredths(self.place_mean(3))

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

    def big_hands_of(self, level: str) -> int:
        """The member's big hands of one level (満貫, 跳満, 倍満, 三倍満 or 役満)."""
        return self.big_hands.get(level, 0)

    @property
    def big_hand_kinds(self) -> list[tuple[str, int]]:
        """(the level's word, its count) for each level the member made, 満貫 first."""
        return [(str(level.label), n) for level in HandLevel if (n := self.big_hands_of(level))]


def _hundredths(mean: Fraction | None) -> Decimal | None:
    """An exact average written to a hundredth, halves up (19/8 = 2.375 → 2.38)."""
    if mean is None:
        return None
    return (Decimal(mean.numerator) / mean.denominator).quantize(HUNDREDTH, ROUND_HALF_UP)


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
class PeriodSummary:
    """What a period of the filters held: meets, games (hanchan) and members who played."""

    meets: int
    games: int
    players: int


def period_summary(filters: Filters) -> PeriodSummary:
    """The meets, games and players the filters count (one query; guests among the players
    only when the filters show them, as the standings do)."""
    counted = results_for(filters).aggregate(
        meets=Count("meet_id", distinct=True),
        games=Count("hanchan_id", distinct=True),
        players=Count("member_id", distinct=True, filter=guests_condition(filters) or None),
    )
    return PeriodSummary(counted["meets"], counted["games"], counted["players"])


def latest_day(filters: Filters, member_id: int | None = None) -> date | None:
    """The date of the latest game these filters count (of one member's games when
    ``member_id`` is given), or None when there is none."""
    results = results_for(filters)
    if member_id is not None:
        results = results.filter(member_id=member_id)
    day: date | None = results.aggregate(day=Max("played_on"))["day"]
    return day


def counts_wins(filters: Filters) -> bool:
    """カンターン: when no counted rule set counts scores (1-0-0-0), rank by wins."""
    return bool(filters.rule_sets) and not any(r.scores_count for r in filters.rule_sets)


def tied_note(by_wins: bool = False) -> str:
    """What the standings say under the table of the order within a rank (``compute_standings``:
    equal P, or equal wins in a group that counts wins, share a rank, listed by furigana and
    then name)."""
    if by_wins:
        return gettext(
            "Members with equal wins share a rank; within it they are listed by furigana, "
            "and by name where the furigana is the same."
        )
    return gettext(
        "Members with equal total P share a rank; within it they are listed by furigana, "
        "and by name where the furigana is the same."
    )


def guests_condition(filters: Filters, path: str = "") -> Q:
    """Leave guests (``Member.is_guest``) out unless the filters ask for them (``?guests=1``);
    ``path`` reaches the result's member, e.g. "result__". Only whose rows are listed changes:
    the places of a guest's tablemates stand as played."""
    return Q() if filters.guests else Q(**{f"{path}member__is_guest": False})


def compute_standings(filters: Filters) -> list[StandingRow]:
    """One row per member with games in the period, best first (three queries). Guests are
    left out unless ``filters.guests``."""
    three = Q(rule_set__in=filters.three_player_ids)
    query = (
        results_for(filters)
        .filter(guests_condition(filters))
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
            worst_game=Min("total_points"),
            highest_score=Max("score"),
            below_zero=Count("id", filter=Q(score__lt=0)),
            chombo=Sum("chombo"),
            meets=Count("meet", distinct=True),
        )
        .order_by()
    )
    rows = list(query)
    names = dict(
        (m["pk"], (m["name"], m["furigana"], m["is_guest"]))
        for m in Member.objects.filter(pk__in=[r["member_id"] for r in rows]).values(
            "pk", "name", "furigana", "is_guest"
        )
    )
    hands: dict[int, dict[str, int]] = defaultdict(dict)
    for item in (
        BigHand.objects.filter(
            selection(filters, "result__"), guests_condition(filters, "result__")
        )
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
            is_guest=names[r["member_id"]][2],
            games=r["games"],
            total=Decimal(r["total"]).quantize(TENTH, ROUND_HALF_UP),
            places=(r["p1"], r["p2"], r["p3"], r["p4"]),
            places3=(r["t1"], r["t2"], r["t3"]),
            place_sum3=r["place_sum3"],
            lasts=r["lasts"],
            place_sum=r["place_sum"],
            best_game=Decimal(r["best_game"]).quantize(TENTH, ROUND_HALF_UP),
            worst_game=Decimal(r["worst_game"]).quantize(TENTH, ROUND_HALF_UP),
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


def _by_hands_of(level: str) -> Callable[[StandingRow], tuple[int, int]]:
    """Most big hands of ``level`` first."""
    return lambda r: (-r.big_hands_of(level), r.position)


SORT_KEYS = {
    "position": lambda r: (r.position,),
    "name": lambda r: (r.furigana, r.name),
    "games": lambda r: (-r.games, r.position),
    "total": lambda r: (r.position,),
    "average": lambda r: (-r.average, r.position),
    "average_place": lambda r: (r.place_mean(4) is None, r.place_mean(4) or 0, r.position),
    "average_place3": lambda r: (r.place_mean(3) is None, r.place_mean(3) or 0, r.position),
    "top_rate": lambda r: (r.top_rate is None, -(r.top_rate or 0), r.position),
    "top_two_rate": lambda r: (r.top_two_rate is None, -(r.top_two_rate or 0), r.position),
    "last_avoid_rate": lambda r: (r.last_avoid_rate is None, -(r.last_avoid_rate or 0), r.position),
    "best_game": lambda r: (-r.best_game, r.position),
    "highest_score": lambda r: (-r.highest_score, r.position),
    "big_hands": lambda r: (-r.big_hand_total, r.position),
    **{level: _by_hands_of(level) for level in HandLevel.values},
    "chombo": lambda r: (-r.chombo, r.position),
    "meets": lambda r: (-r.meets, r.position),
}


def sort_standings(rows: list[StandingRow], key: str) -> list[StandingRow]:
    """Reorder for display (positions stay as computed). Unknown keys keep the order."""
    sort_key = SORT_KEYS.get(key)
    return sorted(rows, key=sort_key) if sort_key else rows


def _not_wins(shown: Shown) -> bool:
    return not shown.wins


def _wins(shown: Shown) -> bool:
    return shown.wins


def _four(shown: Shown) -> bool:
    return shown.four


def _three(shown: Shown) -> bool:
    return shown.three


def _three_not_wins(shown: Shown) -> bool:
    return shown.three and not shown.wins


def _four_alone_not_wins(shown: Shown) -> bool:
    """4-player games and no 3-player ones: the average place needs no kind in its name."""
    return shown.four and not shown.three and not shown.wins


def _four_beside_three_not_wins(shown: Shown) -> bool:
    """Both 4-player and 3-player games in one table: each average is named by its kind."""
    return shown.four and shown.three and not shown.wins


# The big hands' column headings: short, so that the A4 PDF's widest table (4- and 3-player
# places) keeps every column on the page in English too (Japanese: 満貫 跳満 倍満 三倍満 役満).
HAND_HEADINGS = {
    HandLevel.MANGAN: pgettext_lazy("standings column", "Man"),
    HandLevel.HANEMAN: pgettext_lazy("standings column", "Hane"),
    HandLevel.BAIMAN: pgettext_lazy("standings column", "Bai"),
    HandLevel.SANBAIMAN: pgettext_lazy("standings column", "San-bai"),
    HandLevel.YAKUMAN: pgettext_lazy("standings column", "Yaku"),
}


def _hand_column(level: HandLevel) -> Column[StandingRow]:
    """The count of one level of big hand (its key is the level: "mangan" … "yakuman")."""
    return Column(
        level.value, HAND_HEADINGS[level], lambda r: r.big_hands_of(level.value), sort=level.value
    )


NOT_ON_PDF = frozenset({Medium.PAGE, Medium.SHEET, Medium.CSV})  # the A4 page is narrower
SHEET_ONLY = frozenset({Medium.SHEET})
NOT_ON_SHEET = frozenset({Medium.PAGE, Medium.PDF, Medium.CSV})

# The Excel's order: 3-player places at the end, below-zero (箱割れ) before attendance; the big
# hands by kind (満貫 … 役満, added later) after all of these, so that the columns people's
# formulas point at keep their letters.
SHEET_ORDER = (
    "position",
    "name",
    "games",
    "wins",
    "win_rate",
    "total",
    "sheet_average_place",
    "place1",
    "place2",
    "place3",
    "place4",
    "big_hands",
    "chombo",
    "average",
    "top_rate",
    "top_two_rate",
    "last_avoid_rate",
    "best_game",
    "highest_score",
    "below_zero",
    "meets",
    "three_place1",
    "three_place2",
    "three_place3",
    "average_place3",
    *HandLevel.values,
)
# The PDF's order: the average P beside the total, then the place counts and the rest as the
# page had them before its average places moved up beside the total.
PDF_ORDER = (
    "position",
    "name",
    "games",
    "wins",
    "win_rate",
    "total",
    "average",
    "place1",
    "place2",
    "place3",
    "place4",
    "three_place1",
    "three_place2",
    "three_place3",
)

STANDINGS: Table[StandingRow] = Table(
    (
        Column("position", _("Rank"), lambda r: r.position, sort="position"),
        # A guest's name is marked 「（ゲスト）」 everywhere (shown only with ?guests=1).
        Column(
            "name", _("Name"), lambda r: r.listed_name, Format.TEXT, sort="name", heads_row=True
        ),
        Column("games", _("Games"), lambda r: r.games, sort="games"),
        # A 1-0-0-0 group (カンターン) counts wins and the win rate instead of P.
        Column("wins", _("Wins"), lambda r: r.wins, when=_wins, sort="total", strong=True),
        Column(
            "win_rate", _("Win rate"), lambda r: r.top_rate, Format.RATE, _wins, sort="top_rate"
        ),
        Column(
            "total",
            _("Total P"),
            lambda r: r.total,
            Format.P,
            _not_wins,
            sort="total",
            strong=True,
            signed=True,
        ),
        # The average place of each kind of game apart (a 3-player place is not a 4-player
        # one), each named by its kind where the table has both, on the page right after the
        # total P: a phone's first screen shows the 3-player figure beside the 4-player one
        # (it showed 1位 2位 3位 of the 4-player games and nothing of the 3-player ones); the
        # PDF keeps its order (PDF_ORDER). The Excel keeps its own 4-player average place in
        # the fifth column (E) whatever the group, as it always has: people's formulas point
        # at its letter. Its heading says its kind (四人打ち): the sheet may hold 3-player
        # figures too.
        Column(
            "average_place",
            _("Average place"),
            lambda r: r.average_place,
            Format.PLACE,
            _four_alone_not_wins,
            NOT_ON_SHEET,
            sort="average_place",
        ),
        Column(
            "average_place4",
            _("4-player average place"),
            lambda r: r.average_place,
            Format.PLACE,
            _four_beside_three_not_wins,
            NOT_ON_SHEET,
            sort="average_place",
        ),
        Column(
            "sheet_average_place",
            _("4-player average place"),
            lambda r: r.average_place,
            Format.PLACE,
            _not_wins,
            SHEET_ONLY,
        ),
        Column(
            "average_place3",
            _("3-player average place"),
            lambda r: r.average_place3,
            Format.PLACE,
            _three_not_wins,
            NOT_ON_PDF,
            sort="average_place3",
        ),
        # Place counts: 4-player and 3-player apart, each when the group has such games.
        Column("place1", _("1st"), lambda r: r.places[0], when=_four),
        Column("place2", _("2nd"), lambda r: r.places[1], when=_four),
        Column("place3", _("3rd"), lambda r: r.places[2], when=_four),
        Column("place4", _("4th"), lambda r: r.places[3], when=_four),
        Column("three_place1", _("3-player 1st"), lambda r: r.places3[0], when=_three),
        Column("three_place2", _("3-player 2nd"), lambda r: r.places3[1], when=_three),
        Column("three_place3", _("3-player 3rd"), lambda r: r.places3[2], when=_three),
        Column(
            "average",
            _("Average P"),
            lambda r: r.average,
            Format.P,
            _not_wins,
            sort="average",
            signed=True,
        ),
        Column(
            "top_rate", _("Top rate"), lambda r: r.top_rate, Format.RATE, _not_wins, sort="top_rate"
        ),
        Column(
            "top_two_rate",
            _("Top-two rate"),
            lambda r: r.top_two_rate,
            Format.RATE,
            _not_wins,
            sort="top_two_rate",
        ),
        Column(
            "last_avoid_rate",
            _("Last-avoid rate"),
            lambda r: r.last_avoid_rate,
            Format.RATE,
            _not_wins,
            sort="last_avoid_rate",
        ),
        Column(
            "best_game",
            _("Best game"),
            lambda r: r.best_game,
            Format.P,
            _not_wins,
            NOT_ON_PDF,
            sort="best_game",
        ),
        Column(
            "highest_score",
            _("Highest score"),
            lambda r: r.highest_score,
            Format.POINTS,
            _not_wins,
            NOT_ON_PDF,
            sort="highest_score",
        ),
        Column(
            "below_zero", _("Below zero"), lambda r: r.below_zero, when=_not_wins, on=SHEET_ONLY
        ),
        Column("big_hands", _("Mangan or better"), lambda r: r.big_hand_total, sort="big_hands"),
        # The big hands by kind, as the club's paper counted them: 満貫 跳満 倍満 三倍満 役満.
        *(_hand_column(level) for level in HandLevel),
        Column("chombo", _("Chombo"), lambda r: r.chombo, sort="chombo"),
        Column("meets", _("Meets attended"), lambda r: r.meets, on=NOT_ON_PDF, sort="meets"),
    ),
    orders={
        Medium.SHEET: SHEET_ORDER,
        Medium.PDF: PDF_ORDER,
    },
)
"""The standings table, in the page's order."""


def shown_for(filters: Filters, rows: Iterable[StandingRow]) -> Shown:
    """Which of the standings columns a table of ``rows`` under ``filters`` shows."""
    places = PlaceColumns.of(rows)
    return Shown(wins=counts_wins(filters), four=places.four, three=places.three)
