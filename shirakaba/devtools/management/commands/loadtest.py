"""Load test (a measurement): gunicorn on 127.0.0.1 against the scratch database that
DATABASE_URL names (SQLite or PostgreSQL), 50 members browsing the standings and their own
pages while 2 organizers enter games, for 60 seconds.

Prints, for each kind of page, the requests, p50/p95/p99/max latency and errors, and the games
saved. Goal: 0 errors and p95 under 300 ms for every kind of page on a 2-core machine. Each
simulated member signs in through the sign-in page, then reads a page, pauses 1–3 s as a person
reading it would, and reads the next. Each organizer enters a game about every 3 s as at the
venue: opens the form, has it checked live (htmx), saves, and sees the meet page. The second
organizer saves as a tablet's queue does when the network is back: it sends the game to the
queue's address with an id made on the device, then sends it again as after an answer lost on
the way; the server's answers (``scoring.entry``'s, by name) must be ``saved``, then ``saved``
again with the same game.

The command fails (exit status 1) when any request fails, when a save is refused (or a
tablet's game is not saved, or not answered as the same game when sent again), or when no
game was saved: a load figure of refused requests measures nothing. The organizers post the
fields the game form itself names (``GameFields``), and check the form page shows them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/shirakaba_load python manage.py loadtest

``--url`` runs the clients against a server already running instead (the tests' live server).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import re
import statistics
import subprocess
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, timedelta
from html import unescape
from pathlib import Path
from typing import Any, TextIO, cast

import httpx
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils.html import strip_tags

from members.models import Member
from members.roles import MEMBER, ORGANIZER, grant
from members.scopes import ClubCommand, in_club
from scoring import rules
from scoring.forms import GameForm
from scoring.models import HanchanResult, Meet, RuleSet
from scoring.notation import MeetKind
from shirakaba.devtools.management.commands.bench_clubs import bench_clubs
from shirakaba.devtools.management.commands.bench_standings import PREFIX
from shirakaba.devtools.management.commands.bench_standings import Command as StandingsBench

PASSWORD = "load-test-password-1"
ROOT = Path(settings.BASE_DIR)
GOAL_MS = 300


@dataclass
class Tally:
    """Latencies (seconds) and errors, by page kind; the games saved, and the saves refused."""

    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    saved: int = 0
    refused: list[str] = field(default_factory=list)

    def record(self, kind: str, started: float, response: httpx.Response, ok: set[int]) -> bool:
        self.times[kind].append(time.perf_counter() - started)
        if response.status_code in ok:
            return True
        self.errors[kind].append(f"{response.status_code} {response.request.url.path}")
        return False


@dataclass(frozen=True)
class GameFields:
    """The game form's field names as GameForm itself names them (its seat rows are a
    formset), so the organizers' posts follow the form when it changes."""

    table_no: str
    round_no: str
    rule_set: str
    unit: str
    deposits_held: str
    note: str
    seats: list[dict[str, str]]  # a seat's player, score, chombo, hands -> the posted name

    @classmethod
    def of(cls, meet: Meet) -> GameFields:
        form = GameForm(meet=meet)
        own = {name: form[name].html_name for name in cls.__dataclass_fields__ if name != "seats"}
        seats = [
            {name: row[name].html_name for name in ("player", "score", "chombo", "hands")}
            for row in form.seats.forms
        ]
        return cls(**own, seats=seats)

    def names(self) -> list[str]:
        own = [getattr(self, name) for name in self.__dataclass_fields__ if name != "seats"]
        return [*own, *(name for seat in self.seats for name in seat.values())]

    def missing_from(self, html: str) -> list[str]:
        """The names this posts that the form page does not show."""
        shown = set(re.findall(r'\sname="([^"]+)"', html))
        return [name for name in self.names() if name not in shown]


def seating(names: list[str], rng: random.Random) -> Iterator[tuple[int, int, list[str]]]:
    """(round, table, the four players) for the meet's games, each member at one table a
    round, as the game form requires."""
    tables = len(names) // 4
    for round_no in itertools.count(1):
        deck = rng.sample(names, len(names))
        for table in range(1, tables + 1):
            yield round_no, table, deck[4 * (table - 1) : 4 * table]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def form_errors(html: str) -> str:
    """The error lists a refused form shows, as text."""
    lists = re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', html, re.S)
    return " / ".join(unescape(strip_tags(item)).strip() for item in lists) or "no error shown"


