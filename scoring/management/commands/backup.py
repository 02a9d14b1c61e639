from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.backups import BackupError, backup


class Command(BaseCommand):
    help = "Write a consistent backup of the database while the app runs."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--format",
            choices=["auto", "sqlite", "json"],
            default="auto",
            help="auto: an SQLite file for SQLite, JSON for PostgreSQL.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            fmt = backup(options["file"], options["format"])
        except BackupError as error:
            raise CommandError(str(error)) from error
        size = options["file"].stat().st_size
        self.stdout.write(f"Backup written ({fmt}, {size:,} bytes): {options['file']}")
