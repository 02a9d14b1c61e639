"""The organizer's page of who holds which role in the club (「ログインと役割」): a role made
記録係 or 会員, or taken away; the club keeps one organizer; another club's roles are neither
shown nor touched."""

import pytest
from django.contrib.auth.models import User

from members.models import ClubRole
from members.roles import MEMBER, ORGANIZER, club_roles, grant
from members.scopes import in_club, scopes_disabled
from scoring.clubs import make_club

pytestmark = pytest.mark.django_db


def role_of(user: User) -> ClubRole:
    return ClubRole.objects.get(user=user)


def test_the_page_lists_the_clubs_logins_and_changes_a_role(organizer_client, alice, bob):
    page = organizer_client.get("/members/roles/").content.decode()
    assert "alice" in page and "bob" in page
    made = organizer_client.post(
        "/members/roles/", {"role_id": role_of(bob).pk, "action": ORGANIZER}
    )
    assert made.status_code == 302
    bob = User.objects.get(pk=bob.pk)
    assert club_roles(bob) == {ORGANIZER} and bob.is_staff
    organizer_client.post("/members/roles/", {"role_id": role_of(bob).pk, "action": MEMBER})
    assert club_roles(User.objects.get(pk=bob.pk)) == {MEMBER}
    organizer_client.post(
        "/members/roles/", {"role_id": role_of(bob).pk, "action": "remove", "confirmed": "1"}
    )
    assert club_roles(User.objects.get(pk=bob.pk)) == set()
    assert User.objects.filter(pk=bob.pk).exists()  # the login stays; it reaches nothing


def test_the_last_organizer_keeps_the_role(organizer_client, alice):
    for action in ("remove", MEMBER):
        organizer_client.post("/members/roles/", {"role_id": role_of(alice).pk, "action": action})
        assert club_roles(User.objects.get(pk=alice.pk)) == {ORGANIZER}
    page = organizer_client.get("/members/roles/").content.decode()
    assert "one organizer at least" in page or "記録係を一人" in page


def test_another_clubs_roles_are_not_shown_or_changed(organizer_client, bob):
    sakura = make_club("sakura", "桜会", organizer="sakura-kiroku")
    grant(bob, MEMBER, sakura)
    with scopes_disabled():
        theirs = ClubRole.objects.get(club=sakura, user__username="sakura-kiroku")
        bobs_there = ClubRole.objects.get(club=sakura, user=bob)
    page = organizer_client.get("/members/roles/").content.decode()
    assert "sakura-kiroku" not in page
    for role in (theirs, bobs_there):
        for action in ("remove", MEMBER, ORGANIZER):
            answer = organizer_client.post(
                "/members/roles/", {"role_id": role.pk, "action": action}
            )
            assert answer.status_code == 404
    with in_club(sakura):
        assert set(ClubRole.objects.values_list("user__username", "role")) == {
            ("sakura-kiroku", ORGANIZER),
            ("bob", MEMBER),
        }


def test_a_member_cannot_reach_the_page(member_client, bob):
    assert member_client.get("/members/roles/").status_code == 403
    answer = member_client.post(
        "/members/roles/", {"role_id": role_of(bob).pk, "action": ORGANIZER}
    )
    assert answer.status_code == 403 and club_roles(User.objects.get(pk=bob.pk)) == {MEMBER}


@pytest.mark.parametrize("malformed", ["nothing", "no number", "no such action"])
def test_a_malformed_change_is_a_400_and_changes_nothing(organizer_client, alice, malformed):
    data = {
        "nothing": {},
        "no number": {"role_id": "x", "action": "remove"},
        "no such action": {"role_id": role_of(alice).pk, "action": "boss"},
    }[malformed]
    assert organizer_client.post("/members/roles/", data).status_code == 400
    assert club_roles(User.objects.get(pk=alice.pk)) == {ORGANIZER}


def test_staff_status_follows_the_organizer_role(organizer_client, alice, bob):
    """The admin's staff status comes with 記録係 and goes with it: lowered to 会員 or taken
    away here, the login is no longer staff, unless it is 記録係 of another club."""
    organizer_client.post("/members/roles/", {"role_id": role_of(bob).pk, "action": ORGANIZER})
    assert User.objects.get(pk=bob.pk).is_staff
    organizer_client.post("/members/roles/", {"role_id": role_of(bob).pk, "action": MEMBER})
    assert not User.objects.get(pk=bob.pk).is_staff
    organizer_client.post("/members/roles/", {"role_id": role_of(bob).pk, "action": ORGANIZER})
    organizer_client.post(
        "/members/roles/", {"role_id": role_of(bob).pk, "action": "remove", "confirmed": "1"}
    )
    assert not User.objects.get(pk=bob.pk).is_staff
    # 記録係 of another club stays staff when taken away here.
    grant(bob, MEMBER)
    make_club("sakura", "桜会", organizer="bob")
    organizer_client.post(
        "/members/roles/", {"role_id": role_of(bob).pk, "action": "remove", "confirmed": "1"}
    )
    assert User.objects.get(pk=bob.pk).is_staff


def test_a_superuser_keeps_staff_status_whatever_its_roles(organizer_client, alice):
    root = User.objects.create_superuser("root", password="root-pass-123")
    grant(root, ORGANIZER)
    ClubRole.objects.filter(user=root).delete()
    assert User.objects.get(pk=root.pk).is_staff


def test_taking_a_role_away_asks_first(organizer_client, alice, bob):
    """Taking a role away cannot be undone on this page (an invitation or the site's admin
    gives it again), so it is asked first, naming the login; 「やめる」 changes nothing."""
    asked = organizer_client.post(
        "/members/roles/", {"role_id": role_of(bob).pk, "action": "remove"}
    )
    assert asked.status_code == 200
    page = asked.content.decode()
    assert "bob" in page and 'name="confirmed"' in page
    assert club_roles(User.objects.get(pk=bob.pk)) == {MEMBER}
    done = organizer_client.post(
        "/members/roles/", {"role_id": role_of(bob).pk, "action": "remove", "confirmed": "1"}
    )
    assert done.status_code == 302
    assert club_roles(User.objects.get(pk=bob.pk)) == set()
