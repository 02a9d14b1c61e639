"""The venue without Wi-Fi (issue 31's "Must show"), in Playwright's offline mode: the meet's
pages kept on the device by the service worker, games saved offline into the device's queue
(IndexedDB) and sent once when the network is back, a conflict kept as 要確認 with both
versions, a session that ended while offline, and a wrong sum refused on the device with the
server's words."""

import re
from decimal import Decimal as D

import pytest
from django.contrib.sessions.models import Session
from playwright.sync_api import BrowserContext, Page, expect

from scoring.meet_draw import drawn_table
from scoring.models import Hanchan, Meet, PlayerEntry
from tests.builders import axe_violations, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCORES = ["41000", "32000", "27000"]  # 北 left blank: 20,000 from the table total
TOTALS = [D("41.0"), D("12.0"), D("-13.0"), D("-40.0")]  # +11+30, +2+10, −3−10, −10−30
BAND = "オフライン：保存した対局は端末に保管され、接続が戻ると送信されます"


@pytest.fixture
def meet(drawn_meet_day: Meet) -> Meet:
    return drawn_meet_day


def open_meet_online(page: Page, live_server, meet: Meet) -> None:
    """Sign in and open the meet's page: the service worker keeps it, its draw and forms."""
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/meets/{meet.pk}/")
    # The meet's page, its draw board, the plain form, 9 drawn tables and 「別の回戦」.
    page.wait_for_function("() => Number(document.body.dataset.kept) >= 12", timeout=20_000)


def enter_offline(page: Page, table: int, scores=SCORES) -> None:
    """From the (kept) meet page, open a drawn table's form and save its game offline."""
    page.locator(f'.game.empty[data-round="1"][data-table="{table}"] a.button').click()
    expect(page.locator("#id_seat-0-player")).not_to_have_value("")  # names from the draw
    for seat, score in enumerate(scores):
        page.fill(f"#id_seat-{seat}-score", score)
    expect(page.locator("#settlement")).to_contain_text("✓")  # the device's check
    page.locator("#id_seat-0-score").press("Enter")
    page.wait_for_url(re.compile(r"/meets/\d+/#queue$"))


def queue_three_offline(page: Page, context: BrowserContext) -> None:
    context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-band")).to_have_text(BAND)
    for table in (1, 2, 3):
        enter_offline(page, table)
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 3 件")


def save_online_meanwhile(meet: Meet, table: int) -> None:
    """Another device saves round 1's table online, with other scores."""
    players = drawn_table(meet, 1, table).players
    theirs = [35_000, 30_000, 30_000, 25_000]
    entries = [PlayerEntry(m, i, s) for i, (m, s) in enumerate(zip(players, theirs, strict=True))]
    Hanchan(meet=meet, table_no=table, round_no=1, rule_set=meet.rule_set).record(entries)


def open_queue(page: Page) -> None:
    """Open the list of kept games (it opens by itself after a save; a tap otherwise)."""
    if page.locator("#queue details").get_attribute("open") is None:
        page.locator("#queue summary").click()


def stored_totals() -> list[list[D]]:
    return [
        [r.total_points for r in game.results.order_by("seat")]
        for game in Hanchan.objects.order_by("table_no")
    ]


def test_three_games_entered_offline_are_kept_through_a_reload(
    page: Page, context: BrowserContext, live_server, meet
):
    open_meet_online(page, live_server, meet)
    queue_three_offline(page, context)
    page.reload()  # offline still: the meet's page from the device, the queue from IndexedDB
    expect(page.locator("#offline-band")).to_be_visible()
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 3 件")
    open_queue(page)
    items = page.locator(".queue-item")
    expect(items).to_have_count(3)
    expect(items.nth(0)).to_contain_text("1回戦 1卓")
    expect(items.nth(0)).to_contain_text("41,000")
    expect(items.nth(0)).to_contain_text("20,000")  # the blank seat, filled in
    expect(page.locator(".queued-badge")).to_have_count(3)  # the tables say so too
    assert axe_violations(page) == []  # the band and the open list, to a screen reader too
    assert not Hanchan.objects.exists()


