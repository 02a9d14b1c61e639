"""The rating (レーティング) read from the record: every game of a standings group at the
rating's number of players (3-player games are rated apart from 4-player ones), in the order
played (date, round, table), through the pure arithmetic of ``scoring/rating.py``.

The rating is a function of the stored results, computed afresh from them each time (one
query); nothing of it is stored, so editing, adding or removing an old game rerates everything
after it at the next look, and nothing can drift. Guests are rated like anyone (a table's
average is honest); the tables leave them out unless ``Filters.guests``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from members.models import Member
from scoring import rating
from scoring.models import HanchanResult, RuleSet, StandingsGroup
from scoring.rating import GameChange, Standing


@dataclass(frozen=True)
class RatedGame:
    """One of a member's games in a rating, with its change."""

    day: date
    meet_id: int
    round_no: int
    table_no: int
    hanchan_id: int
    change: GameChange


@dataclass
class RatingRow:
    member_id: int
    name: str
    furigana: str
    is_guest: bool
    r: int  # hundredths
    games: int
    since_last_meet: int  # hundredths: the change at the rating's last meet (0 if absent)
    position: int = 0
    qualified: bool = True  # has the minimum number of games

    @property
    def r_text(self) -> str:
        return rating.format_r(self.r)

    @property
    def since_text(self) -> str:
        return rating.format_change(self.since_last_meet)


@dataclass
class Rating:
    """One rating: a group's games at ``players`` players, up to ``as_of``."""

    group: StandingsGroup
    players: int
    as_of: date | None
    rows: list[RatingRow] = field(default_factory=list)  # best first, guests included
    history: list[RatedGame] = field(default_factory=list)  # of the member asked for

    def row_for(self, member_id: int) -> RatingRow | None:
        return next((row for row in self.rows if row.member_id == member_id), None)


def rating_players(group: StandingsGroup) -> list[int]:
    """The ratings a group has: 4 and/or 3 players, as its rule sets are (4 first)."""
    players = set(RuleSet.objects.filter(group=group).values_list("players", flat=True))
    return sorted(players, reverse=True)


def compute_rating(
    group: StandingsGroup, players: int, member_id: int | None = None, min_games: int = 0
) -> Rating:
    """Rate every game of ``group`` at ``players`` players from nothing, in the order played
    (date, round, table; the meet and the game break what remains). Two queries: the results
    in order, and the rated members' names. With ``member_id``, that member's games are kept
    with their changes (``Rating.history``), for the member's page."""
    rule_sets = list(
        RuleSet.objects.filter(group=group, players=players).values_list("pk", flat=True)
    )
    lines = (
        HanchanResult.objects.filter(rule_set__in=rule_sets)
        .order_by("played_on", "hanchan__round_no", "hanchan__table_no", "meet_id", "hanchan_id")
        .values_list(
            "hanchan_id",
            "member_id",
            "place",
            "played_on",
            "meet_id",
            "hanchan__round_no",
            "hanchan__table_no",
        )
    )
    ratings: dict[int, Standing] = {}
    meet_start: dict[int, tuple[int, int]] = {}  # member -> (latest meet, R before it)
    history: list[RatedGame] = []
    last_meet = 0
    as_of: date | None = None
    game: list[tuple[int, int]] = []
    current: int | None = None
    head: tuple[date, int, int, int, int] | None = None

    def close() -> None:
        changes = rating.rate_game(ratings, players, game)
        if member_id is not None and head is not None:
            for player, change in changes:
                if player == member_id:
                    history.append(RatedGame(*head, change))

    for hanchan_id, player, place, day, meet, round_no, table_no in lines.iterator(
        chunk_size=10_000
    ):
        if hanchan_id != current:
            if game:
                close()
            game = []
            current = hanchan_id
            head = (day, meet, round_no, table_no, hanchan_id)
            last_meet, as_of = meet, day
        game.append((player, place))
        seen = meet_start.get(player)
        if seen is None or seen[0] != meet:
            standing = ratings.get(player)
            meet_start[player] = (meet, standing.r if standing else rating.START)
    if game:
        close()

    members = Member.objects.filter(pk__in=list(ratings)).values_list(
        "pk", "name", "furigana", "is_guest"
    )
    rows = []
    for pk, name, furigana, is_guest in members:
        standing = ratings[pk]
        meet, before = meet_start[pk]
        rows.append(
            RatingRow(
                member_id=pk,
                name=name,
                furigana=furigana,
                is_guest=is_guest,
                r=standing.r,
                games=standing.games,
                since_last_meet=standing.r - before if meet == last_meet else 0,
                qualified=standing.games >= min_games,
            )
        )
    rank(rows)
    return Rating(group=group, players=players, as_of=as_of, rows=rows, history=history)


def rank(rows: list[RatingRow]) -> None:
    """Best R first (qualified rows before those below the minimum of games, which have no
    position); equal R share a position, listed by furigana and name."""
    rows.sort(key=lambda row: (not row.qualified, -row.r, row.furigana, row.name))
    position = 0
    for index, row in enumerate(rows):
        if not row.qualified:
            row.position = 0
            continue
        if not index or rows[index - 1].r != row.r:
            position = index + 1
        row.position = position


RATING_SORT_KEYS = {
    "position": lambda r: (not r.qualified, r.position, -r.r),
    "name": lambda r: (r.furigana, r.name),
    "r": lambda r: (-r.r,),
    "games": lambda r: (-r.games, -r.r),
    "since": lambda r: (-r.since_last_meet, -r.r),
}


def sort_rating(rows: list[RatingRow], key: str) -> list[RatingRow]:
    """Reorder for display (positions stay). Unknown keys keep the order."""
    sort_key = RATING_SORT_KEYS.get(key)
    return sorted(rows, key=sort_key) if sort_key else rows
