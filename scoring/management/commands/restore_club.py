"""A club's backup restored as a new club: ``manage.py restore_club FILE SHORT_NAME`` (into this
install or another; scoring/club_backups.py)."""

from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from scoring.backups import BackupError
from scoring.club_backups import restore_club_backup


class Command(BaseCommand):
    help = "Make a new club from a club's backup, every row under a new key."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("slug", metavar="SHORT_NAME", help="the new club's short name")
        parser.add_argument("--name", default=None, help="its name (default: the backup's)")
        parser.add_argument(
            "--organizer",
            default="",
            metavar="LOGIN",
            help="its first organizer (記録係), made if there is no such login",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            club, count = restore_club_backup(
                options["file"], options["slug"], options["name"], options["organizer"]
            )
        except ValidationError as error:
            raise CommandError("; ".join(error.messages)) from error
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            _("Restored %(count)d rows as the club %(club)s (%(slug)s).")
            % {"count": count, "club": club.shown_name, "slug": club.slug}
        )