def test_back_online_the_three_are_saved_once_with_their_settlement(
    page: Page, context: BrowserContext, live_server, meet
):
    open_meet_online(page, live_server, meet)
    queue_three_offline(page, context)
    context.set_offline(False)  # the "online" event sends the queue
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 0 件")
    expect(page.locator(".queue-item.state-sent")).to_have_count(3)
    page.locator("#queue [data-action=send]").click(force=True)  # a tap more sends nothing
    assert Hanchan.objects.count() == 3
    assert all(g.sent_as is not None for g in Hanchan.objects.all())
    assert stored_totals() == [TOTALS] * 3
    page.reload()
    link = page.locator(".queue-item.state-sent a").first
    expect(link).to_have_text("保存された対局を開く")
    assert re.fullmatch(r"/games/\d+/", link.get_attribute("href"))


def test_the_same_queue_sent_from_two_tabs_saves_each_game_once(
    page: Page, context: BrowserContext, live_server, meet
):
    open_meet_online(page, live_server, meet)
    queue_three_offline(page, context)
    other = context.new_page()
    other.goto(f"{live_server.url}/meets/{meet.pk}/")  # offline: the kept page, the same queue
    expect(other.locator("#queue .queue-count")).to_have_text("未送信 3 件")
    context.set_offline(False)  # both tabs hear "online" and send
    for tab in (page, other):
        tab.evaluate("() => ShirakabaQueue.send()")
    for tab in (page, other):
        expect(tab.locator("#queue .queue-count")).to_have_text("未送信 0 件")
    assert Hanchan.objects.count() == 3
    assert stored_totals() == [TOTALS] * 3


def test_a_table_entered_meanwhile_is_kept_as_to_check_with_both_versions(
    page: Page, context: BrowserContext, live_server, meet
):
    open_meet_online(page, live_server, meet)
    context.set_offline(True)
    page.reload()
    enter_offline(page, 1)
    save_online_meanwhile(meet, table=1)
    context.set_offline(False)
    item = page.locator(".queue-item.state-check")
    expect(item).to_have_count(1)
    expect(page.locator("#queue .queue-count")).to_contain_text("要確認 1 件")
    open_queue(page)
    expect(item).to_contain_text("この回戦・卓の半荘はすでに入力されています。")
    versions = item.locator(".queue-versions > div")
    expect(versions.nth(0)).to_contain_text("41,000")  # this device's
    expect(versions.nth(1)).to_contain_text("35,000")  # the server's
    assert Hanchan.objects.count() == 1
    page.reload()  # nothing lost: still there after a reload
    expect(page.locator(".queue-item.state-check")).to_have_count(1)
    # The organizer keeps the device's version: it replaces the stored game.
    open_queue(page)
    page.locator(".queue-item.state-check [data-action=keep-mine]").click()
    expect(page.locator(".queue-item.state-sent")).to_have_count(1)
    stored = Hanchan.objects.get()
    assert [r.score for r in stored.results.order_by("seat")] == [41_000, 32_000, 27_000, 20_000]
    assert stored.version == 2


def test_a_session_that_ended_offline_signs_in_again_then_sends(
    page: Page, context: BrowserContext, live_server, meet
):
    open_meet_online(page, live_server, meet)
    queue_three_offline(page, context)
    Session.objects.all().delete()  # the session ended while the tablet was offline
    context.set_offline(False)
    prompt = page.locator(".queue-sign-in")
    expect(prompt).to_be_visible()
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 3 件")
    assert not Hanchan.objects.exists()
    prompt.get_by_role("link").click()
    page.fill("#id_username", "alice")
    page.fill("#id_password", "alice-pass-123")
    page.press("#id_password", "Enter")
    page.wait_for_url(f"{live_server.url}/meets/{meet.pk}/")
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 0 件")
    assert Hanchan.objects.count() == 3
    assert stored_totals() == [TOTALS] * 3


def test_a_wrong_sum_offline_is_refused_on_the_device_with_the_servers_words(
    page: Page, context: BrowserContext, live_server, meet
):
    wrong = ["41000", "32000", "27000", "19000"]  # 119,000: 1,000 short
    open_meet_online(page, live_server, meet)
    # Online, on table 1: the server's refusal at the top of the form.
    page.locator('.game.empty[data-round="1"][data-table="1"] a.button').click()
    for seat, score in enumerate(wrong):
        page.fill(f"#id_seat-{seat}-score", score)
    page.locator("#id_seat-3-score").press("Enter")
    online = page.locator(".form-errors:not(#offline-refusal)")
    expect(online).to_contain_text("1,000")
    expect(online).to_be_focused()  # read out, and where the eye is (issue 40)
    said_online = online.inner_text().strip()
    # Offline, on table 2: the same words, from the device; nothing queued.
    page.goto(f"{live_server.url}/meets/{meet.pk}/")
    context.set_offline(True)
    page.reload()
    page.locator('.game.empty[data-round="1"][data-table="2"] a.button').click()
    for seat, score in enumerate(wrong):
        page.fill(f"#id_seat-{seat}-score", score)
    page.locator("#id_seat-3-score").press("Enter")
    refusal = page.locator("#offline-refusal")
    expect(refusal).to_be_visible()
    expect(refusal).to_be_focused()
    assert refusal.inner_text().strip() == said_online
    assert page.evaluate("async () => (await ShirakabaQueue.all()).length") == 0


