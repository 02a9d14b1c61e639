"""The rating (レーティング) read from the record: every game of a standings group at the
rating's number of players (3-player games are rated apart from 4-player ones), in the order
played (date, round, table), through the pure arithmetic of ``scoring/rating.py``.

The rating is a function of the stored results. The table keeps where each rating stood in
the cache, under a fingerprint of the record (``record_fingerprint``) that every added,
edited or removed game changes; a state whose fingerprint no longer matches is not used, so
editing, adding or removing an old game rerates everything after it at the next look.
``check_ratings`` compares the cached path with every game worked afresh. Guests are rated like anyone (a table's
average is honest); the tables leave them out unless ``Filters.guests``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import cast

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max, QuerySet, Sum

from members.models import Member
from scoring import rating
from scoring.models import Hanchan, HanchanResult, Meet, RuleSet, StandingsGroup
from scoring.rating import GameChange, Standing
from scoring.standings.club import Filters


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


# The code the cached states were made by: a state made by older arithmetic is not reused.
MAKING = hashlib.sha256(
    Path(rating.__file__).read_bytes() + Path(__file__).read_bytes()
).hexdigest()[:16]


@dataclass
class RatingState:
    """Where a rating stands after every game up to ``day``: what the cache keeps."""

    ratings: dict[int, Standing] = field(default_factory=dict)
    meet_start: dict[int, tuple[int, int]] = field(default_factory=dict)  # member -> (meet, R)
    last_meet: int = 0
    last_game: int = 0
    day: date | None = None
    fingerprint: Fingerprint | None = None


def rating_cache_key(group: StandingsGroup, players: int) -> str:
    """Where the cache keeps a rating's state (the code that made it is in the key)."""
    return f"rating:{MAKING}:{group.pk}:{players}"


@dataclass(frozen=True)
class Fingerprint:
    """What changes whenever anything the rating reads up to ``day`` changes.

    Games change only through ``Hanchan.record`` and ``remove`` (``settlement_writes``): a
    recorded game is saved again (its ``version`` up by one, ``updated_at`` now) and a removed
    one is gone (the count and the sum of ids drop), so the games' count, sum of ids, sum of
    versions and latest change move with every added, edited or removed game. A meet's date
    moves its results without saving its games: the meets up to ``day``, with their dates,
    are in the fingerprint too. The games' part adds up over consecutive spans of days."""

    rated: tuple[int, ...]
    games: int
    ids: int
    versions: int
    changed: datetime | None
    meets: str

    def then(self, later: Fingerprint) -> Fingerprint:
        """This span's fingerprint followed by the ``later`` one's (its meets' digest)."""
        changed = max((c for c in (self.changed, later.changed) if c is not None), default=None)
        return Fingerprint(
            self.rated,
            self.games + later.games,
            self.ids + later.ids,
            self.versions + later.versions,
            changed,
            later.meets,
        )


def record_fingerprint(rated: Sequence[int], day: date, since: date | None = None) -> Fingerprint:
    """The fingerprint of the record up to ``day``; with ``since``, of the games after it only
    (to add to the fingerprint up to ``since``). Two queries."""
    games = Hanchan.objects.filter(rule_set__in=rated, meet__date__lte=day)
    if since is not None:
        games = games.filter(meet__date__gt=since)
    summary = games.aggregate(
        n=Count("id"),
        ids=Sum("id", default=0),
        versions=Sum("version", default=0),
        changed=Max("updated_at"),
    )
    meets = Meet.objects.filter(date__lte=day).order_by("pk").values_list("pk", "date")
    return Fingerprint(
        rated=tuple(rated),
        games=summary["n"],
        ids=summary["ids"],
        versions=summary["versions"],
        changed=summary["changed"],
        meets=hashlib.sha256(repr(list(meets)).encode()).hexdigest(),
    )


