from django.contrib import messages
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from members.roles import organizer_required
from scoring.forms import RuleSetCopyForm
from scoring.models import Hanchan, HanchanResult, Meet, RuleSet


def home(request: HttpRequest) -> HttpResponse:
    """The latest meet's games, and the meets before it."""
    results = HanchanResult.objects.select_related("member").order_by("seat")
    games = Hanchan.objects.order_by("round_no", "table_no").prefetch_related(
        Prefetch("results", queryset=results)
    )
    meets = list(
        Meet.objects.select_related("rule_set").prefetch_related(Prefetch("hanchans", games))[:6]
    )
    return render(
        request,
        "scoring/home.html",
        {"latest": meets[0] if meets else None, "earlier": meets[1:]},
    )


def rule_set_list(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/rule_set_list.html", {"rule_sets": RuleSet.objects.all()})


def rule_set_detail(request: HttpRequest, pk: int) -> HttpResponse:
    rule_set = get_object_or_404(RuleSet, pk=pk)
    return render(
        request,
        "scoring/rule_set_detail.html",
        {
            "rule_set": rule_set,
            "in_use": rule_set.is_in_use(),
            "copy_form": RuleSetCopyForm(
                initial={"name": _("%(name)s (copy)") % {"name": rule_set.name}}
            ),
        },
    )


@require_POST
@organizer_required
def rule_set_copy(request: HttpRequest, pk: int) -> HttpResponse:
    rule_set = get_object_or_404(RuleSet, pk=pk)
    form = RuleSetCopyForm(request.POST)
    if not form.is_valid():
        return render(
            request,
            "scoring/rule_set_detail.html",
            {"rule_set": rule_set, "in_use": rule_set.is_in_use(), "copy_form": form},
            status=400,
        )
    copy = rule_set.copy(name=form.cleaned_data["name"])
    messages.success(
        request, _("Made %(name)s. Change its parameters in the admin.") % {"name": copy.name}
    )
    return redirect("scoring:rule-set-detail", pk=copy.pk)