def test_a_queued_game_is_changed_in_place_and_the_browser_closing_loses_nothing(
    page: Page, context: BrowserContext, live_server, meet
):
    open_meet_online(page, live_server, meet)
    context.set_offline(True)
    page.reload()
    enter_offline(page, 1)
    page.close()  # the browser's window closed; the device's database stays
    page = context.new_page()
    page.goto(f"{live_server.url}/meets/{meet.pk}/")
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 1 件")
    open_queue(page)
    page.locator(".queue-item").get_by_role("link", name="編集").click()
    expect(page.locator("#queued-note")).to_be_visible()
    expect(page.locator("#id_seat-0-score")).to_have_value("41000")
    page.fill("#id_seat-0-score", "40000")  # 北 becomes 21,000
    page.locator("#id_seat-0-score").press("Enter")
    page.wait_for_url(re.compile(r"/meets/\d+/#queue$"))
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 1 件")  # changed, not added
    context.set_offline(False)
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 0 件")
    stored = Hanchan.objects.get()
    assert [r.score for r in stored.results.order_by("seat")] == [40_000, 32_000, 27_000, 21_000]


def click_and_dismiss_the_question(page: Page, button) -> str:
    """Click, and answer 「キャンセル」 to the question the click brings; return its words.
    The question comes after the page has read the device's queue, so the answer is given
    by a handler that waits for it: with `expect_event("dialog")` around the click, a click
    whose question came before Playwright had finished with it waited on the unanswered
    question for 30 s (at load 6, two runs in a row)."""
    said: list[str] = []
    page.once("dialog", lambda dialog: (said.append(dialog.message), dialog.dismiss()))
    button.click()
    for _ in range(100):
        if said:
            return said[0]
        page.wait_for_timeout(100)
    raise AssertionError("no question came within 10 s of the click")


def test_signing_out_with_unsent_games_warns_first_and_names_them(
    page: Page, context: BrowserContext, live_server, meet
):
    open_meet_online(page, live_server, meet)
    context.set_offline(True)
    page.reload()
    enter_offline(page, 2)
    save_online_meanwhile(meet, table=2)  # so the game stays unsent, as 要確認
    context.set_offline(False)
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 0 件 ・ 要確認 1 件")
    sign_out = page.locator("form[data-sign-out] button").first
    warning = click_and_dismiss_the_question(page, sign_out)
    assert "未送信の対局が 1 件あります：2026年11月25日（水） 1回戦 2卓" in warning
    expect(page.locator("#queue .queue-count")).to_contain_text("要確認 1 件")  # signed in still
    said = []
    page.once("dialog", lambda dialog: (said.append(dialog.message), dialog.accept()))
    sign_out.click()
    page.wait_for_url(re.compile(r"/login/"))
    assert said and "1回戦 2卓" in said[0]
    kept = page.evaluate(
        """() => new Promise((resolve) => {
             const open = indexedDB.open("shirakaba-offline", 1);
             open.onsuccess = () => {
               const all = open.result.transaction("games").objectStore("games").getAll();
               all.onsuccess = () => resolve(all.result.map((g) => g.state));
             };
           })"""
    )
    assert kept == ["check"]  # signed out, the game stays on the device


def test_a_network_that_reaches_nothing_queues_the_save_instead_of_losing_it(
    page: Page, context: BrowserContext, live_server, meet
):
    """The browser thinks it is online, but no request gets through (a venue's Wi-Fi with no
    way out): the failed live check sends the save to the queue."""
    open_meet_online(page, live_server, meet)

    def no_way_out(route):
        if route.request.method == "POST":
            route.abort()
        else:
            route.continue_()

    context.route("**/*", no_way_out)
    page.locator('.game.empty[data-round="1"][data-table="1"] a.button').click()
    for seat, score in enumerate(SCORES):
        page.fill(f"#id_seat-{seat}-score", score)
    expect(page.locator("#settlement")).to_contain_text("✓")  # the device's check
    page.locator("#id_seat-0-score").press("Enter")
    page.wait_for_url(re.compile(r"/meets/\d+/#queue$"))
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 1 件")
    assert not Hanchan.objects.exists()
    context.unroute("**/*")
    open_queue(page)
    page.get_by_role("button", name="今すぐ送信").click()
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 0 件")
    assert stored_totals() == [TOTALS]


