"""Sign-in locks (django-axes, with the club's own rule).

- The address is the one the trusted proxy saw: with ``PROXY_COUNT`` proxies in front, the
  ``PROXY_COUNT``-th entry from the right of ``X-Forwarded-For`` (each proxy appends the
  address it saw; anything further left was written by the client and is never read).
  Without a proxy, the connection's own address.
- ``AXES_FAILURE_LIMIT`` (5) failures for one login name from one address lock that name at
  that address: one member's typos never lock another member out, even at the venue where
  everyone shares the router's address.
- ``SIGNIN_ADDRESS_LIMIT`` (30) failures from one address, whatever the names, lock the
  address (so trying a password on many names is throttled); each name counts at most
  ``AXES_FAILURE_LIMIT`` towards it, so a member who goes on trying while locked never locks
  the venue.
- A lock lasts ``AXES_COOLOFF_TIME`` from the last failure.
- A club's organizer sees and lifts the locks of the club's own logins' names and of names that
  are no login at all (guesses), never another club's logins' or the site's superuser's
  (``seen_by``); the superuser sees and lifts every one.
"""

import ipaddress
from collections import Counter
from collections.abc import Iterable
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from members.models import ClubRole

# (login name, address, failures) of one AccessAttempt row.
Failures = tuple[str | None, str | None, int]


def client_address(request: HttpRequest) -> str | None:
    """The client's address as the outermost trusted proxy saw it (AXES_CLIENT_IP_CALLABLE)."""
    count = settings.PROXY_COUNT
    if count:
        forwarded: list[str] = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if len(forwarded) >= count and is_address(address := forwarded[-count].strip()):
            return address
    # No proxy in front, or a request that did not come through it (e.g. from the machine
    # itself to gunicorn): the connection's address.
    remote: str | None = request.META.get("REMOTE_ADDR")
    return remote


def is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def recent_failures(**filters: Any) -> list[Failures]:
    """Failures within the lock's duration, as (name, address, count) rows."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    rows = AccessAttempt.objects.filter(attempt_time__gte=since, **filters)
    return list(rows.values_list("username", "ip_address", "failures_since_start"))


def tally(rows: Iterable[Failures], address: str | None) -> Counter[str | None]:
    """Failures from this address, by login name."""
    by_name: Counter[str | None] = Counter()
    for name, row_address, failures in rows:
        if row_address == address:
            by_name[name] += failures
    return by_name


def counted_against_address(by_name: Counter[str | None]) -> int:
    """Failures that count towards the address's limit: at most a name's own limit each."""
    return sum(min(n, settings.AXES_FAILURE_LIMIT) for n in by_name.values())


def tries_left_in(rows: Iterable[Failures], username: str | None, address: str | None) -> int:
    """How many more failures of this name from this address before a lock (0: locked)."""
    by_name = tally(rows, address)
    for_name = settings.AXES_FAILURE_LIMIT - by_name[username]
    for_address = settings.SIGNIN_ADDRESS_LIMIT - counted_against_address(by_name)
    return max(0, min(for_name, for_address))


def address_locked_in(rows: Iterable[Failures], address: str | None) -> bool:
    """The address is locked for every name."""
    by_name = tally(rows, address)
    return counted_against_address(by_name) >= settings.SIGNIN_ADDRESS_LIMIT


def tries_left(username: str | None, address: str | None) -> int:
    return tries_left_in(recent_failures(ip_address=address), username, address)


def seen_by(user: AbstractBaseUser | AnonymousUser) -> QuerySet[AccessAttempt]:
    """The sign-in records ``user`` may see and lift: every one for a superuser (the site's);
    for a club's organizer, all but those of the site's superusers (a role in the club
    changes nothing) and of the logins that hold no role in the club in scope (another club's
    logins)."""
    # django-axes ships no types: its manager is Any to mypy.
    attempts: QuerySet[AccessAttempt] = AccessAttempt.objects.all()
    if getattr(user, "is_superuser", False):
        return attempts
    ours = ClubRole.objects.values("user_id")  # the club in scope's
    others = User.objects.filter(Q(is_superuser=True) | ~Q(pk__in=ours)).values("username")
    return attempts.exclude(username__in=others)


def release(
    username: str | None, address: str | None, among: QuerySet[AccessAttempt] | None = None
) -> int:
    """Lift the lock on this name at this address, and on the address if it is locked: of
    the records ``among`` (``seen_by``: a club's organizer forgets only what it may see, so an
    address locked by other clubs' names may stay locked), every one by default."""
    rows = AccessAttempt.objects.all() if among is None else among
    deleted: int
    if address_locked_in(recent_failures(ip_address=address), address):
        deleted, _ = rows.filter(ip_address=address).delete()
    else:
        deleted, _ = rows.filter(username=username, ip_address=address).delete()
    return deleted


# django-axes ships no types, so its handler is Any to mypy.
class LockHandler(AxesDatabaseHandler):  # type: ignore[misc]
    """django-axes with the club's two limits (AXES_HANDLER).

    Axes locks when ``get_failures() >= AXES_FAILURE_LIMIT``; here the failures are told on
    that scale: the limit less the tries left under both rules (the name's and the
    address's), so axes locks as soon as either rule does.
    """

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        username = get_client_username(request, credentials)
        # AxesMiddleware sets axes_ip_address on the request; HttpRequest's stubs do not know it.
        left = tries_left(username, request.axes_ip_address)  # type: ignore[attr-defined]
        return int(settings.AXES_FAILURE_LIMIT) - left
