"""Who and where: head-to-head (相性) between tablemates, and a member's places by seat.

Head-to-head counts, for two players, the games they sat at one table (同卓) and how often
each finished above the other: a strictly better place ("1 + the number of players with a
strictly higher score", DOMAIN.md), so two who tied are neither above nor below. Places are
those stored at settlement: a guest at the table changes nobody's place, and leaving guests
out (``Filters.guests`` False, the default) only leaves out their pairs.

By seat counts the member's games at each seat as recorded (東 南 西 北; 東 南 西 at a
3-player table), 4-player and 3-player games apart: a 3-player place is not a 4-player one.
DOMAIN.md: "Seats: 東 (the first dealer, 起家), 南, 西, 北. Record them"; "Rank is '1 + the
number of players with a strictly higher score' (tied players share the better place: 1, 1,
3, 4) … top rate (トップ率) … use that rank."
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Count, Q, Sum
from django.utils.translation import gettext

from members.models import Member
from scoring.notation import Seat, seat_label
from scoring.standings.club import HUNDREDTH, THOUSANDTH, Filters, guests_condition, results_for


@dataclass(frozen=True)
class Pair:
    """What one player's games with one tablemate came to."""

    member_id: int
    other_id: int
    other_name: str
    other_furigana: str
    met: int  # games at one table
    above: int  # of them, the member finished above the tablemate
    below: int  # … and below (the rest were ties)

    @property
    def lead(self) -> int:
        """How far the member is ahead of the tablemate (negative: behind)."""
        return self.above - self.below

    @property
    def sentence(self) -> str:
        """「伊藤 節子さんと同卓 12 回・上位 7 回」."""
        return gettext("With %(name)s: %(met)s games together, above them %(above)s times") % {
            "name": self.other_name,
            "met": self.met,
            "above": self.above,
        }


def _telling(pair: Pair) -> tuple[int, int, str, str]:
    """The most telling first: the widest lead either way, then the most games together, then
    the tablemate's furigana and name."""
    return (-abs(pair.lead), -pair.met, pair.other_furigana, pair.other_name)


def head_to_head(filters: Filters, member_id: int | None = None, least: int = 1) -> list[Pair]:
    """Every pair of players who sat together at least ``least`` times, the most telling
    first, for one member (``member_id``: their pairs only) or the whole club (two queries).

    Guests are left out, as players and as tablemates, unless ``filters.guests``."""
    results = results_for(filters).filter(guests_condition(filters))
    if member_id is not None:
        games = results_for(filters).filter(member_id=member_id).values("hanchan_id")
        results = results.filter(hanchan_id__in=games)
    tables: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for hanchan_id, player, place in results.values_list("hanchan_id", "member_id", "place"):
        tables[hanchan_id].append((player, place))
    counts: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for players in tables.values():
        for one, one_place in players:
            if member_id is not None and one != member_id:
                continue
            for other, other_place in players:
                if other == one:
                    continue
                count = counts[(one, other)]
                count[0] += 1
                count[1] += one_place < other_place
                count[2] += one_place > other_place
    wanted = {key for key, count in counts.items() if count[0] >= least}
    others = {other for _one, other in wanted}
    names = {
        m["pk"]: (m["name"], m["furigana"])
        for m in Member.objects.filter(pk__in=others).values("pk", "name", "furigana")
    }
    pairs = [
        Pair(one, other, *names[other], *counts[(one, other)])
        for one, other in wanted
        if other in names
    ]
    return sorted(pairs, key=_telling)


@dataclass(frozen=True)
class SeatLine:
    """A member's games at one seat, for 4-player or 3-player games."""

    seat: int  # Seat: 0 東 … 3 北
    players: int  # 4 or 3
    games: int
    place_sum: int
    wins: int

    @property
    def label(self) -> str:
        return seat_label(self.seat)

    @property
    def average_place(self) -> Decimal | None:
        if not self.games:
            return None
        return (Decimal(self.place_sum) / self.games).quantize(HUNDREDTH, ROUND_HALF_UP)

    @property
    def top_rate(self) -> Decimal | None:
        if not self.games:
            return None
        return (Decimal(self.wins) / self.games).quantize(THOUSANDTH, ROUND_HALF_UP)


@dataclass(frozen=True)
class BySeat:
    """A member's average place and top rate by seat: 東 南 西 北 of the 4-player games and
    東 南 西 of the 3-player games (each empty when the member played none such)."""

    four: list[SeatLine]
    three: list[SeatLine]

    @property
    def any(self) -> bool:
        return any(line.games for line in (*self.four, *self.three))

    @property
    def groups(self) -> list[list[SeatLine]]:
        """The 4-player seats and the 3-player seats, those the member played."""
        return [lines for lines in (self.four, self.three) if lines]


def by_seat(filters: Filters, member_id: int) -> BySeat:
    """The member's games by the seat recorded (one query)."""
    three = Q(rule_set__in=filters.three_player_ids)
    four: dict[int, tuple[int, int, int]] = {}
    threes: dict[int, tuple[int, int, int]] = {}
    for row in (
        results_for(filters)
        .filter(member_id=member_id)
        .values("seat")
        .annotate(
            g4=Count("id", filter=~three),
            s4=Sum("place", filter=~three, default=0),
            w4=Count("id", filter=Q(place=1) & ~three),
            g3=Count("id", filter=three),
            s3=Sum("place", filter=three, default=0),
            w3=Count("id", filter=Q(place=1) & three),
        )
        .order_by()
    ):
        four[row["seat"]] = (row["g4"], row["s4"], row["w4"])
        threes[row["seat"]] = (row["g3"], row["s3"], row["w3"])

    def lines(players: int, found: dict[int, tuple[int, int, int]]) -> list[SeatLine]:
        seats = list(Seat)[:players]
        made = [SeatLine(s.value, players, *found.get(s.value, (0, 0, 0))) for s in seats]
        return made if any(line.games for line in made) else []

    return BySeat(four=lines(4, four), three=lines(3, threes))


@dataclass(frozen=True)
class MatrixRow:
    member_id: int
    name: str
    cells: list[Pair | None]  # by the matrix's columns; None: never at one table (or oneself)


@dataclass(frozen=True)
class PairMatrix:
    """Head-to-head for the whole club (the organizers' page): a row per player, a column per
    tablemate, both in furigana order."""

    columns: list[tuple[int, str]]  # (member id, name)
    rows: list[MatrixRow]


def pair_matrix(filters: Filters) -> PairMatrix:
    """Every pair of the filters' games, laid out as a matrix (two queries)."""
    pairs = head_to_head(filters)
    people = {(p.other_furigana, p.other_name, p.other_id) for p in pairs}
    order = sorted(people)
    found = {(p.member_id, p.other_id): p for p in pairs}
    columns = [(pk, name) for _kana, name, pk in order]
    rows = [
        MatrixRow(pk, name, [found.get((pk, other)) for other, _name in columns])
        for pk, name in columns
    ]
    return PairMatrix(columns, rows)
