"""Make a club in this install: ``manage.py make_club SHORT_NAME --name 桜会 --organizer LOGIN``.
It starts with the rule sets of the club's sheets, each in its standings group with the default
awards, and its first organizer; its data is then reached with ``--club SHORT_NAME``, and its
pages by its organizer's login (docs/clubs.md)."""

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from members.scopes import in_club
from scoring.clubs import make_club
from scoring.models import RuleSet


class Command(BaseCommand):
    help = "Make a club, with the rule sets of the club's sheets."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", metavar="SHORT_NAME", help="letters, digits and hyphens")
        parser.add_argument("--name", default="", help="the club's name, as it writes it")
        parser.add_argument(
            "--organizer",
            default="",
            metavar="LOGIN",
            help="the club's first organizer (記録係): a login's name, made if there is none "
            "(give it a password with manage.py changepassword LOGIN)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            club = make_club(options["slug"], options["name"], options["organizer"])
        except ValidationError as error:
            problems = "; ".join(m for ms in error.message_dict.values() for m in ms)
            raise CommandError(problems) from error
        with in_club(club):
            rule_sets = RuleSet.objects.count()
            default = RuleSet.objects.default()
        self.stdout.write(
            _(
                "Made the club %(club)s (%(slug)s) with %(count)d rule sets; its default is %(rule)s."
            )
            % {"club": club, "slug": club.slug, "count": rule_sets, "rule": default.name}
        )
        if options["organizer"]:
            user = User.objects.get(username=options["organizer"])
            self.stdout.write(
                _("%(login)s is the organizer (記録係) of %(club)s.")
                % {"login": user.username, "club": club}
            )
            if not user.has_usable_password():
                self.stdout.write(
                    _("Give the login a password: python manage.py changepassword %(login)s")
                    % {"login": user.username}
                )
