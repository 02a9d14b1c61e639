"""Benchmark of the standings at federation size (a measurement, not a test).

Builds (once) 1,000 members, 100,000 games and 400,000 results in the database that
DATABASE_URL names, then prints the time of ``compute_standings`` for a fiscal year and for
all time, the time of a hand-written SQL GROUP BY over the same results (the floor), their
ratio, and the standings page's time through the test client; then the rating's (every R
from nothing, the rating page, a member's page), and the same after one more meet.

It refuses a database that holds anything but its own data: point it at a scratch database
(``make bench`` does, for SQLite and PostgreSQL).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.test import Client
from django.test.utils import override_settings

from members.models import Member
from members.roles import MEMBER, grant
from members.scopes import ClubCommand
from scoring import rules
from scoring.models import BigHand, Hanchan, HanchanResult, Meet, RuleSet, StandingsGroup
from scoring.notation import MeetKind
from scoring.standings import (
    Filters,
    Period,
    compute_rating,
    compute_standings,
    rating_cache_key,
)

PREFIX = "bench-"
# The floor: the same figures ``compute_standings`` gives, hand-written over the same stored
# columns, in the same three queries (the results grouped by member with 3-player places
# apart, the members' names, the big hands by level), then ranked in Python the same way.
FLOOR_SQL = """
SELECT member_id, COUNT(*), SUM(total_points),
       SUM(CASE WHEN place = 1 AND NOT {three} THEN 1 ELSE 0 END),
       SUM(CASE WHEN place = 2 AND NOT {three} THEN 1 ELSE 0 END),
       SUM(CASE WHEN place = 3 AND NOT {three} THEN 1 ELSE 0 END),
       SUM(CASE WHEN place = 4 AND NOT {three} THEN 1 ELSE 0 END),
       SUM(CASE WHEN place = 1 AND {three} THEN 1 ELSE 0 END),
       SUM(CASE WHEN place = 2 AND {three} THEN 1 ELSE 0 END),
       SUM(CASE WHEN place = 3 AND {three} THEN 1 ELSE 0 END),
       SUM(CASE WHEN is_last THEN 1 ELSE 0 END),
       SUM(CASE WHEN NOT {three} THEN place ELSE 0 END),
       SUM(CASE WHEN {three} THEN place ELSE 0 END),
       MAX(total_points), MAX(score),
       SUM(CASE WHEN score < 0 THEN 1 ELSE 0 END), SUM(chombo), COUNT(DISTINCT meet_id)
