"""The admin in an install of several clubs (issue 42): a club's organizer links a member only
to a login of the club, and the admin's 「サイトで表示」 shortcut finds only the club's rows."""

from datetime import date

import pytest
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType

from members.models import Member
from members.roles import MEMBER, grant
from members.scopes import in_club
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
