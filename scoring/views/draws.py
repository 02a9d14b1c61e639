"""The table draw (卓組み) of a meet: draw or redraw (organizer), the board to read across the
room on a tablet, the A4 PDF, and the draw shown in the meet's grid."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from members.models import Member
from members.roles import organizer_required
from scoring.forms import SEED_LIMIT, DrawForm
from scoring.meet_draw import (
    DrawnTable,
    MeetDraw,
    make_draw,
    save_draw,
    stored_draw,
    substitutes,
    three_player_rule_set,
)
from scoring.models import Meet
from scoring.notation import meet_date
from scoring.reports import weasy
from scoring.standings import MeetSheet, SheetGame


@dataclass(frozen=True)
class GridCell:
    """A cell of the meet's grid: the game entered there, the drawn table, and who played
    instead of a drawn player (代打)."""

    table_no: int
    game: SheetGame | None
    drawn: DrawnTable | None
    substitutes: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class GridRow:
    round_no: int
    cells: tuple[GridCell, ...]
    sitting_out: tuple[str, ...]


def grid_with_draw(sheet: MeetSheet, drawn: MeetDraw | None) -> list[GridRow]:
    """The meet's grid (rounds × tables) with the drawn tables in it: every drawn table has a
    cell, and a game at a drawn table names its substitutes."""
    tables = max(sheet.tables, drawn.tables if drawn else 0)
    games = {(g.round_no, g.table_no): g for r in sheet.rounds for g in r.games}
    rows = []
    for row in sheet.grid:
        cells = []
        for table_no in range(1, tables + 1):
            game = games.get((row.round_no, table_no))
            table = drawn.table(row.round_no, table_no) if drawn else None
            subs: tuple[tuple[str, str], ...] = ()
            if game is not None and table is not None:
                subs = tuple(
                    substitutes(
                        [(m.pk, m.name) for m in table.players],
                        [(line.member_id, line.name) for line in game.lines],
                    )
                )
            cells.append(GridCell(table_no, game, table, subs))
        out = next(
            (r.sitting_out for r in (drawn.rounds if drawn else ()) if r.round_no == row.round_no),
            (),
        )
        rows.append(
            GridRow(
                row.round_no,
                tuple(cells),
                tuple(m.name for m in out),
            )
        )
    return rows


def draw_form_for(meet: Meet, started: set[int]) -> DrawForm:
    first_open = min(max(started, default=0) + 1, Meet.ROUNDS)
    return DrawForm(initial={"draw_mode": meet.draw_mode, "from_round": first_open})


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


def _board_context(meet: Meet, drawn: MeetDraw | None) -> dict[str, object]:
    three = three_player_rule_set(meet)
    return {
        "meet": meet,
        "drawn": drawn,
        "three_rule_set": three,
        "has_three": bool(drawn and any(t.three_players for r in drawn.rounds for t in r.tables)),
    }


@require_safe
def draw_board(request: HttpRequest, pk: int) -> HttpResponse:
    """The draw in big type, to read across the room: every round, or one (``?round=2``)."""
    meet = get_object_or_404(Meet.objects.select_related("rule_set"), pk=pk)
    drawn = stored_draw(meet)
    shown = request.GET.get("round", "")
    rounds = drawn.rounds if drawn else ()
    if shown.isascii() and shown.isdigit() and drawn:
        rounds = tuple(r for r in drawn.rounds if r.round_no == int(shown)) or drawn.rounds
    else:
        shown = ""
    context = _board_context(meet, drawn)
    context.update(
        {
            "rounds": rounds,
            "shown": int(shown) if shown else None,
            "round_numbers": [r.round_no for r in drawn.rounds] if drawn else [],
        }
    )
    return render(request, "scoring/draw_board.html", context)


def render_draw_pdf(meet: Meet, drawn: MeetDraw | None) -> bytes:
    """卓組み表: the three rounds of the draw on one A4 page (WeasyPrint, the reports' base)."""
    context = _board_context(meet, drawn)
    context.update(
        {
            "title": _("Table draw"),
            "period_label": f"{meet_date(meet.date)} {meet.get_kind_display()}",
            "made_on": timezone.localdate(),
        }
    )
    return weasy.write_pdf(render_to_string("reports/draw.html", context))


@require_safe
def draw_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    meet = get_object_or_404(Meet.objects.select_related("rule_set"), pk=pk)
    response = HttpResponse(
        render_draw_pdf(meet, stored_draw(meet)), content_type="application/pdf"
    )
    name = f"shirakaba-draw-{meet.date:%Y-%m-%d}-{meet.kind}.pdf"
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@dataclass(frozen=True)
class OutOfDate:
    """Who the draw's rounds not yet started seat but no longer attend, and who attends but
    has no place in them (the attendance changed after the draw)."""

    gone: tuple[Member, ...]
    missing: tuple[Member, ...]


def draw_out_of_date(meet: Meet, drawn: MeetDraw | None, started: set[int]) -> OutOfDate | None:
    waiting = [r for r in drawn.rounds if r.round_no not in started] if drawn else []
    if not waiting:
        return None
    attending = set(meet.attendees.all())
    placed = {m for r in waiting for t in r.tables for m in t.players} | {
        m for r in waiting for m in r.sitting_out
    }
    gone, missing = placed - attending, attending - placed
    if not gone and not missing:
        return None
    return OutOfDate(
        tuple(sorted(gone, key=lambda m: m.furigana)),
        tuple(sorted(missing, key=lambda m: m.furigana)),
    )


def meet_draw_context(meet: Meet, sheet: MeetSheet) -> dict[str, object]:
    """What the meet page adds for the draw: the grid with the drawn tables, the draw form."""
    drawn = stored_draw(meet)
    started = {r.round_no for r in sheet.rounds if r.games}
    return {
        "drawn": drawn,
        "draw_out_of_date": draw_out_of_date(meet, drawn, started),
        "grid": grid_with_draw(sheet, drawn),
        "draw_form": draw_form_for(meet, started),
        "can_draw": max(started, default=0) < Meet.ROUNDS,
    }
