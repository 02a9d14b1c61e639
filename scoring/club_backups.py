"""A club's own backup: everything the club's games and standings are made of, in one JSON file
that restores as a new club into this install or another, under new keys.

The site's backup (``scoring.backups``) is the whole install, restored into an empty database.
A club's is one club's rows only, so a club can move to another install, or keep its own copy:
the rows are read in the club's scope, and restored in a new club's, each row under a key the
database gives it and every link between them followed to its new key (two installs number their
rows alike, so the old keys would collide). A link to a row the file does not hold is refused:
a restored club points at nothing but its own rows.

What it holds (``CARRIED``): the standings groups, rule sets, settings, members, meets (and who
came), games, results, big hands, awards, 出欠 and the draw. What it leaves out, and why:

- logins and their roles, invitation codes: a login is the site's, and a name in another install
  may be another person; the organizer gives the roles again (``--organizer``, invitation codes);
- calendar addresses: secret addresses of this install; members make new ones;
- reports: made again when asked;
- the history of changes (django-simple-history): the restored rows start their own.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from django.contrib.auth.models import User
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, connection, models, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils.translation import gettext as _

from members.models import Club, Member
from members.scopes import in_club
from scoring.backups import BackupError
from scoring.clubs import first_organizer
from scoring.models import (
    Answer,
    Award,
    BigHand,
    ClubSettings,
    DrawnPlace,
    Hanchan,
    HanchanResult,
    Meet,
    RuleSet,
    StandingsGroup,
)

FORMAT = "shirakaba-club-backup"
VERSION = 1

CARRIED: list[type[models.Model]] = [
    StandingsGroup,
    RuleSet,
    ClubSettings,
    Member,
    Meet,
    Hanchan,
    HanchanResult,
    BigHand,
    Award,
    Answer,
    DrawnPlace,
]
"""What a club's backup holds, each model after every model it points at (the restore's order)."""


def schema() -> list[str]:
    """The migrations of the club's apps this database has: a backup restores only into a
    database of the same schema (an install of another version upgrades first)."""
    applied = MigrationRecorder(connection).applied_migrations()
    return sorted(f"{app}.{name}" for app, name in applied if app in ("members", "scoring"))


def club_backup(club: Club) -> dict[str, Any]:
    """The club's backup as a JSON-ready dict: its name, the schema, and its rows."""
    with in_club(club):
        rows: list[dict[str, Any]] = []
        for model in CARRIED:
            rows += serializers.serialize("python", model._default_manager.order_by("pk"))
    return {
        "format": FORMAT,
        "version": VERSION,
        "made_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "club": {"slug": club.slug, "name": club.name},
        "schema": schema(),
        "rows": rows,
    }


def write_club_backup(club: Club, path: Path) -> int:
    """Write ``club``'s backup to ``path`` (through a temporary file, so a half-written file
    never stands under the name); return the number of rows."""
    data = club_backup(club)
    part = path.with_name(path.name + ".part")
    with part.open("w", encoding="utf-8") as file:
        json.dump(data, file, cls=DjangoJSONEncoder, ensure_ascii=False)
    part.replace(path)
    return len(data["rows"])


