"""What the club sees, written to files so that two versions of the code can be compared
(a refactoring must change none of it).

    SHIRAKABA_DATA_DIR=$(mktemp -d) python manage.py snapshot_outputs OUTDIR
    python manage.py snapshot_outputs --as-is OUTDIR   # the same database, after an upgrade

In an empty scratch database (the data directory's own SQLite file): migrates, loads the demo
club, then plays a half-year (2025年度 上期) under three rule sets (白樺会 四人打ち and 三人打ち in
the club's group, 日本健康麻将協会 in its own), and writes for the demo's half-year and for that
one: the standings page of each group (HTML with the per-request tokens taken out and the white space between tags folded), the
half-year PDF's text and the Excel's cells (value and number format, sheet by sheet) of the
two groups played in, and the games CSV. Compare two runs with ``diff -r``.
"""

from __future__ import annotations

import io
import random
import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.test import Client
from django.test.utils import override_settings
from openpyxl import load_workbook
from pypdf import PdfReader

from members.models import Club, Member
from members.scopes import in_club
from scoring.models import Hanchan, HandLevel, Meet, PlayerEntry, RuleSet, StandingsGroup
from scoring.notation import MeetKind

TOKENS = re.compile(r'(csrfmiddlewaretoken" value="|"x-csrftoken": "|nonce=")[^"]*')


def page_text(html: str) -> str:
    """A page as compared: the per-request tokens taken out, and the white space between
    tags (which the browser does not show) folded, a tag a line."""
    html = TOKENS.sub(r"\1…", html)
    html = re.sub(r">\s+<", "><", html)
    return re.sub(r"\s+", " ", html).replace("><", ">\n<").strip() + "\n"


def play_three_rule_sets() -> None:
    """Four meets in 2025年度 上期, three rounds each, fifteen members at four tables: two under
    the club's 4-player rule, one of three under its 3-player rule, one under 健康麻将."""
    rng = random.Random(27)
    four = RuleSet.objects.get(name="白樺会 四人打ち")
    three = RuleSet.objects.get(name="白樺会 三人打ち")
    health = RuleSet.objects.get(name="日本健康麻将協会")
    members = list(Member.objects.order_by("pk"))[:15]
    for m in range(4):
        meet = Meet.objects.create(
            date=date(2025, 4, 9) + timedelta(weeks=6 * m), kind=MeetKind.WEDNESDAY, rule_set=four
        )
        for round_no in (1, 2, 3):
            seated = rng.sample(members, 15)
            tables = [(four, seated[0:4]), (four, seated[4:8]), (three, seated[8:11])]
            tables.append((health, seated[11:15]))
            for table_no, (rule, players) in enumerate(tables, 1):
                total = rule.start_points * rule.players
                first = [rng.randrange(50, 500) * 100 for _ in players[1:]]
                scores = [*first, total - sum(first)]
                entries = [
                    PlayerEntry(
                        player,
                        seat,
                        score,
                        1 if rng.random() < 0.05 and rule.chombo_penalty else 0,
                        [(HandLevel.MANGAN, "")] if rng.random() < 0.2 else [],
                    )
                    for seat, (player, score) in enumerate(zip(players, scores, strict=True))
                ]
                game = Hanchan(meet=meet, table_no=table_no, round_no=round_no, rule_set=rule)
                game.record(entries)


class Command(BaseCommand):
    help = "Write the standings page, half-year PDF text, Excel cells and games CSV to files."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("outdir", type=Path)
        parser.add_argument(
            "--as-is",
            action="store_true",
            help="Write what the database holds (after migrate), adding nothing: run once with "
            "the old code, then with --as-is after an upgrade, and compare.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("migrate", verbosity=0)
        # In the site's one club, once the database has it (the command migrates it first).
        with in_club(Club.DEFAULT_PK):
            self.snapshot(options)

    def snapshot(self, options: dict[str, Any]) -> None:
        if options["as_is"]:
            if not User.objects.filter(username="kaiin").exists():
                raise CommandError("--as-is reads a database this command filled before.")
        elif Member.objects.exists() or Meet.objects.exists():
            raise CommandError("Use an empty scratch database (SHIRAKABA_DATA_DIR=$(mktemp -d)).")
        out: Path = options["outdir"]
        out.mkdir(parents=True, exist_ok=True)
        if not options["as_is"]:
            call_command("load_demo", stdout=io.StringIO())
            play_three_rule_sets()
        client = Client()
        client.force_login(User.objects.get(username="kaiin"))
        storages = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        for period in ("2025-H2", "2025-H1"):
            for group in StandingsGroup.objects.order_by("pk"):
                with override_settings(ALLOWED_HOSTS=["testserver"], STORAGES=storages):
                    page = client.get(f"/standings/?period={period}&group={group.pk}")
                if page.status_code != 200:
                    raise CommandError(f"/standings/ answered {page.status_code}")
                html = page_text(page.content.decode())
                (out / f"standings-{period}-{group.pk}.html").write_text(html)
            exports = [("csv", None), *((f, g) for g in (1, 2) for f in ("pdf", "xlsx"))]
            for fmt, group_no in exports:
                path = out / f"standings-{period}{f'-{group_no}' if group_no else ''}.{fmt}"
                call_command(
                    "export_report",
                    period=period,
                    format=fmt,
                    group=str(group_no) if group_no else None,
                    output=path,
                    progress=False,
                    stdout=io.StringIO(),
                )
                if fmt == "pdf":
                    text = "\n".join(page.extract_text() for page in PdfReader(path).pages)
                    path.with_suffix(".pdf.txt").write_text(text)
                    path.unlink()
                elif fmt == "xlsx":
                    lines = []
                    for sheet in load_workbook(path).worksheets:
                        lines.append(f"## {sheet.title}")
                        for row in sheet.iter_rows():
                            for cell in row:
                                if cell.value is not None:
                                    lines.append(
                                        f"{cell.coordinate}\t{cell.value!r}\t{cell.number_format}"
                                    )
                    path.with_suffix(".xlsx.txt").write_text("\n".join(lines))
                    path.unlink()
        self.stdout.write(f"Wrote {len(list(out.iterdir()))} files to {out}.")
