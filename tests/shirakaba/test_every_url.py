"""Who may do what, checked against every URL pattern of the project (the URLconf is walked,
not a hand list), for a visitor, a member and an organizer, by GET and by POST:

- a visitor is sent to sign in from everything but the sign-in pages themselves (a tablet's
  queue, which sends by fetch, is answered 401 in JSON instead);
- a member may read, but every POST of a member's is refused (403 or 405) except the few
  that are a member's own (sign out, language, own password), and the database is unchanged;
- an organizer reaches every page and every POST without a server error;
- no hostile value (NUL, integers past 32 and 64 bits, arrays, a long string) in any path part
  or query parameter gives a server error, to anyone (slow: about 15,000 requests).
"""

import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from functools import partial
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import quote

import pytest
from django.contrib.admin.views.main import ChangeList
from django.contrib.auth.models import User
from django.http import HttpResponse, QueryDict
from django.test import Client
from django.urls import resolve

from scoring.models import Report, ReportStatus
from scoring.reports import registry
from scoring.views import downloads
from tests.builders import content, every_path

pytestmark = pytest.mark.django_db

# The sign-in pages, the web app manifest (the name and icon), the service worker and the
# page it shows offline for a page not kept: open to visitors (none shows the club's data).
OPEN_TO_VISITORS = {
    "/login/",
    "/i18n/setlang/",
    "/admin/login/",
    "/manifest.webmanifest",
    "/sw.js",
    "/offline/",
    "/display/",  # how the sign-in page reads (text size etc., kept in the session)
    "/signup/",  # a new login from an invitation code (where the site switches it on)
}
# A tablet's queue sends here (fetch, not a page): a visitor is answered 401 in JSON, so the
# page can ask them to sign in again and keep the game, not follow a redirect to a form.
ANSWERS_IN_JSON = re.compile(r"/meets/[0-9]+/games/send/")
# A member's own writes: signing out, choosing a language, changing their own password,
# how their pages read (text size, contrast, ruby), extending their session.
MEMBERS_OWN_POSTS = {
    "/logout/",
    "/i18n/setlang/",
    "/password/",
    "/admin/logout/",
    "/display/",  # text size, contrast and ruby over hard words, kept with their login
    "/members/session/extend/",  # 「延長する」 before the session ends
    "/members/club/",  # which of their clubs their pages show (a club of theirs only)
    "/signup/",  # an invitation code's role taken up by their login
}
# A member may ask for a report again (a failed one's button), as they may ask for one.
# A member answers 出欠 for a coming meet, and makes their own calendar address.
MEMBERS_OWN_POST_PATTERNS = (
    re.compile(r"/reports/[0-9a-f]{64}/again"),
    re.compile(r"/meets/\d+/answer/"),
    re.compile(r"/schedule/calendar-link/"),
)


def members_own_post(path: str) -> bool:
    return path in MEMBERS_OWN_POSTS or any(p.fullmatch(path) for p in MEMBERS_OWN_POST_PATTERNS)


# A POST body with fields that the meet, member, rule set and language forms would take.
JUNK = {"name": "x", "reason": "x", "token": "x", "date": "2025-04-12", "language": "en"}


def test_visitors_are_sent_to_sign_in_from_every_page(client, sample):
    before = content()
    for path in every_path(sample):
        if path in OPEN_TO_VISITORS:
            continue
        if ANSWERS_IN_JSON.fullmatch(path):
            assert client.get(path).status_code == 405
            response = client.post(path, JUNK)
            assert response.status_code == 401, path
            assert response.json()["status"] == "signed_out"
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


def test_every_file_answered_goes_through_the_registry(alice, sample, monkeypatch, settings):
    """Every file the app hands out is a kind of the registry (``reports/registry.py``): each
    kind has one URL, whose view is the registry's entry point for that kind; and walking
    every URL as the organizer, every answer that is a file (``Content-Disposition``) comes
    from such a view, or is a kept file of a kind asked for before (``report_file``)."""
    monkeypatch.setattr(
        registry, "render", lambda spec, progress, share=False: (spec.kind, "x/y", b"made")
    )
    # Nothing this test makes is kept in the cache (the score table is kept there).
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    organizer = Client()
    organizer.force_login(alice)
    urls_of: dict[str, list[str]] = {}
    files: list[str] = []
    for path in every_path(sample):
        view = resolve(path).func
        key = getattr(view, "handout_key", None)
        if key is not None:
            urls_of.setdefault(key, []).append(path)
        response = organizer.get(path)
        if response.has_header("Content-Disposition"):
            files.append(path)
            assert key in registry.HANDOUTS or view is downloads.report_file, path
    assert {key: len(paths) for key, paths in urls_of.items()} == dict.fromkeys(
        registry.HANDOUTS, 1
    )
    assert len(files) >= 8  # the walk did meet files: the reports, the draw, the score table
    kept = Report.objects.filter(status=ReportStatus.READY)
    assert kept.exists()
    for report in kept:
        path = f"/reports/{report.digest}/file"
        assert organizer.get(path).has_header("Content-Disposition")
        assert resolve(path).func is downloads.report_file
        assert report.spec["kind"] in registry.HANDOUTS


