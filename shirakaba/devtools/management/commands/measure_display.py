"""How the pages hold for older eyes and hands, measured in Chromium (a measurement, not a test).

    python manage.py load_demo --if-empty
    python manage.py runserver 127.0.0.1:8150 &
    python manage.py measure_display --url http://127.0.0.1:8150 [--json out.json]

Signs in as the demo club's member (kaiin) and organizer (kiroku), opens each kind of page
(the home page, the standings, the rating, a member's record, the awards, a meet, a game,
the game form, the schedule, 点数を調べる …) in each of these ways:

- a phone (390×844) and a tablet (1024×768) at the app's own size (標準);
- the same at the app's largest size (特大, the device's choice kept in localStorage);
- the same with the browser's text setting at 200 % (the root font doubled: 16 → 32 px);
- 320 px wide (WCAG 1.4.10's reflow width) at 標準;

and counts, for each way: axe-core's serious and critical violations, text under 7:1
(axe's color-contrast-enhanced, WCAG 1.4.6), touch targets under
24 px (WCAG 2.5.8) and under 44 px (2.5.5; not counting links inside a data table's rows,
which are counted under 24 and reported apart), links and buttons in running text left out;
pages that scroll sideways; on a phone, pages with more than 5 % of their text under 16 px;
boxes that cut their text off (score boxes filled with 「40000」 on the game form); and the
header's height. Prints one Markdown table, and the worst examples.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError
from django.db.models import Count

from members.models import Member
from members.scopes import ClubCommand
from scoring.models import Hanchan, Meet
from shirakaba.devtools.display import PROBE

AXE = Path(__file__).resolve().parents[4] / "tests" / "browser" / "node_modules" / "axe-core"
AXE_JS = AXE / "axe.min.js"


SAVE_SIZE = """async (size) => {
  const form = document.querySelector('[data-display-form]');
  if (!form) return;  // no setting (before the app offered one)
  const body = new FormData(form);
  body.set('text_size', size);
  body.set('contrast', 'standard');
  await fetch(form.action, {method: 'POST', body, headers: {'X-Requested-With': 'fetch'}});
}"""


@dataclass
class Way:
    label: str
    width: int
    height: int
    size: str = "standard"  # the app's text size (localStorage)
    root: int = 16  # the browser's default font size in px (32 = its text setting at 200 %)
    phone: bool = False


WAYS = [
    Way("phone 390×844, 標準", 390, 844, phone=True),
    Way("tablet 1024×768, 標準", 1024, 768),
    Way("phone, 特大", 390, 844, size="xlarge", phone=True),
    Way("tablet, 特大", 1024, 768, size="xlarge"),
    Way("phone, browser text 200 %", 390, 844, root=32, phone=True),
    Way("tablet, browser text 200 %", 1024, 768, root=32),
    Way("320×640 (reflow), 標準", 320, 640, phone=True),
]


@dataclass
class Tally:
    views: int = 0
    axe: int = 0
    axe_where: dict[str, int] = field(default_factory=dict)
    contrast7: int = 0
    contrast_where: dict[str, int] = field(default_factory=dict)
    under24: int = 0
    under44: int = 0
    row_under44: int = 0
    sideways: list[str] = field(default_factory=list)
    small_pages: list[str] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)
    header: int = 0
    examples24: dict[str, int] = field(default_factory=dict)
    examples44: dict[str, int] = field(default_factory=dict)
    small_where: dict[str, int] = field(default_factory=dict)


def demo_pages() -> tuple[list[str], list[str]]:
    """The member's pages and the organizer's, from the demo club in the database."""
    meet = Meet.objects.annotate(n=Count("hanchans")).filter(n__gt=0).order_by("-date").first()
    planned = Meet.objects.annotate(n=Count("hanchans")).filter(n=0).order_by("date").first()
    own = Member.objects.filter(user__username="kaiin").first()
    if meet is None or own is None:
        raise CommandError("Load the demo club first: manage.py load_demo")
    game = Hanchan.objects.filter(meet=meet).order_by("round_no", "table_no").first()
    assert game is not None
    period = f"{meet.date.year}-H{1 if meet.date.month <= 6 else 2}"
    member = [
        "/",
        f"/standings/?period={period}",
        f"/standings/rating/?period={period}",
        f"/standings/head-to-head/?period={period}",
        f"/members/{own.pk}/?period={period}",
        f"/awards/?period={period}",
        "/meets/",
        f"/meets/{meet.pk}/",
        f"/games/{game.pk}/",
        "/schedule/",
        "/members/",
        "/rules/",
        "/calculator/?han=3&fu=40&dealer=1&win=tsumo&honba=1&sticks=1",
        "/hand/",
    ]
    organizer = [
        *member,
        f"/meets/{meet.pk}/games/new/?table=1&round=1",
        f"/games/{game.pk}/edit/",
        f"/meets/{meet.pk}/finalise/",
        f"/meets/{meet.pk}/news/",
        "/import/",
    ]
    if planned is not None:
        organizer.append(f"/meets/{planned.pk}/answers/")
    return member, organizer


class Command(ClubCommand):
    help = "Measures the pages for large text, touch targets, sideways scroll and contrast."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--url", required=True, help="a running server, e.g. http://127.0.0.1:8150"
        )
        parser.add_argument("--json", help="write every figure to this file")
        parser.add_argument("--ways", help="only these ways (numbers from 1, comma-separated)")

    def handle(self, *args: Any, **options: Any) -> None:
        from playwright.sync_api import sync_playwright

        if not AXE_JS.exists():
            raise CommandError(f"axe-core is missing: {AXE_JS} (npm ci --prefix tests/browser)")
        axe = AXE_JS.read_text(encoding="utf-8") + "\n;0"
        url = options["url"].rstrip("/")
        member_pages, organizer_pages = demo_pages()
        ways = WAYS
        if options["ways"]:
            ways = [WAYS[int(n) - 1] for n in options["ways"].split(",")]
        tallies: dict[str, Tally] = {}
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
            )
            for way in ways:
                tally = tallies.setdefault(way.label, Tally())
                for login, pages in (
                    (("kaiin", "shirakaba-kaiin"), member_pages),
                    (("kiroku", "shirakaba-kiroku"), organizer_pages),
                ):
                    self.measure(browser, url, way, login, pages, tally, axe)
                self.stderr.write(f"measured: {way.label}")
            browser.close()
        self.report(tallies)
        if options["json"]:
            Path(options["json"]).write_text(
                json.dumps(
                    {k: v.__dict__ for k, v in tallies.items()}, ensure_ascii=False, indent=1
                ),
                encoding="utf-8",
            )

    def measure(
        self,
        browser: Any,
        url: str,
        way: Way,
        login: tuple[str, str],
        pages: list[str],
        tally: Tally,
        axe: str,
    ) -> None:
        context = browser.new_context(
            bypass_csp=True, locale="ja-JP", viewport={"width": way.width, "height": way.height}
        )
        page = context.new_page()
        if way.root != 16:
            cdp = context.new_cdp_session(page)
            cdp.send("Page.setFontSizes", {"fontSizes": {"standard": way.root, "fixed": way.root}})
        page.goto(f"{url}/login/")
        page.evaluate(f"localStorage.setItem('shk-text-size', '{way.size}')")
        page.fill("#id_username", login[0])
        page.fill("#id_password", login[1])
        page.press("#id_password", "Enter")
        page.wait_for_url(f"{url}/")
        # The login's saved choice wins over the device's: save this way's size with it.
        page.evaluate(SAVE_SIZE, way.size)
        # The landing page kept the login's earlier choice on the device: this way's, again.
        page.evaluate(f"localStorage.setItem('shk-text-size', '{way.size}')")
        for path in pages:
            page.goto(f"{url}{path}")
            page.wait_for_load_state("load")
            if page.evaluate("document.documentElement.dataset.textSize") != way.size:
                # The login's earlier choice came back (another run signed in meanwhile):
                # this way's size again, and the page again, or no figures at all.
                page.evaluate(SAVE_SIZE, way.size)
                page.evaluate(f"localStorage.setItem('shk-text-size', '{way.size}')")
                page.goto(f"{url}{path}")
                page.wait_for_load_state("load")
                if page.evaluate("document.documentElement.dataset.textSize") != way.size:
                    raise CommandError(f"{path} is not at the size {way.size}: not measured")
            if "/games/new/" in path or path.endswith("/edit/"):
                for box in page.locator("input.score").all():
                    box.fill("40000")
                page.wait_for_load_state("networkidle")  # the live check's answer is in
            where = f"{login[0]} {path}"
            page.evaluate(axe)
            result = page.evaluate(
                "async () => await axe.run(document, {rules: {'color-contrast-enhanced': {enabled: true}}})"
            )
            for v in result["violations"]:
                if v["id"] == "color-contrast-enhanced":  # 7:1 (WCAG 1.4.6, AAA)
                    tally.contrast7 += len(v["nodes"])
                    for n in v["nodes"][:2]:
                        key = " ".join(n["target"][0:1]) if isinstance(n["target"][0], str) else "?"
                        tally.contrast_where[key] = tally.contrast_where.get(key, 0) + 1
                elif v["impact"] in {"serious", "critical"}:
                    tally.axe += len(v["nodes"])
                    key = f"{where} {v['id']}"
                    tally.axe_where[key] = tally.axe_where.get(key, 0) + len(v["nodes"])
            probe = page.evaluate(PROBE)
            tally.views += 1
            for t in probe["targets"]:
                small = min(t["w"], t["h"])
                key = f"{t['what']} {t['w']}×{t['h']}"
                if small < 24:
                    tally.under24 += 1
                    tally.examples24[key] = tally.examples24.get(key, 0) + 1
                elif small < 44:
                    if t["row"]:
                        tally.row_under44 += 1
                    else:
                        tally.under44 += 1
                        tally.examples44[key] = tally.examples44.get(key, 0) + 1
            if probe["sideways"] > 1:
                tally.sideways.append(f"{where} (+{probe['sideways']} px)")
            if way.phone and probe["all"] and probe["small"] / probe["all"] > 0.05:
                tally.small_pages.append(f"{where} ({100 * probe['small'] / probe['all']:.0f} %)")
            for key, n in probe["smallWhere"].items():
                if way.phone:
                    tally.small_where[key] = tally.small_where.get(key, 0) + n
            tally.cut.extend(f"{where}: {c}" for c in probe["cut"])
            tally.header = max(tally.header, probe["header"])
        context.close()

    def report(self, tallies: dict[str, Tally]) -> None:
        out = self.stdout.write
        out(
            "| way | views | axe (serious) | text under 7:1 | targets < 24 px | < 44 px (outside table rows) "
            "| table-row links < 44 px | pages scrolling sideways | phone pages > 5 % text < 16 px "
            "| cut-off boxes | tallest header |"
        )
        out("|---|---|---|---|---|---|---|---|---|---|---|")
        for label, t in tallies.items():
            small = len(t.small_pages) if "phone" in label or "320" in label else "–"
            out(
                f"| {label} | {t.views} | {t.axe} | {t.contrast7} | {t.under24} | {t.under44} | {t.row_under44} "
                f"| {len(t.sideways)} | {small} | {len(t.cut)} | {t.header} px |"
            )
        for label, t in tallies.items():
            out(f"\n{label}:")
            worst24 = sorted(t.examples24.items(), key=lambda kv: -kv[1])[:6]
            worst44 = sorted(t.examples44.items(), key=lambda kv: -kv[1])[:8]
            out(f"  axe serious: {sorted(t.axe_where.items())[:8]}")
            out(f"  under 24: {worst24}")
            out(f"  under 44: {worst44}")
            out(f"  sideways: {t.sideways[:8]}")
            out(f"  small text pages: {t.small_pages[:20]}")
            worst_small = sorted(t.small_where.items(), key=lambda kv: -kv[1])[:6]
            out(f"  small text: {worst_small}")
            out(f"  cut off: {t.cut[:8]}")
            worst7 = sorted(t.contrast_where.items(), key=lambda kv: -kv[1])[:6]
            out(f"  under 7:1: {worst7}")
