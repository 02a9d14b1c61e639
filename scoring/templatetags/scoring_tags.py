"""Display helpers for Japanese score-sheet conventions (layout only, no arithmetic)."""

from datetime import date
from decimal import Decimal

from django import template
from django.utils import dateformat
from django.utils.translation import get_language

from scoring.models import seat_label
from scoring.standings import DayLine, GameLine

register = template.Library()

MINUS = "\u2212"  # − (a real minus sign, as printed score sheets use)


@register.filter
def signed_p(value: Decimal | int | None) -> str:
    """+2.6 / −33.2 / 0.0: one decimal, a sign unless zero."""
    if value is None or value == "":
        return ""
    number = Decimal(value).quantize(Decimal("0.1"))
    if number == 0:
        return "0.0"
    return f"+{number}" if number > 0 else f"{MINUS}{-number}"


@register.filter
def seat(value: int) -> str:
    """A seat number as the page's language writes it: 東 南 西 北, or E S W N."""
    return seat_label(value)


@register.filter
def points(value: int | str | None) -> str:
    """32,600 / −3,200."""
    if value is None or value == "":
        return ""
    number = int(value)
    return f"{number:,}" if number >= 0 else f"{MINUS}{-number:,}"


@register.filter
def sign_class(value: Decimal | int | None) -> str:
    """A CSS class for a figure's sign (negative figures are shown in dark red)."""
    if value is None or value == "":
        return ""
    return "neg" if Decimal(value) < 0 else "pos" if Decimal(value) > 0 else "zero"


@register.filter
def meet_date(value: date | None, style: str = "") -> str:
    """2025年4月9日（水） in Japanese; Wed 9 Apr 2025 in English. ``"short"`` leaves out the
    year (4月9日（水）, Wed 9 Apr), for a table under a heading that names the period."""
    if value is None:
        return ""
    japanese = (get_language() or "ja").startswith("ja")
    if style == "short":
        return dateformat.format(value, "n月j日（D）" if japanese else "D j M")
    return dateformat.format(value, "Y年n月j日（D）" if japanese else "D j M Y")


@register.filter
def rate(value: Decimal | None) -> str:
    """0.333 → 33.3%; an empty rate (below the minimum of games) → —."""
    if value is None:
        return "—"
    return f"{(Decimal(value) * 100).quantize(Decimal('0.1'))}%"


@register.filter
def css_string(value: object) -> str:
    """Text for a CSS string literal ("…" in @page margin boxes): escape \\ and "."""
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


@register.filter
def by_round(day: DayLine, rounds: int) -> list[GameLine | None]:
    """A daily-sheet line's games in round order (see DayLine.by_round)."""
    return day.by_round(rounds)
