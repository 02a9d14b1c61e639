"""The two roles in a club: 記録係 (organizer) and 会員 (member).

A login holds its roles club by club (``members.models.ClubRole``): 記録係 of one club and
会員 of another, say. In a request it has the roles it holds in the club in scope, and their
permissions (``members.backends.ClubRoleBackend``), none of another club's. The organizer may
add, change and delete everything of the club in the ``members`` and ``scoring`` apps (and use
the admin); a member may only view. What each role may do is a Django group of the role's
name, (re)made after every ``migrate`` and by ``manage.py setup_roles``; nobody is a member
of those groups (``members 0008`` turned the memberships into roles in the default club).
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
from django_scopes import scopes_disabled

from members.models import Club, ClubRole, default_club

ORGANIZER = ClubRole.ORGANIZER
MEMBER = ClubRole.MEMBER
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


def roles_from_groups(using: str = "default") -> int:
    """Each login still in a role's group (a backup from before roles were held club by
    club, restored) holds that role in the site's one club instead, as ``members 0008``
    moved them; return how many. The groups are left with no members: they only say what
    each role may do."""
    through = User.groups.through
    held = through.objects.using(using).filter(group__name__in=[ORGANIZER, MEMBER])
    pairs = list(held.values_list("user_id", "group__name"))
    with scopes_disabled():
        ClubRole.objects.using(using).bulk_create(
            [ClubRole(club_id=Club.DEFAULT_PK, user_id=user, role=role) for user, role in pairs],
            ignore_conflicts=True,
        )
    held.delete()
    return len(pairs)


def ensure_groups_after_migrate(**kwargs: object) -> None:
    """``post_migrate``'s receiver (connected in ``MembersConfig.ready``)."""
    ensure_groups(using=str(kwargs.get("using", "default")))


def roles_in_clubs(user: AbstractBaseUser | AnonymousUser) -> dict[int, frozenset[str]]:
    """Every club a login holds a role in, with its roles there (``{club key: roles}``): one
    query, read once per request's user (the club of the request and its menu read it)."""
    if not user.is_authenticated:
        return {}
    # The stubs type request.user as AbstractBaseUser; AUTH_USER_MODEL is auth.User here.
    account = cast(User, user)
    cached: dict[int, frozenset[str]] | None = account.__dict__.get("_roles_in_clubs")
    if cached is None:
        held: dict[int, set[str]] = {}
        with scopes_disabled():  # a login's own rows in every club: the site's reading
            # The two roles only: a crafted restore can hold another word, which is no role.
            known = ClubRole.objects.filter(user_id=account.pk, role__in=[ORGANIZER, MEMBER])
            rows = known.values_list("club_id", "role")
            for club, role in rows:
                held.setdefault(club, set()).add(role)
        cached = {club: frozenset(roles) for club, roles in held.items()}
        account.__dict__["_roles_in_clubs"] = cached
    return cached


def club_roles(user: AbstractBaseUser | AnonymousUser) -> frozenset[str]:
    """The roles a user holds in the club in scope (the site's one club outside every scope);
    a superuser holds both in every club."""
    if not user.is_authenticated:
        return frozenset()
    if cast(User, user).is_superuser:
        return frozenset({ORGANIZER, MEMBER})
    return roles_in_clubs(user).get(default_club(), frozenset())


def grant(user: AbstractBaseUser, role: str, club: Club | int | None = None) -> None:
    """Give ``user`` ``role`` in ``club`` (the club in scope, else the site's one club);
    holding it already is no change. 記録係 brings staff status (``staff_follows_roles``)."""
    key = club if isinstance(club, int) else club.pk if club is not None else default_club()
    with scopes_disabled():
        ClubRole.objects.get_or_create(club_id=key, user_id=user.pk, role=role)
    if role == ORGANIZER:  # as staff_follows_roles has made the row
        cast(User, user).is_staff = True
    user.__dict__.pop("_roles_in_clubs", None)
    user.__dict__.pop("_perms_in_clubs", None)


def staff_follows_roles(instance: ClubRole, raw: bool = False, **kwargs: object) -> None:
    """A login that holds 記録係 in any club has the staff status an organizer uses the admin
    with; one that holds it nowhere any more has none (a superuser, the site's, keeps it).
    ``ClubRole``'s ``post_save`` and ``post_delete`` receiver (``MembersConfig.ready``), so
    every way a role is given, changed or taken away (the roles page, an invitation, the
    admin, ``make_club``) keeps staff status with it. Not while ``loaddata`` writes a backup's
    rows as they are (``raw``): its rights are checked as the file holds them."""
    if raw:
        return
    with scopes_disabled():
        organizer = ClubRole.objects.filter(user_id=instance.user_id, role=ORGANIZER).exists()
    User.objects.filter(pk=instance.user_id, is_superuser=False).update(is_staff=organizer)


def is_organizer(user: AbstractBaseUser | AnonymousUser) -> bool:
    return ORGANIZER in club_roles(user)


def keeps_the_site(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether ``user`` keeps the site itself (its health, its nightly backup): a superuser,
    or an organizer of the site's one club, which in an install of one club is its organizer.
    An organizer of a club the site keeps for others sees its club, not the site's machine."""
    if not user.is_authenticated:
        return False
    if cast(User, user).is_superuser:
        return True
    return ORGANIZER in roles_in_clubs(user).get(Club.DEFAULT_PK, frozenset())


ROLE_FREE_PAGES = {
    "login",
    "logout",
    "password_change",
    "password_change_done",
    "set_language",
    "choose-club",
    "signup",
}
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


def only_for(
    test: Callable[[AbstractBaseUser | AnonymousUser], bool],
) -> Callable[[ViewFunc], ViewFunc]:
    """A view for the logins ``test`` passes; anyone else signed in gets 403 (anonymous
    visitors are sent to sign-in by ``LoginRequiredMiddleware`` before they get here)."""

    def guard(view: ViewFunc) -> ViewFunc:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not test(request.user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapped

    return guard


organizer_required = only_for(is_organizer)
"""Only organizers (記録係 of the club in scope)."""

site_keeper_required = only_for(keeps_the_site)
"""Only those who keep the site (``keeps_the_site``)."""
