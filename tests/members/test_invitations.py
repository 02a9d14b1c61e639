"""Sign-up by an invitation code (several clubs in one install: "a sign-up by invitation code
if the site switches it on"): the organizer gives a member a code; the member makes their own
login with it, linked to their record and holding the role in that club."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.utils import timezone

from members.models import Club, ClubRole, Invitation, Member
from members.roles import MEMBER, ORGANIZER, club_roles, grant
from members.scopes import in_club, scopes_disabled
from scoring.clubs import make_club

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("signup_on")]


@pytest.fixture
def signup_on():
    with override_settings(SIGNUP_BY_INVITATION=True):
        yield


def invite(member: Member, role: str = MEMBER, days: int = 14) -> Invitation:
    with in_club(member.club_id):
        return Invitation.objects.create(
            member=member, role=role, expires_at=timezone.now() + timedelta(days=days)
        )


def new_login(client: Client, code: str, username: str = "higashi") -> object:
    return client.post(
        "/signup/",
        {
            "code": code,
            "username": username,
            "password1": "kita-no-yama-2025",
            "password2": "kita-no-yama-2025",
        },
    )


def test_the_organizer_makes_a_code_and_the_member_makes_their_login(
    organizer_client, four_members
):
    higashi = four_members[0]
    made = organizer_client.post(
        "/members/invitations/", {"member": higashi.pk, "role": MEMBER, "days": 14}
    )
    assert made.status_code == 302
    invitation = Invitation.objects.get()
    assert invitation.member == higashi and invitation.made_by.username == "alice"
    page = organizer_client.get("/members/invitations/").content.decode()
    assert invitation.shown_code in page and "/signup/" in page

    visitor = Client()
    typed = invitation.shown_code.lower().replace("-", " ")  # as someone types it from paper
    answer = new_login(visitor, typed)
    assert answer.status_code == 302
    user = User.objects.get(username="higashi")
    assert Member.objects.get(pk=higashi.pk).user == user
    assert club_roles(user) == {MEMBER} and not user.is_staff
    invitation.refresh_from_db()
    assert invitation.used_by == user and invitation.used_at is not None
    assert "東山 一郎" in visitor.get("/").content.decode()  # signed in, as that member

    again = new_login(Client(), invitation.code, username="someone")
    assert again.status_code == 400 and not User.objects.filter(username="someone").exists()


@pytest.mark.parametrize("problem", ["wrong", "expired", "used", "taken name", "weak password"])
def test_a_refused_sign_up_saves_nothing(problem, four_members, alice):
    invitation = invite(four_members[0], days=-1 if problem == "expired" else 14)
    if problem == "used":
        invitation.used_at = timezone.now()
        invitation.save()
    code = "ABCD-EFGH-JKLM" if problem == "wrong" else invitation.code
    password = "123" if problem == "weak password" else "kita-no-yama-2025"
    answer = Client().post(
        "/signup/",
        {
            "code": code,
            "username": "alice" if problem == "taken name" else "higashi",
            "password1": password,
            "password2": password,
        },
    )
    assert answer.status_code == 400
    assert answer.context["form"].errors
    assert not User.objects.filter(username="higashi").exists()
    assert Member.objects.get(pk=four_members[0].pk).user is None
    with scopes_disabled():
        assert ClubRole.objects.filter(user__username="higashi").count() == 0


def test_a_member_with_a_login_already_is_refused_and_nothing_is_saved(four_members, bob):
    higashi = four_members[0]
    higashi.user = bob
    higashi.save()
    answer = new_login(Client(), invite(higashi).code)
    assert answer.status_code == 400
    assert (
        "ログインがあります" in answer.content.decode() or "has a login" in answer.content.decode()
    )
    assert not User.objects.filter(username="higashi").exists()
    assert Invitation.objects.get().used_at is None


def test_a_login_of_another_club_joins_with_the_code_alone(four_members):
    sakura = make_club("sakura", "桜会")
    with in_club(sakura):
        sakurai = Member.objects.create(name="桜井 みどり", furigana="さくらい みどり")
    invitation = invite(sakurai, role=ORGANIZER)
    higashi_login = User.objects.create_user("higashi", password="kita-no-yama-2025")
    grant(higashi_login, MEMBER)
    client = Client()
    client.force_login(higashi_login)
    page = client.get("/signup/").content.decode()
    assert 'name="code"' in page and 'name="password1"' not in page
    assert client.post("/signup/", {"code": invitation.code}).status_code == 302
    user = User.objects.get(pk=higashi_login.pk)
    assert club_roles(user) == {MEMBER} and user.is_staff
    with in_club(sakura):
        assert club_roles(user) == {ORGANIZER}
        assert Member.objects.get(pk=sakurai.pk).user == user
    home = client.get("/").content.decode()  # the club just joined is the one shown
    assert '<span class="brand-name">桜会</span>' in home


def test_an_organizer_sees_and_takes_back_only_their_clubs_codes(organizer_client, four_members):
    sakura = make_club("sakura", "桜会")
    with in_club(sakura):
        theirs = invite(Member.objects.create(name="桜井 みどり", furigana="さくらい"))
    ours = invite(four_members[1])
    page = organizer_client.get("/members/invitations/").content.decode()
    assert ours.shown_code in page and theirs.shown_code not in page and "桜井" not in page
    assert organizer_client.post(f"/members/invitations/{theirs.pk}/revoke/").status_code == 404
    with in_club(sakura):
        assert Invitation.objects.filter(pk=theirs.pk).exists()
    # Another club's member is not a choice of our form.
    with in_club(sakura):
        sakurai = Member.objects.get()
    made = organizer_client.post("/members/invitations/", {"member": sakurai.pk, "days": 14})
    assert made.status_code == 400 and Invitation.objects.count() == 1
    assert organizer_client.post(f"/members/invitations/{ours.pk}/revoke/").status_code == 302
    assert not Invitation.objects.exists()


def test_a_member_cannot_make_codes(member_client, four_members):
    assert member_client.get("/members/invitations/").status_code == 403
    answer = member_client.post("/members/invitations/", {"member": four_members[0].pk})
    assert answer.status_code == 403 and not Invitation.objects.exists()


@override_settings(SIGNUP_BY_INVITATION=False)
def test_sign_up_is_off_unless_the_site_switches_it_on(organizer_client, four_members):
    assert Client().get("/signup/").status_code == 404
    assert organizer_client.get("/members/invitations/").status_code == 404
    assert "/signup/" not in Client().get("/login/").content.decode()
    assert "/members/invitations/" not in organizer_client.get("/members/").content.decode()


def test_the_sign_in_page_and_the_members_page_point_to_it(organizer_client):
    assert "/signup/" in Client().get("/login/").content.decode()
    assert "/members/invitations/" in organizer_client.get("/members/").content.decode()


def test_a_new_clubs_first_organizer_can_invite_its_members(db):
    """The chain the site's administrator starts: a club, its organizer, their invitations."""
    club = make_club("ume", "梅会", organizer="ume-kiroku")
    kiroku = User.objects.get(username="ume-kiroku")
    client = Client()
    client.force_login(kiroku)
    with in_club(club):
        member = Member.objects.create(name="梅田 はる", furigana="うめだ はる")
    assert client.get("/members/invitations/").status_code == 200
    made = client.post("/members/invitations/", {"member": member.pk, "role": MEMBER, "days": 7})
    assert made.status_code == 302
    with in_club(club):
        invitation = Invitation.objects.get()
    assert invitation.club_id == club.pk != Club.DEFAULT_PK
    assert new_login(Client(), invitation.code, username="umeda").status_code == 302
    with in_club(club):
        assert club_roles(User.objects.get(username="umeda")) == {MEMBER}
