"""Backups that are consistent while the app is running, and restores into an empty database.

- SQLite: the online backup API (``sqlite3.Connection.backup``) copies the live database page
  by page into a new file; never a copy of the file itself, which could catch a half-written
  WAL. The backup is an SQLite file.
- PostgreSQL (or ``fmt="json"`` anywhere): Django's serialised data (``dumpdata``), read
  inside one REPEATABLE READ transaction, so it is one snapshot however much is written
  meanwhile. The backup is JSON and restores into SQLite or PostgreSQL.

``backup`` checks what it wrote before it replaces anything: the SQLite copy passes SQLite's
integrity and foreign key checks (a damaged database is refused, not copied), the JSON reads
back with as many rows of each model as the snapshot held. It writes no sign-in records and no
report worker's beat (``NOT_BACKED_UP``).

``restore`` refuses a database that holds anything a backup would replace, and says what it
found: users, members, meets, games, rule sets other than the five the migrations make (as
they made them), clubs other than the default one (as made), club settings, groups other than the two roles, history. Not counted: what
every migrated database has (content types, permissions) and sign-in records (sessions,
django-axes' logs and failures, the admin's log).

It checks the file before it touches the database, and refuses it whole, naming the file:
an SQLite backup must pass the integrity and foreign key checks and hold the tables and
columns of the migrations it records, all of them this code's; a JSON backup must read whole
and hold only the models a backup writes. After either, the database holds no sign-in
records and the two roles have the permissions ``members.roles`` gives them.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, connection, models, transaction
from django.db.migrations.loader import MigrationLoader
from django.test.utils import override_settings
from django.utils import translation
from django.utils.translation import gettext as _

from members.models import DEFAULT_CLUB_SLUG, Club
from members.roles import MEMBER, ORGANIZER, ensure_groups, rights_of_roles, roles_from_groups
from members.scopes import scopes_disabled
from scoring.clubs import AS_MIGRATED
from scoring.models import (
    Award,
    RuleSet,
    StandingsGroup,
    default_awards_as_made,
    make_default_awards,
)

SQLITE_MAGIC = b"SQLite format 3\x00"
NOT_BACKED_UP = [
    "contenttypes",
    "auth.permission",
    "sessions",
    "admin.logentry",
    "axes",
    "scoring.workerbeat",
]
"""What a backup leaves out: what ``migrate`` makes in every database (content types,
permissions), records of sign-ins (sessions, the admin's log, django-axes' records), and the
report workers' beat (who was running; the health page)."""
SIGN_IN_RECORDS = ["sessions", "admin.logentry", "axes"]


class BackupError(Exception):
    pass


def in_labels(model: type[models.Model], labels: list[str]) -> bool:
    """Whether ``labels`` (apps' labels or models' ``app.model``) name this model."""
    return model._meta.app_label in labels or model._meta.label_lower in labels


def backed_up_models() -> list[type[models.Model]]:
    """The models a backup writes: every one but ``NOT_BACKED_UP``."""
    return [m for m in apps.get_models() if not in_labels(m, NOT_BACKED_UP)]


NAMED = {".json": "json", ".sqlite3": "sqlite", ".sqlite": "sqlite", ".db": "sqlite"}
"""The file names that say a backup's format; any other (``.bak``, say) says none."""


def backup_format(path: Path, asked: str, vendor: str) -> str:
    """The format of a backup to ``path``: the one asked for, else the one its name says,
    else the database's own (SQLite for SQLite, JSON for PostgreSQL). A name that says
    another format than the one asked for is refused, and so is an SQLite backup of a
    database that is not SQLite."""
    named = NAMED.get(path.suffix.lower())
    fmt = asked if asked != "auto" else named or ("sqlite" if vendor == "sqlite" else "json")
    if named is not None and named != fmt:
        raise BackupError(
            _(
                "%(file)s is the name of a %(named)s backup, but --format %(asked)s asks for "
                "another; nothing was written. Name JSON backups .json and SQLite ones .sqlite3 "
                "(or .bak), or leave out --format."
            )
            % {"file": path, "named": "JSON" if named == "json" else "SQLite", "asked": fmt}
        )
    if fmt == "sqlite" and vendor != "sqlite":
        raise BackupError(
            _(
                "%(file)s: an SQLite backup needs an SQLite database; name the file .json or "
                "use --format json."
            )
            % {"file": path}
        )
    return fmt


