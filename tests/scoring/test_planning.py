"""The coming meets as the schedule shows them (scoring/planning.py), and a plan's meets made
(PlanForm.save)."""

from datetime import date, time

import pytest

from scoring.forms import PlanForm
from scoring.models import Answer, AnswerChoice, Meet
from scoring.planning import coming_meets, planned

pytestmark = pytest.mark.django_db


def test_the_coming_meets_start_today_in_order(club_rule):
    Meet.objects.create(date=date(2026, 12, 1), kind="other", rule_set=club_rule)
    saturday = Meet.objects.create(date=date(2026, 12, 12), kind="sat", rule_set=club_rule)
    wednesday = Meet.objects.create(date=date(2026, 12, 2), kind="wed", rule_set=club_rule)
    assert list(coming_meets(date(2026, 12, 2))) == [wednesday, saturday]


def test_a_member_sees_their_own_answer_and_the_organizer_every_name(club_rule, four_members):
    a, b, c, _d = four_members
    meet = Meet.objects.create(date=date(2026, 12, 2), kind="wed", rule_set=club_rule)
    Answer.objects.create(meet=meet, member=a, answer=AnswerChoice.COMING)
    Answer.objects.create(meet=meet, member=b, answer=AnswerChoice.COMING)
    Answer.objects.create(meet=meet, member=c, answer=AnswerChoice.NOT_COMING)

    (mine,) = planned([meet], a, with_names=False)
    assert mine.mine == AnswerChoice.COMING
    assert mine.names == {AnswerChoice.COMING: [a]}  # nobody else's name

    (everyone,) = planned([meet], None, with_names=True)
    assert everyone.mine == ""
    counts = {value: names for value, _label, names in everyone.counts}
    assert sorted(m.pk for m in counts[AnswerChoice.COMING]) == sorted([a.pk, b.pk])
    assert counts[AnswerChoice.NOT_COMING] == [c]


def test_a_plan_makes_the_meets_the_rule_names_and_keeps_those_there(club_rule):
    there = Meet.objects.create(date=date(2026, 4, 1), kind="wed", rule_set=club_rule)
    form = PlanForm(
        {
            "first": "2026-04-01",
            "last": "2026-04-30",
            "wednesdays": ["1", "3"],
            "saturdays": ["2", "4"],
            "wednesday_start": "13:00",
            "saturday_start": "12:30",
            "place": "公民館",
            "note": "",
        }
    )
    assert form.is_valid(), form.errors
    assert form.save(club_rule) == (3, 1)  # 4/15 水, 4/11 and 4/25 土 made; 4/1 was there
    made = Meet.objects.exclude(pk=there.pk).order_by("date")
    assert [(m.date.day, m.kind, m.start_time, m.place) for m in made] == [
        (11, "sat", time(12, 30), "公民館"),
        (15, "wed", time(13, 0), "公民館"),
        (25, "sat", time(12, 30), "公民館"),
    ]
