"""A whole meet day on a tablet (issue 16's "Must show"): 13 members come, the organizer makes
the meet, draws the tables of all three rounds in one step, and enters every game of every
round from the draw with the keyboard alone: the names come filled in from the draw, seats as
drawn, so a game is its scores (one left blank: the table total gives it), Tab past the names,
and Enter. The key count per game is printed and pinned."""

from itertools import combinations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from members.models import Member
from members.roles import ORGANIZER, grant
from scoring.meet_draw import stored_draw
from scoring.models import Hanchan, Meet
from tests.builders import MEET_DAY_NAMES, KeyCounter, sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

NAMES = MEET_DAY_NAMES
# A table's scores in seat order; the last seat is left blank and filled from the total.
FOUR = ["41000", "32000", "27000"]  # 北 gets 20,000 (4 × 30,000 − 100,000)
THREE = ["45000", "35000"]  # 西 gets 25,000 under the club's 3-player rules (105,000)


@pytest.fixture
def organizer():
    user = User.objects.create_user("alice", password="alice-pass-123", is_staff=True)
    grant(user, ORGANIZER)
    for name in NAMES:
        Member.objects.create(name=name, furigana="かな")
    return user


def enter_drawn_game(page: Page, size: int) -> int:
    """From the form of a drawn table: the scores with Tab past each filled-in name, the last
    seat blank, Enter. Returns the keys pressed."""
    keys = KeyCounter(page)
    expect(page.locator("#id_seat-0-score")).to_be_focused()
    scores = FOUR if size == 4 else THREE
    for i, score in enumerate(scores):
        if i:
            keys.press("Tab")  # past the next seat's name, already filled from the draw
            keys.press("Tab")
        keys.type(score)
    expect(page.locator("#settlement")).to_contain_text("✓")
    keys.press("Enter")
    expect(page.locator(".message").first).to_contain_text("を保存しました")
    return keys.keys


def test_a_whole_meet_day_from_the_draw(page: Page, live_server, organizer):
    sign_in(page, live_server, "alice", "alice-pass-123")

    # The meet: today (a Wednesday or not, the organizer confirms), the 13 who came.
    page.goto(f"{live_server.url}/meets/new/")
    page.get_by_label("水曜会").check()
    for name in NAMES:
        page.get_by_label(name).check()
    page.get_by_role("button", name="保存").click()
    confirm = page.get_by_label("このまま保存")
    if confirm.count():  # today is not a Wednesday
        confirm.check()
        page.get_by_role("button", name="保存").click()
    expect(page.locator(".message")).to_contain_text("例会を作りました")
    meet = Meet.objects.get()
    assert meet.attendees.count() == 13

    # One step draws all three rounds: 13 → 4+3+3+3 under the club's rules.
    page.get_by_role("button", name="全回戦の卓組みをする").click()
    expect(page.locator(".message")).to_contain_text("全回戦の卓組みをしました")
    drawn = stored_draw(meet)
    assert drawn is not None
    assert [sorted(len(t.players) for t in r.tables) for r in drawn.rounds] == [[3, 3, 3, 4]] * 3

    key_counts: dict[int, list[int]] = {4: [], 3: []}
    for rnd in drawn.rounds:
        for table in rnd.tables:
            # The meet page's cell of this table lists the drawn players and opens the form.
            page.goto(f"{live_server.url}/meets/{meet.pk}/")
            cell = page.locator(
                f".game.drawn:has(a[href*='table={table.table_no}&round={rnd.round_no}'])"
            )
            for member in table.players:
                expect(cell).to_contain_text(member.name)
            cell.get_by_role("link", name="この半荘を入力").click()
            for seat, member in enumerate(table.players):
                expect(page.locator(f"#id_seat-{seat}-player")).to_have_value(member.name)
            size = len(table.players)
            key_counts[size].append(enter_drawn_game(page, size))

    # Every game is in the book, at its drawn table, with the drawn players in the drawn order.
    games = Hanchan.objects.filter(meet=meet).prefetch_related("results__member")
    assert games.count() == 12
    for rnd in drawn.rounds:
        for table in rnd.tables:
            game = games.get(round_no=rnd.round_no, table_no=table.table_no)
            players = [r.member for r in game.results.order_by("seat")]
            assert players == list(table.players)
            assert game.rule_set.players == len(table.players)
            assert sum(r.total_points for r in game.results.all()) == 0
    # Nobody sat with the same player twice (zero repeats is possible at 13: docs/meet-day.md).
    met = [
        frozenset(p) for g in games for p in combinations([r.member_id for r in g.results.all()], 2)
    ]
    assert len(met) == len(set(met))

    # The meet page shows the day's results; the board shows the draw.
    page.goto(f"{live_server.url}/meets/{meet.pk}/")
    expect(page.locator("article.game")).to_have_count(12)
    page.goto(f"{live_server.url}/meets/{meet.pk}/draw/")
    expect(page.locator(".board-table")).to_have_count(12)

    print(
        f"\nmeet day from the draw: {key_counts[4][0]} keys per 4-player game, "
        f"{key_counts[3][0]} per 3-player game, 0 clicks in the form"
    )
    # 3 scores of 5 digits + 2 × 2 Tabs + Enter; a table of three: 2 scores + 2 Tabs + Enter.
    assert set(key_counts[4]) == {20} and len(key_counts[4]) == 3
    assert set(key_counts[3]) == {13} and len(key_counts[3]) == 9
