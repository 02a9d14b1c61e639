"""Many clubs in one install (a measurement, on a scratch database): builds ``--clubs`` clubs of
``--members`` members, each with ``--years`` of games as a club of that size plays them (three
tables, three rounds, 48 meets a year), then times each kind of member's page in a sample of
the clubs, signed in as one of that club's members, in this process (no server: the database's
part and the app's, not the network's).

    createdb -h 127.0.0.1 -U postgres shirakaba_clubs
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/shirakaba_clubs
    python manage.py migrate
    python manage.py bench_clubs --clubs 1000     # builds what is missing, then measures
    python manage.py loadtest --clubs 50          # 50 clubs' members at once, under gunicorn

A club is built once: a second run measures again (and builds only clubs still missing). The
command fails when a page answers anything but 200, or shows another club's member.
"""

from __future__ import annotations

import random
import statistics
import time
from datetime import date, timedelta
from typing import Any, TextIO, cast

from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client, override_settings

from members.models import Club, Member
from members.roles import MEMBER, grant
from members.scopes import in_club, scopes_disabled
from scoring.clubs import make_club
from scoring.models import Hanchan, HanchanResult, Meet
from shirakaba.devtools.management.commands.bench_standings import PREFIX
from shirakaba.devtools.management.commands.bench_standings import Command as StandingsBench

SLUG = "bench-club-"
MEETS_A_YEAR = 48  # twice a month each on Wednesdays and Saturdays
TABLES, ROUNDS = 3, 3  # a club of 15: three tables, three rounds a meet


def bench_clubs(count: int | None = None) -> list[Club]:
    """The bench's clubs, in the order they were built."""
    clubs = Club.objects.filter(slug__startswith=SLUG).order_by("pk")
    return list(clubs[:count] if count is not None else clubs)


class Command(BaseCommand):
    help = "Build many clubs with years of games (a scratch database only), then time pages."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--clubs", type=int, default=1_000)
        parser.add_argument("--members", type=int, default=15)
        parser.add_argument("--years", type=int, default=3)
        parser.add_argument("--sample", type=int, default=20, help="clubs whose pages are timed")
        parser.add_argument("--rounds", type=int, default=3, help="each page, per club sampled")

    def handle(self, *args: Any, **options: Any) -> None:
        with in_club(Club.DEFAULT_PK):
            if Member.objects.exclude(name__startswith=PREFIX).exists():
                raise CommandError("This database holds real members; use a scratch database.")
        self.build(options["clubs"], options["members"], options["years"])
        call_command("collectstatic", interactive=False, verbosity=0)
        with override_settings(ALLOWED_HOSTS=["testserver"]):  # the test client's host
            self.measure(options["clubs"], options["sample"], options["rounds"])

    def build(self, count: int, members: int, years: int) -> None:
        built = len(bench_clubs())
        tables = max(1, min(TABLES, members // 4))  # a smaller club plays at fewer tables
        games = years * MEETS_A_YEAR * tables * ROUNDS
        first_day = date.today() - timedelta(days=365 * years)
        quiet = StandingsBench(stdout=cast(TextIO, _Silent()))
        started = time.perf_counter()
        for n in range(built, count):
            club = make_club(f"{SLUG}{n:04d}", f"ベンチ会{n:04d}")
            with in_club(club):
                quiet.build(
                    members, games, first_day, tables=tables, days=365 * years, attending=True
                )
            if (n + 1) % 50 == 0 or n + 1 == count:
                self.stdout.write(
                    f"built {n + 1 - built:,} clubs in {time.perf_counter() - started:.0f} s"
                )
        with scopes_disabled():
            sizes = {
                "clubs": Club.objects.count(),
                "members": Member.objects.count(),
                "meets": Meet.objects.count(),
                "games": Hanchan.objects.count(),
                "results": HanchanResult.objects.count(),
            }
        self.stdout.write(", ".join(f"{v:,} {k}" for k, v in sizes.items()))
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                # Bulk inserts leave the planner's statistics behind until autovacuum comes
                # round: pages read as a running install's would, not as a fresh load's.
                cursor.execute("ANALYZE")
                cursor.execute("SELECT pg_size_pretty(pg_database_size(current_database()))")
                self.stdout.write(f"database size {cursor.fetchone()[0]}")

    def measure(self, count: int, sample: int, rounds: int) -> None:
        clubs = bench_clubs(count)
        rng = random.Random(2025)
        chosen = [clubs[0], clubs[-1], *rng.sample(clubs, min(sample, len(clubs)) - 2)]
        times: dict[str, list[float]] = {}
        year = date.today().year if date.today().month >= 4 else date.today().year - 1
        for club in chosen:
            with in_club(club):
                own = Member.objects.filter(name__startswith=PREFIX).order_by("pk").first()
                other = Member.objects.filter(name__startswith=PREFIX).order_by("-pk").first()
                meet = Meet.objects.order_by("-date").first()
            if own is None or other is None or meet is None:
                raise CommandError(f"{club.slug} has no games: build it again")
            login = self.login_of(club, own)
            client = Client()
            client.force_login(login)
            pages = {
                "home": "/",
                "standings": f"/standings/?period=FY{year}",
                "standings, all time": "/standings/?period=all",
                "own page": f"/members/{own.pk}/",
                "member page": f"/members/{other.pk}/",
                "meets": "/meets/",
                "meet": f"/meets/{meet.pk}/",
            }
            for _ in range(rounds):
                for kind, path in pages.items():
                    started = time.perf_counter()
                    response = client.get(path)
                    times.setdefault(kind, []).append(time.perf_counter() - started)
                    if response.status_code != 200:
                        raise CommandError(f"{club.slug} {path}: {response.status_code}")
                    if kind == "own page" and own.name not in response.content.decode():
                        raise CommandError(f"{club.slug} {path} does not show {own.name}")
        self.stdout.write(
            f"{len(chosen)} clubs of {len(clubs):,}, {rounds} rounds each (ms: p50 / p95 / max)"
        )
        for kind, values in times.items():
            ordered = sorted(values)
            p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
            self.stdout.write(
                f"  {kind:<20} {statistics.median(values) * 1000:7.0f} {p95 * 1000:7.0f} "
                f"{max(values) * 1000:7.0f}"
            )

    def login_of(self, club: Club, member: Member) -> User:
        """The member's login, made (with the role 会員 in the club) the first time."""
        if member.user_id is not None:
            with scopes_disabled():
                return User.objects.get(pk=member.user_id)
        user = User.objects.create_user(f"bench{club.pk}-{member.pk}")
        grant(user, MEMBER, club)
        with in_club(club):
            member.user = user
            member.save(update_fields=["user"])
        return user


class _Silent:
    def write(self, text: str) -> None:
        pass

    def flush(self) -> None:
        pass
