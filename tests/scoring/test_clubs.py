"""A club above everything it owns (``members.Club``): today's data belongs to the default
club, made by the migrations and again after a ``flush``; names, rule sets and meet days are
one a club, not one a site; removing a club removes its data and nothing else."""

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.utils import timezone

from members.models import DEFAULT_CLUB_SLUG, Club, Member
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
from tests.builders import worked_table


@pytest.fixture
def other_club(db) -> Club:
    return Club.objects.create(name="桜会", slug="sakura")


def copy_of(rule: RuleSet, club: Club) -> RuleSet:
    """The rule set as another club holds it: its own group and rule of the same name."""
    group = StandingsGroup.objects.create(club=club, name=rule.group.name)
    values = {f: getattr(rule, f) for f in RuleSet.PARAMETER_FIELDS}
    return RuleSet.objects.create(club=club, name=rule.name, group=group, **values)


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
    namesake = Member(club=other_club, name=first.name, furigana=first.furigana)
    namesake.full_clean()  # the other club's own member list: no namesake there
    namesake.save()
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
    Meet.objects.create(club=other_club, date=meet.date, kind=meet.kind, rule_set=theirs)
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
    people = [
        Member.objects.create(club=other_club, name=m.name, furigana=m.furigana)
        for m in four_members
    ]
    their_meet = Meet.objects.create(
        club=other_club, date=meet.date, kind=meet.kind, rule_set=theirs
    )
    Hanchan(meet=their_meet, table_no=1, round_no=1, rule_set=theirs).record(worked_table(people))
    Award.objects.create(group=theirs.group, name="優勝", measure="total", winner=people[0])
    Report.objects.create(
        club=other_club, digest="x" * 64, spec={}, spec_key="y" * 64, asked_at=timezone.now()
    )
    ClubSettings.objects.create(club=other_club, standings_public=True)

    def counts() -> dict[str, int]:
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
    assert set(Member.objects.values_list("pk", flat=True)) == {m.pk for m in four_members}
    assert Hanchan.objects.get().meet == meet


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
