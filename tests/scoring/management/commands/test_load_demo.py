import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db.models import Sum
from django.utils import timezone

from members.models import Member
from members.roles import MEMBER, ORGANIZER, club_roles
from scoring.models import Hanchan, HanchanResult, Meet

pytestmark = pytest.mark.django_db


def test_the_demo_club_loads_settled_games_and_logins():
    call_command("load_demo")
    assert Member.objects.count() == 15
    played = Meet.objects.filter(hanchans__isnull=False).distinct()
    assert played.count() == 4
    # The coming two months are planned (4 meets a month: 7 to 9 in 61 days), and the next
    # meet has eight answers, six coming, in its attendance.
    today = timezone.localdate()
    planned = Meet.objects.filter(date__gt=today).order_by("date")
    assert 7 <= planned.count() <= 9 and not planned.filter(hanchans__isnull=False).exists()
    assert planned[0].answers.count() == 8 and planned[0].attendees.count() == 6
    # 12 players (3 tables) on Wednesdays, 8 (2 tables) on Saturdays, three rounds each.
    assert Hanchan.objects.count() == 2 * 3 * 3 + 2 * 2 * 3
    chombo = HanchanResult.objects.aggregate(Sum("chombo"))["chombo__sum"]
    # Summed in Python: SQLite would add the decimals in floating point.
    total = sum(HanchanResult.objects.values_list("total_points", flat=True))
    assert total == -10 * chombo
    assert Member.objects.filter(furigana="さとう かずこ").exists()
    assert User.objects.get(username="kiroku").check_password("shirakaba-kiroku")
    assert club_roles(User.objects.get(username="kaiin")) == {MEMBER}
    assert club_roles(User.objects.get(username="kiroku")) == {ORGANIZER}


def test_it_is_idempotent():
    call_command("load_demo")
    call_command("load_demo")
    assert Member.objects.count() == 15
    assert Hanchan.objects.count() == 30


def test_it_refuses_a_database_with_real_data(four_members):
    with pytest.raises(CommandError):
        call_command("load_demo")
    assert Meet.objects.count() == 0
    call_command("load_demo", "--if-empty")  # the start command's way: says so, succeeds
    assert Member.objects.count() == 4


def test_the_demo_loads_into_a_second_club_with_logins_of_its_own():
    """The demo's logins are the site's: a second club's demo has its own, named after it
    (a login that exists keeps its password)."""
    from members.models import Club
    from members.scopes import in_club
    from scoring.clubs import make_club

    call_command("load_demo")
    make_club("sakura", "桜会", organizer="sakura-kiroku")
    call_command("load_demo", "--club", "sakura")
    sakura = Club.objects.get(slug="sakura")
    organizer = User.objects.get(username="sakura-kiroku")
    assert not organizer.has_usable_password()  # made by make_club, kept as it was
    member = User.objects.get(username="sakura-kaiin")
    assert member.check_password("shirakaba-kaiin")
    with in_club(sakura):
        assert Member.objects.count() == 15
        assert club_roles(organizer) == {ORGANIZER} and club_roles(member) == {MEMBER}
    assert club_roles(User.objects.get(username="kaiin")) == {MEMBER}
    call_command("load_demo", "--club", "sakura")  # again: nothing to do
