"""The game form's Save stays whole and tappable wherever the organizer scrolls: at a tablet
in landscape (1024×768) and in portrait (768×1024) and on a phone (390×844), online and
offline (the band at the top), with every panel of the page open (the list of kept games,
「錯和・満貫以上…」). At the venue the band once covered the sticky Save bar, a sliver
showing."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scoring.models import Meet
from tests.builders import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {
    "tablet-landscape": {"width": 1024, "height": 768},
    "tablet-portrait": {"width": 768, "height": 1024},
    "phone": {"width": 390, "height": 844},
}
SCORES = ["41000", "32000", "27000"]  # 北 left blank

SHOTS = os.environ.get("SHIRAKABA_SHOTS")
"""A folder to keep screenshots in while looking at the layout (unset: none are taken)."""

SAVE_AT_EVERY_SCROLL = """() => {
  for (const panel of document.querySelectorAll("main details")) panel.open = true;
  const save = document.querySelector("#game-form button[type=submit]");
  const last = document.documentElement.scrollHeight - innerHeight;
  // From where the seat rows come into view (an open list of kept games above the form may
  // fill the first screen) to the foot of the page.
  const rows = document.querySelector("#game-form table.entry").getBoundingClientRect().top + scrollY;
  const first = Math.max(0, Math.ceil(rows - innerHeight + 1));
  const stops = [];
  for (let y = first; y < last; y += 80) stops.push(y);
  stops.push(last);
  const wrong = [];
  for (const y of stops) {
    window.scrollTo(0, y);
    const box = save.getBoundingClientRect();
    const x = box.left + box.width / 2, middle = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, middle);
    const whole = box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
    if (!whole || !hit || !save.contains(hit) || box.height < 44) {
      wrong.push({y, top: Math.round(box.top), bottom: Math.round(box.bottom),
                  hit: hit ? hit.outerHTML.slice(0, 60) : null});
    }
  }
  window.scrollTo(0, 0);
  return {stops: stops.length, wrong};
}"""


@pytest.fixture
def meet(drawn_meet_day: Meet) -> Meet:
    return drawn_meet_day


def open_table(page: Page, table: int) -> None:
    page.locator(f'.game.empty[data-round="1"][data-table="{table}"] a.button').click()
    expect(page.locator("#id_seat-0-player")).not_to_have_value("")
    for seat, score in enumerate(SCORES):
        page.fill(f"#id_seat-{seat}-score", score)
    expect(page.locator("#settlement")).to_contain_text("✓")


def save_is_whole_at_every_scroll(page: Page, name: str) -> None:
    seen = page.evaluate(SAVE_AT_EVERY_SCROLL)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.evaluate("() => document.querySelector('.extras').scrollIntoView({block: 'end'})")
        page.screenshot(path=f"{SHOTS}/save-{name}.png")
    assert seen["stops"] > 3  # the page scrolls: the panels are open
    assert seen["wrong"] == [], (name, seen["wrong"])


@pytest.mark.parametrize("size", SIZES)
def test_save_is_whole_and_tappable_online_and_offline_with_every_panel_open(
    page: Page, context: BrowserContext, live_server, meet, size
):
    page.set_viewport_size(SIZES[size])
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/meets/{meet.pk}/")
    page.wait_for_function("() => Number(document.body.dataset.kept) >= 12", timeout=20_000)
    open_table(page, 1)
    save_is_whole_at_every_scroll(page, f"{size}-online")
    # Offline: one game kept on the device (the list of kept games shows above the form),
    # then the next table's form, the band at the top.
    context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-band")).to_be_visible()
    for seat, score in enumerate(SCORES):
        page.fill(f"#id_seat-{seat}-score", score)
    expect(page.locator("#settlement")).to_contain_text("✓")
    page.locator("#id_seat-0-score").press("Enter")
    page.wait_for_url(re.compile(r"/meets/\d+/#queue$"))
    open_table(page, 2)
    expect(page.locator("#offline-band")).to_be_visible()
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 1 件")
    save_is_whole_at_every_scroll(page, f"{size}-offline")


ROWS_AND_SUM_IN_VIEW = """() => {
  const inView = (el) => {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight;
  };
  const rows = Array.from(document.querySelectorAll("#game-form > .seat-rows > table.entry tbody tr"))
    .filter((tr) => !tr.hidden);
  return {
    rows: rows.map(inView),
    sum: inView(document.getElementById("settlement")),
    save: inView(document.querySelector("#game-form button[type=submit]")),
  };
}"""


def test_the_four_rows_and_the_sum_open_in_view_on_a_tablet_in_landscape(
    page: Page, live_server, meet
):
    """At 1024×768 the form opens with the four seat rows, the sum and Save in view: from the
    draw (with its seats from the dice) and a plain one (it opened with the 東 row alone)."""
    sign_in(page, live_server, "alice", "alice-pass-123")
    for url in (
        f"/meets/{meet.pk}/games/new/?table=1&round=1",
        f"/meets/{meet.pk}/games/new/?table=1&round=4",
    ):
        page.goto(live_server.url + url)
        expect(page.locator("#id_seat-0-player")).to_be_visible()
        page.wait_for_function("() => document.readyState === 'complete'")
        seen = page.evaluate(ROWS_AND_SUM_IN_VIEW)
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/landscape-{url.rsplit('=', 1)[1]}.png")
        assert seen == {"rows": [True] * 4, "sum": True, "save": True}, url
