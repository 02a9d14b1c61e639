from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.backups import BackupError, backup, nightly_backup


class Command(BaseCommand):
    help = "Write a consistent backup of the database while the app runs."
    # Django's checks open the database (the JSON field's check asks SQLite): on a damaged
    # file that is a traceback before the backup can say, plainly, that it is damaged.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path, nargs="?")
        parser.add_argument(
            "--nightly",
            action="store_true",
            help="The nightly backup: into SHIRAKABA_BACKUP_DIR named by the time, the last "
            "seven kept, and copied to SHIRAKABA_BACKUP_COPY_DIR when set (the last seven kept "
            "there). A missing or full second place fails the command; the backup is kept.",
        )
        parser.add_argument(
            "--format",
            choices=["auto", "sqlite", "json"],
            default="auto",
            help="auto: by the file's name (.json JSON; .sqlite3, .sqlite or .db SQLite), "
            "else an SQLite file for SQLite and JSON for PostgreSQL. A name that says "
            "another format than the one given is refused.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["nightly"]:
            if options["file"]:
                raise CommandError("--nightly names its own file: give no FILE")
            try:
                made, copy = nightly_backup()
            except BackupError as error:
                raise CommandError(str(error)) from error
            self.stdout.write(f"Backup written ({made.stat().st_size:,} bytes): {made}")
            if copy:
                self.stdout.write(f"Copied to: {copy}")
            return
        if not options["file"]:
            raise CommandError("Name the backup's FILE, or give --nightly")
        try:
            fmt = backup(options["file"], options["format"])
        except BackupError as error:
            raise CommandError(str(error)) from error
        size = options["file"].stat().st_size
        self.stdout.write(f"Backup written ({fmt}, {size:,} bytes): {options['file']}")
