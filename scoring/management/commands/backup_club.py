"""A club's own backup: ``manage.py backup_club --club sakura FILE`` (scoring/club_backups.py)."""

from pathlib import Path
from typing import Any

from django.core.management.base import CommandParser
from django.utils.translation import gettext as _

from members.models import Club, club_in_scope
from members.scopes import ClubCommand
from scoring.club_backups import write_club_backup


class Command(ClubCommand):
    help = "Write one club's backup (its games, members, rule sets, ...) to a JSON file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.get(pk=club_in_scope() or Club.DEFAULT_PK)
        count = write_club_backup(club, options["file"])
        self.stdout.write(
            _("Wrote %(count)d rows of %(club)s to %(file)s.")
            % {"count": count, "club": club.shown_name, "file": options["file"]}
        )