def read_club_backup(path: Path) -> dict[str, Any]:
    """A club's backup file, checked before anything is written: the format, and the schema
    of this database."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BackupError(
            _("%(file)s is not a club's backup (%(error)s).") % {"file": path, "error": error}
        ) from error
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(_("%(file)s is not a club's backup.") % {"file": path})
    if data.get("version") != VERSION or not isinstance(data.get("rows"), list):
        raise BackupError(
            _("%(file)s is a club's backup of a version this app cannot read.") % {"file": path}
        )
    theirs, ours = set(data.get("schema") or []), set(schema())
    if theirs != ours:
        raise BackupError(
            _(
                "%(file)s was made by another version of the app (its database differs in "
                "%(migrations)s); bring both installs to the same version first."
            )
            % {"file": path, "migrations": ", ".join(sorted(theirs ^ ours)[:5])}
        )
    return data


def restore_club_backup(
    path: Path, slug: str, name: str | None = None, organizer: str = ""
) -> tuple[Club, int]:
    """Make a new club ``slug`` from the backup at ``path``, every row under a new key; its
    first organizer when named. All or nothing: a file that names a row it does not hold, or a
    model a club's backup does not carry, is refused and nothing is saved."""
    data = read_club_backup(path)
    club = Club(slug=slug, name=data["club"].get("name", "") if name is None else name)
    club.full_clean()
    try:
        with transaction.atomic():
            club.save()
            count = _load(club, data["rows"], path)
            if organizer:
                first_organizer(club, organizer)
    except (DeserializationError, DatabaseError, ValidationError, LookupError) as error:
        raise BackupError(
            _("%(file)s could not be restored (nothing was saved): %(error)s")
            % {"file": path, "error": error}
        ) from error
    return club, count


def _objects(rows: list[Any], path: Path) -> Iterator[serializers.base.DeserializedObject]:
    carried = {m._meta.label_lower for m in CARRIED}
    for row in rows:
        if not isinstance(row, dict) or row.get("model") not in carried:
            label = row.get("model") if isinstance(row, dict) else row
            raise BackupError(
                _("%(file)s holds a row a club's backup does not carry (%(label)s).")
                % {"file": path, "label": label}
            )
    yield from serializers.deserialize("python", rows)


def _load(club: Club, rows: list[Any], path: Path) -> int:
    """Save each row under a new key in ``club``'s scope, its links followed to their new keys."""
    new_keys: dict[type[models.Model], dict[Any, Any]] = {m: {} for m in CARRIED}
    order = {m: i for i, m in enumerate(CARRIED)}
    objects = sorted(_objects(rows, path), key=lambda o: order[type(o.object)])
    count = 0
    with in_club(club):
        for found in objects:
            row = found.object
            model = type(row)
            old = row.pk
            for field in model._meta.concrete_fields:
                if not field.is_relation or field.primary_key:
                    continue
                target = field.related_model
                value = getattr(row, field.attname)
                if target is Club:
                    setattr(row, field.attname, club.pk)
                elif target is User:
                    setattr(row, field.attname, None)  # a login is the site's, not carried
                elif value is not None:
                    setattr(row, field.attname, _new_key(new_keys, target, value, path))
            # Each field's own checks, as a form's (control and direction marks, choices,
            # lengths): a file is not the forms. Links are followed above, not checked here.
            row.clean_fields(
                exclude=[
                    f.name for f in model._meta.concrete_fields if f.is_relation or f.primary_key
                ]
            )
            row.pk = None
            row.save_base(raw=True, force_insert=True)
            new_keys[model][old] = row.pk
            for name, keys in (found.m2m_data or {}).items():
                # The link rows themselves, as a restore writes rows (a finalised meet's
                # attendance is guarded against change, not against being restored).
                link = cast(models.ManyToManyField[Any, Any], model._meta.get_field(name))
                through = cast(type[models.Model], link.remote_field.through)
                ours, theirs = f"{link.m2m_field_name()}_id", f"{link.m2m_reverse_field_name()}_id"
                through._default_manager.bulk_create(
                    through(
                        **{ours: row.pk, theirs: _new_key(new_keys, link.related_model, k, path)}
                    )
                    for k in keys
                )
            count += 1
    return count


def _new_key(new_keys: dict[Any, dict[Any, Any]], target: Any, old: Any, path: Path) -> Any:
    try:
        return new_keys[target][old]
    except KeyError:
        raise BackupError(
            _("%(file)s points at a row it does not hold (%(model)s %(key)s); nothing was saved.")
            % {"file": path, "model": getattr(target, "__name__", target), "key": old}
        ) from None