def run_apart[T](coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)``, in a thread of its own when this thread already runs an
    event loop (a test run in which Playwright's sync API left one running)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class Command(ClubCommand):
    help = "Load-test the app under gunicorn (a scratch SQLite or PostgreSQL database only)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--members", type=int, default=50)
        parser.add_argument("--organizers", type=int, default=2)
        parser.add_argument("--seconds", type=int, default=60)
        parser.add_argument("--games", type=int, default=2_000, help="history to build first")
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument("--workers", type=int, default=3)
        parser.add_argument("--threads", type=int, default=4)
        parser.add_argument("--url", help="a server already running (no gunicorn started)")
        parser.add_argument(
            "--clubs",
            type=int,
            default=0,
            help="spread the members over this many clubs of bench_clubs (built first), "
            "each signed in to their own club; the organizers stay in this one",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if Member.objects.exclude(name__startswith=PREFIX).exists():
            raise CommandError("This database holds real members; use a scratch database.")
        members, meet = self.prepare(options["members"], options["games"])
        if options["clubs"]:
            members = self.members_of_clubs(options["members"], options["clubs"])
        organizers = self.organizers(options["organizers"])
        fields = GameFields.of(meet)
        params = meet.rule_set.params()
        if options["url"]:
            tally = run_apart(
                self.run(options["url"], members, organizers, meet, fields, params, options)
            )
        else:
            call_command("collectstatic", interactive=False, verbosity=0)
            base = f"http://127.0.0.1:{options['port']}"
            server = self.start_gunicorn(options)
            try:
                self.wait_until_up(base, server)
                tally = run_apart(
                    self.run(base, members, organizers, meet, fields, params, options)
                )
            finally:
                server.terminate()
                server.wait(timeout=30)
        stored = meet.hanchans.count()
        self.report(tally, options, stored)
        errors = sum(len(e) for e in tally.errors.values())
        if tally.refused or errors or not tally.saved or stored != tally.saved:
            raise CommandError(
                f"{errors} errors, {len(tally.refused)} saves refused, "
                f"{tally.saved} games saved ({stored} in the database)"
            )

    # --- data ----------------------------------------------------------------------------

    def prepare(self, count: int, games: int) -> tuple[list[tuple[str, int]], Meet]:
        """Members with logins, a history of games, and today's meet with no games yet."""
        if not HanchanResult.objects.exists():
            start = date.today() - timedelta(days=2 * games // 12)
            # An OutputWrapper serves as a TextIO (see bench_reports).
            StandingsBench(stdout=cast(TextIO, self.stdout)).build(count, games, start, tables=4)
        logins = []
        self.names = []
        for member in Member.objects.filter(name__startswith=PREFIX).order_by("pk")[:count]:
            if member.user is None:
                user = User.objects.create_user(f"load{member.pk}", password=PASSWORD)
                grant(user, MEMBER)
                member.user = user
                member.save(update_fields=["user"])
            logins.append((member.user.username, member.pk))
            self.names.append(member.name)
        meet, _ = Meet.objects.get_or_create(
            date=date.today(), kind=MeetKind.OTHER, defaults={"rule_set": RuleSet.objects.default()}
        )
        meet.hanchans.all().delete()  # a fresh grid for the organizers each run
        return logins, meet

    def members_of_clubs(self, count: int, clubs: int) -> list[tuple[str, int]]:
        """``count`` members with logins spread over the first ``clubs`` clubs of bench_clubs,
        each with the role 会員 in their own club only; each one's club mates, for the pages
        of other members they read."""
        found = bench_clubs(clubs)
        if len(found) < clubs:
            raise CommandError(f"{len(found)} bench clubs: run bench_clubs --clubs {clubs} first")
        logins = []
        self.club_mates: dict[int, list[int]] = {}
        for n in range(count):
            club = found[n % clubs]
            with in_club(club):
                mates = list(
                    Member.objects.filter(name__startswith=PREFIX)
                    .order_by("pk")
                    .values_list("pk", flat=True)
                )
                member = Member.objects.get(pk=mates[n // clubs % len(mates)])
                if member.user is None:
                    member.user = User.objects.create_user(f"load{club.pk}-{member.pk}")
                    member.save(update_fields=["user"])
                member.user.set_password(PASSWORD)  # also a login bench_clubs made
                member.user.save(update_fields=["password"])
                grant(member.user, MEMBER, club)
                logins.append((member.user.username, member.pk))
            self.club_mates[member.pk] = mates
        return logins

    def organizers(self, count: int) -> list[str]:
        logins = []
        for n in range(1, count + 1):
            organizer, created = User.objects.get_or_create(username=f"load-organizer-{n}")
            if created:
                organizer.set_password(PASSWORD)
                organizer.save()
                grant(organizer, ORGANIZER)
            logins.append(organizer.username)
        return logins

    # --- server --------------------------------------------------------------------------

    def start_gunicorn(self, options: dict[str, Any]) -> subprocess.Popen[bytes]:
        env = {**os.environ, "DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1"}
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
        self,
        base: str,
        members: list[tuple[str, int]],
        organizers: list[str],
        meet: Meet,
        fields: GameFields,
        params: rules.RuleParams,
        options: dict[str, Any],
    ) -> Tally:
        tally = Tally()
        limits = httpx.Limits(max_connections=2)
        logins = [*(login for login, _ in members), *organizers]
        clients = [httpx.AsyncClient(base_url=base, limits=limits, timeout=30) for _ in logins]
        # Everyone signs in first, a few at a time (password hashing is slow on purpose); the
        # sign-ins are reported on their own and the measured minute starts after them.
        gate = asyncio.Semaphore(4)

        async def sign_in(client: httpx.AsyncClient, login: str) -> None:
            async with gate:
                await self.sign_in(client, login, tally)

        await asyncio.gather(*(sign_in(c, n) for c, n in zip(clients, logins, strict=True)))
        self.sign_ins = tally.times.pop("sign-in")
        if tally.errors:
            raise CommandError(f"signing in failed: {dict(tally.errors)}")
        deadline = time.perf_counter() + options["seconds"]
        started = time.perf_counter()
        games = seating(self.names, random.Random(99))  # shared: one seating for the meet
        everyone = [pk for _, pk in members]
        mates = getattr(self, "club_mates", {})  # with --clubs: each member's own club's
        try:
            await asyncio.gather(
                *(
                    self.member(client, pk, mates.get(pk, everyone), deadline, tally, i)
                    for i, (client, (_, pk)) in enumerate(zip(clients, members, strict=False))
                ),
                *(
                    self.organizer(client, meet, fields, params, games, deadline, tally, i)
                    for i, client in enumerate(clients[len(members) :])
                ),
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
        meet: Meet,
        fields: GameFields,
        params: rules.RuleParams,
        games: Iterator[tuple[int, int, list[str]]],
        deadline: float,
        tally: Tally,
        index: int,
    ) -> None:
        rng = random.Random(99 + index)
        await asyncio.sleep(index * 1.5)  # the organizers do not post in step
        while time.perf_counter() < deadline:
            round_no, table, players = next(games)
            first = [rng.randrange(50, 560) * 100 for _ in range(params.players - 1)]
            scores = [*first, rules.remaining_score(params, first)]
            form = {
                fields.table_no: table,
                fields.round_no: round_no,
                fields.rule_set: meet.rule_set_id,
                fields.unit: "points",
                fields.deposits_held: 0,
                fields.note: "",
            }
            for seat, (player, score) in enumerate(zip(players, scores, strict=False)):
                names = fields.seats[seat]
                form |= {names["player"]: player, names["score"]: score, names["chombo"]: 0}
                form[names["hands"]] = ""
            url = f"/meets/{meet.pk}/games/new/?table={table}&round={round_no}"
            try:
                started = time.perf_counter()
                page = await client.get(url)
                if not tally.record("game form", started, page, {200}):
                    continue
                missing = fields.missing_from(page.text)
                if missing:
                    raise CommandError(f"the game form has no field {', '.join(missing)}")
                form["csrfmiddlewaretoken"] = client.cookies["csrftoken"]
                started = time.perf_counter()
                live = await client.post(
                    url, data={**form, "preview": "1"}, headers={"HX-Request": "true"}
                )
                tally.record("live check", started, live, {200})
                if index % 2:  # a tablet's queue, back online
                    if not await self.send_from_queue(client, meet, form, tally):
                        continue
                    shown_url = meet.get_absolute_url()
                else:
                    started = time.perf_counter()
                    saved = await client.post(url, data=form)
                    if not tally.record("save game", started, saved, {302}):
                        tally.refused.append(f"{saved.status_code}: {form_errors(saved.text)}")
                        continue
                    shown_url = saved.headers["location"]
                tally.saved += 1
                started = time.perf_counter()
                shown = await client.get(shown_url)
                tally.record("meet page", started, shown, {200})
            except httpx.HTTPError as error:
                tally.errors["organizer"].append(repr(error))
            await asyncio.sleep(rng.uniform(2.0, 4.0))

    async def send_from_queue(
        self, client: httpx.AsyncClient, meet: Meet, form: dict[str, Any], tally: Tally
    ) -> bool:
        """Send ``form`` as a tablet's queue does (static/js/queue.js), with an id made on the
        device, then again as after a lost answer. Whether the server answered ``saved``, then
        ``saved`` again with the same game; anything else is counted refused, with the answer."""
        data = {**form, "sent_as": str(uuid.uuid4())}
        headers = {"X-CSRFToken": client.cookies["csrftoken"], "Accept": "application/json"}
        answers: list[dict[str, Any]] = []
        for kind in ("send game", "send again"):
            started = time.perf_counter()
            response = await client.post(
                f"/meets/{meet.pk}/games/send/", data=data, headers=headers
            )
            tally.record(kind, started, response, {200})
            json = response.headers.get("content-type", "").startswith("application/json")
            answers.append(response.json() if json else {"status": f"HTTP {response.status_code}"})
            if answers[-1].get("status") != "saved":
                said = answers[-1].get("messages") or answers[-1].get("reason") or ""
                tally.refused.append(f"{response.status_code} {answers[-1]['status']}: {said}")
                return False
        first, again = answers
        if again != {**first, "again": True}:
            tally.refused.append(f"sent again, answered {again} after {first}")
            return False
        return True

    # --- report --------------------------------------------------------------------------

    def report(self, tally: Tally, options: dict[str, Any], stored: int) -> None:
        """A table that can be pasted: a row a kind of page, then all of them."""
        elapsed = tally.times.pop("_elapsed")[0]
        everything = [t for times in tally.times.values() for t in times]
        errors = sum(len(e) for e in tally.errors.values())
        write = self.stdout.write
        if self.sign_ins:
            write(
                f"sign-in of {len(self.sign_ins)} users, 4 at a time, before the clock started: "
                f"median {statistics.median(self.sign_ins) * 1000:.0f} ms each"
            )
        write(
            f"\n{connection.vendor}, {date.today()}: {options['members']} members"
            f"{f' of {clubs} clubs' if (clubs := options.get('clubs')) else ''} + "
            f"{options['organizers']} organizers for {elapsed:.0f} s: {len(everything):,} "
            f"requests, {len(everything) / elapsed:.1f} req/s, {errors} errors, "
            f"{tally.saved} games saved ({stored} in the database), "
            f"{len(tally.refused)} saves refused"
        )
        heading = ("page", "requests", "p50", "p95", "p99", "max", "errors")
        write("{:<12} {:>8} {:>7} {:>7} {:>7} {:>7} {:>6}".format(*heading))
        kinds = sorted({*tally.times, *tally.errors})
        slow = []
        for kind, times in [*((k, tally.times.get(k, [])) for k in kinds), ("ALL", everything)]:
            ms = [t * 1000 for t in times]
            failed = errors if kind == "ALL" else len(tally.errors.get(kind, []))
            figures = (
                [statistics.median(ms), percentile(ms, 95), percentile(ms, 99), max(ms)]
                if ms
                else []
            )
            if figures and figures[1] >= GOAL_MS and kind != "ALL":
                slow.append(kind)
            shown = "".join(f" {f:>5.0f}ms" for f in figures) or f" {'-':>7}" * 4
            write(f"{kind:<12} {len(ms):>8}{shown} {failed:>6}")
        for kind, messages in tally.errors.items():
            write(f"errors in {kind}: {messages[:5]}")
        for refusal in tally.refused[:5]:
            write(f"save refused: {refusal}")
        met = errors == 0 and not tally.refused and tally.saved > 0 and not slow
        write(
            f"goal (0 errors, games saved, p95 < {GOAL_MS} ms for every kind of page): "
            + (
                "met"
                if met
                else "NOT met" + (f" (p95 too slow: {', '.join(slow)})" if slow else "")
            )
        )
