"""The repeating rule of the club's meets (scoring/schedule.py): days a person can check on a
calendar. 2027年4月1日 is a Thursday, so April's Wednesdays are the 7th, 14th, 21st and 28th
and its Saturdays the 3rd, 10th, 17th and 24th."""

from datetime import date

import pytest

from scoring.schedule import Repeat, nth_weekday, planned_days

WED, SAT = 2, 5
CLUB = [Repeat(WED, (1, 3), "wed"), Repeat(SAT, (2, 4), "sat")]


def test_the_nth_weekday_of_a_month():
    assert nth_weekday(2027, 4, WED, 1) == date(2027, 4, 7)
    assert nth_weekday(2027, 4, WED, 3) == date(2027, 4, 21)
    assert nth_weekday(2027, 4, SAT, 1) == date(2027, 4, 3)
    assert nth_weekday(2027, 4, SAT, 4) == date(2027, 4, 24)
    # September 2027 starts on a Wednesday: its first Wednesday is the 1st.
    assert nth_weekday(2027, 9, WED, 1) == date(2027, 9, 1)
    # April 2027 has four Wednesdays; June 2027 has five (2, 9, 16, 23, 30).
    assert nth_weekday(2027, 4, WED, 5) is None
    assert nth_weekday(2027, 6, WED, 5) == date(2027, 6, 30)


def test_the_clubs_half_year_1st_and_3rd_wednesday_2nd_and_4th_saturday():
    """上期 2027 (April to September): 2 Wednesdays and 2 Saturdays a month, 6 months: 24."""
    days = planned_days(date(2027, 4, 1), date(2027, 9, 30), CLUB)
    assert len(days) == 24
    assert days[:4] == [
        (date(2027, 4, 7), "wed"),
        (date(2027, 4, 10), "sat"),
        (date(2027, 4, 21), "wed"),
        (date(2027, 4, 24), "sat"),
    ]
    assert days[-4:] == [
        (date(2027, 9, 1), "wed"),
        (date(2027, 9, 11), "sat"),
        (date(2027, 9, 15), "wed"),
        (date(2027, 9, 25), "sat"),
    ]
    assert all(d.weekday() == (WED if k == "wed" else SAT) for d, k in days)
    assert [d for d, _k in days] == sorted(d for d, _k in days)


def test_the_ends_are_included_and_days_outside_left_out():
    """From 2027-04-08 (after the 1st Wednesday) to 2027-04-24 (the 4th Saturday itself)."""
    assert planned_days(date(2027, 4, 8), date(2027, 4, 24), CLUB) == [
        (date(2027, 4, 10), "sat"),
        (date(2027, 4, 21), "wed"),
        (date(2027, 4, 24), "sat"),
    ]


def test_a_fifth_week_only_in_months_that_have_one():
    """The 5th Saturday from April to June 2027: only May (1, 8, 15, 22, 29) has one."""
    assert planned_days(date(2027, 4, 1), date(2027, 6, 30), [Repeat(SAT, (5,), "sat")]) == [
        (date(2027, 5, 29), "sat")
    ]


def test_across_the_new_year():
    days = planned_days(date(2026, 12, 1), date(2027, 1, 31), [Repeat(WED, (1,), "wed")])
    assert days == [(date(2026, 12, 2), "wed"), (date(2027, 1, 6), "wed")]


def test_a_rule_outside_the_week_or_month_is_refused():
    with pytest.raises(ValueError):
        Repeat(7, (1,), "x")
    with pytest.raises(ValueError):
        Repeat(WED, (6,), "x")
