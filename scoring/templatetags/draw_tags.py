"""The table draw (卓組み) on pages that do not draw it: a game's substitutes (代打)."""

from django import template

from scoring.meet_draw import drawn_table, substitutes
from scoring.models import Hanchan

register = template.Library()


@register.simple_tag
def game_substitutes(game: Hanchan) -> list[tuple[str, str]]:
    """(drawn player, who played instead) when the game was played at a drawn table by other
    players than the draw's."""
    drawn = drawn_table(game.meet, game.round_no, game.table_no)
    if drawn is None:
        return []
    return substitutes(
        [(m.pk, m.name) for m in drawn.players],
        [(r.member_id, r.member.name) for r in game.results.all()],
    )
