from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from members.scopes import scopes_disabled
from scoring.backups import BackupError, restore
from scoring.models import Hanchan


class Command(BaseCommand):
    help = "Restore a backup into an empty database (run migrate first)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--keep-admin-rights",
            action="store_true",
            help="Keep what the backup gives beyond the two roles (superusers, staff status "
            "without 記録係, permissions of a login's own or of other groups); without it such "
            "a backup is refused.",
        )

    @scopes_disabled()  # the whole book, every club's
    def handle(self, *args: Any, **options: Any) -> None:
        try:
            fmt = restore(options["file"], keep_admin_rights=options["keep_admin_rights"])
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Restored ({fmt}): {Hanchan.objects.count():,} games.")
