"""The club's repeating rule for its meets, as days of a calendar: pure, no Django.

The club holds 水曜会 twice a month and 土曜会 twice a month (DOMAIN.md, 「Meets (例会): 水曜会
(Wednesday) twice a month and 土曜会 (Saturday) twice a month」), on fixed weeks of the month
such as "the 1st and 3rd Wednesday and the 2nd and 4th Saturday". ``planned_days`` lists the
days such a rule gives between two days, so the organizer enters a half-year in one step.
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

WEEKS_OF_MONTH = (1, 2, 3, 4, 5)
"""The nth weekday of a month a rule may name: a month has at most five of any weekday."""


@dataclass(frozen=True)
class Repeat:
    """The nth ``weekday`` (Monday 0) of every month, for each n in ``weeks`` (1 = the first);
    ``label`` is carried along to say which meet it is (the meet's kind)."""

    weekday: int
    weeks: tuple[int, ...]
    label: str

    def __post_init__(self) -> None:
        if not 0 <= self.weekday <= 6:
            raise ValueError(f"weekday {self.weekday} is not 0 (Monday) to 6 (Sunday)")
        if not set(self.weeks) <= set(WEEKS_OF_MONTH):
            raise ValueError(f"weeks {self.weeks} are not among {WEEKS_OF_MONTH}")


def nth_weekday(year: int, month: int, weekday: int, n: int) -> date | None:
    """The nth ``weekday`` of the month (n from 1), or None when the month has fewer."""
    first = date(year, month, 1)
    day = 1 + (weekday - first.weekday()) % 7 + 7 * (n - 1)
    if day > calendar.monthrange(year, month)[1]:
        return None
    return date(year, month, day)


def _months(first: date, last: date) -> Iterable[tuple[int, int]]:
    year, month = first.year, first.month
    while (year, month) <= (last.year, last.month):
        yield year, month
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)


def planned_days(first: date, last: date, repeats: Iterable[Repeat]) -> list[tuple[date, str]]:
    """Every day from ``first`` to ``last`` (both included) that a rule names, with the rule's
    label, in order of the day (then of the label). A day two rules name comes twice."""
    rules = list(repeats)
    found = []
    for year, month in _months(first, last):
        for rule in rules:
            for n in rule.weeks:
                day = nth_weekday(year, month, rule.weekday, n)
                if day is not None and first <= day <= last:
                    found.append((day, rule.label))
    return sorted(found)
