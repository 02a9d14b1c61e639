"""Issue 28 in the browser: 確定 with a missing table asks first and names it (item 5); a new
meet's kind follows the date chosen until the organizer chooses one by hand (item 10)."""

from datetime import date

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from members.models import Member
from members.roles import ORGANIZER, grant
from scoring.meet_draw import stored_draw
from scoring.models import Hanchan, Meet, PlayerEntry, RuleSet
from tests.builders import sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

SCORES4 = [40_000, 30_000, 30_000, 20_000]


@pytest.fixture
def organizer():
    user = User.objects.create_user("alice", password="alice-pass-123", is_staff=True)
    grant(user, ORGANIZER)
    return user


@pytest.fixture
def meet8(organizer):
    meet = Meet.objects.create(
        date=date(2025, 5, 14), kind="wed", rule_set=RuleSet.objects.default()
    )
    meet.attendees.set(
        [Member.objects.create(name=f"会員 {i:02d}", furigana="かいいん") for i in range(8)]
    )
    return meet


def watch_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def test_finalise_with_a_missing_table(page: Page, live_server, meet8):
    errors = watch_errors(page)
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/meets/{meet8.pk}/")
    page.get_by_role("button", name="全回戦の卓組みをする").click()
    expect(page.locator(".message")).to_contain_text("全回戦の卓組みをしました")
    drawn = stored_draw(meet8)
    assert drawn is not None
    for rnd in drawn.rounds:
        for table in rnd.tables:
            if (rnd.round_no, table.table_no) != (3, 2):
                game = Hanchan(
                    meet=meet8,
                    round_no=rnd.round_no,
                    table_no=table.table_no,
                    rule_set=meet8.rule_set,
                )
                game.record(
                    [
                        PlayerEntry(m, s, p)
                        for s, (m, p) in enumerate(zip(table.players, SCORES4, strict=True))
                    ]
                )

    # One tap on 確定する finalises nothing: it asks, naming the table not entered.
    page.goto(f"{live_server.url}/meets/{meet8.pk}/")
    page.get_by_role("link", name="確定する").click()
    expect(page.locator("h1")).to_contain_text("例会の確定")
    expect(page.get_by_role("alert")).to_contain_text("3回戦 2卓 が未入力です")
    assert not Meet.objects.get(pk=meet8.pk).is_final

    # やめる goes back with the meet still open.
    page.get_by_role("link", name="やめる").click()
    expect(page.get_by_role("link", name="確定する")).to_be_visible()
    assert not Meet.objects.get(pk=meet8.pk).is_final

    # Confirmed: finalised, once.
    page.get_by_role("link", name="確定する").click()
    page.get_by_role("button", name="未入力のまま確定する").click()
    expect(page.locator(".message")).to_contain_text("例会を確定しました")
    expect(page.locator(".badge").first).to_contain_text("確定済み")
    assert Meet.objects.get(pk=meet8.pk).is_final
    assert errors == []


def test_the_date_sets_the_kind_until_one_is_chosen(page: Page, live_server, organizer):
    errors = watch_errors(page)
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/meets/new/")
    page.fill("#id_date", "2025-04-12")  # a Saturday
    expect(page.get_by_label("土曜会")).to_be_checked()
    page.fill("#id_date", "2025-04-09")  # a Wednesday
    expect(page.get_by_label("水曜会")).to_be_checked()
    page.fill("#id_date", "2025-04-10")  # a Thursday
    expect(page.get_by_label("その他")).to_be_checked()
    page.fill("#id_date", "2025-04-12")
    page.get_by_role("button", name="保存").click()
    expect(page.locator(".message").first).to_contain_text("例会を作りました")
    assert Meet.objects.get(date="2025-04-12").kind == "sat"

    # Chosen by hand, the kind stays whatever the date, and is saved so.
    page.goto(f"{live_server.url}/meets/new/")
    page.get_by_label("その他").click()  # chosen, even when it is the kind offered for today
    page.fill("#id_date", "2025-04-19")  # a Saturday
    expect(page.get_by_label("その他")).to_be_checked()
    page.get_by_role("button", name="保存").click()
    expect(page.locator(".message").first).to_contain_text("例会を作りました")
    assert Meet.objects.get(date="2025-04-19").kind == "other"
    assert errors == []


def test_a_new_meet_takes_the_clubs_usual_time_and_place_for_its_kind(
    page: Page, live_server, organizer
):
    """As the planned meets hold them: 13:00 for a 水曜会, 10:00 for a 土曜会, 白樺会館; the
    time follows the kind the date sets, until the organizer types one."""
    from datetime import time

    rule = RuleSet.objects.default()
    for day, kind, start in [
        ("2027-04-07", "wed", time(13, 0)),
        ("2027-04-10", "sat", time(10, 0)),
    ]:
        Meet.objects.create(date=day, kind=kind, rule_set=rule, start_time=start, place="白樺会館")
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/meets/new/")
    expect(page.locator("#id_place")).to_have_value("白樺会館")
    page.fill("#id_date", "2025-04-12")  # a Saturday
    expect(page.locator("#id_start_time")).to_have_value("10:00")
    page.fill("#id_date", "2025-04-09")  # a Wednesday
    expect(page.locator("#id_start_time")).to_have_value("13:00")
    page.get_by_role("button", name="保存").click()
    expect(page.locator(".message").first).to_contain_text("例会を作りました")
    made = Meet.objects.get(date="2025-04-09")
    assert (made.start_time, made.place) == (time(13, 0), "白樺会館")
