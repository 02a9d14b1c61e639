from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from members.models import Member
from members.roles import is_organizer


def own_member(request: HttpRequest) -> Member | None:
    """The member a signed-in login belongs to (Member.user), or None: one query, made only
    when a page asks (the menu's 自分の成績, the standings' own row)."""
    if not request.user.is_authenticated:
        return None
    if "_own_member" not in request.__dict__:
        request.__dict__["_own_member"] = Member.objects.filter(user_id=request.user.pk).first()
    found: Member | None = request.__dict__["_own_member"]
    return found


def roles(request: HttpRequest) -> dict[str, Any]:
    return {
        "is_organizer": is_organizer(request.user),
        "own_member": SimpleLazyObject(lambda: own_member(request)),
    }


def display(request: HttpRequest) -> dict[str, Any]:
    """The text size and contrast to draw the page in: the login's saved choice (its other
    devices' too), or, before one is saved or when signed out, the session's; the device's own
    choice (localStorage) is applied by static/js/display.js before the page is drawn."""
    from members.models import DisplaySettings

    saved = None
    if request.user.is_authenticated:
        saved = DisplaySettings.objects.filter(user_id=request.user.pk).first()
    kept = request.session.get("display", {}) if hasattr(request, "session") else {}
    return {
        "display_text_size": saved.text_size if saved else kept.get("text_size", "standard"),
        "display_contrast": saved.contrast if saved else kept.get("contrast", "standard"),
        "display_saved": saved is not None,
        "text_sizes": DisplaySettings.TextSize.choices,
        "contrasts": DisplaySettings.Contrast.choices,
    }
