"""Periods of the standings (scoring/periods.py): read once, with their kind, label and steps."""

from datetime import date
from decimal import Decimal

import pytest

from scoring.standings import (
    Period,
    PeriodKind,
)

D = Decimal


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("2025-04", date(2025, 4, 1), date(2025, 4, 30)),
        ("2024-02", date(2024, 2, 1), date(2024, 2, 29)),
        ("2025-H1", date(2025, 4, 1), date(2025, 9, 30)),
        ("2025-H2", date(2025, 10, 1), date(2026, 3, 31)),
        ("FY2025", date(2025, 4, 1), date(2026, 3, 31)),
        ("2025-05-01..2025-06-15", date(2025, 5, 1), date(2025, 6, 15)),
        ("all", None, None),
    ],
)
def test_period_parsing(text, start, end):
    period = Period.parse(text)
    assert (period.start, period.end, period.key) == (start, end, text)


@pytest.mark.parametrize("text", ["2025-13", "2025-H3", "FY25", "soon", "2025-02-30.."])
def test_bad_periods_are_refused(text):
    with pytest.raises(ValueError):
        Period.parse(text)


def test_period_steps_and_labels():
    assert Period.parse("2025-H2").next() == Period.parse("2026-H1")
    assert Period.parse("2025-H1").previous() == Period.parse("2024-H2")
    assert Period.parse("2025-01").previous() == Period.parse("2024-12")
    assert Period.parse("2025-12").next() == Period.parse("2026-01")
    assert Period.containing(date(2026, 3, 31)) == Period.parse("2025-H2")
    assert Period.parse("2025-H1").label == "2025年度 上期（4月〜9月）"
    assert Period.parse("2025-04").label == "2025年4月"


@pytest.mark.parametrize(
    ("text", "kind", "label", "previous", "following"),
    [
        ("2025-04", PeriodKind.MONTH, "2025年4月", "2025-03", "2025-05"),
        ("2025-H1", PeriodKind.HALF, "2025年度 上期（4月〜9月）", "2024-H2", "2025-H2"),
        ("2025-H2", PeriodKind.HALF, "2025年度 下期（10月〜3月）", "2025-H1", "2026-H1"),
        ("FY2025", PeriodKind.FISCAL_YEAR, "2025年度", "FY2024", "FY2026"),
        ("2025-05-01..2025-06-15", PeriodKind.RANGE, None, None, None),
        ("..2025-06-15", PeriodKind.RANGE, None, None, None),
        ("all", PeriodKind.ALL, "全期間", None, None),
    ],
)
def test_a_period_knows_its_kind(text, kind, label, previous, following):
    """Parsed once, a period keeps its kind; its label and its steps come from the kind."""
    period = Period.parse(text)
    assert period.kind is kind
    assert period.key == text
    if label is not None:
        assert period.label == label
    assert (period.previous().key if period.previous() else None) == previous
    assert (period.next().key if period.next() else None) == following


def test_the_constructors_set_the_kind():
    assert Period.month(2025, 4).kind is PeriodKind.MONTH
    assert Period.half(2025, 2).kind is PeriodKind.HALF
    assert Period.fiscal_year(2025).kind is PeriodKind.FISCAL_YEAR
    assert Period.between(date(2025, 4, 1), None).kind is PeriodKind.RANGE
    assert Period.all_time().kind is PeriodKind.ALL
    day = date(2025, 10, 9)
    assert Period.containing(day, PeriodKind.MONTH) == Period.parse("2025-10")
    assert Period.containing(day, PeriodKind.FISCAL_YEAR) == Period.parse("FY2025")
    assert Period.containing(day, "year") == Period.parse("FY2025")  # the kind's value
    assert Period.containing(day) == Period.parse("2025-H2")


def test_a_range_over_exactly_a_half_year_is_still_a_range():
    """A range is not read again for the half or the month it happens to cover: its kind
    stays, and so do its key, label and (no) steps."""
    period = Period.parse("2025-04-01..2025-09-30")
    assert period.kind is PeriodKind.RANGE
    assert period.label == "2025-04-01 〜 2025-09-30"
    assert (period.previous(), period.next()) == (None, None)
    assert period != Period.parse("2025-H1")


def test_the_steps_stop_at_the_ends_of_the_range_of_periods():
    assert Period.parse("1990-01").previous() is None
    assert Period.parse("FY1990").previous() is None
    assert Period.parse("2099-H2").next() is None  # 2100-H1 starts past March 2100
    assert Period.parse("FY2099").next() is None


@pytest.mark.parametrize(
    ("text", "monthly"),
    [
        ("2025-04", True),
        ("2025-04-03..2025-04-20", True),
        ("2025-04-20..2025-05-03", False),
        ("2025-H1", False),
        ("FY2025", False),
        ("all", False),
        ("2025-04-01..", False),
    ],
)
def test_a_period_within_one_month_is_monthly(text, monthly):
    """It has the monthly report (no member pages)."""
    assert Period.parse(text).is_monthly is monthly
