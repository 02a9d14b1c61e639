"""The two roles of the club: 記録係 (organizer) and 会員 (member).

Roles are Django groups. The organizer may add, change and delete everything in the
``members`` and ``scoring`` apps (and use the admin); a member may only view. The groups
and their permissions are (re)made after every ``migrate`` and by ``manage.py setup_roles``.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any, cast

from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, Permission, User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

ORGANIZER = "記録係"
MEMBER = "会員"
APPS = ("members", "scoring")


def permissions_of(role: str, using: str = "default") -> QuerySet[Permission]:
    """What a role may do: everything in the club's apps for 記録係, viewing it for 会員."""
    perms = Permission.objects.using(using).filter(content_type__app_label__in=APPS)
    return perms if role == ORGANIZER else perms.filter(codename__startswith="view_")


def ensure_groups(using: str = "default") -> None:
    """Create both groups and give them their permissions. Idempotent."""
    for role in (ORGANIZER, MEMBER):
        group, _ = Group.objects.using(using).get_or_create(name=role)
        group.permissions.set(permissions_of(role, using))


def rights_of_roles(using: str = "default") -> dict[str, frozenset[str]]:
    """Each role's permissions as ``app_label.codename``, as ``has_perm`` names them."""
    return {
        role: frozenset(
            f"{app}.{codename}"
            for app, codename in permissions_of(role, using).values_list(
                "content_type__app_label", "codename"
            )
        )
        for role in (ORGANIZER, MEMBER)
    }


def ensure_groups_after_migrate(**kwargs: object) -> None:
    """``post_migrate``'s receiver (connected in ``MembersConfig.ready``)."""
    ensure_groups(using=str(kwargs.get("using", "default")))


def club_roles(user: AbstractBaseUser | AnonymousUser) -> frozenset[str]:
    """The club roles a user holds (a superuser holds both), read once per request's user."""
    if not user.is_authenticated:
        return frozenset()
    # The stubs type request.user as AbstractBaseUser; AUTH_USER_MODEL is auth.User here.
    account = cast(User, user)
    cached: frozenset[str] | None = account.__dict__.get("_club_roles")
    if cached is None:
        if account.is_superuser:
            cached = frozenset({ORGANIZER, MEMBER})
        else:
            names = account.groups.filter(name__in=[ORGANIZER, MEMBER]).values_list(
                "name", flat=True
            )
            cached = frozenset(names)
        account.__dict__["_club_roles"] = cached
    return cached


def is_organizer(user: AbstractBaseUser | AnonymousUser) -> bool:
    return ORGANIZER in club_roles(user)


ROLE_FREE_PAGES = {"login", "logout", "password_change", "password_change_done", "set_language"}
"""What a signed-in login without a club role may reach: its own account, nothing of the
club's (the admin decides for itself by staff status and permissions)."""


class ClubRoleRequiredMiddleware:
    """Signed in is not enough to read the club's data: the login must hold a club role
    (会員 or 記録係). A login with none (an account made for someone who is not, or no longer,
    in the club) gets 403 everywhere but ``ROLE_FREE_PAGES`` and the admin. After
    ``LoginRequiredMiddleware``, which sends visitors to sign in."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponse],
        view_args: Any,
        view_kwargs: Any,
    ) -> None:
        if not request.user.is_authenticated or club_roles(request.user):
            return
        match = request.resolver_match
        if match is not None and (match.url_name in ROLE_FREE_PAGES or "admin" in match.namespaces):
            return
        raise PermissionDenied


ViewFunc = Callable[..., HttpResponse]


def open_to_visitors_when(is_open: Callable[[], bool]) -> Callable[[ViewFunc], ViewFunc]:
    """A page for the club that the organizer may open to visitors (the standings, the
    schedule): signed-in members read it always, visitors while ``is_open()`` says so, and
    are sent to sign in while it does not. A login without a club role is turned away by
    ``ClubRoleRequiredMiddleware``, as everywhere. The one guard of every such page."""

    def guard(view: ViewFunc) -> ViewFunc:
        @login_not_required
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated and not is_open():
                return redirect_to_login(request.get_full_path())
            return view(request, *args, **kwargs)

        return wrapped

    return guard


def organizer_required(view: ViewFunc) -> ViewFunc:
    """Only organizers; anyone else signed in gets 403 (anonymous visitors are sent to
    sign-in by ``LoginRequiredMiddleware`` before they get here)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not is_organizer(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped
