"""Make a club in this install: ``manage.py make_club SHORT_NAME --name 桜会``. It starts with
the rule sets of the club's sheets, each in its standings group with the default awards; its
data is then reached with ``--club SHORT_NAME`` (docs/clubs.md)."""

from typing import Any

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

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            club = make_club(options["slug"], options["name"])
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
