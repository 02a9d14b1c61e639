"""Import in the browser: upload, a preview of what would change (or every error), confirm."""

from __future__ import annotations

import base64
import secrets
from datetime import date
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from members.roles import organizer_required
from scoring.imports import (
    KIND_LABELS,
    ImportPlan,
    ImportRefused,
    import_results,
    plan_import,
)
from scoring.models import MeetKind, RuleSet
from scoring.sheets import MAX_BYTES

SESSION_KEY = "pending_import"


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Record sheet (CSV or Excel)"),
        help_text=gettext_lazy("CSV in UTF-8 or Shift_JIS, or an XLSX file (its first sheet)."),
    )
    create_members = forms.BooleanField(
        label=gettext_lazy("Add members for names not in the club yet"), required=False
    )
    rule_set = forms.ModelChoiceField(
        label=gettext_lazy("Rule set of new meets"),
        queryset=RuleSet.objects.all(),
        required=False,
        empty_label=None,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rule_set"].initial = RuleSet.objects.filter(is_default=True).first()


def new_meets(plan: ImportPlan) -> list[tuple[date, str]]:
    return [(day, KIND_LABELS[MeetKind(kind)]) for day, kind in plan.new_meets]


@organizer_required
def import_upload(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        data = upload.read(MAX_BYTES + 1)
        rule_set = form.cleaned_data["rule_set"]
        create = form.cleaned_data["create_members"]
        plan = plan_import(data, create_members=create, rule_set=rule_set)
        token = secrets.token_urlsafe(16)
        if plan.ok:
            request.session[SESSION_KEY] = {
                "token": token,
                "name": upload.name,
                "data": base64.b64encode(data).decode("ascii"),
                "create_members": create,
                "rule_set": rule_set.pk if rule_set else None,
            }
        return render(
            request,
            "scoring/import_preview.html",
            {"plan": plan, "token": token, "name": upload.name, "new_meets": new_meets(plan)},
            status=200 if plan.ok else 400,
        )
    status = 400 if request.method == "POST" else 200
    return render(request, "scoring/import_upload.html", {"form": form}, status=status)


@organizer_required
@require_POST
def import_confirm(request: HttpRequest) -> HttpResponse:
    pending = request.session.get(SESSION_KEY)
    if not pending or pending["token"] != request.POST.get("token"):
        messages.error(request, _("That preview has expired; upload the file again."))
        return redirect("scoring:import")
    rule_set = RuleSet.objects.filter(pk=pending["rule_set"]).first()
    try:
        plan = import_results(
            base64.b64decode(pending["data"]),
            create_members=pending["create_members"],
            rule_set=rule_set,
        )
    except ImportRefused as refused:  # the book changed since the preview
        return render(
            request,
            "scoring/import_preview.html",
            {"plan": refused.plan, "name": pending["name"]},
            status=400,
        )
    del request.session[SESSION_KEY]
    messages.success(
        request,
        _("Imported %(games)s games from %(name)s.")
        % {"games": len(plan.games), "name": pending["name"]},
    )
    return redirect("scoring:meet-list")