def test_no_view_outside_the_entry_point_answers_a_file():
    """The views build no file answer of their own: only views/downloads.py, the registry's
    entry point, turns what a kind made into an answer with ``Content-Disposition``."""
    root = Path(__file__).resolve().parents[2]
    makes_a_file = re.compile(r"Content-Disposition|FileResponse|\binline\(|as_attachment")
    views = [*root.glob("scoring/views/*.py"), root / "members" / "views.py"]
    views.append(root / "shirakaba" / "views.py")
    found = [
        str(path.relative_to(root))
        for path in views
        if path.name != "downloads.py" and makes_a_file.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


# Hostile values (issue 26 §5), put in every path part and every query parameter of every
# pattern: NUL, integers past 32 and 64 bits (either sign), years out of datetime's range,
# a digit that int() refuses, a long string, and arrays (a parameter given twice).
HOSTILE: list[str | list[str]] = [
    "\x00",
    "a\x00b",
    "2147483648",
    "9223372036854775808",
    "99999999999999999999",
    "-9223372036854775809",
    "9999",
    "1",
    "-1",
    "",
    "²",
    "x" * 5_000,
    ["1", "2"],
    ["\x00", "1"],
    ["1", "99999999999999999999"],
]
# Each page is given the query keys it reads (query_keys) and this one, which none reads.
UNKNOWN_KEY = "x"
ROLES = ("visitor", "member", "organizer")


@contextmanager
def keys_read() -> Iterator[set[str]]:
    """Every query key a request looks up while this is open (QueryDict's getters)."""
    read: set[str] = set()

    def recording(original: Callable[..., Any]) -> Callable[..., Any]:
        def method(self: QueryDict, key: str, *args: Any, **kwargs: Any) -> Any:
            read.add(key)
            return original(self, key, *args, **kwargs)

        return method

    with ExitStack() as stack:
        for name in ("get", "__getitem__", "getlist", "__contains__"):
            original = getattr(QueryDict, name)
            stack.enter_context(mock.patch.object(QueryDict, name, recording(original)))
        yield read


def query_keys(client: Client, path: str) -> list[str]:
    """The keys this page reads, found by asking for it once with no query."""
    with keys_read() as read:
        response = client.get(path)
    keys = set(read)
    changelist = response.context and response.context.get("cl")
    if isinstance(changelist, ChangeList):
        keys |= {p for spec in changelist.filter_specs for p in spec.expected_parameters()}
        if changelist.date_hierarchy:
            keys |= {f"{changelist.date_hierarchy}__{part}" for part in ("year", "month", "day")}
    return sorted(keys | {UNKNOWN_KEY})


def hostile_paths(path: str, value: str) -> list[str]:
    """The path with each part the URL pattern captures put as this value in turn."""
    match = resolve(path)
    captured = [str(v) for v in (*match.args, *match.captured_kwargs.values())]
    found, start = [], 0
    for part in map(partial(quote, safe="/"), captured):
        at = path.find("/" + part, start) + 1
        assert at > 0, (path, part)
        found.append(path[:at] + quote(value, safe="") + path[at + len(part) :])
        start = at + len(part)
    return found


class Walk:
    """Requests as one role, counted, with every answer of 500 kept (not raised)."""

    def __init__(self, user: User | None) -> None:
        self.user = user
        self.client = Client(raise_request_exception=False)
        self.sign_in()
        self.requests = 0
        self.failures: list[tuple[str, str]] = []  # (the page walked, what was asked and raised)

    def sign_in(self) -> None:
        if self.user is not None:
            self.client.force_login(self.user)

    def get(
        self, path: str, query: dict[str, str | list[str]] | None = None, page: str = ""
    ) -> HttpResponse:
        response = self.client.get(path, query)
        self.requests += 1
        if response.status_code >= 500:
            error = response.exc_info[1] if response.exc_info else response.status_code
            self.failures.append((page or path, f"{path} {query!r:.80} {error!r:.200}"))
        if path in ("/logout/", "/admin/logout/"):
            self.sign_in()  # in case a GET ever signs out
        return response


def rejected_early(response: HttpResponse) -> bool:
    """Refused before every parameter was looked at: each is then tried alone as well."""
    if response.status_code in (400, 404):
        return True
    return response.status_code == 302 and "e=1" in response.get("Location", "")


@pytest.mark.slow
@pytest.mark.parametrize("role", ROLES)
def test_no_hostile_value_in_any_path_part_or_query_gives_a_500(
    role, settings, alice, bob, sample, capsys
):
    """Every URL pattern of the project, the admin's too: each captured path part, then each
    query parameter the page reads, as each hostile value. All the parameters are sent at once;
    when that is refused early (400, 404, the admin's ?e=1), each is sent alone as well."""
    # Reports asked for are queued, not made here: the walk asks for hundreds.
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    organizer = Walk(alice)
    walk = Walk({"visitor": None, "member": bob, "organizer": alice}[role])
    paths = every_path(sample)
    for path in paths:
        for value in HOSTILE:
            if isinstance(value, str):
                for hostile in hostile_paths(path, value):
                    walk.get(hostile, page=path)
        keys = query_keys(organizer.client, path)
        for value in HOSTILE:
            response = walk.get(path, dict.fromkeys(keys, value))
            if rejected_early(response) and len(keys) > 1:
                for key in keys:
                    walk.get(path, {key: value})
    with capsys.disabled():
        print(f"\n{role}: {len(paths)} URLs x {len(HOSTILE)} values: {walk.requests} requests")
    first: dict[str, str] = {}  # the first failure of each page walked
    for page, failure in walk.failures:
        first.setdefault(page, failure)
    assert not first, f"{len(walk.failures)} answers of 500:\n" + "\n".join(first.values())
