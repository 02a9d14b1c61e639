"""Every page of the demo club holds at the largest text (issue 40): on a phone at the app's
特大 and with the browser's text at 200 % (its default font doubled, 16 → 32 px, as
manage.py measure_display does), no page scrolls sideways, the game forms' name boxes show a
long name whole (「佐々木 久美子」, the demo's longest), and axe finds nothing serious. On a
tablet at 特大 the edit form's name boxes show it whole too. On a phone at 特大 and 200 %, the
game form's bar kept at the foot while a score is typed is the sum and Save only (≤ 30 % of the
screen), the field above it.

The pages are the ones the measure opens (shirakaba/devtools: demo_pages), as the demo
club's organizer, who sees every one of them; the game forms with 「40000」 in every score box.
"""

import os

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from shirakaba.devtools.display import PROBE
from shirakaba.devtools.management.commands.measure_display import demo_pages
from tests.builders import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
LONG_NAME = "佐々木 久美子"
SHOTS = os.environ.get("SHIRAKABA_SHOTS")
"""A folder to keep screenshots in while looking at the layout (unset: none are taken)."""

# The name boxes that show less than their name (the box's inner width under the text's).
CUT_NAMES = """() => [...document.querySelectorAll('input.player')]
  .filter((box) => box.value && box.scrollWidth > box.clientWidth + 1)
  .map((box) => `${box.value} ${box.clientWidth}<${box.scrollWidth}`)"""


@pytest.fixture
def demo(live_server):
    call_command("load_demo", verbosity=0)
    return demo_pages()[1]


def open_as_organizer(
    browser: Browser, live_server, viewport, size: str, root: int, login: str = "kiroku"
) -> Page:
    """The demo's organizer (or another demo `login`) signed in, at the app's text `size` and
    the browser's default font of `root` px (32: its text setting at 200 %)."""
    context = browser.new_context(bypass_csp=True, locale="ja-JP", viewport=viewport)
    page = context.new_page()
    if root != 16:
        cdp = context.new_cdp_session(page)
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": root, "fixed": root}})
    page.goto(f"{live_server.url}/login/")
    page.evaluate(f"localStorage.setItem('shk-text-size', '{size}')")
    page.fill("#id_username", login)
    page.fill("#id_password", f"shirakaba-{login}")
    page.press("#id_password", "Enter")
    page.wait_for_url(f"{live_server.url}/")
    return page


