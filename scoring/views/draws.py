"""The table draw (卓組み) of a meet: draw or redraw (organizer), and the board to read across
the room on a tablet. Its A4 PDF and the record sheet are handouts of the registry
(``reports/registry.py``, answered by views/downloads.py). The draw in the meet's grid is the
meet page's (``views/meets.py``, from ``meet_draw.grid_with_draw``)."""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from members.roles import organizer_required
from scoring.forms import SEED_LIMIT, DrawForm, query_number
from scoring.meet_draw import make_draw, save_draw, stored_draw
from scoring.models import Meet
from scoring.reports.table_draw import board_context


@organizer_required
@require_POST
def draw_make(request: HttpRequest, pk: int) -> HttpResponse:
    """Draw all three rounds, or redraw from a round not yet started, and keep the draw."""
    meet = get_object_or_404(Meet.objects.select_related("rule_set"), pk=pk)
    back = redirect(f"{meet.get_absolute_url()}#draw")
    if meet.is_final:
        messages.error(request, _("This meet is finalised; reopen it to change the draw."))
        return back
    form = DrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errs in form.errors.values() for e in errs))
        return back
    seed = form.cleaned_data["seed"]
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    from_round: int = form.cleaned_data["from_round"]
    try:
        with transaction.atomic():  # a refused draw leaves the mode as it was too
            if meet.draw_mode != form.cleaned_data["draw_mode"]:
                meet.draw_mode = form.cleaned_data["draw_mode"]
                meet.save()
            drawn = make_draw(meet, seed=seed, from_round=from_round)
            save_draw(meet, drawn, seed=seed)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return back
    if from_round == 1:
        messages.success(
            request, _("Drew the tables of every round (seed %(seed)s).") % {"seed": seed}
        )
    else:
        messages.success(
            request,
            _("Drew the tables again from round %(round)s (seed %(seed)s).")
            % {"round": from_round, "seed": seed},
        )
    return back


@require_safe
def draw_board(request: HttpRequest, pk: int) -> HttpResponse:
    """The draw in big type, to read across the room: every round, or one (``?round=2``)."""
    meet = get_object_or_404(Meet.objects.select_related("rule_set"), pk=pk)
    drawn = stored_draw(meet)
    shown = query_number(request.GET.get("round")) if drawn else None
    rounds = drawn.rounds if drawn else ()
    if shown is not None:
        rounds = tuple(r for r in rounds if r.round_no == shown) or rounds
    context = board_context(meet, drawn)
    context.update(
        {
            "rounds": rounds,
            "shown": shown,
            "round_numbers": [r.round_no for r in drawn.rounds] if drawn else [],
        }
    )
    return render(request, "scoring/draw_board.html", context)
