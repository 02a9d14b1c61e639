"""The rating (レーティング) read from the record: every game of a standings group at the
rating's number of players (3-player games are rated apart from 4-player ones), in the order
played (date, round, table), through the pure arithmetic of ``scoring/rating.py``.

The rating is a function of the stored results, computed afresh from them each time (one
query); nothing of it is stored, so editing, adding or removing an old game rerates everything
after it at the next look, and nothing can drift. Guests are rated like anyone (a table's
average is honest); the tables leave them out unless ``Filters.guests``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from itertools import groupby
from operator import itemgetter

from members.models import Member
from scoring import rating
from scoring.models import Hanchan, HanchanResult, RuleSet, StandingsGroup
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


def rating_players(group: StandingsGroup, rule_sets: Sequence[RuleSet] | None = None) -> list[int]:
    """The ratings a group has: 4 and/or 3 players, as its rule sets are (4 first).
    ``rule_sets``: the group's, when they are at hand (``Filters.group_rule_sets``)."""
    if rule_sets is None:
        rule_sets = list(RuleSet.objects.filter(group=group))
    return sorted({r.players for r in rule_sets}, reverse=True)


def compute_rating(
    group: StandingsGroup,
    players: int,
    member_id: int | None = None,
    rule_sets: Sequence[RuleSet] | None = None,
    worked: bool = False,
) -> Rating:
    """Rate every game of ``group`` at ``players`` players from nothing, in the order played
    (date, round, table; the meet and the game break what remains). Three queries: the
    results in order (whole numbers only); the last game's date, with ``member_id`` also
    that member's games (kept with their changes in ``Rating.history`` for the member's
    page); the rated members. ``rule_sets``: the group's, when they are at hand. ``worked``:
    every game through ``rating.rate_game`` (each change as its pencil line would be worked),
    none through the quick path; ``check_ratings`` compares the two."""
    if rule_sets is None:
        rule_sets = list(RuleSet.objects.filter(group=group))
    rated = [r.pk for r in rule_sets if r.players == players]
    lines = (
        HanchanResult.objects.filter(rule_set__in=rated)
        .order_by("played_on", "hanchan__round_no", "hanchan__table_no", "meet_id", "hanchan_id")
        .values_list("hanchan_id", "member_id", "place", "meet_id")
    )
    ratings: dict[int, Standing] = {}
    meet_start: dict[int, tuple[int, int]] = {}  # member -> (latest meet, R before it)
    kept: list[tuple[int, GameChange]] = []  # (game, change) of the member asked for
    last_meet = last_game = 0
    for hanchan_id, seats in groupby(lines.iterator(chunk_size=20_000), key=itemgetter(0)):
        game = list(seats)
        meet = last_meet = game[0][3]
        last_game = hanchan_id
        members = [line[1] for line in game]
        for player in members:
            seen = meet_start.get(player)
            if seen is None or seen[0] != meet:
                standing = ratings.get(player)
                meet_start[player] = (meet, standing.r if standing else rating.START)
        if worked or member_id in members:
            for player, change in rating.rate_game(
                ratings, players, [(line[1], line[2]) for line in game]
            ):
                if player == member_id:
                    kept.append((hanchan_id, change))
        else:
            rating.rate_quickly(ratings, players, members, tuple(line[2] for line in game))

    heads = {
        pk: (day, meet, round_no, table_no)
        for pk, day, meet, round_no, table_no in Hanchan.objects.filter(
            pk__in=[last_game, *(pk for pk, _change in kept)]
        ).values_list("pk", "meet__date", "meet_id", "round_no", "table_no")
    }
    as_of = heads[last_game][0] if last_game else None
    history = [RatedGame(*heads[pk], pk, change) for pk, change in kept]
    names = Member.objects.filter(pk__in=list(ratings)).values_list(
        "pk", "name", "furigana", "is_guest"
    )
    rows = []
    for pk, name, furigana, is_guest in names:
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
            )
        )
    rank(rows)
    return Rating(group=group, players=players, as_of=as_of, rows=rows, history=history)


def ratings_disagreeing() -> list[str]:
    """Every rating of every group, rated by the quick path and by the worked one: where a
    member's R or games differ (empty is the invariant). Nothing is stored to drift; this
    checks that the page's figures are what the pencil lines add up to."""
    found = []
    for group in StandingsGroup.objects.all():
        rule_sets = list(group.rule_sets.all())
        for players in rating_players(group, rule_sets):
            quick = compute_rating(group, players, rule_sets=rule_sets)
            worked = compute_rating(group, players, rule_sets=rule_sets, worked=True)
            expected = {row.member_id: (row.r, row.games) for row in worked.rows}
            for row in quick.rows:
                if expected.get(row.member_id) != (row.r, row.games):
                    found.append(
                        f"{group.name}, {players} players: {row.name} "
                        f"R {row.r_text} ({row.games}) but worked "
                        f"{expected.get(row.member_id)}"
                    )
    return found


def rating_rows(rating: Rating, min_games: int = 0, guests: bool = False) -> list[RatingRow]:
    """The rows a table shows: guests only with ``guests``, ranked among those shown; members
    below ``min_games`` (規定打数) listed after the others, without a position."""
    rows = [
        replace(row, qualified=row.games >= min_games)
        for row in rating.rows
        if guests or not row.is_guest
    ]
    rank(rows)
    return rows


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
