"""One login, a role in each club (issue: several clubs in one install): a person may be
記録係 of one club and 会員 of another; the menu shows their clubs and switches between them;
in each club the login has only the rights of its role there."""

import io
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from members.models import Club, ClubRole, Member
from members.roles import MEMBER, ORGANIZER, club_roles, grant, roles_from_groups
from members.scopes import in_club, scopes_disabled
from scoring.backups import accounts_in_database, rights_beyond_roles
from scoring.clubs import make_club
from scoring.models import Meet, RuleSet
from scoring.reports.pdf import render_meet_pdf, render_notice_pdf
from tests.builders import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def sakura() -> Club:
    """A second club, 桜会, with a member 桜井 みどり and a meet on 2025-05-14."""
    club = make_club("sakura", "桜会")
    with in_club(club):
        Member.objects.create(name="桜井 みどり", furigana="さくらい みどり")
        Meet.objects.create(date="2025-05-14", kind="wed", rule_set=RuleSet.objects.default())
    return club


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_login_organizes_one_club_and_is_a_member_of_another(bob, sakura, meet):
    """bob is 会員 of the site's club and 記録係 of 桜会: an organizer's page is refused in
    the first and open in the second once he chooses it; each club's pages show its own."""
    grant(bob, ORGANIZER, sakura)
    client = signed_in(bob)
    assert client.get("/import/").status_code == 403
    meets = client.get("/meets/").content.decode()
    assert "2025年4月9日" in meets and "2025年5月14日" not in meets

    chosen = client.post("/members/club/", {"club": sakura.pk})
    assert chosen.status_code == 302
    assert client.get("/import/").status_code == 200
    meets = client.get("/meets/").content.decode()
    assert "2025年5月14日" in meets and "2025年4月9日" not in meets
    assert "桜井 みどり" in client.get("/members/").content.decode()

    client.post("/members/club/", {"club": Club.DEFAULT_PK})
    assert client.get("/import/").status_code == 403


def test_the_permissions_are_the_roles_in_the_club_in_scope(bob, sakura):
    grant(bob, ORGANIZER, sakura)
    fresh = User.objects.get(pk=bob.pk)
    assert fresh.has_perm("scoring.view_hanchan")
    assert not fresh.has_perm("scoring.change_hanchan")
    assert club_roles(fresh) == {MEMBER}
    with in_club(sakura):
        assert fresh.has_perm("scoring.change_hanchan")
        assert club_roles(fresh) == {ORGANIZER}
    nobody = User.objects.create_user("nobody")
    with in_club(sakura):
        assert not nobody.has_perm("scoring.view_hanchan") and club_roles(nobody) == set()


def test_the_menu_shows_a_logins_clubs_and_nothing_of_clubs_for_one(alice, bob, sakura):
    grant(bob, ORGANIZER, sakura)
    two = signed_in(bob).get("/").content.decode()
    assert 'action="/members/club/"' in two
    assert f'value="{sakura.pk}"' in two and "桜会" in two
    assert f'name="club" value="{Club.DEFAULT_PK}"' in two
    one = signed_in(alice).get("/").content.decode()
    assert 'action="/members/club/"' not in one and "桜会" not in one


def test_a_club_the_login_holds_no_role_in_cannot_be_chosen(alice, sakura, meet):
    client = signed_in(alice)
    assert client.post("/members/club/", {"club": sakura.pk}).status_code == 403
    assert client.post("/members/club/", {"club": "x"}).status_code == 400
    assert client.get("/members/club/").status_code == 405
    meets = client.get("/meets/").content.decode()
    assert "2025年4月9日" in meets and "2025年5月14日" not in meets


def test_a_login_of_another_club_only_sees_that_club_headed_by_its_name(sakura, meet):
    carol = User.objects.create_user("carol")
    grant(carol, MEMBER, sakura)
    client = signed_in(carol)
    home = client.get("/").content.decode()
    assert '<span class="brand-name">桜会</span>' in home
    assert 'action="/members/club/"' not in home  # one club: nothing to choose
    listed = client.get("/members/").content.decode()
    assert "桜井 みどり" in listed and "東山 一郎" not in listed
    assert client.get(f"/meets/{meet.pk}/").status_code == 404


def test_a_removed_club_takes_its_roles_and_the_choice_falls_back(bob, sakura, meet):
    grant(bob, ORGANIZER, sakura)
    client = signed_in(bob)
    client.post("/members/club/", {"club": sakura.pk})
    sakura.delete()
    with in_club(Club.DEFAULT_PK):
        assert list(ClubRole.objects.values_list("user__username", "role")) == [("bob", MEMBER)]
    meets = client.get("/meets/").content.decode()
    assert "2025年4月9日" in meets


