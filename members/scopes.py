"""Which club's data the code is working on: django-scopes' scope of a club.

Every model a club owns has a scoped manager (``members.models.ScopedToClub`` and its kin): in
a club's scope its queries read that club's rows only, and outside every scope they raise
``django_scopes.ScopeError`` rather than read every club's. The scope is entered

- for a request, by ``ClubScopeMiddleware`` (the site's admin, for a superuser, in none: the
  admin is the site's, over every club);
- for a management command, by ``ClubCommand`` (``--club``, the default club unless given);
- for a report, by ``scoring.reports.making.make``, in its report's club, whoever calls it;
- for the tests, by an autouse fixture (``tests/conftest.py``).

Work that is the site's, not a club's (a backup of the whole book, a restore, the workers'
keeping of reports), runs with ``scopes_disabled``. docs/clubs.md tells the whole story.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponseBase
from django.utils.translation import gettext as _
from django_scopes import scope
from django_scopes import scopes_disabled as _scopes_disabled

from members.models import DEFAULT_CLUB_SLUG, Club
from members.roles import roles_in_clubs


@contextmanager
def in_club(club: Club | int) -> Iterator[None]:
    """Work in ``club``'s scope: every query of a club's data reads that club's rows."""
    with scope(club=club if isinstance(club, int) else club.pk):
        yield


@contextmanager
def scopes_disabled() -> Iterator[None]:
    """In no club's scope and with the check off: the site's own work (a backup of the whole
    book, a restore, the workers' keeping of reports) over every club. A context manager and
    a decorator, as django-scopes' own (this one typed)."""
    with _scopes_disabled():
        yield


CHOSEN_CLUB = "club"
"""The session's key for the club a login chose in the menu (``members.views.choose_club``)."""


def club_of_request(request: HttpRequest) -> Club | int:
    """The club a request is for. A visitor's: the site's one club (clubs have no addresses
    of their own yet, docs/clubs.md). A signed-in login's: the club it chose in the menu while
    it holds a role there (a superuser: any club), else the site's one club if it holds a role
    there, else its first club; a login with no role anywhere, the site's one club (where
    ``ClubRoleRequiredMiddleware`` turns it away)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return Club.DEFAULT_PK
    held = roles_in_clubs(user)
    chosen = request.session.get(CHOSEN_CLUB) if hasattr(request, "session") else None
    if isinstance(chosen, int) and (
        chosen in held or (user.is_superuser and Club.objects.filter(pk=chosen).exists())
    ):
        return chosen
    if not held or Club.DEFAULT_PK in held:
        return Club.DEFAULT_PK
    return min(held)


def is_site_admin(request: HttpRequest) -> bool:
    """A superuser's request to the Django admin: the site's, over every club."""
    user = getattr(request, "user", None)
    return bool(request.path.startswith("/admin/") and user is not None and user.is_superuser)


class ClubScopeMiddleware:
    """Each request in its club's scope (after ``AuthenticationMiddleware``: the admin's scope
    depends on who asks). A streamed answer's body is read after this returns: none of the
    book's reads the database as it streams (a report's file is read from disk)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if is_site_admin(request):
            with scopes_disabled():
                return self.get_response(request)
        with in_club(club_of_request(request)):
            return self.get_response(request)


class ClubCommand(BaseCommand):
    """A management command on one club's data: ``--club SHORT_NAME`` (the default club unless
    given) and ``handle`` in its scope. A short name no club has is refused."""

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.add_argument(
            "--club",
            default=DEFAULT_CLUB_SLUG,
            metavar="SHORT_NAME",
            help="The club whose data this works on, by its short name (default: the site's "
            "one club).",
        )
        return parser

    def execute(self, *args: Any, **options: Any) -> str | None:
        slug = options.get("club") or DEFAULT_CLUB_SLUG
        try:
            club = Club.objects.filter(slug=slug).first()
        except DatabaseError as error:
            raise CommandError(
                _("The database is not ready: run manage.py migrate first.")
            ) from error
        if club is None:
            raise CommandError(_("There is no club with the short name %(slug)s.") % {"slug": slug})
        with in_club(club):
            return super().execute(*args, **options)
