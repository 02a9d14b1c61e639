"""The template filters: the club's notation (``scoring.notation``) registered, and two helpers
of layout only (no arithmetic)."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from members.models import club_name_in_scope
from scoring.forms import SETTLEMENT_MESSAGES
from scoring.glossary import GLOSSARY
from scoring.notation import meet_date, points, rate, seat_label, sign_class, signed, signed_p
from scoring.standings import DayLine, GameLine

register = template.Library()

# The name of the club whose handout this is (the site's own name for its one club).
register.simple_tag(club_name_in_scope, name="club_name")

# The club's notation (scoring/notation.py), registered as filters under its own names.
register.filter("signed_p", signed_p)
register.filter("seat", seat_label)
register.filter("points", points)
register.filter("sign_class", sign_class)
register.filter("meet_date", meet_date)
register.filter("rate", rate)
register.filter("signed", signed)


@register.simple_tag
def settlement_says(key: str) -> str:
    """A line of the live check that its data does not carry (forms.SETTLEMENT_MESSAGES)."""
    return str(SETTLEMENT_MESSAGES[key])


@register.filter
def css_string(value: object) -> str:
    """Text for a CSS string literal ("…" in @page margin boxes): escape \\ and "."""
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


@register.filter
def by_round(day: DayLine, rounds: int) -> list[GameLine | None]:
    """A daily-sheet line's games in round order (see DayLine.by_round)."""
    return day.by_round(rounds)


def _ruby(word: str, reading: str) -> SafeString:
    """The word with its reading over it (shown when the member turns ruby on: site.css)."""
    if not reading or not (get_language() or "").startswith("ja"):
        return format_html("{}", word)
    return format_html("<ruby>{}<rt>{}</rt></ruby>", word, reading)


@register.simple_tag
def term(key: str) -> SafeString:
    """A hard word of the club's (``scoring.glossary``): its reading over it, and its meaning
    in one line when tapped or focused (static/js/terms.js)."""
    said = GLOSSARY[key]
    return format_html(
        '<button type="button" class="term" data-meaning="{}">{}</button>',
        said.meaning,
        _ruby(str(said.word), said.reading),
    )


@register.filter
def name_ruby(member: object) -> SafeString:
    """A member's name with the furigana over it where it is known."""
    return _ruby(str(getattr(member, "name", member)), getattr(member, "furigana", "") or "")
