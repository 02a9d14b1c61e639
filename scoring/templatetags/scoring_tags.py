"""Display helpers for Japanese score-sheet conventions (layout only, no arithmetic)."""

from decimal import Decimal

from django import template

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
def points(value: int | None) -> str:
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
