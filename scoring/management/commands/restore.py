from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.backups import BackupError, restore
from scoring.models import Hanchan


class Command(BaseCommand):
    help = "Restore a backup into an empty database (run migrate first)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            fmt = restore(options["file"])
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Restored ({fmt}): {Hanchan.objects.count():,} games.")