@scopes_disabled()
def backup(path: Path, fmt: str = "auto") -> str:
    """Write a consistent snapshot of the database to ``path``; return its format
    (``backup_format``)."""
    fmt = backup_format(path, fmt, connection.vendor)
    path = path.resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".backup-")
    os.close(handle)
    try:
        if fmt == "sqlite":
            _sqlite_backup(Path(str(connection.settings_dict["NAME"])), Path(temporary))
            with closing(sqlite3.connect(temporary)) as copy:  # one file, no -wal beside it
                copy.execute("PRAGMA journal_mode = DELETE")
            problems = sqlite_problems(Path(temporary))
        else:
            problems = _json_backup(Path(temporary), path)
        if problems:
            raise BackupError(
                _(
                    "The database is damaged, so no backup was written (%(file)s is as it "
                    "was). SQLite's check found: %(problems)s"
                )
                % {"file": path, "problems": "; ".join(problems)}
            )
        os.replace(temporary, path)  # the backup appears whole or not at all
    except (sqlite3.DatabaseError, DatabaseError) as error:
        raise BackupError(
            _(
                "The database could not be read (it may be damaged), so no backup was written "
                "(%(file)s is as it was): %(error)s"
            )
            % {"file": path, "error": error}
        ) from error
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


def read_only(path: Path) -> str:
    """The URI that opens the SQLite file at ``path`` read-only, writing nothing beside it
    (no -wal or -shm file, even for a file in WAL mode)."""
    return f"{path.resolve().as_uri()}?mode=ro&immutable=1"


def sqlite_problems(path: Path) -> list[str]:
    """What SQLite's integrity and foreign key checks find in the file at ``path`` (read
    only); nothing for a sound database. Raises ``sqlite3.DatabaseError`` for a file SQLite
    cannot read at all."""
    with closing(sqlite3.connect(read_only(path), uri=True)) as db:
        found = [str(row[0]) for row in db.execute("PRAGMA integrity_check(20)")]
        if found != ["ok"]:
            return found
        broken = db.execute("PRAGMA foreign_key_check").fetchmany(20)
        return [
            f"{table} row {row} refers to a missing {parent}" for table, row, parent, _key in broken
        ]


def _json_backup(target: Path, path: Path) -> list[str]:
    """Write the JSON backup to ``target``; return what SQLite's check finds wrong with the
    database (nothing on PostgreSQL). Refuses a backup that does not read back whole, with
    as many rows of each model as the snapshot held."""
    output = io.StringIO()
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        elif connection.vendor == "sqlite":  # dumpdata can read a damaged file without error
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA integrity_check(20)")
                if (found := [str(row[0]) for row in cursor.fetchall()]) != ["ok"]:
                    return found
        call_command(
            "dumpdata",
            natural_foreign=True,
            natural_primary=True,
            exclude=NOT_BACKED_UP,
            indent=None,
            stdout=output,
        )
        held = Counter(
            {m._meta.label_lower: m._default_manager.count() for m in backed_up_models()}
        )
    target.write_text(output.getvalue(), encoding="utf-8")
    written = Counter(row["model"] for row in json.loads(target.read_text(encoding="utf-8")))
    if wrong := [
        _("%(model)s: %(written)d of %(expected)d rows written")
        % {"model": label, "written": written[label], "expected": held[label]}
        for label in sorted(set(held) | set(written))
        if written[label] != held[label]
    ]:
        raise BackupError(
            _(
                "The backup did not read back whole, so it was not written (%(file)s is as it "
                "was): %(problems)s"
            )
            % {"file": path, "problems": "; ".join(wrong)}
        )
    return []


@scopes_disabled()
def migrated_rule_sets() -> list[tuple[RuleSet, str]]:
    """The rule sets in this database exactly as the migrations made them (0002 made them,
    0007 read the sheets again), each with the name of the group 0007 gave it."""
    as_made = []
    for expected, group_name in AS_MIGRATED():
        found = RuleSet.objects.filter(name=expected["name"]).first()
        if found is not None and all(getattr(found, k) == v for k, v in expected.items()):
            as_made.append((found, group_name))
    return as_made


