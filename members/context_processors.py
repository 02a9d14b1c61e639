from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from members.models import Club, DisplaySettings, Member, club_in_scope, named_club_in_scope
from members.roles import is_organizer, roles_in_clubs


def own_member(request: HttpRequest) -> Member | None:
    """The member a signed-in login belongs to (Member.user), or None: one query, made only
    when a page asks (the menu's 自分の成績, the standings' own row)."""
    if not request.user.is_authenticated:
        return None
    if "_own_member" not in request.__dict__:
        request.__dict__["_own_member"] = Member.objects.filter(user_id=request.user.pk).first()
    found: Member | None = request.__dict__["_own_member"]
    return found


def clubs_to_choose(request: HttpRequest) -> list[Club]:
    """The clubs a signed-in login may switch between in the menu (those it holds a role in;
    a superuser's, every club): none, and no query, for a login of one club."""
    user = request.user
    if not user.is_authenticated:
        return []
    if user.is_superuser:
        clubs = list(Club.objects.all())
    else:
        held = roles_in_clubs(user)
        clubs = list(Club.objects.filter(pk__in=held)) if len(held) > 1 else []
    return clubs if len(clubs) > 1 else []


def roles(request: HttpRequest) -> dict[str, Any]:
    return {
        "is_organizer": is_organizer(request.user),
        "own_member": SimpleLazyObject(lambda: own_member(request)),
        "clubs_to_choose": SimpleLazyObject(lambda: clubs_to_choose(request)),
        "this_club": SimpleLazyObject(named_club_in_scope),
        "this_club_key": club_in_scope(),
    }


def session_time(request: HttpRequest) -> dict[str, Any]:
    """How long a session lasts without a request: the page warns before it ends."""
    return {"session_seconds": settings.SESSION_COOKIE_AGE}


def display_on_sign_in(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    """On signing in, the login's saved text size, contrast and ruby (chosen on another
    device) are kept in the session, so that a page reads them without a query of its own."""

    saved = DisplaySettings.objects.filter(user_id=user.pk).first()
    if saved is not None and hasattr(request, "session"):
        request.session["display"] = {
            "text_size": saved.text_size,
            "contrast": saved.contrast,
            "show_ruby": saved.show_ruby,
            "saved": True,
        }


def display(request: HttpRequest) -> dict[str, Any]:
    """The text size, contrast and ruby (ふりがな over hard words) to draw the page in: the
    login's saved choice (read into the session when it signs in, and kept there when it
    chooses again), or the session's before one is saved or when signed out; the device's own
    choice (localStorage) is applied by static/js/display.js before the page is drawn. No
    query: a page reads the session. A change made on another device shows at the next
    sign-in here."""

    kept = request.session.get("display", {}) if hasattr(request, "session") else {}
    return {
        "display_text_size": kept.get("text_size", "standard"),
        "display_contrast": kept.get("contrast", "standard"),
        "display_ruby": DisplaySettings.Ruby.said(bool(kept.get("show_ruby"))),
        "display_saved": bool(kept.get("saved")) and request.user.is_authenticated,
        "text_sizes": DisplaySettings.TextSize.choices,
        "contrasts": DisplaySettings.Contrast.choices,
        "ruby_choices": DisplaySettings.Ruby.choices,
    }
