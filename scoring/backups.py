"""Backups that are consistent while the app is running, and restores into an empty database.

- SQLite: the online backup API (``sqlite3.Connection.backup``) copies the live database page
  by page into a new file; never a copy of the file itself, which could catch a half-written
  WAL. The backup is an SQLite file.
- PostgreSQL (or ``fmt="json"`` anywhere): Django's serialised data (``dumpdata``), read
  inside one REPEATABLE READ transaction, so it is one snapshot however much is written
  meanwhile. The backup is JSON and restores into SQLite or PostgreSQL.

``restore`` refuses a database that holds anything a backup would replace, and says what it
found: users, members, meets, games, rule sets other than the five the migrations make (as
they made them), club settings, groups other than the two roles, history. Not counted: what
every migrated database has (content types, permissions) and sign-in records (sessions,
django-axes' logs and failures, the admin's log).
"""

from __future__ import annotations

import importlib
import io
import os
import sqlite3
import tempfile
from pathlib import Path

from django.apps import apps
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import connection, models, transaction
from django.test.utils import override_settings
from django.utils import translation

from members.roles import MEMBER, ORGANIZER
from scoring.models import RuleSet, StandingsGroup

AS_MIGRATED = importlib.import_module("scoring.migrations.0007_read_the_sheets_again").as_migrated

SQLITE_MAGIC = b"SQLite format 3\x00"
EXCLUDED = ["contenttypes", "auth.permission", "sessions", "admin.logentry"]


class BackupError(Exception):
    pass


def backup(path: Path, fmt: str = "auto") -> str:
    """Write a consistent snapshot of the database to ``path``; return its format."""
    if fmt == "auto":
        fmt = "sqlite" if connection.vendor == "sqlite" else "json"
    if fmt == "sqlite" and connection.vendor != "sqlite":
        raise BackupError("An SQLite backup needs an SQLite database; use --format json.")
    path = path.resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".backup-")
    os.close(handle)
    try:
        if fmt == "sqlite":
            _sqlite_backup(Path(str(connection.settings_dict["NAME"])), Path(temporary))
        else:
            _json_backup(Path(temporary))
        os.replace(temporary, path)  # the backup appears whole or not at all
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return fmt


def _sqlite_backup(source: Path, target: Path) -> None:
    src = sqlite3.connect(source, timeout=20)
    dst = sqlite3.connect(target)
    try:
        with dst:
            src.backup(dst)
    finally:
        dst.close()
        src.close()


def _json_backup(target: Path) -> None:
    output = io.StringIO()
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        call_command(
            "dumpdata",
            natural_foreign=True,
            natural_primary=True,
            exclude=EXCLUDED,
            indent=None,
            stdout=output,
        )
    target.write_text(output.getvalue(), encoding="utf-8")


# Tables a restore may replace without losing anything: what migrate makes in every database,
# and records of sign-ins.
NOT_DATA = {"contenttypes", "auth.permission", "sessions", "admin.logentry", "axes"}


def migrated_rule_sets() -> list[tuple[RuleSet, str]]:
    """The rule sets in this database exactly as the migrations made them (0002 made them,
    0007 read the sheets again), each with the name of the group 0007 gave it."""
    as_made = []
    for expected, group_name in AS_MIGRATED():
        found = RuleSet.objects.filter(name=expected["name"]).first()
        if found is not None and all(getattr(found, k) == v for k, v in expected.items()):
            as_made.append((found, group_name))
    return as_made


def data_found() -> dict[str, int]:
    """What this database holds that a restore would replace: rows by kind (the models'
    names, singular or plural), nothing for a freshly migrated database."""
    found: dict[str, int] = {}
    made = migrated_rule_sets()
    # The club's own rows first, their history (django-simple-history's models) after.
    in_order = sorted(apps.get_models(), key=lambda m: hasattr(m, "instance_type"))
    for model in in_order:
        meta = model._meta
        if meta.app_label in NOT_DATA or meta.label_lower in NOT_DATA:
            continue
        rows: models.QuerySet[models.Model] = model._base_manager.all()
        if model is Group:
            rows = rows.exclude(name__in=[ORGANIZER, MEMBER])
        elif model is RuleSet:
            rows = rows.exclude(pk__in=[r.pk for r, _group in made])
        elif model is StandingsGroup:  # the groups 0007 made for those rule sets, as made
            rows = rows.exclude(
                pk__in=[r.group_id for r, _group in made], name__in=[g for _r, g in made]
            )
        if count := rows.count():
            with translation.override(None):
                name = meta.verbose_name if count == 1 else meta.verbose_name_plural
                found[str(name)] = count
    return found


def restore(path: Path) -> str:
    """Bring a backup back into this (migrated, empty) database; return the format read."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file.")
    if found := data_found():
        listed = ", ".join(f"{count:,} {name}" for name, count in found.items())
        raise BackupError(
            f"This database already holds data ({listed}); restore only into an empty "
            "database (created and migrated, nothing added)."
        )
    with path.open("rb") as file:
        head = file.read(len(SQLITE_MAGIC))
    if head == SQLITE_MAGIC:
        if connection.vendor != "sqlite":
            raise BackupError("This is an SQLite backup; restore it into SQLite.")
        connection.close()
        _sqlite_backup(path, Path(str(connection.settings_dict["NAME"])))
        call_command("migrate", verbosity=0)  # a backup from an older version catches up
        return "sqlite"
    # The backup holds the history rows already; writing new ones while loading would clash.
    # loaddata reads the format from the file name, and a backup may be called anything.
    with tempfile.TemporaryDirectory() as folder:
        fixture = Path(folder) / "backup.json"
        fixture.symlink_to(path.resolve())
        with transaction.atomic(), override_settings(SIMPLE_HISTORY_ENABLED=False):
            call_command("loaddata", str(fixture), verbosity=0)
    return "json"