@scopes_disabled()
def data_found() -> dict[str, int]:
    """What this database holds that a restore would replace: rows by kind (the models'
    names, singular or plural), nothing for a freshly migrated database."""
    found: dict[str, int] = {}
    made = migrated_rule_sets()
    # The club's own rows first, their history (django-simple-history's models) after.
    in_order = sorted(apps.get_models(), key=lambda m: hasattr(m, "instance_type"))
    for model in in_order:
        meta = model._meta
        if in_labels(model, NOT_BACKED_UP):
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
        elif model is Award:  # the default awards 0021 gave those groups, as made
            rows = rows.exclude(pk__in=default_awards_as_made().values("pk"))
        elif model is Club:  # the site's one club, as the migrations and flush make it
            rows = rows.exclude(pk=Club.DEFAULT_PK, slug=DEFAULT_CLUB_SLUG, name="")
        if count := rows.count():
            with translation.override(None):
                name = meta.verbose_name if count == 1 else meta.verbose_name_plural
                found[str(name)] = count
    return found


@scopes_disabled()
def restore(path: Path, *, keep_admin_rights: bool = False) -> str:
    """Bring a backup back into this (migrated, empty) database; return the format read.
    The file is checked first, and refused whole (``BackupError``) before anything is
    written; afterwards the database holds no sign-in records and the roles' permissions
    are the code's. A file that gives anyone rights beyond their roles
    (``rights_beyond_roles``) is refused unless ``keep_admin_rights``: an SQLite backup as the
    file holds them, before it is copied; a JSON one as the database holds them once loaded,
    before the restore commits (rows of a file can overwrite each other as they load)."""
    if not path.is_file():
        raise BackupError(_("%(file)s: no such file.") % {"file": path})
    if found := data_found():
        listed = ", ".join(f"{count:,} {name}" for name, count in found.items())
        raise BackupError(
            _(
                "This database already holds data (%(found)s); restore only into an empty "
                "database (created and migrated, nothing added)."
            )
            % {"found": listed}
        )
    with path.open("rb") as file:
        head = file.read(len(SQLITE_MAGIC))
    if head == SQLITE_MAGIC:
        if connection.vendor != "sqlite":
            raise BackupError(_("This is an SQLite backup; restore it into SQLite."))
        with tempfile.TemporaryDirectory() as folder:
            # A private copy of the file alone, checked and restored: SQLite would apply a -wal
            # or hot -journal file lying beside the backup when restoring, not when checking.
            private = Path(folder) / "backup.sqlite3"
            shutil.copyfile(path, private)
            check_sqlite_backup(private, shown=path)
            if not keep_admin_rights:
                refuse_rights_beyond_roles(path, accounts_in_sqlite(private))
            connection.close()
            _sqlite_backup(private, Path(str(connection.settings_dict["NAME"])))
        call_command("migrate", verbosity=0)  # a backup from an older version catches up
        with transaction.atomic():
            for model in apps.get_models():
                if in_labels(model, SIGN_IN_RECORDS):
                    model._base_manager.all().delete()
            ensure_groups()
            roles_from_groups()
        return "sqlite"
    read_json_backup(path)
    # The backup holds the history rows already; writing new ones while loading would clash.
    # loaddata reads the format from the file name, and a backup may be called anything.
    with tempfile.TemporaryDirectory() as folder:
        fixture = Path(folder) / "backup.json"
        fixture.symlink_to(path.resolve())
        try:
            with transaction.atomic(), override_settings(SIMPLE_HISTORY_ENABLED=False):
                # The backup holds the club's own awards, the defaults among them.
                default_awards_as_made().delete()
                call_command("loaddata", str(fixture), verbosity=0)
                # A backup from before the awards came has none: its groups get the defaults.
                for group in StandingsGroup.objects.filter(awards__isnull=True):
                    make_default_awards(group)
                ensure_groups()
                roles_from_groups()
                if not keep_admin_rights:  # what the database now holds, however it was written
                    refuse_rights_beyond_roles(path, accounts_in_database())
        except (DeserializationError, DatabaseError, LookupError, ValueError) as error:
            said = str(error).replace(f"Problem installing fixture '{fixture}': ", "")
            raise BackupError(
                _("%(file)s could not be restored (nothing was saved): %(error)s")
                % {"file": path, "error": said.replace(str(fixture), str(path))}
            ) from error
    return "json"


