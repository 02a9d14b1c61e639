"""Making a club: its row, and what a new club starts with, in its own scope: the rule sets of
the club's sheets (``../rules/``, as the migrations ship them to the site's one club), each in
its standings group with the default awards, the 4-player rule its default. Its settings are
the defaults until its organizer changes one (``ClubSettings.load``)."""

from __future__ import annotations

import importlib

from django.contrib.auth.models import User
from django.db import transaction

from members.models import Club
from members.roles import ORGANIZER, grant
from members.scopes import in_club
from scoring.models import RuleSet, StandingsGroup

# The shipped rule sets as the migrations leave them: (fields, the name of their group).
AS_MIGRATED = importlib.import_module("scoring.migrations.0007_read_the_sheets_again").as_migrated


def make_club(slug: str, name: str = "", organizer: str = "") -> Club:
    """A new club, checked as a form checks it (a short name no other club has, letters,
    digits and hyphens), with what a club starts with, and its first organizer when named
    (``first_organizer``); all or nothing."""
    club = Club(slug=slug, name=name)
    club.full_clean()
    with transaction.atomic():
        club.save()
        fill_new_club(club)
        if organizer:
            first_organizer(club, organizer)
    return club


def first_organizer(club: Club, username: str) -> tuple[User, bool]:
    """Make the login ``username`` an organizer (記録係) of ``club``, with the admin's staff
    status an organizer has: the login as it is if there is one (it keeps its roles in other
    clubs), else a new one with no password yet (``manage.py changepassword`` gives it one).
    Return the login and whether it was made."""
    user, made = User.objects.get_or_create(username=username)
    if made:
        user.set_unusable_password()
        user.full_clean()
        user.save()
    grant(user, ORGANIZER, club)
    return user, made


def fill_new_club(club: Club) -> None:
    """What a new club starts with, made in its scope (every row's club is this one)."""
    with in_club(club):
        for values, group_name in AS_MIGRATED():
            group, _made = StandingsGroup.objects.get_or_create(name=group_name)
            RuleSet.objects.create(**{**values, "group": group})