FROM scoring_hanchanresult r
WHERE {where}
GROUP BY member_id
"""
NAMES_SQL = "SELECT id, name, furigana FROM members_member WHERE id IN ({ids})"
HANDS_SQL = """
SELECT r.member_id, h.level, COUNT(*)
FROM scoring_bighand h JOIN scoring_hanchanresult r ON r.id = h.result_id
WHERE {where}
GROUP BY r.member_id, h.level
"""


def floor_standings(filters: Filters) -> list[tuple[Any, ...]]:
    """The floor: ``compute_standings``'s figures by hand-written SQL, ranked the same way
    (by P, then furigana and name; tied P share a position). Plain tuples, no model rows:
    (position, P, best game, furigana, name, the grouped row, big hands by level)."""
    rule_sets = [r.pk for r in filters.rule_sets]
    three_ids = filters.three_player_ids
    marks = ", ".join(["%s"] * len(three_ids))
    three = f"(r.rule_set_id IN ({marks}))" if three_ids else "(1 = 0)"
    conditions = [f"r.rule_set_id IN ({', '.join(['%s'] * len(rule_sets))})"]
    params: list[int | date] = list(rule_sets)
    if filters.period.start is not None:
        conditions.append("r.played_on >= %s")
        params.append(filters.period.start)
    if filters.period.end is not None:
        conditions.append("r.played_on <= %s")
        params.append(filters.period.end)
    where = " AND ".join(conditions)
    with connection.cursor() as cursor:
        cursor.execute(FLOOR_SQL.format(three=three, where=where), [*three_ids * 9, *params])
        rows = cursor.fetchall()
        ids = [row[0] for row in rows]
        cursor.execute(NAMES_SQL.format(ids=", ".join(["%s"] * len(ids))), ids)
        names = {pk: (name, furigana) for pk, name, furigana in cursor.fetchall()}
        cursor.execute(HANDS_SQL.format(where=where), params)
        hands: dict[int, dict[str, int]] = {}
        for member_id, level, n in cursor.fetchall():
            hands.setdefault(member_id, {})[level] = n
    tenth = Decimal("0.1")
    table = [
        (
            Decimal(row[2]).quantize(tenth, ROUND_HALF_UP),
            Decimal(row[13]).quantize(tenth, ROUND_HALF_UP),
            names[row[0]][1],
            names[row[0]][0],
            row,
            hands.get(row[0], {}),
        )
        for row in rows
    ]
    table.sort(key=lambda line: (-line[0], line[2], line[3]))
    ranked: list[tuple[Any, ...]] = []
    position = 0
    for index, line in enumerate(table):
        if not index or table[index - 1][0] != line[0]:
            position = index + 1
        ranked.append((position, *line))
    return ranked


def timed(func: Callable[[], Any], repeat: int) -> float:
    """The median wall time of ``repeat`` calls, in seconds (after one warm-up call)."""
    func()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


class Command(ClubCommand):
    help = "Time the standings on a federation-sized database (scratch databases only)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--members", type=int, default=1_000)
        parser.add_argument("--games", type=int, default=100_000)
        parser.add_argument("--repeat", type=int, default=5)

    def handle(self, *args: Any, **options: Any) -> None:
        if Member.objects.exclude(name__startswith=PREFIX).exists():
            raise CommandError("This database holds real members; use a scratch database.")
        if HanchanResult.objects.count() < options["games"] * 4:
            if Member.objects.exists():
                raise CommandError("A partial benchmark database is here; drop it and run again.")
            self.build(options["members"], options["games"])
        vendor = connection.vendor
        results = HanchanResult.objects.count()
        self.stdout.write(
            f"database: {vendor}, {Member.objects.count():,} members, "
            f"{Hanchan.objects.count():,} games, {results:,} results"
        )
        last = Meet.objects.order_by("-date").values_list("date", flat=True).first()
        assert last is not None
        year = Period.containing(last, "year")
        everything = Period.all_time()
        repeat = options["repeat"]
        lines = []
        for label, period in [(year.key, year), ("all", everything)]:
            filters = Filters(period=period)
            ours = timed(partial(compute_standings, filters), repeat)

            def floor(filters: Filters = filters) -> None:
                floor_standings(filters)

            floor_time = timed(floor, repeat)
            page = self.page_time(period.key, repeat)
            rows = len(compute_standings(filters))
            lines.append((label, rows, ours, floor_time, page))
        self.stdout.write(
            f"{'period':>8} {'rows':>6} {'compute_standings':>18} {'SQL floor':>10} "
            f"{'ratio':>6} {'page':>8}"
        )
        for label, rows, ours, floor_time, page in lines:
            self.stdout.write(
                f"{label:>8} {rows:>6} {ours:>17.3f}s {floor_time:>9.3f}s "
                f"{ours / floor_time:>6.2f} {page:>7.3f}s"
            )
        self.rating_lines(repeat)

    def rating_lines(self, repeat: int) -> None:
        """The rating: every member's R from nothing (no state in the cache), the
        rating page and a member's page (which rates every game each time: it shows the
        member's own changes); then the same after one more meet (75 games, rolled back
        afterwards), from the state the cache kept before it."""
        group = StandingsGroup.clubs_own()
        key = rating_cache_key(group, 4)
        member = HanchanResult.objects.values_list("member_id", flat=True).first()
        self.stdout.write(
            f"{'rating':>14} {'compute_rating':>15} {'table page':>11} {'member page':>12}"
        )

        def forget() -> None:
            cache.delete(key)

        def afresh() -> None:
            forget()
            compute_rating(group, 4)

        ours = timed(afresh, repeat)
        table = self.page_time_of("/standings/rating/", repeat, before=forget)
        page = self.page_time_of(f"/members/{member}/", repeat)
        self.stdout.write(f"{'from nothing':>14} {ours:>14.3f}s {table:>10.3f}s {page:>11.3f}s")
        compute_rating(group, 4)
        kept = cache.get(key)
        with transaction.atomic():
            last = Meet.objects.order_by("-date").values_list("date", flat=True).first()
            assert last is not None
            self.build(0, 75, first_day=last + timedelta(days=3), existing=True)

            def as_before() -> None:
                cache.set(key, kept)

            def on_from_before() -> None:
                as_before()
                compute_rating(group, 4)

            ours = timed(on_from_before, repeat)
            table = self.page_time_of("/standings/rating/", repeat, before=as_before)
            page = self.page_time_of(f"/members/{member}/", repeat)
            transaction.set_rollback(True)
        cache.delete(key)
        self.stdout.write(f"{'one more meet':>14} {ours:>14.3f}s {table:>10.3f}s {page:>11.3f}s")

    def page_time(self, period: str, repeat: int) -> float:
        return self.page_time_of(f"/standings/?period={period}", repeat)

    def page_time_of(
        self, url: str, repeat: int, before: Callable[[], None] | None = None
    ) -> float:
        user, _ = User.objects.get_or_create(username=f"{PREFIX}viewer")
        grant(user, MEMBER)
        client = Client()
        client.force_login(user)
        storages = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        with override_settings(ALLOWED_HOSTS=["testserver"], STORAGES=storages):

            def get() -> None:
                if before is not None:
                    before()
                response = client.get(url)
                assert response.status_code == 200, response.status_code

            return timed(get, repeat)

    def build(
        self,
        member_count: int,
        game_count: int,
        first_day: date = date(2016, 4, 1),
        tables: int = 25,
        days: int | None = None,
        attending: bool = False,
        existing: bool = False,
    ) -> None:
        """Bulk-insert settled games (settled by rules.py, exactly as Hanchan.record does):
        ``tables`` tables × 3 rounds a meet, three meets every other day from ``first_day``,
        or with ``days`` the meets spread evenly over that many days. Each game's four are
        drawn from all the members, or with ``attending`` as at a meet: ``tables`` × 4
        members attend it and play all three rounds, their tables drawn afresh each round.
        With ``existing``, the games are played by the members already there (one more meet)."""
        rng = random.Random(2025)
        rule = RuleSet.objects.default()
        params = rule.params()
        started = time.perf_counter()
        with transaction.atomic():
            if existing:
                members = list(Member.objects.all())
            else:
                members = Member.objects.bulk_create(
                    Member(name=f"{PREFIX}{i:05d}", furigana=f"べんち{i:05d}")
                    for i in range(member_count)
                )
            per_meet = tables * 3
            kinds = [MeetKind.WEDNESDAY, MeetKind.SATURDAY, MeetKind.OTHER]
            meet_count = -(-game_count // per_meet)
            meets = Meet.objects.bulk_create(
                Meet(
                    date=first_day + timedelta(days=i * days // meet_count if days else i // 3 * 2),
                    kind=kinds[i % 3],
                    rule_set=rule,
                )
                for i in range(meet_count)
            )
            games = []
            for n in range(game_count):
                meet = meets[n // per_meet]
                slot = n % per_meet
                games.append(
                    Hanchan(
                        meet=meet,
                        table_no=slot % tables + 1,
                        round_no=slot // tables + 1,
                        rule_set=rule,
                    )
                )
            games = Hanchan.objects.bulk_create(games, batch_size=5_000)
            results: list[HanchanResult] = []
            hands: list[tuple[int, str]] = []
            seated: list[Member] = []
            for n, game in enumerate(games):
                if attending:
                    if n % tables == 0:  # a new round: the meet's attendance, drawn anew
                        if n % per_meet == 0:
                            present = rng.sample(members, min(len(members), tables * 4))
                        seated = rng.sample(present, len(present))
                    table = n % tables
                    players = seated[table * 4 : table * 4 + 4]
                else:
                    players = rng.sample(members, 4)
                first = [rng.randrange(50, 560) * 100 for _ in range(3)]
                scores = [*first, 120_000 - sum(first)]
                chombo = [1 if rng.random() < 0.01 else 0 for _ in range(4)]
                seats = [
                    rules.SeatScore(i, s, c)
                    for i, (s, c) in enumerate(zip(scores, chombo, strict=True))
                ]
                for r in rules.settle(params, seats).results:
                    results.append(HanchanResult.settled(game, players[r.seat], r))
                    if rng.random() < 0.1:
                        hands.append((len(results) - 1, "mangan"))
            results = HanchanResult.objects.bulk_create(results, batch_size=5_000)
            BigHand.objects.bulk_create(
                (BigHand(result=results[i], level=level) for i, level in hands), batch_size=5_000
            )
        self.stdout.write(
            f"built {game_count:,} games in {time.perf_counter() - started:.1f}s "
            "(bulk inserts, no history rows)"
        )
