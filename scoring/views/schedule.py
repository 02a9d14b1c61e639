"""Before the meet: the schedule (the coming meets) and 出欠. The calendar feed and the 回覧板
are handouts of the registry (``reports/registry.py``, answered by views/downloads.py). A
planned meet is a ``Meet`` without games yet; results are entered on it on the day.

Who sees what: the schedule page, its feed and the notice are for members (and organizers);
visitors see the page and the feed only when the organizer opened the schedule
(``ClubSettings.schedule_public``, like the standings). A phone's calendar app cannot sign in,
so each member has a secret feed address of their own (``CalendarLink``)."""

from __future__ import annotations

from datetime import date, timedelta

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from members.context_processors import own_member
from members.models import Member
from members.roles import club_roles, is_organizer, open_to_visitors_when, organizer_required
from scoring.forms import AnswerForm, PlanForm
from scoring.models import AnswerChoice, CalendarLink, ClubSettings, Meet, RuleSet
from scoring.planning import coming_meets, planned
from scoring.views import HtmxHttpRequest


def _signed_in_member(request: HttpRequest) -> bool:
    return bool(club_roles(request.user))


@open_to_visitors_when(ClubSettings.schedule_is_public)
@vary_on_headers("HX-Request")
@require_safe
def schedule(request: HtmxHttpRequest) -> HttpResponse:
    """The coming meets in large type, each with the member's 参加 / 欠席 / 未定 buttons."""
    me = own_member(request)
    organizer = is_organizer(request.user)
    link = CalendarLink.objects.filter(member=me).first() if me else None
    public = ClubSettings.schedule_is_public()
    if link is not None:
        feed_url = request.build_absolute_uri(reverse("scoring:schedule-feed", args=[link.token]))
    elif public:
        feed_url = request.build_absolute_uri(reverse("scoring:schedule-public-feed"))
    else:
        feed_url = ""
    return render(
        request,
        "scoring/schedule.html",
        {
            "rows": planned(list(coming_meets()), me, with_names=organizer),
            "me": me,
            "choices": AnswerChoice.choices,
            "feed_url": feed_url,
            # webcal: opens the phone's calendar app, which subscribes to the address.
            "webcal_url": "webcal://" + feed_url.split("://", 1)[-1] if feed_url else "",
            "has_link": link is not None,
            "public": public,
            "is_organizer": organizer,
            "notice_months": _notice_months(),
        },
    )


def _notice_months() -> list[date]:
    """This month and the next, the months a notice is printed for."""
    this = timezone.localdate().replace(day=1)
    return [this, (this + timedelta(days=32)).replace(day=1)]


@require_POST
def answer(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """One tap: the signed-in member's 出欠 for this meet, or (an organizer's, with
    ``member``) the answer of a member who phoned in."""
    if not _signed_in_member(request):
        raise PermissionDenied
    meet = get_object_or_404(Meet, pk=pk)
    form = AnswerForm(request.POST)
    if not form.is_valid():
        return HttpResponse(_("Choose 参加, 欠席 or 未定."), status=400)
    who: Member | None = form.cleaned_data["member"]
    me = own_member(request)
    if who is not None and who != me:
        if not is_organizer(request.user):
            raise PermissionDenied
    else:
        who = me
    if who is None:
        return HttpResponse(_("This login belongs to no member."), status=400)
    try:
        meet.answer(who, form.cleaned_data["answer"], request.user)
    except ValidationError as error:
        return HttpResponse(" ".join(error.messages), status=409)
    if request.htmx:
        organizer_page = who != me
        if organizer_page:
            return render(
                request, "scoring/schedule_answers.html#answers", _answers_context(meet, who)
            )
        row = planned([meet], me, with_names=is_organizer(request.user))[0]
        context: dict[str, object] = {
            "row": row,
            "me": me,
            "choices": AnswerChoice.choices,
            "is_organizer": is_organizer(request.user),
        }
        return render(request, "scoring/schedule.html#planned-meet", context)
    messages.success(request, _("Answer kept: %(who)s, %(meet)s.") % {"who": who, "meet": meet})
    if who != me:
        return redirect("scoring:schedule-answers", pk=meet.pk)
    return redirect("scoring:schedule")


def _answers_context(meet: Meet, chosen: Member | None = None) -> dict[str, object]:
    """The organizer's 出欠 page; ``chosen``: the member just answered for, chosen again."""
    row = planned([meet], None, with_names=True)[0]
    answered = {m.pk for names in row.names.values() for m in names}
    return {
        "meet": meet,
        "row": row,
        "choices": AnswerChoice.choices,
        "silent": Member.objects.filter(is_active=True).exclude(pk__in=answered),
        "members": Member.objects.filter(is_active=True),
        "attending": list(meet.attendees.all()),
        "before_the_day": meet.date > timezone.localdate(),
        "chosen": chosen,
    }


@organizer_required
@require_safe
def answers(request: HttpRequest, pk: int) -> HttpResponse:
    """The organizer's view of one meet's 出欠: the counts and names, who has not answered,
    an answer for a member who phoned in, and the attendance from the answers in one tap."""
    meet = get_object_or_404(Meet, pk=pk)
    return render(request, "scoring/schedule_answers.html", _answers_context(meet))


@organizer_required
@require_POST
def attendance_from_answers(request: HttpRequest, pk: int) -> HttpResponse:
    meet = get_object_or_404(Meet, pk=pk)
    try:
        meet.attendance_from_answers()
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("The attendance is now from the answers: %(n)d attending.")
            % {"n": meet.attendees.count()},
        )
    return redirect("scoring:meet-detail", pk=meet.pk)


@organizer_required
def plan(request: HttpRequest) -> HttpResponse:
    """The schedule in one step (e.g. the 1st and 3rd Wednesday and the 2nd and 4th Saturday
    for a half-year): a meet for each day the rule names, but where a meet of that kind is
    on that day already."""
    form = PlanForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        rule_set = RuleSet.objects.default_or_none()
        if rule_set is None:
            messages.error(request, _("Choose the club's default rule set first."))
            return redirect("scoring:rule-set-list")
        made, kept = form.save(rule_set)
        messages.success(
            request,
            _("Planned %(made)d meets (%(kept)d were there already).")
            % {"made": made, "kept": kept},
        )
        return redirect("scoring:schedule")
    status = 400 if request.method == "POST" else 200
    return render(request, "scoring/schedule_plan.html", {"form": form}, status=status)


@organizer_required
@require_POST
def schedule_visibility(request: HttpRequest) -> HttpResponse:
    """The organizer opens the schedule (page and feed) to visitors, or closes it again."""
    club = ClubSettings.load()
    club.schedule_public = request.POST.get("public") == "1"
    club.save()
    if club.schedule_public:
        messages.success(request, _("The schedule is now open to visitors."))
    else:
        messages.success(request, _("The schedule is now for members only."))
    return redirect("scoring:schedule")


@require_POST
def calendar_link(request: HttpRequest) -> HttpResponse:
    """A member makes their own calendar address, or a new one (the old one stops working)."""
    me = own_member(request)
    if not _signed_in_member(request):
        raise PermissionDenied
    if me is None:
        return HttpResponse(_("This login belongs to no member."), status=400)
    if request.POST.get("link") not in ("make", "renew"):
        return HttpResponse(status=400)
    link, created = CalendarLink.objects.get_or_create(member=me)
    if not created:
        link.renew()
        messages.success(request, _("A new calendar address: the old one no longer works."))
    return redirect("scoring:schedule")
