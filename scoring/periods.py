"""Periods of the standings: a month, a half-year (上期/下期), a fiscal year, a range of days
or all time. A period is read once (``Period.parse``) into a value that knows its kind."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring.notation import FIRST_DAY, LAST_DAY


class PeriodOutOfRange(ValueError):
    """A period written right but reaching outside ``FIRST_DAY``–``LAST_DAY`` (FY9998)."""


class PeriodKind(StrEnum):
    """What a period is; its value is the word ``Period.containing`` takes for it."""

    MONTH = "month"  # 2025-04
    HALF = "half"  # 2025-H1, 2025-H2: 上期 April–September, 下期 October–March
    FISCAL_YEAR = "year"  # FY2025: April 2025 – March 2026
    RANGE = "range"  # 2025-04-01..2025-06-30, either end open
    ALL = "all"  # all


@dataclass(frozen=True)
class Period:
    """A span of meet dates, both ends included; ``None`` ends are open.

    Read once (``parse``) or made by a constructor, it knows its ``kind``: nothing reads its
    ``key`` again."""

    start: date | None
    end: date | None
    key: str  # how it is written in URLs and commands: 2025-04, 2025-H1, FY2025, all, …
    kind: PeriodKind

    @classmethod
    def month(cls, year: int, month: int) -> Period:
        last = calendar.monthrange(year, month)[1]
        return cls(
            date(year, month, 1), date(year, month, last), f"{year}-{month:02d}", PeriodKind.MONTH
        )

    @classmethod
    def half(cls, fiscal_year: int, half: int) -> Period:
        """上期 (half 1): April–September; 下期 (half 2): October–March of the next year."""
        if half == 1:
            return cls(
                date(fiscal_year, 4, 1),
                date(fiscal_year, 9, 30),
                f"{fiscal_year}-H1",
                PeriodKind.HALF,
            )
        return cls(
            date(fiscal_year, 10, 1),
            date(fiscal_year + 1, 3, 31),
            f"{fiscal_year}-H2",
            PeriodKind.HALF,
        )

    @classmethod
    def fiscal_year(cls, fiscal_year: int) -> Period:
        return cls(
            date(fiscal_year, 4, 1),
            date(fiscal_year + 1, 3, 31),
            f"FY{fiscal_year}",
            PeriodKind.FISCAL_YEAR,
        )

    @classmethod
    def between(cls, start: date | None, end: date | None) -> Period:
        key = f"{start or ''}..{end or ''}"
        return cls(start, end, key, PeriodKind.RANGE)

    @classmethod
    def all_time(cls) -> Period:
        return cls(None, None, "all", PeriodKind.ALL)

    @classmethod
    def containing(cls, day: date, kind: str = PeriodKind.HALF) -> Period:
        """The month, half or fiscal year (``PeriodKind.MONTH``, ``HALF``, ``FISCAL_YEAR``, or
        their values) a day falls in; any other kind gives the half."""
        fiscal_year = day.year if day.month >= 4 else day.year - 1
        if kind == PeriodKind.MONTH:
            return cls.month(day.year, day.month)
        if kind == PeriodKind.FISCAL_YEAR:
            return cls.fiscal_year(fiscal_year)
        return cls.half(fiscal_year, 1 if 4 <= day.month <= 9 else 2)

    @classmethod
    def parse(cls, text: str) -> Period:
        """Read 2025-04, 2025-H1, 2025-H2, FY2025, all, or 2025-04-01..2025-06-30 (either end
        may be left open). Raise ValueError for anything else, and PeriodOutOfRange for one
        reaching outside ``FIRST_DAY``–``LAST_DAY``."""
        period = cls._parse(text.strip())
        if not period.within_range():
            raise PeriodOutOfRange(f"not a period from {FIRST_DAY} to {LAST_DAY}: {text!r}")
        return period

    def within_range(self) -> bool:
        return all(end is None or FIRST_DAY <= end <= LAST_DAY for end in (self.start, self.end))

    @classmethod
    def _parse(cls, text: str) -> Period:
        if text == "all":
            return cls.all_time()
        if m := re.fullmatch(r"(\d{4})-(\d{2})", text):
            year, month = int(m[1]), int(m[2])
            if 1 <= month <= 12:
                return cls.month(year, month)
        try:
            if m := re.fullmatch(r"(\d{4})-H([12])", text):
                return cls.half(int(m[1]), int(m[2]))
            if m := re.fullmatch(r"FY(\d{4})", text):
                return cls.fiscal_year(int(m[1]))
        except ValueError:  # its second half-year ends past the year 9999
            raise PeriodOutOfRange(text) from None
        if m := re.fullmatch(r"(\d{4}-\d{2}-\d{2})?\.\.(\d{4}-\d{2}-\d{2})?", text):
            try:
                start = date.fromisoformat(m[1]) if m[1] else None
                end = date.fromisoformat(m[2]) if m[2] else None
            except ValueError:
                pass
            else:
                return cls.between(start, end)
        raise ValueError(f"not a period: {text!r}")

    @property
    def is_monthly(self) -> bool:
        """Within one calendar month (a month, or a range inside one): such a period has the
        monthly report, with no member pages."""
        return bool(
            self.start
            and self.end
            and self.start.month == self.end.month
            and self.start.year == self.end.year
        )

    @property
    def fiscal_year_no(self) -> int | None:
        """The fiscal year of a half or a fiscal year: the year of its start (an April, or the
        October of 下期); None for other kinds."""
        if self.kind in (PeriodKind.HALF, PeriodKind.FISCAL_YEAR) and self.start is not None:
            return self.start.year
        return None

    @property
    def half_no(self) -> int | None:
        """1 for 上期 (April–September), 2 for 下期 (October–March); None for other kinds."""
        if self.kind is PeriodKind.HALF and self.start is not None:
            return 1 if self.start.month == 4 else 2
        return None

    @property
    def label(self) -> str:
        """2025年4月 / 2025年度 上期 / 2025年度 / 全期間 (in the active language: the month in
        words in English, November 2026)."""
        if self.kind is PeriodKind.ALL:
            return _("All time")
        if self.kind is PeriodKind.MONTH and self.start is not None:
            return date_format(self.start, "YEAR_MONTH_FORMAT")  # 2025年4月, April 2025
        if self.kind is PeriodKind.HALF:
            half = _("first half (Apr–Sep)") if self.half_no == 1 else _("second half (Oct–Mar)")
            return _("FY%(year)s %(half)s") % {"year": self.fiscal_year_no, "half": half}
        if self.kind is PeriodKind.FISCAL_YEAR:
            return _("FY%(year)s") % {"year": self.fiscal_year_no}
        return _("%(start)s to %(end)s") % {"start": self.start or "", "end": self.end or ""}

    def previous(self) -> Period | None:
        return self._step(-1)

    def next(self) -> Period | None:
        return self._step(1)

    def _step(self, direction: int) -> Period | None:
        try:
            step = self._unchecked_step(direction)
        except ValueError:  # past the year 9999
            return None
        return step if step is not None and step.within_range() else None

    def _unchecked_step(self, direction: int) -> Period | None:
        if self.start is None or self.end is None:
            return None
        if self.kind is PeriodKind.MONTH:
            day = self.start + timedelta(days=32) if direction > 0 else self.start - timedelta(1)
            return Period.month(day.year, day.month)
        if self.kind is PeriodKind.HALF and self.fiscal_year_no is not None:
            index = self.fiscal_year_no * 2 + (self.half_no or 1) - 1 + direction
            return Period.half(index // 2, index % 2 + 1)
        if self.kind is PeriodKind.FISCAL_YEAR and self.fiscal_year_no is not None:
            return Period.fiscal_year(self.fiscal_year_no + direction)
        return None
