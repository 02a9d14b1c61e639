"""The meets: home page, list, create/edit, the grid of a meet, finalise and reopen."""

from itertools import groupby

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from members.context_processors import own_member
from members.roles import keeps_the_site, organizer_required
from scoring.backups import last_backup
from scoring.forms import (
    DrawForm,
    MeetForm,
    ReopenForm,
)
from scoring.meet_draw import (
    draw_out_of_date,
    first_round_not_started,
    grid_with_draw,
    missing_key,
    missing_tables,
    missing_text,
    parse_missing_key,
    redraw_from,
    sheet_started_rounds,
    stored_draw,
)
from scoring.models import Hanchan, Meet
from scoring.standings import MeetSheet, meet_sheet


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The latest meet's games, and the meets before it (with their number of games). Planned
    meets after today (the schedule's) are not the latest yet."""
    meets = (
        Meet.objects.filter(date__lte=timezone.localdate())
        .select_related("rule_set")
        .order_by("-date", "kind")
    )
    latest = meets.prefetch_related(Prefetch("hanchans", Hanchan.objects.with_results())).first()
    # annotate() with Count drops Meta.ordering (GROUP BY): the order is given again here.
    earlier = (
        meets.annotate(games=Count("hanchans")).order_by("-date", "kind")[1:6] if latest else []
    )
    # The signed-in member's own games first; the other tables fold away on a phone.
    me = own_member(request)
    games = list(latest.hanchans.all()) if latest else []
    own = [g for g in games if me and any(r.member_id == me.pk for r in g.results.all())]
    others = [g for g in games if g not in own]
    context: dict[str, object] = {
        "latest": latest,
        "earlier": earlier,
        "own_games": own,
        "other_games": others,
    }
    if keeps_the_site(request.user):  # the last nightly backup, a warning when it is old
        context["backup"] = backup = last_backup()
        context["backup_stale"] = backup.stale(timezone.now())
    return render(request, "scoring/home.html", context)


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
            # Kept on the organizer's device for entry without Wi-Fi (static/js/offline.js),
            # with every game form the page links to (data-keep-offline).
            "offline_keep": [
                reverse("scoring:meet-detail", args=[meet.pk]),
                reverse("scoring:draw-board", args=[meet.pk]),
                reverse("scoring:game-create", args=[meet.pk]),
            ],
            **_draw_context(meet, sheet),
        },
    )


def _draw_context(meet: Meet, sheet: MeetSheet) -> dict[str, object]:
    """What the meet page adds for the draw: the grid with the drawn tables, the draw form."""
    drawn = stored_draw(meet)
    started = sheet_started_rounds(sheet)
    return {
        "drawn": drawn,
        "draw_out_of_date": draw_out_of_date(meet, drawn, started),
        "grid": grid_with_draw(sheet, drawn),
        "draw_form": DrawForm(
            initial={"draw_mode": meet.draw_mode, "from_round": redraw_from(started)}
        ),
        "can_draw": first_round_not_started(started) is not None,
    }


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
