"""The two roles of the club: 記録係 (organizer) and 会員 (member).

Roles are Django groups. The organizer may add, change and delete everything in the
``members`` and ``scoring`` apps (and use the admin); a member may only view. The groups
and their permissions are (re)made after every ``migrate`` and by ``manage.py setup_roles``.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any, cast

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, Permission, User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

ORGANIZER = "記録係"
MEMBER = "会員"
APPS = ("members", "scoring")


def ensure_groups(using: str = "default") -> None:
    """Create both groups and give them their permissions. Idempotent."""
    perms = Permission.objects.using(using).filter(content_type__app_label__in=APPS)
    organizer, _ = Group.objects.using(using).get_or_create(name=ORGANIZER)
    organizer.permissions.set(perms)
    member, _ = Group.objects.using(using).get_or_create(name=MEMBER)
    member.permissions.set(perms.filter(codename__startswith="view_"))


def is_organizer(user: AbstractBaseUser | AnonymousUser) -> bool:
    if not user.is_authenticated:
        return False
    # The stubs type request.user as AbstractBaseUser; AUTH_USER_MODEL is auth.User here.
    account = cast(User, user)
    if account.is_superuser:
        return True
    return account.groups.filter(name=ORGANIZER).exists()


ViewFunc = Callable[..., HttpResponse]


def organizer_required(view: ViewFunc) -> ViewFunc:
    """Only organizers; anyone else signed in gets 403 (anonymous visitors are sent to
    sign-in by ``LoginRequiredMiddleware`` before they get here)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not is_organizer(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped
