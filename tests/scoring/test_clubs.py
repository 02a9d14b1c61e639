"""A club above everything it owns (``members.Club``): today's data belongs to the default
club, made by the migrations and again after a ``flush``; names, rule sets and meet days are
one a club, not one a site; removing a club removes its data and nothing else; every query of
a club's data is made in a club's scope, and raises outside one."""

import contextvars
import io

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone
from django_scopes import ScopeError

from members.models import DEFAULT_CLUB_SLUG, Club, Member, is_a_clubs
from members.scopes import in_club, scopes_disabled
from scoring.clubs import fill_new_club
from scoring.models import (
    Award,
    ClubSettings,
    Hanchan,
    HanchanResult,
    Meet,
    Report,
    RuleSet,
    StandingsGroup,
)
from tests.builders import CLUBS_OWN, worked_table


@pytest.fixture
def other_club(db) -> Club:
    return Club.objects.create(name="桜会", slug="sakura")


def copy_of(rule: RuleSet, club: Club) -> RuleSet:
    """The rule set as another club holds it: its own group and rule of the same name."""
    with in_club(club):
        group = StandingsGroup.objects.create(name=rule.group.name)
        values = {f: getattr(rule, f) for f in RuleSet.PARAMETER_FIELDS}
        return RuleSet.objects.create(name=rule.name, group=group, **values)


def test_the_default_club_is_there_and_holds_what_is_made_without_a_club(club_rule, meet):
    club = Club.objects.get()
    assert (club.pk, club.slug, club.name) == (Club.DEFAULT_PK, DEFAULT_CLUB_SLUG, "")
    assert {club_rule.club_id, meet.club_id, club_rule.group.club_id} == {club.pk}
    assert set(Member.objects.values_list("club_id", flat=True)) == {club.pk}
    ClubSettings.load().save()
    assert ClubSettings.objects.get().club_id == club.pk


@pytest.mark.django_db(transaction=True)
def test_a_flush_leaves_the_default_club_and_a_new_club_takes_the_next_key():
    call_command("flush", interactive=False, verbosity=0)
    assert list(Club.objects.values_list("pk", flat=True)) == [Club.DEFAULT_PK]
    # The key sequence was moved past the default club's key (PostgreSQL keeps one).
    assert Club.objects.create(slug="sakura").pk > Club.DEFAULT_PK


def test_two_clubs_may_have_a_member_of_one_name_but_not_one_club_twice(four_members, other_club):
    first = four_members[0]
    with in_club(other_club):
        namesake = Member(name=first.name, furigana=first.furigana)
        namesake.full_clean()  # the other club's own member list: no namesake there
        namesake.save()
    assert namesake.club_id == other_club.pk  # a club's scope is the default of its rows
    twice = Member(name=first.name.replace(" ", "\u3000"), furigana=first.furigana)
    with pytest.raises(ValidationError) as refused:
        twice.full_clean()
    assert [e.code for e in refused.value.error_dict["name"]] == ["namesake"]
    with pytest.raises(IntegrityError), transaction.atomic():
        Member.objects.create(name=first.name, furigana=first.furigana)


def test_a_rule_set_and_a_meet_day_are_one_a_club(meet, club_rule, other_club):
    theirs = copy_of(club_rule, other_club)
    theirs.is_default = True
    theirs.save()  # each club has a default rule set of its own
    with in_club(other_club):
        Meet.objects.create(date=meet.date, kind=meet.kind, rule_set=theirs)
    with pytest.raises(IntegrityError), transaction.atomic():
        Meet.objects.create(date=meet.date, kind=meet.kind, rule_set=club_rule)
    with pytest.raises(IntegrityError), transaction.atomic():
        copy_of(club_rule, Club.objects.get(pk=Club.DEFAULT_PK))


