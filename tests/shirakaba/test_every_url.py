"""Who may do what, checked against every URL pattern of the project (the URLconf is walked,
not a hand list), for a visitor, a member and an organizer, by GET and by POST:

- a visitor is sent to sign in from everything but the sign-in pages themselves;
- a member may read, but every POST of a member's is refused (403 or 405) except the few
  that are a member's own (sign out, language, own password), and the database is unchanged;
- an organizer reaches every page and every POST without a server error.
"""

import re

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from django_tasks_db.models import DBTaskResult, get_date_max

from members.models import Member
from scoring.models import DrawnPlace, Report

pytestmark = pytest.mark.django_db

# The sign-in pages: open to visitors.
OPEN_TO_VISITORS = {"/login/", "/i18n/setlang/", "/admin/login/"}
# A member's own writes: signing out, choosing a language, changing their own password.
MEMBERS_OWN_POSTS = {"/logout/", "/i18n/setlang/", "/password/", "/admin/logout/"}
# Tables that change on every request without anyone writing: sessions and sign-in logs.
NOT_CONTENT = {
    "sessions.session",
    "axes.accesslog",
    "axes.accessattempt",
    "admin.logentry",
    # Reports asked for (a GET queues one or makes a small one), the parts of reports, and
    # their tasks: made files kept, not club data.
    "scoring.report",
    "scoring.reportpart",
    "django_tasks_db.dbtaskresult",
}


def patterns(resolver: URLResolver, prefix: str = "") -> list[str]:
    """The route of every pattern, with its prefix."""
    found = []
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            found += patterns(entry, route)
        elif isinstance(entry, URLPattern):
            found.append(route)
    return found


@pytest.fixture
def sample(meet, recorded_game, club_rule, four_members, alice, bob):
    """One of everything, so that every pattern with an id has a real object to point at (the
    recorded game brings its meet, results and a big hand)."""
    DrawnPlace.objects.create(meet=meet, round_no=2, table_no=1, member=four_members[0])
    attempt = AccessAttempt.objects.create(
        username="carol", ip_address="10.0.0.1", user_agent="x", failures_since_start=1
    )
    AccessLog.objects.create(username="bob", ip_address="10.0.0.1", user_agent="x")
    AccessFailureLog.objects.create(username="carol", ip_address="10.0.0.1", user_agent="x")
    for model in apps.get_models():
        if hasattr(model._meta, "simple_history_manager_attribute") and not model.history.exists():
            # Rows made by a data migration, before history was kept.
            model.history.bulk_history_create(list(model.objects.all()))
    report = Report.objects.create(
        digest="d" * 64, spec={"kind": "meet.pdf", "meet": meet.pk}, asked_at=timezone.now()
    )
    DBTaskResult.objects.create(  # a report's task, queued and never run
        args_kwargs={"args": [report.pk], "kwargs": {}},
        task_path="scoring.reports.making.make_report",
        backend_name="default",
        run_after=get_date_max(),
    )
    return {
        "report": report,
        "meet": meet,
        "game": recorded_game,
        "member": four_members[0],
        "rule": club_rule,
        "attempt": attempt,
        "user": bob,
    }


def pk_of(app_label: str, model_name: str) -> int:
    obj = apps.get_model(app_label, model_name).objects.order_by("pk").first()
    assert obj is not None, f"the sample has no {app_label}.{model_name}"
    return obj.pk


def concrete(route: str, sample) -> str:
    """A real path for every route: ids of the sample's objects in place of parameters."""
    if route.startswith("admin/"):
        model = re.match(r"admin/(\w+)/(\w+)/", route)
        if "^(?P<app_label>" in route:
            return "/admin/scoring/"
        if "(?P<url>" in route:
            return "/admin/no-such-page/"
        if route.startswith("admin/r/"):
            ct = ContentType.objects.get_for_model(Member)
            return f"/admin/r/{ct.pk}/{sample['member'].pk}/"
        if "^([^/]+)/history/([^/]+)/$" in route:
            history = apps.get_model(model[1], model[2]).history.order_by("history_id").first()
            ids = f"{history.pk}/history/{history.history_id}/"
            return "/" + route.replace("^([^/]+)/history/([^/]+)/$", ids)
        if "<path:object_id>" in route:
            route = route.replace("<path:object_id>", str(pk_of(model[1], model[2])))
        route = route.replace("<id>", str(sample["user"].pk))
    else:
        ids = {
            "meets/<int:pk>/": sample["meet"].pk,
            "meets/<int:meet_pk>/": sample["meet"].pk,
            "games/<int:pk>/": sample["game"].pk,
            "members/<int:pk>/": sample["member"].pk,
            "members/locks/<int:pk>/": sample["attempt"].pk,
            "rules/<int:pk>/": sample["rule"].pk,
        }
        for start, pk in ids.items():
            if route.startswith(start):
                route = re.sub(r"<int:\w+>", str(pk), route, count=1)
        route = route.replace("<slug:chart>", "cumulative")
        route = route.replace("<digest:digest>", sample["report"].digest)
    assert "<" not in route and "^" not in route, f"no sample value for {route}"
    return "/" + route


def every_path(sample) -> list[str]:
    paths = [concrete(route, sample) for route in patterns(get_resolver())]
    assert len(paths) > 100  # our pages and the admin's: the walk found them all
    return paths


def content():
    """Every row of every table that holds the club's data, users and permissions."""
    snapshot = {}
    for model in apps.get_models():
        if model._meta.label_lower in NOT_CONTENT:
            continue
        rows = list(model.objects.order_by("pk").values())
        for row in rows:
            row.pop("last_login", None)  # signing in (the tests' force_login) sets it
        snapshot[model._meta.label_lower] = rows
    return snapshot


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


def test_a_member_reads_but_every_write_is_refused(bob, sample):
    member = Client()
    before = content()
    statuses = {}
    for path in every_path(sample):
        member.force_login(bob)
        response = member.get(path)
        assert response.status_code < 500, (path, response.status_code)
        if path in MEMBERS_OWN_POSTS or path in OPEN_TO_VISITORS:
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


def test_an_organizer_reaches_every_page_and_every_write(alice, sample):
    organizer = Client()
    for path in every_path(sample):
        for method in ("get", "post"):
            organizer.force_login(alice)
            response = getattr(organizer, method)(path, JUNK if method == "post" else None)
            assert response.status_code < 500, (method, path, response.status_code)
            assert response.status_code != 403 or path.startswith("/admin/"), (method, path)
