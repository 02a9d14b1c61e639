"""One meet: its games round by round and table by table, and the day's standings."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from scoring import draw
from scoring.models import BigHand, Hanchan, HanchanResult, Meet
from scoring.notation import seat_label
from scoring.periods import Period
from scoring.standings.club import Filters, PlaceColumns, StandingRow, compute_standings


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
class SheetGridCell:
    """One table of one round of a meet's sheet, with its game or None when not entered (the
    meet page's grid adds the draw to it: ``meet_draw.DrawnGridCell``)."""

    table_no: int
    game: SheetGame | None


@dataclass(frozen=True)
class SheetGridRow:
    """One round of a meet's sheet, a cell a table."""

    round_no: int
    cells: tuple[SheetGridCell, ...]


@dataclass(frozen=True)
class MeetSheet:
    """What a meet's page and its sheet (例会成績表) show: the entered games round by round,
    the grid they belong in, and the day's standings."""

    rounds: tuple[SheetRound, ...]  # the entered games only
    attending: int  # on the attendance now, or played a game of the meet (left early, 代打)
    tables: int  # every table entered, and at least one per rule-set table of those present
    round_count: int  # every round entered, and at least the club's ``Meet.ROUNDS``
    day_rows: list[StandingRow]  # the day's standings (empty when not asked for)

    @property
    def grid(self) -> list[SheetGridRow]:
        """Every round × every table, the game where one was entered."""
        games = {(g.round_no, g.table_no): g for r in self.rounds for g in r.games}
        return [
            SheetGridRow(
                round_no,
                tuple(
                    SheetGridCell(t, games.get((round_no, t))) for t in range(1, self.tables + 1)
                ),
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
    """The filters of one meet's day: its date, its kind, its rule set's standings group,
    guests included: the day's sheet is the record of everyone who played (a guest's name
    marked 「（ゲスト）」), as the paper sheet was; only the period's tables leave them out."""
    return Filters(
        period=Period.between(meet.date, meet.date),
        kind=meet.kind,
        group=meet.rule_set.group,
        guests=True,
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
    # Who is on the attendance now (whom the draw seats), and whoever played a game of the
    # meet: someone who left after round 2 and was taken off for the draw of round 3 still
    # attended, and so did a substitute who played.
    present = set(meet.attendees.values_list("pk", flat=True))
    played = {line.member_id for game_lines in lines.values() for line in game_lines}
    return MeetSheet(
        rounds=tuple(SheetRound(n, tuple(g)) for n, g in sorted(rounds.items())),
        attending=len(present | played),
        tables=max([g.table_no for g in games] + [tables_for(meet, len(present))]),
        round_count=max([g.round_no for g in games] + [Meet.ROUNDS]),
        day_rows=compute_standings(day_filters(meet)) if day_standings else [],
    )
