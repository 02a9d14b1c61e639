"""Issue 30 §1 in the browser: a member answers 参加 with one tap on a phone-sized screen, and
the organizer opens the meet the evening before with that attendance, ready for the draw."""

from datetime import time, timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from members.models import Member
from members.roles import MEMBER, ORGANIZER, grant
from scoring.meet_draw import stored_draw
from scoring.models import Answer, Meet, RuleSet
from tests.builders import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser_context_args(browser_context_args):
    """A phone: 390 px wide."""
    return {**browser_context_args, "viewport": {"width": 390, "height": 844}}


@pytest.fixture
def tomorrow():
    """Tomorrow's 水曜会 at 13:00; 青木 (bob's login) has not answered, three others said 参加."""
    bob = User.objects.create_user("bob", password="bob-pass-123")
    grant(bob, MEMBER)
    alice = User.objects.create_user("alice", password="alice-pass-123", is_staff=True)
    grant(alice, ORGANIZER)
    people = [
        Member.objects.create(name=n, furigana=f)
        for n, f in [
            ("青木", "あおき"),
            ("井上", "いのうえ"),
            ("上田", "うえだ"),
            ("江藤", "えとう"),
        ]
    ]
    people[0].user = bob
    people[0].save()
    meet = Meet.objects.create(
        date=timezone.localdate() + timedelta(days=1),
        kind="wed",
        rule_set=RuleSet.objects.default(),
        start_time=time(13, 0),
        place="白樺会館",
    )
    for m in people[1:]:
        meet.answer(m, "coming", None)
    return meet, people


def test_a_member_answers_on_a_phone_and_the_organizer_draws_from_it(
    page: Page, live_server, tomorrow
):
    meet, people = tomorrow
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in(page, live_server, "bob", "bob-pass-123")
    page.goto(f"{live_server.url}/schedule/")
    card = page.locator(f"#planned-{meet.pk}")
    expect(card).to_contain_text("白樺会館")
    expect(card).to_contain_text("13:00")
    url_before = page.url
    card.get_by_role("button", name="参加").click()
    chosen = page.locator(f"#planned-{meet.pk} .button.answer.chosen")
    expect(chosen).to_have_text("参加")
    expect(chosen).to_have_attribute("aria-pressed", "true")
    assert page.url == url_before  # one tap, swapped in place (htmx), no new page
    # Large type: the buttons are big enough for a thumb and the page does not scroll sideways.
    box = chosen.bounding_box()
    assert box is not None and box["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert Answer.objects.get(member=people[0]).answer == "coming"
    assert errors == []

    page.context.clear_cookies()
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/meets/{meet.pk}/")
    expect(page.locator("main")).to_contain_text("出席 4 人 · 13:00 · 白樺会館")
    page.goto(f"{live_server.url}/meets/{meet.pk}/edit/")
    for m in people:
        expect(page.get_by_label(m.name, exact=True)).to_be_checked()
    page.goto(f"{live_server.url}/meets/{meet.pk}/")
    page.get_by_role("button", name="全回戦の卓組みをする").click()
    expect(page.locator(".message")).to_contain_text("全回戦の卓組みをしました")
    drawn = stored_draw(Meet.objects.get(pk=meet.pk))
    assert drawn is not None
    first = drawn.rounds[0].tables[0]
    assert sorted(p.pk for p in first.players) == sorted(m.pk for m in people)
