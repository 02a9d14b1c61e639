"""Who may do what, checked against every URL pattern of the project (the URLconf is walked,
not a hand list), for a visitor, a member and an organizer, by GET and by POST:

- a visitor is sent to sign in from everything but the sign-in pages themselves;
- a member may read, but every POST of a member's is refused (403 or 405) except the few
  that are a member's own (sign out, language, own password), and the database is unchanged;
- an organizer reaches every page and every POST without a server error.
"""

import re

import pytest
from django.test import Client

from tests.builders import content, every_path

pytestmark = pytest.mark.django_db

# The sign-in pages: open to visitors.
OPEN_TO_VISITORS = {"/login/", "/i18n/setlang/", "/admin/login/"}
# A member's own writes: signing out, choosing a language, changing their own password.
MEMBERS_OWN_POSTS = {"/logout/", "/i18n/setlang/", "/password/", "/admin/logout/"}
# A member may ask for a report again (a failed one's button), as they may ask for one.
MEMBERS_OWN_POST_PATTERNS = (re.compile(r"/reports/[0-9a-f]{64}/again"),)


def members_own_post(path: str) -> bool:
    return path in MEMBERS_OWN_POSTS or any(p.fullmatch(path) for p in MEMBERS_OWN_POST_PATTERNS)


# A POST body with fields that the meet, member, rule set and language forms would take.
JUNK = {"name": "x", "reason": "x", "token": "x", "date": "2025-04-12", "language": "en"}


def test_visitors_are_sent_to_sign_in_from_every_page(client, sample):
    before = content()
    for path in every_path(sample):
        if path in OPEN_TO_VISITORS:
            continue
        for method in ("get", "post"):
            response = getattr(client, method)(path, JUNK if method == "post" else None)
            if method == "post" and response.status_code == 405:
                continue  # the standings page (openable to visitors) refuses every POST
            assert response.status_code == 302, (method, path, response.status_code)
            assert "login/?next=" in response["Location"], (method, path)
    assert content() == before


def test_the_sign_in_pages_show_nothing_of_the_club(client, sample):
    for path in ("/login/", "/admin/login/"):
        html = client.get(path).content.decode()
        assert sample["member"].name not in html
        assert "32,600" not in html


@pytest.mark.slow  # makes PDFs: the walk opens the PDF pages too
def test_a_member_reads_but_every_write_is_refused(bob, sample):
    member = Client()
    before = content()
    statuses = {}
    for path in every_path(sample):
        member.force_login(bob)
        response = member.get(path)
        assert response.status_code < 500, (path, response.status_code)
        if members_own_post(path) or path in OPEN_TO_VISITORS:
            continue
        if path.startswith("/admin/"):
            # The admin is for staff only: members are sent to its sign-in page.
            assert response.status_code == 302 and "/admin/login/" in response["Location"], path
        response = member.post(path, JUNK)
        statuses[path] = response.status_code
        if path.startswith("/admin/"):
            assert response.status_code == 302, (path, response.status_code)
        else:
            assert response.status_code in (403, 405), (path, response.status_code)
    assert content() == before
    # The organizer's pages were among them, and answered 403 to the member.
    assert statuses["/meets/new/"] == 403
    assert statuses[f"/games/{sample['game'].pk}/delete/"] == 403


def test_a_member_cannot_open_the_organizers_pages(member_client, sample):
    for path in (
        "/meets/new/",
        f"/meets/{sample['meet'].pk}/edit/",
        f"/meets/{sample['meet'].pk}/games/new/",
        f"/games/{sample['game'].pk}/edit/",
        "/members/new/",
        f"/members/{sample['member'].pk}/edit/",
        "/members/locks/",
        "/import/",
    ):
        assert member_client.get(path).status_code == 403, path


@pytest.mark.slow  # makes PDFs: the walk opens the PDF pages too
def test_an_organizer_reaches_every_page_and_every_write(alice, sample):
    organizer = Client()
    for path in every_path(sample):
        for method in ("get", "post"):
            organizer.force_login(alice)
            response = getattr(organizer, method)(path, JUNK if method == "post" else None)
            assert response.status_code < 500, (method, path, response.status_code)
            assert response.status_code != 403 or path.startswith("/admin/"), (method, path)