def test_a_role_groups_member_from_an_older_backup_becomes_a_role_in_the_default_club(db):
    """The role groups' members are not read for rights (members.backends); a restored
    backup from before roles were held club by club has them turned into roles."""
    old = User.objects.create_user("old-kiroku")
    old.groups.add(Group.objects.get(name=ORGANIZER))
    assert not User.objects.get(pk=old.pk).has_perm("scoring.change_hanchan")
    assert roles_from_groups() == 1
    again = User.objects.get(pk=old.pk)
    assert again.has_perm("scoring.change_hanchan") and club_roles(again) == {ORGANIZER}
    assert not again.groups.exists()


def test_a_backups_roles_in_any_club_count_as_roles_for_its_rights_check(db):
    """Staff status comes with 記録係 of any club; a member of clubs only is refused it."""
    other = Club.objects.create(slug="ume", name="梅会")
    grant(User.objects.create_user("k", is_staff=True), ORGANIZER, other)
    grant(User.objects.create_user("m"), MEMBER, Club.DEFAULT_PK)
    User.objects.filter(username="m").update(is_staff=True)  # as a crafted backup might
    with translation.override("en"):
        assert rights_beyond_roles(accounts_in_database()) == ["m: staff"]


def test_make_club_makes_the_club_with_its_first_organizer(bob, db):
    out = io.StringIO()
    call_command(
        "make_club", "sakura", "--name", "桜会", "--organizer", "sakura-kiroku", stdout=out
    )
    club = Club.objects.get(slug="sakura")
    made = User.objects.get(username="sakura-kiroku")
    assert made.is_staff and not made.has_usable_password()
    with in_club(club):
        assert club_roles(made) == {ORGANIZER}
    assert "changepassword sakura-kiroku" in out.getvalue()
    # A login that exists keeps its roles elsewhere and adds this one.
    call_command("make_club", "ume", "--name", "梅会", "--organizer", "bob", stdout=out)
    bob = User.objects.get(pk=bob.pk)
    assert club_roles(bob) == {MEMBER}
    with in_club(Club.objects.get(slug="ume")):
        assert club_roles(bob) == {ORGANIZER} and bob.has_perm("scoring.change_meet")


