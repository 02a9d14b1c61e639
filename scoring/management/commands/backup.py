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
            help="auto: by the file's name (.json JSON; .sqlite3, .sqlite or .db SQLite), "
            "else an SQLite file for SQLite and JSON for PostgreSQL. A name that says "
            "another format than the one given is refused.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            fmt = backup(options["file"], options["format"])
        except BackupError as error:
            raise CommandError(str(error)) from error
        size = options["file"].stat().st_size
        self.stdout.write(f"Backup written ({fmt}, {size:,} bytes): {options['file']}")