def test_a_csrf_cookie_gone_offline_asks_to_sign_in_and_then_sends(
    page: Page, context: BrowserContext, live_server, meet
):
    open_meet_online(page, live_server, meet)
    queue_three_offline(page, context)
    # The queue reads the token from the cookie as it sends, so a token rotated meanwhile is
    # read anew; the cookie gone (cleared, expired) is what leaves it without one.
    context.clear_cookies(name="csrftoken")
    context.set_offline(False)
    prompt = page.locator(".queue-sign-in")
    expect(prompt).to_be_visible()  # Django's CSRF refusal (403, not JSON): sign in again
    assert not Hanchan.objects.exists()
    prompt.get_by_role("link").click()  # still signed in: straight back, with a new token
    page.wait_for_url(f"{live_server.url}/meets/{meet.pk}/")
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 0 件")
    assert Hanchan.objects.count() == 3


def test_a_double_tap_offline_keeps_one_game_and_its_table_opens_it_again(
    page: Page, context: BrowserContext, live_server, meet
):
    open_meet_online(page, live_server, meet)
    context.set_offline(True)
    page.reload()
    page.locator('.game.empty[data-round="1"][data-table="1"] a.button').click()
    for seat, score in enumerate(SCORES):
        page.fill(f"#id_seat-{seat}-score", score)
    expect(page.locator("#settlement")).to_contain_text("✓")
    page.evaluate(
        "() => { const f = document.getElementById('game-form'); for (let i = 0; i < 3; i++) f.requestSubmit(); }"
    )
    page.wait_for_url(re.compile(r"/meets/\d+/#queue$"))
    expect(page.locator("#queue details")).to_have_attribute("open", "")  # shown on arrival
    expect(page.locator(".queue-item")).to_have_count(1)
    expect(page.locator(".queue-item").first).to_contain_text("2026年11月25日（水） 1回戦 1卓")
    # The table's button opens the kept game, not an empty form that would keep it twice.
    page.locator('.game.empty[data-round="1"][data-table="1"] a.button').click()
    expect(page.locator("#queued-note")).to_be_visible()
    expect(page.locator("#id_seat-0-score")).to_have_value("41000")


def test_a_game_the_server_can_never_take_does_not_hold_up_the_others(
    page: Page, context: BrowserContext, live_server, meet
):
    """A kept game whose send is answered with a page, not the queue's JSON (here: a meet
    that is gone, 404): it becomes 要確認 with the reason, and the game after it is sent."""
    open_meet_online(page, live_server, meet)
    context.set_offline(True)
    page.reload()
    enter_offline(page, 1)
    page.evaluate(
        """async () => {
             const [good] = await ShirakabaQueue.all();
             await ShirakabaQueue.put({...good, id: ShirakabaQueue.newId(), saved: "2000-01-01",
                                       sendUrl: "/meets/99999/games/send/"});
           }"""
    )
    context.set_offline(False)
    expect(page.locator(".queue-item.state-sent")).to_have_count(1)
    stuck = page.locator(".queue-item.state-check")
    expect(stuck).to_contain_text("サーバーはこの対局を受け取れません（HTTP 404）")
    assert stored_totals() == [TOTALS]


def test_a_kept_game_that_cannot_be_read_can_be_dropped_and_sign_out_still_works(
    page: Page, context: BrowserContext, live_server, meet
):
    open_meet_online(page, live_server, meet)
    page.evaluate(
        """() => ShirakabaQueue.put({id: "x", state: "queued", saved: "2000-01-01",
                                     sendUrl: "/nowhere/", meet: '"]', summary: null})"""
    )
    page.reload()
    open_queue(page)
    unreadable = page.locator(".queue-item").first
    expect(unreadable).to_contain_text("要確認")  # not a send address: kept, to check
    warning = click_and_dismiss_the_question(page, page.locator("form[data-sign-out] button").first)
    assert "未送信の対局が 1 件あります" in warning
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".queue-item [data-action=drop]").click()
    expect(page.locator("#queue")).to_be_hidden()  # nothing kept
    page.locator("form[data-sign-out] button").first.click()  # no unsent game: no question
    page.wait_for_url(re.compile(r"/login/"))


