"""Import in the browser: upload, a preview of what would change (or every error), confirm.

Between the preview and the confirmation the file waits in PENDING_IMPORTS_DIR under a
random token kept in the session. A confirmation claims the file by renaming it, which only
one request can do: a second confirmation of the same preview (a double click, a second tab)
is told the file was imported already, and nothing is imported twice.
"""

from __future__ import annotations

import re
import secrets
import time
from datetime import date
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from members.roles import organizer_required
from scoring.forms import ImportForm
from scoring.imports import ImportPlan, ImportRefused, import_results, plan_import
from scoring.models import RuleSet
from scoring.notation import KIND_LABELS, MeetKind
from scoring.spreadsheets import MAX_BYTES

SESSION_KEY = "pending_import"


def _pending_dir() -> Path:
    folder = Path(settings.PENDING_IMPORTS_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def keep_pending(data: bytes, replacing: str | None = None) -> str:
    """Keep an uploaded file until it is confirmed; its token. Files never confirmed go
    when a session would have ended."""
    folder = _pending_dir()
    if replacing and _is_token(replacing):
        (folder / replacing).unlink(missing_ok=True)
    stale = time.time() - settings.SESSION_COOKIE_AGE
    for path in folder.iterdir():
        if path.stat().st_mtime < stale:
            path.unlink(missing_ok=True)
    token = secrets.token_urlsafe(16)
    part = folder / f"{token}.part"
    part.write_bytes(data)
    part.rename(folder / token)
    return token


def claim_pending(token: str) -> bytes | None:
    """The file kept under ``token``, for this request alone; None when another request
    claimed it first (or it never was). Renaming is atomic: of two at once, one wins."""
    if not _is_token(token):
        return None
    folder = _pending_dir()
    claimed = folder / f"{token}.claimed-{secrets.token_hex(4)}"
    try:
        (folder / token).rename(claimed)
    except FileNotFoundError:
        return None
    try:
        return claimed.read_bytes()
    finally:
        claimed.unlink(missing_ok=True)


def _is_token(token: str) -> bool:
    return re.fullmatch(r"[A-Za-z0-9_-]{22}", token) is not None


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
        token = ""
        if plan.ok:
            earlier = request.session.get(SESSION_KEY, {}).get("token")
            token = keep_pending(data, replacing=earlier)
            request.session[SESSION_KEY] = {
                "token": token,
                "name": upload.name,
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
    data = None if pending.get("done") else claim_pending(pending["token"])
    if data is None:
        messages.info(
            request,
            _("%(name)s has been imported already (or is being imported now); not again.")
            % {"name": pending["name"]},
        )
        return redirect("scoring:meet-list")
    request.session[SESSION_KEY] = {**pending, "done": True}
    rule_set = RuleSet.objects.filter(pk=pending["rule_set"]).first()
    try:
        plan = import_results(data, create_members=pending["create_members"], rule_set=rule_set)
    except ImportRefused as refused:  # the book changed since the preview
        del request.session[SESSION_KEY]
        return render(
            request,
            "scoring/import_preview.html",
            {"plan": refused.plan, "name": pending["name"]},
            status=400,
        )
    except (IntegrityError, ValidationError):
        # Another import (another preview of the same games) was saving them at that moment.
        del request.session[SESSION_KEY]
        messages.error(
            request,
            _(
                "Nothing was imported from %(name)s: some of its games were entered by another "
                "import at the same moment. Upload it again to see what is still missing."
            )
            % {"name": pending["name"]},
        )
        return redirect("scoring:import")
    messages.success(
        request,
        _("Imported %(games)s games from %(name)s.")
        % {"games": len(plan.games), "name": pending["name"]},
    )
    return redirect("scoring:meet-list")