def open_filled(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("load")
    if "/games/new/" in url or url.endswith("/edit/"):
        for box in page.locator("input.score").all():
            box.fill("40000")
        page.wait_for_load_state("networkidle")  # the live check's answer is in


@pytest.mark.parametrize(
    ("size", "root"), [("xlarge", 16), ("standard", 32)], ids=["特大", "browser-200%"]
)
def test_every_page_holds_on_a_phone_at_the_largest_text(
    browser: Browser, live_server, demo, size, root
):
    page = open_as_organizer(browser, live_server, PHONE, size, root)
    assert page.evaluate("document.documentElement.dataset.textSize") == size
    problems = {}
    for path in demo:
        open_filled(page, f"{live_server.url}{path}")
        found = []
        sideways = page.evaluate(PROBE)["sideways"]
        if sideways > 1:
            found.append(f"scrolls sideways by {sideways} px")
        found += page.evaluate(CUT_NAMES)
        found += axe_violations(page)
        if found:
            problems[path] = found
    page.context.close()
    assert not problems, "\n".join(f"{path}: {found}" for path, found in problems.items())


def test_the_edit_form_shows_a_long_name_whole_on_a_tablet_at_the_largest_size(
    browser: Browser, live_server, demo
):
    edits = [path for path in demo if path.endswith("/edit/")]
    page = open_as_organizer(browser, live_server, TABLET, "xlarge", 16)
    open_filled(page, f"{live_server.url}{edits[0]}")
    names = page.locator("input.player").evaluate_all("boxes => boxes.map(b => b.value)")
    cut = page.evaluate(CUT_NAMES)
    page.context.close()
    assert LONG_NAME in names  # the demo's first game seats her
    assert cut == []


FIRST_COLUMN_AFTER_SCROLL = """(box) => {
  const table = box.querySelector('table');
  const first = () => table.querySelector('tbody tr > :first-child').getBoundingClientRect().left;
  const before = first();
  box.scrollLeft = box.scrollWidth;
  return {scrolls: box.scrollWidth > box.clientWidth, moved: box.scrollLeft,
          before, after: first(), box: box.getBoundingClientRect().left};
}"""


@pytest.mark.parametrize("path", ["/rules/", "/awards/?period=2025-H2"])
def test_a_wide_table_scrolls_in_its_box_with_its_first_column_fixed(
    browser: Browser, live_server, demo, path
):
    """As a member, who has no links in the awards' table: the box itself takes the focus,
    so that the keys scroll it (axe: scrollable-region-focusable)."""
    page = open_as_organizer(browser, live_server, PHONE, "standard", 32, login="kaiin")
    page.goto(f"{live_server.url}{path}")
    found = axe_violations(page)
    seen = page.locator("main .table-scroll").first.evaluate(FIRST_COLUMN_AFTER_SCROLL)
    sideways = page.evaluate(PROBE)["sideways"]
    page.context.close()
    assert found == []
    assert seen["scrolls"] and seen["moved"] > 0, seen  # at 200 % the table is wider than a phone
    assert seen["after"] == pytest.approx(seen["before"], abs=1), seen  # the name stays put
    assert sideways <= 1


# While a score is typed, the bar stuck at the screen's foot (the sum, Save) and what it covers.
BAR_WHILE_TYPING = """(box) => {
  window.scrollTo(0, 0);  // the form's head in view: the field is tapped, and comes up
  box.focus();
  const kept = document.querySelector('#game-form .entry-bar');
  const bar = kept.getBoundingClientRect();
  // Kept at the foot: lifted off its place in the flow, which the next part of the form follows.
  const next = kept.nextElementSibling.getBoundingClientRect();
  const save = document.querySelector('#game-form .entry-bar button[type=submit]').getBoundingClientRect();
  const sum = document.querySelector('#settlement .check').getBoundingClientRect();
  const field = box.getBoundingClientRect();
  const inView = (r) => r.top >= 0 && r.bottom <= innerHeight + 0.5 && r.height > 0;
  return {bar: Math.round(bar.height), screen: innerHeight, stuck: next.top > bar.bottom + 1, saveTall: Math.round(save.height),
          save: inView(save), sum: inView(sum), covered: field.bottom > bar.top + 0.5,
          focused: document.activeElement === box};
}"""


@pytest.mark.parametrize(
    ("size", "root"), [("xlarge", 16), ("standard", 32)], ids=["特大", "browser-200%"]
)
def test_the_bar_kept_at_the_foot_while_typing_is_compact_on_a_phone_at_the_largest_text(
    browser: Browser, live_server, demo, size, root
):
    """The sum line and Save only, in at most 30 % of the screen (it took about half, the
    places-and-P table with them, one seat row showing above it); the field typed in above it."""
    edit = next(path for path in demo if path.endswith("/edit/"))  # four players seated
    page = open_as_organizer(browser, live_server, PHONE, size, root)
    page.goto(f"{live_server.url}{edit}")
    boxes = page.locator("input.score")
    for box, score in zip(boxes.all(), ["41000", "32000", "27000", "20000"], strict=True):
        box.fill(score)
    page.wait_for_load_state("networkidle")
    expect(page.locator("#settlement .check")).to_contain_text("120,000")
    expect(page.locator("#settlement .results.preview tbody tr")).to_have_count(4)
    seen = []
    for n, box in enumerate(boxes.all()):
        seen.append(box.evaluate(BAR_WHILE_TYPING))
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/bar-{size}-{root}-{n}.png")
    # 40,000 too many: what is wrong, said in the bar kept at the foot.
    boxes.last.fill("60000")
    expect(page.locator("#settlement .check.bad")).to_contain_text("160,000")
    seen.append(boxes.first.evaluate(BAR_WHILE_TYPING))
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/bar-{size}-{root}-wrong.png")
    page.context.close()
    assert seen[0]["stuck"] and seen[-1]["stuck"], seen  # 東's score typed: kept at the foot
    for one in seen:
        assert one["focused"], seen
        if one["stuck"]:
            assert one["bar"] <= 0.3 * one["screen"], seen
        assert one["save"] and one["saveTall"] >= 44, seen
        assert one["sum"], seen
        assert not one["covered"], seen
