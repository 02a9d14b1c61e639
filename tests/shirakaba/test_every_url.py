"""Walks every URL pattern of the project (not a hand list): anonymous visitors are sent to
sign in everywhere but sign-in itself, and a member changes nothing anywhere."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from members.models import Member
from scoring.models import Hanchan, HanchanResult, Meet, PlayerEntry, RuleSet

pytestmark = pytest.mark.django_db

OPEN_TO_VISITORS = {"/login/", "/i18n/setlang/", "/admin/login/"}  # the sign-in pages


def patterns(resolver: URLResolver, prefix: str = "") -> list[tuple[str, str]]:
    """(route, name) of every pattern, with its prefix."""
    found = []
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            found += patterns(entry, route)
        elif isinstance(entry, URLPattern):
            found.append((route, entry.name or ""))
    return found


@pytest.fixture
def sample(club_rule, four_members):
    meet = Meet.objects.create(date="2025-04-09", kind="wed", rule_set=club_rule)
    game = Hanchan(meet=meet, table_no=1, round_no=1, rule_set=club_rule)
    scores = [32_600, 30_000, 30_000, 27_400]
    game.record(
        [PlayerEntry(m, i, s) for i, (m, s) in enumerate(zip(four_members, scores, strict=True))]
    )
    return {"meet": meet, "game": game, "member": four_members[0], "rule": club_rule}


def concrete(route: str, sample) -> str | None:
    """A real path for a route of ours (None for the admin's and other apps' internals)."""
    if route.startswith("admin/"):
        return None if "<" in route else "/" + route
    ids = {
        "meets/<int:pk>/": sample["meet"].pk,
        "meets/<int:meet_pk>/": sample["meet"].pk,
        "games/<int:pk>/": sample["game"].pk,
        "members/<int:pk>/": sample["member"].pk,
        "rules/<int:pk>/": sample["rule"].pk,
    }
    path = route
    for start, pk in ids.items():
        if path.startswith(start):
            path = path.replace(start.split("/")[1], str(pk), 1)
    path = path.replace("<slug:chart>", "cumulative")
    return None if "<" in path else "/" + path


def our_paths(sample) -> list[str]:
    paths = []
    for route, _name in patterns(get_resolver()):
        path = concrete(route, sample)
        if path is not None:
            paths.append(path)
    assert len(paths) > 25  # the walk found the app's pages, not an empty list
    return paths


def state():
    return (
        list(Meet.objects.values_list("id", "is_final", "date")),
        list(Hanchan.objects.values_list("id", "version")),
        list(HanchanResult.objects.values_list("id", "score")),
        list(Member.objects.values_list("id", "name")),
        list(RuleSet.objects.values_list("id", "name")),
    )


def test_visitors_are_sent_to_sign_in_from_every_page(client, sample):
    before = state()
    for path in our_paths(sample):
        if path in OPEN_TO_VISITORS:
            continue
        for method in (client.get, client.post):
            response = method(path)
            assert response.status_code == 302, (method.__name__, path, response.status_code)
            assert "login/?next=" in response["Location"], path
    assert state() == before


def test_a_member_changes_nothing_anywhere(member_client, sample):
    before = state()
    for path in our_paths(sample):
        if path.startswith("/admin/") or path in OPEN_TO_VISITORS or path == "/logout/":
            continue
        response = member_client.post(path, {"name": "x", "reason": "x", "token": "x"})
        # Organizer-only views answer 403; read-only views refuse POST or simply show the page.
        assert response.status_code in (200, 403, 405), (path, response.status_code)
    assert state() == before
    # The admin turns members away too.
    assert member_client.get("/admin/").status_code == 302