def test_removing_a_club_removes_its_data_and_nothing_else(
    meet, club_rule, four_members, other_club
):
    Hanchan(meet=meet, table_no=1, round_no=1, rule_set=club_rule).record(
        worked_table(four_members)
    )
    theirs = copy_of(club_rule, other_club)
    fill_the_other_club(other_club, theirs, four_members, meet)

    @scopes_disabled()
    def counts() -> dict[str, int]:
        """Every club's rows."""
        models = [Member, Meet, Hanchan, HanchanResult, RuleSet, StandingsGroup, Award]
        return {m.__name__: m.objects.count() for m in [*models, Report, ClubSettings]}

    ours_before = counts()
    with transaction.atomic():
        other_club.delete()
    ours_after = counts()
    assert ours_after["Hanchan"] == 1 and ours_after["HanchanResult"] == 4
    assert ours_after["Member"] == 4 and ours_after["Report"] == ours_before["Report"] - 1
    assert ours_before["Hanchan"] == 2 and ours_before["Member"] == 8
    assert ours_after["RuleSet"] == ours_before["RuleSet"] - 1
    assert ours_after["ClubSettings"] == ours_before["ClubSettings"] - 1
    with scopes_disabled():
        assert set(Member.objects.values_list("pk", flat=True)) == {m.pk for m in four_members}
        assert Hanchan.objects.get().meet == meet


def fill_the_other_club(club: Club, rule: RuleSet, like: list[Member], meet: Meet) -> list[Member]:
    """The other club's members (namesakes of ours), a game on our meet's day, an award, a
    report and its settings; made in its scope."""
    with in_club(club):
        people = [Member.objects.create(name=m.name, furigana=m.furigana) for m in like]
        their_meet = Meet.objects.create(date=meet.date, kind=meet.kind, rule_set=rule)
        Hanchan(meet=their_meet, table_no=1, round_no=1, rule_set=rule).record(worked_table(people))
        Award.objects.create(group=rule.group, name="優勝", measure="total", winner=people[0])
        Report.objects.create(digest="x" * 64, spec={}, spec_key="y" * 64, asked_at=timezone.now())
        ClubSettings.objects.create(standings_public=True)
    return people


# What is the site's, not a club's: read in any scope (or none).
SITES_OWN = {
    "members.Club",
    "members.DisplaySettings",  # a login's
    "scoring.EntryPreference",  # a login's
    "scoring.ReportPart",  # a part of a report's layout, named by what it shows
    "scoring.WorkerBeat",  # a report worker's
}


def test_every_model_of_the_book_is_a_clubs_and_scoped_or_the_sites():
    """A model added later is either in a club's scope or named here as the site's."""
    book = [
        m
        for app in ("members", "scoring")
        for m in apps.get_app_config(app).get_models()
        if not m.__name__.startswith("Historical") and not m._meta.auto_created
    ]
    scoped = {m for m in book if is_a_clubs(m)}
    assert scoped == set(CLUBS_OWN)
    assert {m._meta.label for m in book if m not in scoped} == SITES_OWN


@pytest.mark.parametrize("model", CLUBS_OWN, ids=lambda m: m.__name__)
def test_a_query_of_a_clubs_data_outside_every_clubs_scope_raises(model, meet, four_members):
    """Not a leak of every club's rows: ``ScopeError``, in a context with no scope at all (as
    a new thread, a task or a command starts)."""

    def query() -> object:
        return list(model.objects.all()[:1])

    with pytest.raises(ScopeError):
        contextvars.Context().run(query)
    with pytest.raises(ScopeError):
        contextvars.Context().run(lambda: model.objects.filter(pk=1).exists())
    assert isinstance(query(), list)  # in a club's scope (the test's): the query is made


def test_in_a_clubs_scope_a_query_reads_that_clubs_rows_only(
    meet, club_rule, four_members, other_club
):
    Hanchan(meet=meet, table_no=1, round_no=1, rule_set=club_rule).record(
        worked_table(four_members)
    )
    people = fill_the_other_club(other_club, copy_of(club_rule, other_club), four_members, meet)
    ours = {m.pk for m in four_members}
    assert set(Member.objects.values_list("pk", flat=True)) == ours
    assert not Member.objects.filter(pk=people[0].pk).exists()  # their key, our scope
    assert HanchanResult.objects.filter(member__in=four_members).count() == 4
    assert not HanchanResult.objects.filter(member=people[0]).exists()
    assert not Award.objects.filter(name="優勝").exists() and not Report.objects.exists()
    assert ClubSettings.load().club_id == Club.DEFAULT_PK and not ClubSettings.load().pk
    with in_club(other_club):
        assert set(Member.objects.values_list("pk", flat=True)) == {m.pk for m in people}
        assert not Member.objects.filter(pk__in=ours).exists()
        assert Hanchan.objects.get().meet.club == other_club
        assert Award.objects.get(name="優勝").winner == people[0]
        assert ClubSettings.load().standings_public


