"""The admin in an install of several clubs (issue 42): a club's organizer links a member only
to a login of the club, and the admin's 「サイトで表示」 shortcut finds only the club's rows."""

from datetime import date

import pytest
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType

from members.models import Member
from members.roles import MEMBER, grant
from members.scopes import in_club, scopes_disabled
from scoring.clubs import make_club
from scoring.models import Meet, RuleSet

pytestmark = pytest.mark.django_db


@pytest.fixture
def sakura(db):
    return make_club("sakura", "桜会", organizer="sakura-kiroku")


def test_the_member_page_offers_only_the_clubs_logins(organizer_client, alice, bob, sakura):
    theirs = User.objects.create_user("sakura-kaiin")
    grant(theirs, MEMBER, sakura)
    User.objects.create_user("no-role-anywhere")
    member = Member.objects.create(name="山田　花子", furigana="やまだ はなこ")
    page = organizer_client.get(f"/admin/members/member/{member.pk}/change/")
    choices = {str(u) for u in page.context["adminform"].form.fields["user"].queryset}
    assert choices == {"alice", "bob"}
    # Another club's login given anyway is refused, and nothing is saved.
    answer = organizer_client.post(
        f"/admin/members/member/{member.pk}/change/",
        {
            "name": member.name,
            "furigana": member.furigana,
            "is_active": "on",
            "user": theirs.pk,
            "joined_on": "",
        },
    )
    assert answer.status_code == 200 and answer.context["adminform"].form.errors.get("user")
    assert Member.objects.get(pk=member.pk).user_id is None


def test_the_view_on_site_shortcut_finds_only_the_clubs_rows(organizer_client, club_rule, sakura):
    ours = Meet.objects.create(date=date(2026, 11, 4), kind="wed", rule_set=club_rule)
    with in_club(sakura):
        rule = RuleSet.objects.get(name=club_rule.name)
        theirs = Meet.objects.create(date=date(2026, 11, 4), kind="wed", rule_set=rule)
    kind = ContentType.objects.get_for_model(Meet).pk
    assert organizer_client.get(f"/admin/r/{kind}/{ours.pk}/").status_code == 302
    assert organizer_client.get(f"/admin/r/{kind}/{theirs.pk}/").status_code == 404


def test_the_admin_is_for_the_organizer_of_the_club_in_scope(bob, sakura):
    """Staff status is the site's, roles are a club's: 記録係 of 桜会 who is 会員 here has no
    admin here (it would show a member's private note, and let them add the club's settings
    or copy its rule sets); in 桜会 it has."""
    from django.test import Client

    from members.roles import ORGANIZER
    from scoring.models import ClubSettings

    grant(bob, ORGANIZER, sakura)
    client = Client()
    client.force_login(User.objects.get(pk=bob.pk))
    assert User.objects.get(pk=bob.pk).is_staff
    assert client.get("/admin/").status_code == 302  # to the admin's sign-in
    client.post("/admin/scoring/clubsettings/add/", {"negative_sign": "▲", "representative": "x"})
    assert not ClubSettings.objects.exists()
    client.post("/members/club/", {"club": sakura.pk})
    assert client.get("/admin/").status_code == 200


def test_the_site_admin_copies_a_rule_set_into_its_own_club_and_twice(club_rule, sakura):
    from django.test import Client

    root = Client()
    root.force_login(User.objects.create_superuser("root", password="root-pass-123"))
    with scopes_disabled():
        theirs = RuleSet.objects.filter(club=sakura).first()
    for _twice in range(2):
        answer = root.post(
            "/admin/scoring/ruleset/",
            {"action": "copy_rule_sets", "_selected_action": [theirs.pk]},
        )
        assert answer.status_code == 302
    with scopes_disabled():
        copies = RuleSet.objects.filter(club=sakura, name__startswith=theirs.name).exclude(
            pk=theirs.pk
        )
        assert copies.count() == 2
        assert {(c.club_id, c.group.club_id) for c in copies} == {(sakura.pk, sakura.pk)}


def test_a_meet_takes_only_its_clubs_members(club_rule, four_members, sakura):
    from django.test import Client

    root = Client()
    root.force_login(User.objects.create_superuser("root", password="root-pass-123"))
    meet = Meet.objects.create(date=date(2026, 11, 4), kind="wed", rule_set=club_rule)
    with in_club(sakura):
        stranger = Member.objects.create(name="桜　花子", furigana="さくら はなこ")
    answer = root.post(
        f"/admin/scoring/meet/{meet.pk}/change/",
        {
            "date": "2026-11-04",
            "kind": "wed",
            "rule_set": club_rule.pk,
            "attendees": [four_members[0].pk, stranger.pk],
            "draw_mode": "three_player_tables",
            "hanchans-TOTAL_FORMS": "0",
            "hanchans-INITIAL_FORMS": "0",
        },
    )
    assert answer.status_code == 200
    assert answer.context["adminform"].form.errors.get("attendees")
    with scopes_disabled():
        assert not Meet.objects.get(pk=meet.pk).attendees.exists()