def compute_rating(
    group: StandingsGroup,
    players: int,
    member_id: int | None = None,
    rule_sets: Sequence[RuleSet] | None = None,
    worked: bool = False,
    until: date | None = None,
) -> Rating:
    """Rate every game of ``group`` at ``players`` players, in the order played (date, round,
    table; the meet and the game break what remains): the results in order (whole numbers
    only); the last game's date, with ``member_id`` also that member's games (kept with their
    changes in ``Rating.history`` for the member's page); the rated members.
    ``rule_sets``: the group's, when they are at hand. ``worked``: every game through
    ``rating.rate_game`` (each change as its pencil line would be worked), none through the
    quick path and nothing from the cache; ``check_ratings`` compares the two. ``until``:
    the rating as it stood at the end of that day (a season's award), from nothing.

    The table alone (no ``member_id``) starts from the cache's state where its fingerprint
    (``record_fingerprint``) still matches the record up to that state's day, and rates only
    the games after it: one more meet is rated in a few hundredths of a second instead of
    every game again. The fingerprint is taken before the games are read, so a game saved
    meanwhile makes the state kept disagree with the record next time, never the reverse."""
    if rule_sets is None:
        rule_sets = list(RuleSet.objects.filter(group=group))
    rated = [r.pk for r in rule_sets if r.players == players]
    results = HanchanResult.objects.filter(rule_set__in=rated)
    if until is not None:
        results = results.filter(played_on__lte=until)
    state = RatingState()
    kept: list[tuple[int, GameChange]] = []
    if member_id is not None or worked or until is not None:
        kept = rate_lines(state, in_order(results), players, member_id, worked)
    else:
        state = rate_on_from_cache(group, players, rated, results)
    heads = {
        pk: (day, meet, round_no, table_no)
        for pk, day, meet, round_no, table_no in Hanchan.objects.filter(
            pk__in=[state.last_game, *(pk for pk, _change in kept)]
        ).values_list("pk", "meet__date", "meet_id", "round_no", "table_no")
    }
    as_of = heads[state.last_game][0] if state.last_game else None
    history = [RatedGame(*heads[pk], pk, change) for pk, change in kept]
    names = Member.objects.filter(pk__in=list(state.ratings)).values_list(
        "pk", "name", "furigana", "is_guest"
    )
    rows = []
    for pk, name, furigana, is_guest in names:
        standing = state.ratings[pk]
        meet, before = state.meet_start[pk]
        rows.append(
            RatingRow(
                member_id=pk,
                name=name,
                furigana=furigana,
                is_guest=is_guest,
                r=standing.r,
                games=standing.games,
                since_last_meet=standing.r - before if meet == state.last_meet else 0,
            )
        )
    rank(rows)
    return Rating(group=group, players=players, as_of=as_of, rows=rows, history=history)


def in_order(results: QuerySet[HanchanResult], *more: str) -> Iterator[tuple[int, ...]]:
    """(game, member, place, meet, *more) of ``results`` in the order played: date, round,
    table (then the meet and the game, for meets of one day)."""
    return (
        results.order_by(
            "played_on", "hanchan__round_no", "hanchan__table_no", "meet_id", "hanchan_id"
        )
        .values_list("hanchan_id", "member_id", "place", "meet_id", *more)
        .iterator(chunk_size=20_000)
    )


def rate_on_from_cache(
    group: StandingsGroup, players: int, rated: list[int], results: QuerySet[HanchanResult]
) -> RatingState:
    """The rating's state after every game, from the cache's state where its fingerprint still
    matches the record up to its day (then only the games after that day are rated), else
    from nothing; the new state is kept. The fingerprint is taken before the games are read
    (in one transaction), so a game saved meanwhile makes the kept state disagree with the
    record next time, never the reverse."""
    key = rating_cache_key(group, players)
    with transaction.atomic():
        state = RatingState()
        kept_state = cache.get(key)
        since = None
        if (
            isinstance(kept_state, RatingState)
            and kept_state.day is not None
            and kept_state.fingerprint is not None
            and record_fingerprint(rated, kept_state.day) == kept_state.fingerprint
        ):
            state, since = kept_state, kept_state.day
            results = results.filter(played_on__gt=since)
        # The latest day with games (of any rule set: the index on the date answers at once;
        # a day without the rating's games changes nothing but the day kept).
        later = HanchanResult.objects.all()
        if since is not None:
            later = later.filter(played_on__gt=since)
        day: date | None = later.aggregate(day=Max("played_on"))["day"]
        if day is None:
            return state
        fingerprint = record_fingerprint(rated, day, since)
        if since is not None and state.fingerprint is not None:
            fingerprint = state.fingerprint.then(fingerprint)
        if since is None:
            lines = in_order(results.filter(played_on__lte=day))
        else:
            # The new days' results of every rule set, through the index on the date, the
            # rating's picked out here: with the rule sets in the query, SQLite walked the
            # rule set's index over all 400,000 results of the bench (0.055 s, not 0.002 s).
            span = HanchanResult.objects.filter(played_on__gt=since, played_on__lte=day)
            lines = (line[:4] for line in in_order(span, "rule_set_id") if line[4] in rated)
        rate_lines(state, lines, players, None, False)
    state.day, state.fingerprint = day, fingerprint
    cache.set(key, state, timeout=7 * 24 * 3600)
    return state


