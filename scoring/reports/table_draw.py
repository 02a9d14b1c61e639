"""卓組み表: a meet's table draw, the three rounds on one A4 page (WeasyPrint, the reports'
base), and what the draw's board and its PDF both show of it (``board_context``)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.meet_draw import MeetDraw, three_player_rule_set
from scoring.models import Meet
from scoring.notation import meet_date
from scoring.reports import weasy


def board_context(meet: Meet, drawn: MeetDraw | None) -> dict[str, object]:
    three = three_player_rule_set(meet)
    return {
        "meet": meet,
        "drawn": drawn,
        "three_rule_set": three,
        "has_three": bool(drawn and any(t.three_players for r in drawn.rounds for t in r.tables)),
    }


def render_draw_pdf(meet: Meet, drawn: MeetDraw | None) -> bytes:
    """卓組み表: the three rounds of the draw on one A4 page (WeasyPrint, the reports' base)."""
    context = board_context(meet, drawn)
    context.update(
        {
            "title": _("Table draw"),
            "period_label": f"{meet_date(meet.date)} {meet.get_kind_display()}",
            "made_on": timezone.localdate(),
        }
    )
    return weasy.write_pdf(render_to_string("reports/draw.html", context))