def check_sqlite_backup(path: Path, shown: Path | None = None) -> None:
    """Refuse an SQLite backup (named ``shown`` in what is said, ``path`` by default) that is
    damaged, or whose schema is not one this code's migrations make: migrations this code
    does not have, tables or columns missing, triggers or views (the migrations make none; a
    trigger would run its own SQL in the restored database), or a value in a column of whole
    numbers (a key, a link, a flag) that is not a whole number (SQLite's loose types would
    let a link the rights check reads as nobody's be one Django follows)."""
    shown = shown or path
    try:
        if problems := sqlite_problems(path):
            raise BackupError(
                _("%(file)s is damaged; nothing was restored. SQLite's check found: %(problems)s")
                % {"file": shown, "problems": "; ".join(problems)}
            )
        with closing(sqlite3.connect(read_only(path), uri=True)) as db:
            tables = {
                str(name): {str(c[1]) for c in db.execute(f'PRAGMA table_info("{name}")')}
                for (name,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")
            }
            if "django_migrations" not in tables:
                raise BackupError(
                    _(
                        "%(file)s is not a backup of this app: it has no django_migrations "
                        "table (the record of its migrations)."
                    )
                    % {"file": shown}
                )
            recorded = set(db.execute("SELECT app, name FROM django_migrations"))
            code = db.execute(
                "SELECT type, name FROM sqlite_schema WHERE type IN ('trigger', 'view')"
            ).fetchall()
            if code:
                raise BackupError(
                    _(
                        "%(file)s holds triggers or views, which no backup of this app holds "
                        "(%(names)s); it was refused whole, nothing was restored."
                    )
                    % {"file": shown, "names": ", ".join(f"{t} {n}" for t, n in code)}
                )
            expected = expected_schema(shown, recorded)
            loose = [
                f"{table}.{column}"
                for table, columns in expected.items()
                if table in tables
                for column, whole in columns.items()
                if whole
                and column in tables[table]
                and db.execute(
                    f'SELECT 1 FROM "{table}" WHERE typeof("{column}") NOT IN '
                    f"('integer', 'null') LIMIT 1"
                ).fetchone()
            ]
    except sqlite3.DatabaseError as error:
        raise BackupError(
            _("%(file)s is damaged or cut short; nothing was restored (SQLite: %(error)s).")
            % {"file": shown, "error": error}
        ) from error
    missing = [
        f"{table}.{column}" if column else table
        for table, columns in expected.items()
        for column in ([None] if table not in tables else sorted(set(columns) - tables[table]))
    ]
    if missing:
        raise BackupError(
            _(
                "%(file)s does not hold the tables and columns of the migrations it records; "
                "nothing was restored. Missing: %(missing)s"
            )
            % {"file": shown, "missing": ", ".join(missing)}
        )
    if loose:
        raise BackupError(
            _(
                "%(file)s holds values that are not whole numbers in columns of whole numbers "
                "(%(columns)s); it was refused whole, nothing was restored."
            )
            % {"file": shown, "columns": ", ".join(loose)}
        )


def expected_schema(path: Path, recorded: set[tuple[str, str]]) -> dict[str, dict[str, bool]]:
    """The tables, with their columns, that these recorded migrations make, each column with
    whether it holds whole numbers (a key, a link, a count, a flag); refuses migrations this
    code does not have (a backup of a newer version) or a record with gaps."""
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    unknown = sorted(recorded - set(graph.nodes))
    if unknown:
        raise BackupError(
            _(
                "%(file)s was made by another version of the app: it records migrations this "
                "version does not have (%(migrations)s); nothing was restored."
            )
            % {"file": path, "migrations": ", ".join(f"{a}.{n}" for a, n in unknown)}
        )
    gaps = sorted({n for node in recorded for n in graph.forwards_plan(node)} - recorded)
    if gaps:
        raise BackupError(
            _(
                "%(file)s records migrations without the ones they need (%(migrations)s); "
                "nothing was restored."
            )
            % {"file": path, "migrations": ", ".join(f"{a}.{n}" for a, n in gaps)}
        )
    state = graph.make_state(nodes=sorted(recorded), at_end=True)
    return {
        model._meta.db_table: {
            field.column: _whole_numbers(field) for field in model._meta.local_concrete_fields
        }
        for model in state.apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    }


def _whole_numbers(field: models.Field[Any, Any]) -> bool:
    """Whether SQLite keeps this field's values as whole numbers (its type, or its target's
    for a link: integer, bigint, smallint, bool)."""
    kind = (field.db_type(connection) or "").split(" ")[0].split("(")[0].lower()
    return kind in {"integer", "bigint", "smallint", "bool"}


def read_json_backup(path: Path) -> list[dict[str, object]]:
    """The rows of a JSON backup, refused (``BackupError``) unless it reads whole, holds only
    the models a backup writes, and no row twice (the same model and key)."""
    try:
        rows = json.loads(path.read_bytes().decode("utf-8"))
    except json.JSONDecodeError as error:
        raise BackupError(
            _(
                "%(file)s is cut short or damaged: the JSON breaks off at line %(line)d, "
                "column %(column)d (%(reason)s); nothing was restored."
            )
            % {"file": path, "line": error.lineno, "column": error.colno, "reason": error.msg}
        ) from error
    except UnicodeDecodeError as error:
        raise BackupError(
            _("%(file)s is not a backup (neither an SQLite file nor JSON); nothing was restored.")
            % {"file": path}
        ) from error
    if not isinstance(rows, list) or not all(
        isinstance(row, dict) and isinstance(row.get("model"), str) for row in rows
    ):
        raise BackupError(
            _("%(file)s is not a backup (JSON, but not a list of rows); nothing was restored.")
            % {"file": path}
        )
    allowed = {m._meta.label_lower for m in backed_up_models()}
    refused = Counter(str(row["model"]) for row in rows if row["model"] not in allowed)
    if refused:
        raise BackupError(
            _(
                "%(file)s holds rows that no backup holds (%(models)s); it was refused whole, "
                "nothing was restored. A backup holds none of: sessions, permissions, content "
                "types, the admin's log, sign-in records; nor models this version does not have."
            )
            % {"file": path, "models": ", ".join(f"{n:,} {m}" for m, n in sorted(refused.items()))}
        )
    keys = Counter((str(row["model"]), _key(row)) for row in rows if "pk" in row)
    if twice := sorted(key for key, count in keys.items() if count > 1):
        raise BackupError(
            _(
                "%(file)s holds rows written twice (%(rows)s); a backup writes each row once, "
                "so it was refused whole, nothing was restored."
            )
            % {"file": path, "rows": ", ".join(f"{model} {pk}" for model, pk in twice[:10])}
        )
    return rows


def _key(row: dict[str, object]) -> str:
    """A row's key as its model reads it (``"02"`` and ``2`` are one key of a number)."""
    try:
        pk = apps.get_model(str(row["model"]))._meta.pk
        return str(pk.to_python(row["pk"]) if pk is not None else row["pk"])
    except (LookupError, ValidationError, ValueError, TypeError):
        return str(row["pk"])


@dataclass(frozen=True)
class Account:
    """A login as a database holds it, by what gives it rights: its flags, its roles club by
    club (``{club key: roles}``) and what it holds in every club alike: its own permissions and
    those of its groups of other names (``app_label.codename``), as
    ``members.backends.ClubRoleBackend`` gives them."""

    username: str
    superuser: bool
    staff: bool
    roles: dict[int, frozenset[str]]
    everywhere: frozenset[str]


def rights_beyond_roles(accounts: list[Account]) -> list[str]:
    """What each login may do beyond what its roles give, a line a login (``evil:
    superuser``, ``kaiin: staff, auth.change_user``); nothing for the logins the running app
    makes. In the running app rights come only from the two roles: 記録係 gives the club's
    permissions and staff status (the admin), 会員 viewing them; nobody is a superuser, and
    nobody holds a permission of their own or from a group of another name. Such a permission
    holds in every club the login has a role in, so it is beyond the roles unless the role in
    every one of those clubs gives it (記録係 of one club and 会員 of another gives only
    viewing). The roles' own permissions are the code's after a restore, whatever the file
    says of them."""
    rights = rights_of_roles()
    found = []
    for account in sorted(accounts, key=lambda a: a.username):
        in_each = [
            frozenset().union(*(rights.get(r, frozenset()) for r in held))
            for held in account.roles.values()
        ]
        given = frozenset.intersection(*in_each) if in_each else frozenset()
        beyond = [_("superuser")] if account.superuser else []
        if account.staff and not any(ORGANIZER in held for held in account.roles.values()):
            beyond.append(_("staff"))
        beyond += sorted(account.everywhere - given)
        if beyond:
            found.append(f"{account.username}: {', '.join(beyond)}")
    return found


def refuse_rights_beyond_roles(path: Path, accounts: list[Account]) -> None:
    """Refuse the backup at ``path`` whole if it gives anyone rights beyond their roles."""
    if found := rights_beyond_roles(accounts):
        raise BackupError(
            _(
                "%(file)s gives rights that the roles 記録係 and 会員 do not give (%(found)s); "
                "it was refused whole, nothing was restored. After a restore a person's rights "
                "come only from the two roles. If these rights are the club's own (a site "
                "administrator made with createsuperuser, say), restore with "
                "--keep-admin-rights to keep them."
            )
            % {"file": path, "found": "; ".join(found)}
        )


def accounts_in(rows: Callable[[str], list[tuple[Any, ...]]], *, clubroles: bool) -> list[Account]:
    """The logins of a database, read with plain SQL by ``rows`` (a query's rows: of an SQLite
    backup opened read only, ``accounts_in_sqlite``, or of this database once a restore has
    loaded it, ``accounts_in_database``). Roles are read from ``members_clubrole`` if the
    database has it (``clubroles``); a login in a role's group (a database from before
    ``members 0008``) holds that role in the site's one club, as the migration and
    ``roles_from_groups`` make it."""
    perm = (
        "JOIN auth_permission p ON p.id = x.permission_id "
        "JOIN django_content_type t ON t.id = p.content_type_id"
    )
    users = rows("SELECT id, username, is_superuser, is_staff FROM auth_user")
    roles = [
        (user, Club.DEFAULT_PK, name)
        for user, name in rows(
            "SELECT x.user_id, g.name FROM auth_user_groups x "
            "JOIN auth_group g ON g.id = x.group_id"
        )
        if name in (ORGANIZER, MEMBER)
    ]
    if clubroles:
        roles += rows("SELECT user_id, club_id, role FROM members_clubrole")
    everywhere = rows(
        f"SELECT x.user_id, t.app_label || '.' || p.codename "
        f"FROM auth_user_user_permissions x {perm}"
    ) + rows(
        f"SELECT u.user_id, t.app_label || '.' || p.codename FROM auth_user_groups u "
        f"JOIN auth_group g ON g.id = u.group_id "
        f"JOIN auth_group_permissions x ON x.group_id = g.id {perm} "
        f"WHERE g.name NOT IN ('{ORGANIZER}', '{MEMBER}')"
    )
    accounts = []
    for pk, username, superuser, staff in users:
        held: dict[int, set[str]] = {}
        for user, club, role in roles:
            if user == pk:
                held.setdefault(int(club), set()).add(str(role))
        accounts.append(
            Account(
                username=str(username),
                superuser=bool(superuser),
                staff=bool(staff),
                roles={club: frozenset(names) for club, names in held.items()},
                everywhere=frozenset(str(label) for user, label in everywhere if user == pk),
            )
        )
    return accounts


def accounts_in_sqlite(path: Path) -> list[Account]:
    """The logins of an SQLite backup (checked by ``check_sqlite_backup`` first), read only."""
    with closing(sqlite3.connect(read_only(path), uri=True)) as db:
        tables = {str(n) for (n,) in db.execute("SELECT name FROM sqlite_schema")}
        return accounts_in(
            lambda sql: db.execute(sql).fetchall(), clubroles="members_clubrole" in tables
        )


def accounts_in_database() -> list[Account]:
    """The logins of this database, as a restore has loaded it (before it commits)."""
    with connection.cursor() as cursor:

        def rows(sql: str) -> list[tuple[Any, ...]]:
            cursor.execute(sql)
            return list(cursor.fetchall())

        return accounts_in(rows, clubroles=True)


# --- the nightly backup, and its copy in a second place ---------------------------------------
# ``manage.py backup --nightly`` (the systemd timer's, docs/running.md): a backup into
# ``settings.BACKUP_DIR`` named by the time, the last ``KEPT`` kept; then a copy into the second
# place the club chose (``settings.BACKUP_COPY_DIR``: a USB disk, a mounted folder), the last
# ``KEPT`` kept there too. The copy is written under a temporary name and renamed when whole, so
# a disk that fills up leaves no half file; a missing or full second place is said plainly and
# loses nothing (the first backup stays). What happened is written to ``STATUS`` in the backup
# folder, which the organizer's pages read (``last_backup``).

KEPT = 7
STATUS = "last-backup.json"
# The organizer is warned when the last good backup is older than this.
STALE_AFTER = timedelta(days=2)


@dataclass(frozen=True)
class LastBackup:
    """What the last nightly backups left: when the last good one was made (None: never), its
    file, and its copy's (when the last good copy was made, and why the last copy failed)."""

    made_at: datetime | None
    file: str = ""
    copied_at: datetime | None = None
    copy_file: str = ""
    copy_error: str = ""
    copy_asked: bool = False

    def stale(self, now: datetime) -> bool:
        return self.made_at is None or now - self.made_at > STALE_AFTER


def _when(text: object) -> datetime | None:
    return datetime.fromisoformat(text) if isinstance(text, str) and text else None


def last_backup(folder: Path | None = None) -> LastBackup:
    """What the nightly backups recorded in ``folder`` (default ``settings.BACKUP_DIR``)."""
    folder = folder or Path(settings.BACKUP_DIR)
    try:
        found = json.loads((folder / STATUS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return LastBackup(None, copy_asked=bool(settings.BACKUP_COPY_DIR))
    return LastBackup(
        made_at=_when(found.get("made_at")),
        file=str(found.get("file", "")),
        copied_at=_when(found.get("copied_at")),
        copy_file=str(found.get("copy_file", "")),
        copy_error=str(found.get("copy_error", "")),
        copy_asked=bool(settings.BACKUP_COPY_DIR),
    )


def _kept_backups(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("shirakaba-*") if p.suffix in {".sqlite3", ".json"})


def _keep_last(folder: Path, count: int = KEPT) -> None:
    for old in _kept_backups(folder)[:-count]:
        old.unlink(missing_ok=True)


def copy_to_second_place(made: Path, place: Path) -> Path:
    """Copy the backup ``made`` into ``place`` (whole or not at all), keep the last ``KEPT``
    there, and return the copy; a ``BackupError`` that says what to do when ``place`` is
    missing, not a folder, or full."""
    if not place.is_dir():
        raise BackupError(
            _(
                "The second place for backups, %(place)s, is not there (is the USB disk "
                "plugged in, the folder mounted?). Tonight's backup is kept at %(made)s only."
            )
            % {"place": place, "made": made}
        )
    target = place / made.name
    part = place / f".{made.name}.part"
    try:
        with made.open("rb") as source, part.open("wb") as copy:
            shutil.copyfileobj(source, copy, 1024 * 1024)
            copy.flush()
            os.fsync(copy.fileno())
        part.replace(target)
    except OSError as error:
        part.unlink(missing_ok=True)
        raise BackupError(
            _(
                "Could not copy the backup to %(place)s (%(reason)s; is the disk full?). "
                "Tonight's backup is kept at %(made)s only; the copies there are as they were."
            )
            % {"place": place, "reason": error.strerror or error, "made": made}
        ) from error
    _keep_last(place)
    return target


@scopes_disabled()
def nightly_backup(now: datetime | None = None) -> tuple[Path, Path | None]:
    """Make tonight's backup (and its copy in the second place, when the club chose one);
    return both paths. A failed backup raises ``BackupError`` and records nothing new; a
    failed copy raises ``BackupError`` after the backup is kept and recorded."""
    now = now or datetime.now(UTC)
    folder = Path(settings.BACKUP_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    suffix = ".sqlite3" if connection.vendor == "sqlite" else ".json"
    made = folder / f"shirakaba-{now:%Y-%m-%d-%H%M%S}{suffix}"
    backup(made)
    _keep_last(folder)
    before = last_backup(folder)
    status: dict[str, str] = {
        "made_at": now.isoformat(),
        "file": str(made),
        "copied_at": before.copied_at.isoformat() if before.copied_at else "",
        "copy_file": before.copy_file,
    }
    copy: Path | None = None
    failure: BackupError | None = None
    if settings.BACKUP_COPY_DIR:
        try:
            copy = copy_to_second_place(made, Path(settings.BACKUP_COPY_DIR))
            status.update(copied_at=now.isoformat(), copy_file=str(copy))
        except BackupError as error:
            failure = error
            status["copy_error"] = str(error)
    (folder / f".{STATUS}.part").write_text(json.dumps(status), encoding="utf-8")
    (folder / f".{STATUS}.part").replace(folder / STATUS)
    if failure:
        raise failure
    return made, copy
