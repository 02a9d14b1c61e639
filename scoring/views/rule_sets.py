"""The rule sets: list, detail, copy."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from members.roles import organizer_required
from scoring.forms import (
    RuleSetCopyForm,
)
from scoring.models import RuleSet


@require_safe
def rule_set_list(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/rule_set_list.html", {"rule_sets": RuleSet.objects.all()})


@require_safe
def rule_set_detail(request: HttpRequest, pk: int) -> HttpResponse:
    rule_set = get_object_or_404(RuleSet, pk=pk)
    initial_name = _("%(name)s (copy)") % {"name": rule_set.name}
    return render(
        request,
        "scoring/rule_set_detail.html",
        {
            "rule_set": rule_set,
            "in_use": rule_set.is_in_use(),
            "copy_form": RuleSetCopyForm(initial={"name": initial_name}),
        },
    )


@organizer_required
@require_POST
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