DEVICE_ROWS = """() => Array.from(document.querySelectorAll("#settlement table.results tbody tr"))
  .map((tr) => Array.from(tr.querySelectorAll("td")).map((td) => td.textContent.trim()))"""


def settle_offline(page: Page, table: int, scores, *, chombo=None, hands=None, three=False):
    """Open round 1's drawn table from the kept meet page, type the game, and read the places
    and points the device shows; then save it into the queue. Returns the rows as shown:
    [seat · name, place, score P, rank P, chombo P, total P]."""
    page.locator(f'.game.empty[data-round="1"][data-table="{table}"] a.button').click()
    expect(page.locator("#id_seat-0-player")).not_to_have_value("")
    if three:
        page.select_option("#id_rule_set", label="白樺会 三人打ち")
        page.fill("#id_seat-3-player", "")  # the fourth drawn player did not sit
    page.locator("#game-form details.extras summary").click()
    for seat, n in (chombo or {}).items():
        page.fill(f"#id_seat-{seat}-chombo", str(n))
    for seat, typed in (hands or {}).items():
        page.fill(f"#id_seat-{seat}-hands", typed)
    for seat, score in enumerate(scores):
        page.fill(f"#id_seat-{seat}-score", score)
    rows = page.locator("#settlement table.results tbody tr")
    expect(rows).to_have_count(3 if three else 4)  # settled on the device
    shown = page.evaluate(DEVICE_ROWS)
    page.locator("#id_seat-0-score").press("Enter")
    page.wait_for_url(re.compile(r"/meets/\d+/#queue$"))
    return shown


def stored_rows(table: int) -> list[list[str]]:
    from scoring.notation import seat_label, signed_p

    game = Hanchan.objects.get(table_no=table, round_no=1)
    return [
        [
            f"{seat_label(r.seat)} {r.member.name}",
            str(r.place),
            signed_p(r.score_points),
            signed_p(r.rank_points),
            signed_p(r.chombo_points) if r.chombo else "",
            signed_p(r.total_points),
        ]
        for r in game.results.select_related("member").order_by("seat")
    ]


def test_places_and_points_offline_are_what_the_server_stores(
    page: Page, context: BrowserContext, live_server, meet
):
    """Offline the device settles each game as the server does: a table of four, a tie with
    a chombo (the worked table of DOMAIN.md) and a big hand, a table of three; the kept
    games' list reads each player's P back, with the chombo and the big hand; sent, the server
    stores the same places and points."""
    open_meet_online(page, live_server, meet)
    context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-band")).to_be_visible()
    four = settle_offline(page, 1, SCORES)
    tie = settle_offline(page, 2, ["32600", "30000", "30000"], chombo={0: 1}, hands={1: "満"})
    three = settle_offline(page, 3, ["45000", "30000"], three=True)
    # By hand: +11+30, +2+10, −3−10, −10−30; the worked table: 東 +2.6 +30 −10 = +22.6, 南 and
    # 西 tie for 2nd at 0.0, 北 −2.6 −30; three players: +15+30, 0+0, −15−30.
    assert [row[5] for row in four] == ["+41.0", "+12.0", "−13.0", "−40.0"]
    assert [row[1:] for row in tie] == [
        ["1", "+2.6", "+30.0", "−10.0", "+22.6"],
        ["2", "0.0", "0.0", "", "0.0"],
        ["2", "0.0", "0.0", "", "0.0"],
        ["4", "−2.6", "−30.0", "", "−32.6"],
    ]
    assert [row[1:] for row in three] == [
        ["1", "+15.0", "+30.0", "", "+45.0"],
        ["2", "0.0", "0.0", "", "0.0"],
        ["3", "−15.0", "−30.0", "", "−45.0"],
    ]
    # The kept games' list: each player's place and P, the chombo and the big hand.
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 3 件")
    open_queue(page)
    second = page.locator(".queue-item", has_text="1回戦 2卓")
    expect(second).to_contain_text("1位 +22.6 P")
    expect(second).to_contain_text("錯和1")
    expect(second).to_contain_text("満貫")
    expect(second).to_contain_text("4位 −32.6 P")
    expect(page.locator(".queue-item", has_text="1回戦 3卓")).to_contain_text("3位 −45.0 P")
    assert not Hanchan.objects.exists()
    context.set_offline(False)
    expect(page.locator("#queue .queue-count")).to_have_text("未送信 0 件")
    assert Hanchan.objects.count() == 3
    assert stored_rows(1) == four
    assert stored_rows(2) == tie
    assert stored_rows(3) == three