def test_a_rule_set_or_group_named_twice_in_a_club_is_refused_in_japanese(club_rule):
    """As the forms check them: without the club among the form's fields."""
    values = {f: getattr(club_rule, f) for f in RuleSet.PARAMETER_FIELDS}
    twin = RuleSet(name=club_rule.name, group=club_rule.group, **values)
    with pytest.raises(ValidationError) as refused:
        twin.full_clean(exclude=["club"])
    assert "この名前のルールセットがすでにあります。" in str(refused.value)
    group = StandingsGroup(name=club_rule.group.name)
    with pytest.raises(ValidationError) as refused:
        group.full_clean(exclude=["club"])
    assert "この名前の成績グループがすでにあります。" in str(refused.value)


def test_make_club_makes_a_club_that_starts_with_the_rule_sets_of_the_sheets(club_rule):
    ours = sorted(RuleSet.objects.values_list("name", "group__name", "is_default"))
    our_awards = Award.objects.count()
    said = io.StringIO()
    call_command("make_club", "sakura", "--name", "桜会", stdout=said)
    club = Club.objects.get(slug="sakura")
    assert club.name == "桜会" and "sakura" in said.getvalue()
    with in_club(club):
        theirs = sorted(RuleSet.objects.values_list("name", "group__name", "is_default"))
        assert RuleSet.objects.default().players == 4
        assert Award.objects.count() == our_awards  # each group's default awards
        assert set(RuleSet.objects.values_list("club_id", flat=True)) == {club.pk}
    assert theirs == ours  # the same rule sets, in groups of the same names, its own
    assert sorted(RuleSet.objects.values_list("name", "group__name", "is_default")) == ours
    with pytest.raises(CommandError, match="略称"):
        call_command("make_club", "sakura", stdout=io.StringIO())  # taken
    with pytest.raises(CommandError):
        call_command("make_club", "桜 会", stdout=io.StringIO())  # not a short name
    assert Club.objects.count() == 2


def test_the_site_admin_makes_a_club_and_an_organizer_cannot(alice, club_rule):
    superuser = User.objects.create_superuser("site", password="site-pass-123")
    site = Client()
    site.force_login(superuser)
    no_roles = {"roles-TOTAL_FORMS": "0", "roles-INITIAL_FORMS": "0"}  # the roles' inline
    made = site.post("/admin/members/club/add/", {"slug": "kaede", "name": "楓会", **no_roles})
    assert made.status_code == 302, made.content.decode()[:500]
    club = Club.objects.get(slug="kaede")
    with in_club(club):
        assert StandingsGroup.clubs_own() == RuleSet.objects.default().group
    default_delete = site.get(f"/admin/members/club/{Club.DEFAULT_PK}/delete/")
    assert default_delete.status_code == 403
    assert site.get(f"/admin/members/club/{club.pk}/delete/").status_code == 200
    organizer = Client()
    organizer.force_login(alice)
    assert organizer.get("/admin/members/club/").status_code == 403
    assert organizer.post("/admin/members/club/add/", {"slug": "x"}).status_code == 403
    assert not Club.objects.filter(slug="x").exists()


def test_the_shell_works_in_a_clubs_scope(club_rule, other_club, capsys):
    """``manage.py shell`` reads the site's one club's data as before clubs, another club's
    with ``--club``."""
    code = "from scoring.models import RuleSet; print(RuleSet.objects.default().club_id)"
    fill_new_club(other_club)
    call_command("shell", "-v0", "-c", code)
    call_command("shell", "-v0", "--club", "sakura", "-c", code)
    assert capsys.readouterr().out.split() == [str(Club.DEFAULT_PK), str(other_club.pk)]
