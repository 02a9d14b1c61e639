from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from members.models import Member, ReadingPreference
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


def session_time(request: HttpRequest) -> dict[str, Any]:
    """How long a session lasts without a request: the page warns before it ends."""
    return {"session_seconds": settings.SESSION_COOKIE_AGE}


def reading(request: HttpRequest) -> dict[str, Any]:
    """Ruby over hard words: the signed-in login's choice (one query), or None when it has
    not chosen (the device's choice, localStorage, applies: static/js/ruby.js)."""
    if not request.user.is_authenticated:
        return {"show_ruby": None}
    kept = ReadingPreference.objects.filter(user_id=request.user.pk).values_list(
        "show_ruby", flat=True
    )
    return {"show_ruby": next(iter(kept), None)}
