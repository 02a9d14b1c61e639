"""A game (半荘): entry form, detail with its history, delete."""

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import redirect_to_login
from django.contrib.messages.storage.base import BaseStorage
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from members.models import Member
from members.roles import is_organizer, organizer_required
from scoring.entry import Conflict, Refused, Saved, save_game, send_game
from scoring.entry_check import entry_check_data
from scoring.forms import (
    GameForm,
    ScoreUnit,
    initial_for_game,
    query_number,
)
from scoring.history import game_history
from scoring.meet_draw import drawn_table, three_player_rule_set
from scoring.models import EntryPreference, Hanchan, Meet
from scoring.notation import seat_label
from scoring.views import HtmxHttpRequest


def _live_check_signed_in(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A live check (htmx) sent after the session has ended is answered with a note in the
    live-check box and a way to sign in again, not with the sign-in page drawn inside it.
    The page keeps what was typed (static/js/game_form.js) and puts it back after sign-in.
    Anything else from a visitor not signed in goes to sign in, as LoginRequiredMiddleware
    would send it."""

    @login_not_required
    @wraps(view)
    def check(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if not request.htmx:
            return redirect_to_login(request.get_full_path())
        login = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': request.path})}"
        return render(
            request,
            "scoring/game_form.html#settlement",
            {"preview": {"signed_out": True, "login_url": login}},
        )

    return check


@_live_check_signed_in
@organizer_required
@vary_on_headers("HX-Request")
def game_create(request: HtmxHttpRequest, meet_pk: int) -> HttpResponse:
    meet = get_object_or_404(Meet, pk=meet_pk)
    initial: dict[str, Any] = {
        "table_no": query_number(request.GET.get("table")) or 1,
        "round_no": query_number(request.GET.get("round")) or 1,
        "rule_set": meet.rule_set_id,
        "unit": _score_unit(request),
    }
    # A drawn table (卓組み) opens with its players, a table of three under the 3-player rules.
    drawn = drawn_table(meet, initial["round_no"], initial["table_no"])
    if drawn is not None:
        initial["players"] = list(drawn.players)
        three = three_player_rule_set(meet) if drawn.three_players else None
        if three is not None:
            initial["rule_set"] = three.pk
    return _game_form(request, meet, None, initial)


@_live_check_signed_in
@organizer_required
@vary_on_headers("HX-Request")
def game_edit(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Hanchan.objects.select_related("meet"), pk=pk)
    return _game_form(request, game.meet, game, initial_for_game(game))


def _game_form(
    request: HtmxHttpRequest, meet: Meet, game: Hanchan | None, initial: dict[str, Any]
) -> HttpResponse:
    template = "scoring/game_form.html"
    if meet.is_final:
        messages.error(request, _("This meet is finalised; reopen it to change games."))
        return redirect("scoring:meet-detail", pk=meet.pk)
    form = GameForm(request.POST or None, initial=initial, meet=meet, game=game)
    if request.method == "POST" and request.htmx and request.POST.get("preview"):
        return render(request, template + "#settlement", {"preview": form.preview()})
    if request.method == "POST":
        if form.is_valid():
            _keep_score_unit(request, form.cleaned_data["unit"])
        outcome = save_game(form)
        if isinstance(outcome, Saved):
            # Saved again (the same form sent twice: Enter pressed twice) says it as once.
            saved = outcome.game
            _say_once(request, _("Saved %(game)s.") % {"game": saved})
            if outcome.added_to_attendance:
                names = "、".join(m.name for m in outcome.added_to_attendance)
                messages.info(request, _("Added to the attendance: %(names)s.") % {"names": names})
            return redirect(f"{saved.meet.get_absolute_url()}#game-{saved.pk}")
        if isinstance(outcome, Conflict) and outcome.stored is not None and outcome.stored == game:
            # The game edited changed meanwhile: show the newer data, the refusal on top.
            fresh = outcome.stored
            form = GameForm(initial=initial_for_game(fresh), meet=meet, game=fresh)
            form.stale_message = outcome.reason
        # Otherwise refused, or another game in the way: the form says why beside the fields.
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        template,
        {
            "form": form,
            "meet": meet,
            "game": game,
            "members": _members_for_typeahead(meet),
            "players": form.players,
            "preview": _preview_at_load(form),
            "check_data": entry_check_data(meet),
            # a new game of a drawn table: its seats may be set from the dice in taps (and a
            # stored game's, from the record sheet, on its edit form: the template's ``game``)
            "from_draw": game is None and bool(initial.get("players")),
        },
        status=status,
    )


@login_not_required
@require_POST
def game_send(request: HttpRequest, meet_pk: int) -> JsonResponse:
    """A game a tablet kept while offline, sent with the id it gave it (``sent_as``): the
    same fields as the game form, answered in JSON for the page's queue.

    - ``saved`` (200): stored now, or stored before in this meet for this id (``again``)
      and holding what was sent, even if the meet was finalised since;
    - ``refused`` (400): the game cannot stand (the form's messages, as the page shows them);
    - ``conflict`` (409): the table and round hold another game, the meet's game for this
      id holds something else, or the meet was finalised: the device keeps its game as
      要確認, with ``stored``, the game on the server (none for a finalised meet);
    - ``signed_out`` (401) or ``not_organizer`` (403): nothing is stored; sign in and send.

    With ``replace`` (a game of this meet) and ``version`` (the version of it the device was
    shown in a conflict), the device's game replaces that one: the organizer kept the
    device's version (要確認, 「この端末の方を残す」). A stale version is a conflict again.
    """
    if not request.user.is_authenticated:
        login = resolve_url(settings.LOGIN_URL)
        return JsonResponse({"status": "signed_out", "login": login}, status=401)
    if not is_organizer(request.user):
        return JsonResponse({"status": "not_organizer"}, status=403)
    meet = get_object_or_404(Meet, pk=meet_pk)
    match send_game(meet, request.POST):
        case Saved(game=game, again=again):
            return _saved(game, again=again)
        case Refused(messages=said):
            return JsonResponse({"status": "refused", "messages": list(said)}, status=400)
        case Conflict(reason=reason, stored=stored):
            return _conflict(meet, reason, stored)


def _saved(game: Hanchan, *, again: bool) -> JsonResponse:
    return JsonResponse(
        {
            "status": "saved",
            "again": again,
            "game": game.pk,
            "url": reverse("scoring:game-detail", args=[game.pk]),
        }
    )


def _conflict(meet: Meet, reason: str, stored: Hanchan | None = None) -> JsonResponse:
    answer: dict[str, Any] = {"status": "conflict", "reason": reason, "meet": meet.pk}
    if stored is not None:
        answer["stored"] = {
            "game": stored.pk,
            "version": stored.version,
            "url": reverse("scoring:game-detail", args=[stored.pk]),
            "lines": [
                {"seat": seat_label(r.seat), "name": r.member.name, "score": r.score}
                for r in stored.results.select_related("member").order_by("seat")
            ],
        }
    return JsonResponse(answer, status=409)


def _preview_at_load(form: GameForm) -> dict[str, Any]:
    """The live check drawn with the page: of what was sent, or of a stored game being
    edited (it is drawn before any key is typed); a new form's is empty."""
    if form.is_bound:
        return form.preview()
    if form.game is not None:
        return form.bound_to_initial().preview()
    return {"ready": False}


def _score_unit(request: HttpRequest) -> str:
    """The unit this login typed scores in last (kept with the login); the
    session's, as before, when the login has none kept yet."""
    user = request.user.pk
    kept = EntryPreference.objects.filter(user_id=user).first() if user is not None else None
    if kept is not None and kept.score_unit in {ScoreUnit.POINTS, ScoreUnit.HUNDREDS}:
        return kept.score_unit
    unit: str = request.session.get("score_unit", ScoreUnit.POINTS)
    return unit


def _keep_score_unit(request: HttpRequest, unit: str) -> None:
    request.session["score_unit"] = unit
    if request.user.pk is not None:
        EntryPreference.objects.update_or_create(
            user_id=request.user.pk, defaults={"score_unit": unit}
        )


def _say_once(request: HttpRequest, text: str) -> None:
    """Queue a success message unless the same one waits to be shown already."""
    waiting = messages.get_messages(request)
    already = any(m.message == text for m in waiting)
    if isinstance(waiting, BaseStorage):
        waiting.used = False  # reading them above must not drop them
    if not already:
        messages.success(request, text)


def _members_for_typeahead(meet: Meet) -> list[Member]:
    attendees = list(meet.attendees.all())
    others = Member.objects.active().exclude(pk__in=[m.pk for m in attendees])
    return attendees + list(others)


@require_safe
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(
        Hanchan.objects.with_results().select_related("meet", "rule_set"), pk=pk
    )
    return render(
        request, "scoring/game_detail.html", {"game": game, "history": game_history(game)}
    )


@organizer_required
def game_delete(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Hanchan.objects.select_related("meet"), pk=pk)
    if request.method != "POST" and game.meet.is_final:  # as the edit: no page to confirm
        messages.error(request, _("This meet is finalised; reopen it to change games."))
        return redirect("scoring:game-detail", pk=pk)
    if request.method == "POST":
        try:
            game.remove()
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return redirect("scoring:game-detail", pk=pk)
        messages.success(request, _("Deleted %(game)s.") % {"game": game})
        return redirect("scoring:meet-detail", pk=game.meet.pk)
    return render(request, "scoring/game_delete.html", {"game": game})
