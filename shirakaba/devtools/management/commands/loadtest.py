"""Load test (a measurement, not a test): gunicorn on 127.0.0.1 against the database that
DATABASE_URL names (PostgreSQL, a scratch database), 50 members browsing the standings and
their own pages while the organizer enters games, for 60 seconds.

Prints throughput, p50/p95/p99 latency and errors, overall and per page. Goal: 0 errors and
p95 under 300 ms on a 2-core machine. Each simulated member signs in through the sign-in page,
then reads a page, pauses 1–3 s as a person reading it would, and reads the next. The organizer
enters a game about every 3 s as at the venue: opens the form, has it checked live (htmx), saves,
and sees the meet page.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/shirakaba_load python manage.py loadtest
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any, TextIO, cast

import httpx
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from members.models import Member
from members.roles import MEMBER, ORGANIZER
from scoring.models import HanchanResult, Meet, RuleSet
from shirakaba.devtools.management.commands.bench_standings import PREFIX
from shirakaba.devtools.management.commands.bench_standings import Command as StandingsBench

PASSWORD = "load-test-password-1"
ROOT = Path(settings.BASE_DIR)


@dataclass
class Tally:
    """Latencies (seconds) and errors, by page kind."""

    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def record(self, kind: str, started: float, response: httpx.Response, ok: set[int]) -> None:
        self.times[kind].append(time.perf_counter() - started)
        if response.status_code not in ok:
            self.errors[kind].append(f"{response.status_code} {response.request.url.path}")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


class Command(BaseCommand):
    help = "Load-test the app under gunicorn (scratch PostgreSQL database only)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--members", type=int, default=50)
        parser.add_argument("--seconds", type=int, default=60)
        parser.add_argument("--games", type=int, default=2_000, help="history to build first")
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument("--workers", type=int, default=3)
        parser.add_argument("--threads", type=int, default=4)

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("Point DATABASE_URL at a scratch PostgreSQL database.")
        if Member.objects.exclude(name__startswith=PREFIX).exists():
            raise CommandError("This database holds real members; use a scratch database.")
        members, meet = self.prepare(options["members"], options["games"])
        call_command("collectstatic", interactive=False, verbosity=0)
        base = f"http://127.0.0.1:{options['port']}"
        server = self.start_gunicorn(options)
        try:
            self.wait_until_up(base, server)
            tally = asyncio.run(self.run(base, members, meet, options["seconds"]))
        finally:
            server.terminate()
            server.wait(timeout=30)
        self.report(tally, options)

    # --- data ----------------------------------------------------------------------------

    def prepare(self, count: int, games: int) -> tuple[list[tuple[str, int]], Meet]:
        """Members with logins, a history of games, today's meet, and the organizer."""
        if not HanchanResult.objects.exists():
            start = date.today() - timedelta(days=2 * games // 12)
            # An OutputWrapper serves as a TextIO (see bench_reports).
            StandingsBench(stdout=cast(TextIO, self.stdout)).build(count, games, start, tables=4)
        member_group = Group.objects.get(name=MEMBER)
        logins = []
        for member in Member.objects.filter(name__startswith=PREFIX).order_by("pk")[:count]:
            if member.user is None:
                user = User.objects.create_user(f"load{member.pk}", password=PASSWORD)
                user.groups.add(member_group)
                member.user = user
                member.save(update_fields=["user"])
            logins.append((member.user.username, member.pk))
        self.names = [
            name
            for name in Member.objects.filter(name__startswith=PREFIX).values_list(
                "name", flat=True
            )
        ][:count]
        organizer, created = User.objects.get_or_create(username="load-organizer")
        if created:
            organizer.set_password(PASSWORD)
            organizer.save()
            organizer.groups.add(Group.objects.get(name=ORGANIZER))
        meet, _ = Meet.objects.get_or_create(
            date=date.today(), kind="other", defaults={"rule_set": RuleSet.objects.default()}
        )
        meet.hanchans.all().delete()  # a fresh grid for the organizer each run
        return logins, meet

    # --- server --------------------------------------------------------------------------

    def start_gunicorn(self, options: dict[str, Any]) -> subprocess.Popen[bytes]:
        env = {
            **os.environ,
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1",
            "DATABASE_URL": os.environ["DATABASE_URL"],
        }
        command = [
            str(Path(sys.executable).with_name("gunicorn")),
            "shirakaba.wsgi",
            "--bind",
            f"127.0.0.1:{options['port']}",
            "--workers",
            str(options["workers"]),
            "--worker-class",
            "gthread",
            "--threads",
            str(options["threads"]),
            "--keep-alive",
            "10",  # longer than a member's pause between pages
            "--log-level",
            "warning",
        ]
        self.stdout.write(" ".join(command[1:]))
        return subprocess.Popen(command, cwd=ROOT, env=env)

    def wait_until_up(self, base: str, server: subprocess.Popen[bytes]) -> None:
        for _ in range(100):
            if server.poll() is not None:
                raise CommandError("gunicorn stopped")
            try:
                if httpx.get(f"{base}/login/").status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.2)
        raise CommandError("gunicorn did not answer")

    # --- clients -------------------------------------------------------------------------

    async def run(
        self, base: str, members: list[tuple[str, int]], meet: Meet, seconds: int
    ) -> Tally:
        names = self.names  # read before the event loop started (the ORM is synchronous)
        tally = Tally()
        limits = httpx.Limits(max_connections=2)
        clients = [
            httpx.AsyncClient(base_url=base, limits=limits, timeout=30)
            for _ in range(len(members) + 1)
        ]
        # Everyone signs in first, a few at a time (password hashing is slow on purpose); the
        # sign-ins are reported on their own and the measured minute starts after them.
        logins = [*(login for login, _ in members), "load-organizer"]
        gate = asyncio.Semaphore(4)

        async def sign_in(client: httpx.AsyncClient, login: str) -> None:
            async with gate:
                await self.sign_in(client, login, tally)

        await asyncio.gather(*(sign_in(c, n) for c, n in zip(clients, logins, strict=True)))
        self.sign_ins = tally.times.pop("sign-in")
        deadline = time.perf_counter() + seconds
        started = time.perf_counter()
        try:
            await asyncio.gather(
                *(
                    self.member(client, login, pk, [p for _, p in members], deadline, tally, i)
                    for i, (client, (login, pk)) in enumerate(zip(clients, members, strict=False))
                ),
                self.organizer(clients[-1], meet.pk, meet.rule_set_id, names, deadline, tally),
            )
        finally:
            for client in clients:
                await client.aclose()
        tally.times["_elapsed"] = [time.perf_counter() - started]
        return tally

    async def sign_in(self, client: httpx.AsyncClient, username: str, tally: Tally) -> None:
        await client.get("/login/")
        started = time.perf_counter()
        response = await client.post(
            "/login/",
            data={
                "username": username,
                "password": PASSWORD,
                "csrfmiddlewaretoken": client.cookies["csrftoken"],
            },
        )
        tally.record("sign-in", started, response, {302})

    async def member(
        self,
        client: httpx.AsyncClient,
        login: str,
        own: int,
        everyone: list[int],
        deadline: float,
        tally: Tally,
        index: int,
    ) -> None:
        rng = random.Random(index)
        await asyncio.sleep(rng.uniform(0, 3))  # members start over the first seconds
        year = date.today().year if date.today().month >= 4 else date.today().year - 1
        pages: list[tuple[str, Callable[[], str]]] = [
            ("standings", lambda: f"/standings/?period=FY{year}"),
            ("standings", lambda: f"/standings/?period={year}-H{rng.choice([1, 2])}"),
            ("standings", lambda: "/standings/?period=all"),
            ("own page", lambda: f"/members/{own}/"),
            ("own chart", lambda: f"/members/{own}/chart/cumulative.svg"),
            ("member page", lambda: f"/members/{rng.choice(everyone)}/"),
            ("meets", lambda: "/meets/"),
            ("home", lambda: "/"),
        ]
        while time.perf_counter() < deadline:
            kind, path = rng.choice(pages)
            started = time.perf_counter()
            try:
                response = await client.get(path(), timeout=30)
            except httpx.HTTPError as error:
                tally.errors[kind].append(repr(error))
                continue
            tally.record(kind, started, response, {200})
            await asyncio.sleep(rng.uniform(1.0, 3.0))

    async def organizer(
        self,
        client: httpx.AsyncClient,
        meet: int,
        rule_set: int,
        names: list[str],
        deadline: float,
        tally: Tally,
    ) -> None:
        rng = random.Random(99)
        n = 0
        per_round = len(names) // 4  # a player sits at one table per round
        deck: list[str] = []
        while time.perf_counter() < deadline:
            table, round_no = n % per_round + 1, n // per_round + 1
            n += 1
            if table == 1:
                deck = rng.sample(names, len(names))  # this round's seating
            players = deck[4 * (table - 1) : 4 * table]
            first = [rng.randrange(50, 560) * 100 for _ in range(3)]
            scores = [*first, 120_000 - sum(first)]
            form = {
                "table_no": table,
                "round_no": round_no,
                "rule_set": rule_set,
                "unit": "points",
                "deposits_held": 0,
                "note": "",
                "csrfmiddlewaretoken": client.cookies["csrftoken"],
            }
            for seat in range(4):
                form |= {
                    f"player_{seat}": players[seat],
                    f"score_{seat}": scores[seat],
                    f"chombo_{seat}": 0,
                    f"hands_{seat}": "",
                }
            url = f"/meets/{meet}/games/new/?table={table}&round={round_no}"
            try:
                started = time.perf_counter()
                tally.record("game form", started, await client.get(url), {200})
                started = time.perf_counter()
                live = await client.post(
                    url, data={**form, "preview": "1"}, headers={"HX-Request": "true"}
                )
                tally.record("live check", started, live, {200})
                started = time.perf_counter()
                saved = await client.post(url, data=form)
                tally.record("save game", started, saved, {302})
                if saved.status_code == 302:
                    started = time.perf_counter()
                    page = await client.get(saved.headers["location"])
                    tally.record("meet page", started, page, {200})
            except httpx.HTTPError as error:
                tally.errors["organizer"].append(repr(error))
            await asyncio.sleep(rng.uniform(2.0, 4.0))

    # --- report --------------------------------------------------------------------------

    def report(self, tally: Tally, options: dict[str, Any]) -> None:
        elapsed = tally.times.pop("_elapsed")[0]
        everything = [t for times in tally.times.values() for t in times]
        errors = sum(len(e) for e in tally.errors.values())
        self.stdout.write(
            f"sign-in of {len(self.sign_ins)} users, 4 at a time, before the clock started: "
            f"median {statistics.median(self.sign_ins) * 1000:.0f} ms each"
        )
        self.stdout.write(
            f"\n{options['members']} members + 1 organizer for {elapsed:.0f} s: "
            f"{len(everything):,} requests, {len(everything) / elapsed:.1f} req/s, {errors} errors"
        )
        self.stdout.write(
            f"{'page':<12} {'requests':>8} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8}"
        )
        rows = [*sorted(tally.times.items()), ("ALL", everything)]
        for kind, times in rows:
            ms = [t * 1000 for t in times]
            self.stdout.write(
                f"{kind:<12} {len(ms):>8} {statistics.median(ms):>6.0f}ms "
                f"{percentile(ms, 95):>6.0f}ms {percentile(ms, 99):>6.0f}ms {max(ms):>6.0f}ms"
            )
        for kind, messages in tally.errors.items():
            self.stdout.write(f"errors in {kind}: {messages[:5]}")
        p95 = percentile([t * 1000 for t in everything], 95)
        met = errors == 0 and p95 < 300
        self.stdout.write(f"goal (0 errors, p95 < 300 ms): {'met' if met else 'NOT met'}")
