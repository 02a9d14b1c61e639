"""The meets: home page, list, create/edit, the grid of a meet, finalise and reopen."""

from itertools import groupby

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe

from members.roles import organizer_required
from scoring.forms import (
    MeetForm,
    ReopenForm,
)
from scoring.meet_draw import stored_draw
from scoring.models import Meet
from scoring.standings import meet_sheet
from scoring.views.draws import grid_with_draw, meet_draw_context
from scoring.views.games import games_with_results


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The latest meet's games, and the meets before it (with their number of games)."""
    meets = Meet.objects.select_related("rule_set").order_by("-date", "kind")
    latest = meets.prefetch_related(Prefetch("hanchans", games_with_results())).first()
    # annotate() with Count drops Meta.ordering (GROUP BY): the order is given again here.
    earlier = (
        meets.annotate(games=Count("hanchans")).order_by("-date", "kind")[1:6] if latest else []
    )
    return render(request, "scoring/home.html", {"latest": latest, "earlier": earlier})


@require_safe
def meet_list(request: HttpRequest) -> HttpResponse:
    meets = Meet.objects.annotate(games=Count("hanchans")).order_by("-date", "kind")
    months = [
        (month, list(group)) for month, group in groupby(meets, key=lambda m: m.date.replace(day=1))
    ]
    return render(request, "scoring/meet_list.html", {"months": months})


@organizer_required
def meet_create(request: HttpRequest) -> HttpResponse:
    form = MeetForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        meet = form.save()
        messages.success(request, _("Made the meet of %(meet)s.") % {"meet": meet})
        if form.kind_from_date:
            messages.info(
                request,
                _("Set the kind to %(kind)s, from the date.") % {"kind": meet.get_kind_display()},
            )
        return redirect("scoring:meet-detail", pk=meet.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "scoring/meet_form.html", {"form": form}, status=status)


@organizer_required
def meet_edit(request: HttpRequest, pk: int) -> HttpResponse:
    meet = get_object_or_404(Meet, pk=pk)
    if meet.is_final:
        messages.error(request, _("This meet is finalised; reopen it to change it."))
        return redirect("scoring:meet-detail", pk=meet.pk)
    form = MeetForm(request.POST or None, instance=meet)
    if request.method == "POST" and form.is_valid():
        try:
            form.save()
        except ValidationError as error:  # finalised meanwhile
            messages.error(request, " ".join(error.messages))
            return redirect("scoring:meet-detail", pk=meet.pk)
        messages.success(request, _("Saved."))
        return redirect("scoring:meet-detail", pk=meet.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "scoring/meet_form.html", {"form": form, "meet": meet}, status=status)


@require_safe
def meet_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A grid of rounds (回戦) × tables (卓), each cell the game played there, or the players
    drawn for it (卓組み) until it is entered."""
    meet = get_object_or_404(Meet.objects.select_related("rule_set"), pk=pk)
    sheet = meet_sheet(meet, day_standings=False)
    return render(
        request,
        "scoring/meet_detail.html",
        {
            "meet": meet,
            "sheet": sheet,
            "downloads": [(_("Meet sheet (PDF)"), reverse("scoring:meet-pdf", args=[meet.pk]))],
            **meet_draw_context(meet, sheet),
        },
    )


def missing_tables(meet: Meet) -> list[tuple[int, int]]:
    """The tables (round, table) a meet is missing a game at, for 確定する to name.

    A drawn round must have a game at each of its drawn tables (a substitute's game counts;
    a sit-out is no table). A round not drawn, up to the club's ``Meet.ROUNDS``, must fill its
    row of the grid: the tables of the attendance, and any table entered in another round. An
    extra round (4回戦 on) is played by whoever wants to: nothing is missing there."""
    drawn = stored_draw(meet)
    drawn_rounds = {r.round_no for r in drawn.rounds} if drawn else set()
    missing = []
    for row in grid_with_draw(meet_sheet(meet, day_standings=False), drawn):
        for cell in row.cells:
            if row.round_no in drawn_rounds:
                expected = cell.drawn is not None
            else:
                expected = row.round_no <= Meet.ROUNDS
            if expected and cell.game is None:
                missing.append((row.round_no, cell.table_no))
    return missing


def missing_key(missing: list[tuple[int, int]]) -> str:
    """The missing tables as the confirmation form carries them: ``3-2,3-4``."""
    return ",".join(f"{r}-{t}" for r, t in missing)


def parse_missing_key(text: str) -> set[tuple[int, int]]:
    """What ``missing_key`` wrote; anything else is taken as nothing confirmed."""
    found = set()
    for part in text.split(",") if text else ():
        r, sep, t = part.partition("-")
        if not (sep and r.isascii() and r.isdigit() and t.isascii() and t.isdigit()):
            return set()
        if len(r) > 3 or len(t) > 3:
            return set()
        found.add((int(r), int(t)))
    return found


def missing_text(missing: list[tuple[int, int]]) -> str:
    """「1回戦 2卓、3回戦 2卓 が未入力です。」"""
    tables = pgettext("list separator", ", ").join(
        _("Round %(round)s table %(table)s") % {"round": r, "table": t} for r, t in missing
    )
    return _("%(tables)s not entered yet.") % {"tables": tables}


@organizer_required
def meet_finalise(request: HttpRequest, pk: int) -> HttpResponse:
    """確定する, in two steps: the page (GET, or a POST without ``confirm``) names the tables
    not entered yet and asks; the POST with ``confirm`` finalises, unless a table is missing
    now that the page did not name (a game deleted, a redraw meanwhile): then it asks again."""
    meet = get_object_or_404(Meet, pk=pk)
    if meet.is_final:
        messages.info(request, _("This meet is finalised already."))
        return redirect("scoring:meet-detail", pk=meet.pk)
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    if request.method == "POST" and request.POST.get("confirm"):
        confirmed = parse_missing_key(request.POST.get("missing", ""))
        try:
            with transaction.atomic():
                meet.lock_open()  # a game deleted now waits for the finalise, or lands before
                missing = missing_tables(meet)
                if set(missing) <= confirmed:
                    meet.finalise()
                    messages.success(
                        request,
                        _("The meet is finalised (確定). Its games can no longer change."),
                    )
                    return redirect("scoring:meet-detail", pk=meet.pk)
        except ValidationError:  # finalised meanwhile
            messages.info(request, _("This meet is finalised already."))
            return redirect("scoring:meet-detail", pk=meet.pk)
    else:
        missing = missing_tables(meet)
    return render(
        request,
        "scoring/meet_finalise.html",
        {
            "meet": meet,
            "missing": missing,
            "missing_text": missing_text(missing) if missing else "",
            "missing_key": missing_key(missing),
            "drawn": stored_draw(meet) is not None,
        },
    )


@organizer_required
def meet_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    meet = get_object_or_404(Meet, pk=pk)
    form = ReopenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        meet.reopen(form.cleaned_data["reason"])
        messages.success(request, _("The meet is open for changes again."))
        return redirect("scoring:meet-detail", pk=meet.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "scoring/meet_reopen.html", {"meet": meet, "form": form}, status=status)