def test_a_club_and_its_first_organizer_are_made_on_the_admin_page(db):
    admin_user = User.objects.create_superuser("site", password="site-pass-123")
    kiroku = User.objects.create_user("ume-kiroku")
    client = signed_in(admin_user)
    answer = client.post(
        "/admin/members/club/add/",
        {
            "slug": "ume",
            "name": "梅会",
            "roles-TOTAL_FORMS": "1",
            "roles-INITIAL_FORMS": "0",
            "roles-0-user": kiroku.pk,
            "roles-0-role": ORGANIZER,
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    club = Club.objects.get(slug="ume")
    kiroku.refresh_from_db()
    assert kiroku.is_staff
    with in_club(club):
        assert club_roles(User.objects.get(pk=kiroku.pk)) == {ORGANIZER}
        assert RuleSet.objects.count() == 5


def test_a_clubs_handouts_carry_its_own_name(sakura, meet):
    """The site's one club's handouts say the site's name as before; 桜会's say 桜会."""
    with in_club(sakura):
        theirs = pdf_text(render_meet_pdf(Meet.objects.get())[2])
        notice = pdf_text(render_notice_pdf(date(2025, 5, 1), list(Meet.objects.all()))[2])
    ours = pdf_text(render_meet_pdf(meet)[2])
    assert "桜会" in theirs and "白樺会マージャンサークル" not in theirs
    assert "桜会" in notice and "白樺会マージャンサークル" not in notice
    assert "白樺会マージャンサークル" in ours and "桜会" not in ours


def test_the_site_admin_gives_a_login_its_roles_on_its_admin_page(db):
    """Where the admin once put a login in the group 記録係: its roles, club by club."""
    site = signed_in(User.objects.create_superuser("site", password="site-pass-123"))
    kazuko = User.objects.create_user("kazuko")
    ume = make_club("ume", "梅会")
    page = site.get(f"/admin/auth/user/{kazuko.pk}/change/").content.decode()
    assert "club_roles-0-role" in page and "梅会" in page
    answer = site.post(
        f"/admin/auth/user/{kazuko.pk}/change/",
        {
            "username": "kazuko",
            "is_active": "on",
            "date_joined_0": "2025-04-01",
            "date_joined_1": "10:00:00",
            "club_roles-TOTAL_FORMS": "2",
            "club_roles-INITIAL_FORMS": "0",
            "club_roles-0-club": Club.DEFAULT_PK,
            "club_roles-0-role": MEMBER,
            "club_roles-1-club": ume.pk,
            "club_roles-1-role": ORGANIZER,
        },
    )
    assert answer.status_code == 302, answer.context and answer.context["errors"]
    kazuko = User.objects.get(pk=kazuko.pk)
    assert kazuko.is_staff and club_roles(kazuko) == {MEMBER}
    with in_club(ume):
        assert club_roles(kazuko) == {ORGANIZER}


def test_a_group_of_another_name_still_gives_its_permissions(bob):
    """As Django's backend: a group the site made itself (幹事) gives what it holds."""
    group = Group.objects.create(name="幹事")
    group.permissions.add(Permission.objects.get(codename="change_meet"))
    bob.groups.add(group)
    fresh = User.objects.get(pk=bob.pk)
    assert fresh.has_perm("scoring.change_meet") and not fresh.has_perm("scoring.change_hanchan")


def _roles_posted(site: Client, login: User, *roles: tuple[object, str]) -> Any:
    """The site admin saves ``login``'s page with these new (club, role) rows."""
    data = {
        "username": login.username,
        "is_active": "on",
        "date_joined_0": "2025-04-01",
        "date_joined_1": "10:00:00",
        "club_roles-TOTAL_FORMS": str(len(roles)),
        "club_roles-INITIAL_FORMS": "0",
    }
    for i, (club, role) in enumerate(roles):
        data |= {f"club_roles-{i}-club": club, f"club_roles-{i}-role": role}
    return site.post(f"/admin/auth/user/{login.pk}/change/", data)


def test_the_same_role_twice_on_a_logins_page_is_an_error_not_a_crash(db):
    site = signed_in(User.objects.create_superuser("site", password="site-pass-123"))
    kazuko = User.objects.create_user("kazuko")
    twice = _roles_posted(site, kazuko, (Club.DEFAULT_PK, MEMBER), (Club.DEFAULT_PK, MEMBER))
    assert twice.status_code == 200
    errors = twice.context["inline_admin_formsets"][0].formset.non_form_errors()
    assert "二度" in str(errors)
    with scopes_disabled():
        assert not ClubRole.objects.filter(user=kazuko).exists()


def test_with_several_clubs_a_role_must_name_its_club(db):
    """A blank club is the site's one club only where there is no other to mean."""
    site = signed_in(User.objects.create_superuser("site", password="site-pass-123"))
    kazuko = User.objects.create_user("kazuko")
    make_club("ume", "梅会")
    blank = _roles_posted(site, kazuko, ("", ORGANIZER))
    assert blank.status_code == 200
    with scopes_disabled():
        assert not ClubRole.objects.filter(user=kazuko).exists()


def test_a_meet_cannot_take_another_clubs_rule_set(club_rule):
    """Outside every scope (the site's admin) the rule sets of every club are offered; a meet
    of one club with another's rule set is refused by the model's own checks."""
    ume = make_club("ume", "梅会")
    with scopes_disabled():
        theirs = RuleSet.objects.filter(club=ume).first()
        meet = Meet(club_id=Club.DEFAULT_PK, date=date(2026, 11, 4), kind="wed", rule_set=theirs)
        with pytest.raises(ValidationError) as refused:
            meet.full_clean()
    assert "rule_set" in refused.value.message_dict


def test_a_role_the_app_does_not_know_gives_nothing_and_breaks_nothing(db):
    """A crafted SQLite file can drop the check on a role's name: 「記録係 」 (a space after)
    is no role. The rights check counts it as giving nothing, and so does the backend."""
    from scoring.backups import Account

    odd = Account(
        "x",
        False,
        True,
        {Club.DEFAULT_PK: frozenset({"記録係 "})},
        frozenset({"scoring.change_hanchan"}),
    )
    with translation.override("en"):
        assert rights_beyond_roles([odd]) == ["x: staff, scoring.change_hanchan"]


def test_a_word_that_is_no_role_opens_nothing(bob):
    """Without the database's check (a crafted SQLite restore drops it), a row saying
    「会員 」 is no role: the login reaches none of that club's pages."""
    from django.db import connection

    other = Club.objects.create(slug="ume", name="梅会")
    with connection.cursor() as cursor:  # as a crafted file would have it (rolled back after)
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA ignore_check_constraints = ON")
        else:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending checks before ALTER
            cursor.execute("ALTER TABLE members_clubrole DROP CONSTRAINT club_role_known")
    try:
        with scopes_disabled():
            ClubRole.objects.create(club=other, user=bob, role=MEMBER)
            ClubRole.objects.filter(club=other, user=bob).update(role="会員 ")
    finally:
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA ignore_check_constraints = OFF")
    fresh = User.objects.get(pk=bob.pk)
    with in_club(other):
        assert club_roles(fresh) == set()