def rate_lines(
    state: RatingState,
    lines: Iterable[tuple[int, ...]],
    players: int,
    member_id: int | None,
    worked: bool,
) -> list[tuple[int, GameChange]]:
    """Rate ``lines`` (game, member, place, meet; in the order played) on from ``state``;
    returns the changes of ``member_id``'s games (game, change)."""
    ratings, meet_start = state.ratings, state.meet_start
    kept: list[tuple[int, GameChange]] = []
    for hanchan_id, seats in groupby(lines, key=itemgetter(0)):
        game = list(seats)
        meet = state.last_meet = game[0][3]
        state.last_game = hanchan_id
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
    return kept


def ratings_disagreeing() -> list[str]:
    """Every rating of every group as the table gets it (the cache's state and the quick path)
    and worked afresh (each change as its pencil line): where a member's R or games differ
    (empty is the invariant). The table's figures are what the pencil lines add up to, and a
    state kept in the cache has not drifted from the record."""
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


def main_players(rule_sets: Sequence[RuleSet]) -> int:
    """The table size of a group's main rating: 4-player where it has 4-player rule sets."""
    return 4 if any(r.players == 4 for r in rule_sets) or not rule_sets else 3


def rating_at_the_end(filters: Filters) -> Rating | None:
    """The main rating (``main_players``) of the filters' group as it stood at the end of
    their period: R after each member's last game up to then. The half-year report's member
    pages print it, and 最高レーティング賞 is won by it. None without a group."""
    group = filters.standings_group
    if group is None:
        return None
    rule_sets = filters.group_rule_sets
    return compute_rating(
        group, main_players(rule_sets), rule_sets=rule_sets, until=filters.period.end
    )


@dataclass(frozen=True)
class Promotion:
    """昇段: a member reached a step of the group's 段位 ladder for the first time."""

    member_id: int
    name: str
    rank: str
    day: date
    r: int  # hundredths, after the game that reached it

    @property
    def r_text(self) -> str:
        return rating.format_r(self.r)


def promotions(
    group: StandingsGroup, start: date | None, end: date | None, guests: bool = False
) -> list[Promotion]:
    """The promotions of ``group``'s 段位 ladder (``StandingsGroup.dan_ladder``) from ``start``
    to ``end``, in its main rating (``main_players``), in the order they came: a member holds
    the highest step their R ever reached (a rank is not lost again), so a step is a promotion
    on the day R first reaches it. Empty when the group has no ladder. Guests are rated, and
    left out of the list unless ``guests``."""
    ladder = rating.parse_ladder(group.dan_ladder)
    if not ladder:
        return []
    rule_sets = list(RuleSet.objects.filter(group=group))
    players = main_players(rule_sets)
    results = HanchanResult.objects.filter(
        rule_set__in=[r.pk for r in rule_sets if r.players == players]
    )
    if end is not None:
        results = results.filter(played_on__lte=end)
    ratings: dict[int, Standing] = {}
    held: dict[int, int] = {}
    found: list[tuple[int, int, date, int]] = []
    for _game, seats in groupby(in_order(results, "played_on"), key=itemgetter(0)):
        game = list(seats)
        members = [line[1] for line in game]
        rating.rate_quickly(ratings, players, members, tuple(line[2] for line in game))
        day = cast(date, game[0][4])  # in_order's extra column: the result's "played_on"
        for member in members:
            reached = rating.rank_at(ladder, ratings[member].r)
            if reached > held.get(member, 0):
                if start is None or day >= start:
                    found += [
                        (member, step, day, ratings[member].r)
                        for step in range(held.get(member, 0), reached)
                    ]
                held[member] = reached
    people = {
        pk: (name, furigana, is_guest)
        for pk, name, furigana, is_guest in Member.objects.filter(
            pk__in={m for m, *_rest in found}
        ).values_list("pk", "name", "furigana", "is_guest")
    }
    found.sort(key=lambda p: (p[2], people[p[0]][1], p[1]))  # day, 五十音, step
    return [
        Promotion(member, people[member][0], ladder[step][0], day, r)
        for member, step, day, r in found
        if guests or not people[member][2]
    ]
