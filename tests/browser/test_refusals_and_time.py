"""A refused save puts the focus on what was refused, read out by a screen reader; an
organizer is warned before the session ends and may extend it without losing the form."""

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Hanchan, Meet
from tests.builders import sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]


def open_new_game(page: Page, live_server, meet: Meet) -> None:
    sign_in(page, live_server, "alice", "alice-pass-123")
    page.goto(f"{live_server.url}/meets/{meet.pk}/games/new/?table=1&round=1")
    expect(page.locator("#id_seat-0-player")).not_to_have_value("")


def focused(page: Page) -> dict:
    return page.evaluate(
        """() => {
          const el = document.activeElement;
          const described = (el.getAttribute("aria-describedby") || "").split(" ").filter(Boolean)
            .map((id) => (document.getElementById(id) || {}).textContent || "").join(" ");
          return {id: el.id, role: el.getAttribute("role"), text: el.textContent,
                  invalid: el.getAttribute("aria-invalid"), described};
        }"""
    )


def test_a_wrong_sum_puts_the_focus_on_the_message(page: Page, live_server, drawn_meet_day):
    """Issue 40: a refused save came back with the focus on the 東 name, not the message."""
    open_new_game(page, live_server, drawn_meet_day)
    for seat, score in enumerate(["30000", "30000", "30000", "30100"]):
        page.fill(f"#id_seat-{seat}-score", score)
    page.locator("#id_seat-3-score").press("Enter")
    summary = page.locator("#error-summary")
    expect(summary).to_contain_text("多く")
    expect(summary).to_be_focused()
    assert summary.get_attribute("role") == "alert"
    assert Hanchan.objects.count() == 0


def test_a_refused_field_takes_the_focus_and_names_its_error(
    page: Page, live_server, drawn_meet_day
):
    open_new_game(page, live_server, drawn_meet_day)
    for seat, score in enumerate(["30000", "30000", "30000"]):
        page.fill(f"#id_seat-{seat}-score", score)
    page.locator("details.extras summary").click()
    page.fill("#id_seat-1-chombo", "-1")
    page.locator("#id_seat-0-score").press("Enter")
    field = page.locator("#id_seat-1-chombo")
    expect(field).to_be_focused()
    now = focused(page)
    assert now["invalid"] == "true"
    assert "0 以上" in now["described"], now
    # The summary at the top says it too, and links to the field.
    link = page.locator("#error-summary a[href='#id_seat-1-chombo']")
    expect(link).to_contain_text("0 以上")
    page.locator("#id_seat-0-score").focus()
    link.click()
    expect(field).to_be_focused()


SESSION_SECONDS = 8  # the warning comes half-way, at 4 s (five minutes before, at the club's 120)


@pytest.fixture
def short_session(settings):
    settings.SESSION_COOKIE_AGE = SESSION_SECONDS


def test_the_organizer_is_warned_before_the_session_ends_and_extends_it(
    page: Page, live_server, drawn_meet_day, short_session
):
    open_new_game(page, live_server, drawn_meet_day)
    page.fill("#id_seat-0-score", "32600")
    expect(page.locator("#settlement")).to_contain_text("32,600")  # the live check came back
    warning = page.get_by_role("dialog")
    expect(warning).to_be_visible(timeout=SESSION_SECONDS * 1000)
    expect(warning).to_contain_text("まもなくログインの有効時間が切れます")
    extend = warning.get_by_role("button", name="延長する")
    expect(extend).to_be_focused()
    extend.click()
    expect(warning).to_be_hidden()
    expect(page.locator("#id_seat-0-score")).to_have_value("32600")  # nothing lost
    # Past the end the session had before 延長する: still signed in.
    page.wait_for_timeout((SESSION_SECONDS - 3) * 1000)
    answer = page.request.get(f"{live_server.url}/meets/{drawn_meet_day.pk}/", max_redirects=0)
    assert answer.status == 200


def test_without_extending_the_session_ends(page: Page, live_server, drawn_meet_day, short_session):
    """The control of the test above: the same wait without 延長する ends the session."""
    open_new_game(page, live_server, drawn_meet_day)
    expect(page.get_by_role("dialog")).to_be_visible(timeout=SESSION_SECONDS * 1000)
    page.wait_for_timeout((SESSION_SECONDS - 3) * 1000)
    answer = page.request.get(f"{live_server.url}/meets/{drawn_meet_day.pk}/", max_redirects=0)
    assert answer.status == 302
