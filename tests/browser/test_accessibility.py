"""axe-core (from the npm registry, tests/browser/package.json) checks the main pages in
Chromium: no serious or critical accessibility violations.

axe is injected as a script, which the site's Content Security Policy would rightly refuse,
so these pages are opened in a browser context that bypasses CSP; the other browser tests
run under the policy.
"""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser

from members.roles import ORGANIZER, grant
from scoring.models import Meet, RuleSet
from tests.builders import axe_violations, sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def organizer(db):
    user = User.objects.create_user("alice", password="alice-pass-123", is_staff=True)
    grant(user, ORGANIZER)
    return user


@pytest.mark.parametrize("width", [1024, 390])  # a tablet at the venue; a phone at home
def test_main_pages_have_no_serious_accessibility_violations(
    browser: Browser,
    live_server,
    club,
    organizer,
    width,
):
    context = browser.new_context(
        bypass_csp=True, locale="ja-JP", viewport={"width": width, "height": 800}
    )
    page = context.new_page()
    found = {}
    page.goto(f"{live_server.url}/login/")
    found["/login/"] = axe_violations(page)
    sign_in(page, live_server, "alice", "alice-pass-123")
    meet = Meet.objects.order_by("date").first()
    member = club[0]
    for path in [
        "/",
        "/standings/?period=2025-H2",
        "/standings/?period=2025-H2&guests=1",
        "/standings/head-to-head/?period=2025-H2",
        f"/members/{member.pk}/?period=2025-H2",
        "/meets/",
        f"/meets/{meet.pk}/",
        f"/meets/{meet.pk}/games/new/?table=2&round=1",
        f"/meets/{meet.pk}/finalise/",  # the confirmation: what is missing, what will be made
        f"/meets/{meet.pk}/news/",  # 例会速報
        "/members/",
        "/members/locks/",
        "/rules/",
        "/import/",
        "/password/",
        "/calculator/?han=3&fu=40&dealer=1&win=tsumo&honba=1&sticks=1",
        "/hand/?t=1m2m3m4p5p6p7s8s9s5s5s&m=p7z&win=tsumo&seat=1z",  # 点数を調べる, answered
        f"/rules/{RuleSet.objects.default().pk}/yaku/",  # 役一覧
        "/health/",  # 動作状況
    ]:
        page.goto(f"{live_server.url}{path}")
        found[path] = axe_violations(page)
    context.close()
    problems = {path: v for path, v in found.items() if v}
    assert problems == {}, problems
    assert len(found) == 20
