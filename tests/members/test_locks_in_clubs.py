"""Sign-in locks in an install of several clubs (issue 42): a club's organizer sees and lifts
the locks of its own logins' names, and of names that are no login at all (guesses), never
those of another club's logins or the site's superuser; the superuser sees and lifts them all.

The rows are written as django-axes writes them (one row a name and an address, its count of
failures): the limits themselves are tests/members/test_locks.py's."""

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from scoring.clubs import make_club

VENUE = "198.51.100.4"


def failed(name: str, times: int = 5, address: str = VENUE) -> AccessAttempt:
    return AccessAttempt.objects.create(
        username=name,
        ip_address=address,
        user_agent="",
        path_info="/login/",
        get_data="",
        post_data="",
        http_accept="",
        failures_since_start=times,
        attempt_time=timezone.now(),
    )


@pytest.fixture
def other_club(db) -> User:
    """The organizer of a second club, who holds no role in ours."""
    make_club("ume", name="梅会", organizer="ume-kiroku")
    return User.objects.get(username="ume-kiroku")


@pytest.fixture
def root(db) -> User:
    return User.objects.create_superuser("root", password="root-pass-123")


def names_listed(client: Client) -> set[str]:
    return {row["attempt"].username for row in client.get("/members/locks/").context["rows"]}


def test_a_clubs_organizer_sees_its_own_names_and_guesses_only(
    organizer_client, bob, other_club, root
):
    for name in ("bob", "ume-kiroku", "root", "nobody-at-all"):
        failed(name)
    assert names_listed(organizer_client) == {"bob", "nobody-at-all"}
    html = organizer_client.get("/members/locks/").content.decode()
    assert "ume-kiroku" not in html and ">root<" not in html


@pytest.mark.parametrize("name", ["ume-kiroku", "root"])
def test_a_clubs_organizer_cannot_lift_another_clubs_or_the_sites_lock(
    organizer_client, other_club, root, name
):
    attempt = failed(name)
    assert organizer_client.post(f"/members/locks/{attempt.pk}/release/").status_code == 404
    assert AccessAttempt.objects.filter(pk=attempt.pk).exists()


def test_lifting_an_address_lock_forgets_only_the_clubs_own_names_and_guesses(
    organizer_client, bob, other_club
):
    """Six names five times each lock the venue's address (30). Our organizer lifting it
    forgets our member's and the guesses' failures; the other club's login's stay theirs."""
    ours = failed("bob")
    for i in range(4):
        failed(f"guess{i}")
    failed("ume-kiroku")
    assert organizer_client.post(f"/members/locks/{ours.pk}/release/").status_code == 302
    left = set(AccessAttempt.objects.values_list("username", flat=True))
    assert left == {"ume-kiroku"}


def test_the_superuser_sees_and_lifts_every_lock(bob, other_club, root):
    for name in ("bob", "ume-kiroku", "nobody-at-all"):
        failed(name)
    theirs = failed("ume-kiroku", address="203.0.113.9")
    site = Client()
    site.force_login(root)
    assert names_listed(site) == {"bob", "ume-kiroku", "nobody-at-all"}
    assert site.post(f"/members/locks/{theirs.pk}/release/").status_code == 302
    assert not AccessAttempt.objects.filter(pk=theirs.pk).exists()


def test_a_superuser_with_a_role_in_the_club_is_still_the_sites(organizer_client, root):
    from members.roles import MEMBER, grant

    grant(root, MEMBER)
    attempt = failed("root")
    assert "root" not in names_listed(organizer_client)
    assert organizer_client.post(f"/members/locks/{attempt.pk}/release/").status_code == 404
