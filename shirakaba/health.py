"""Health at a glance for the organizer: the version, the database (its engine, and whether it
answers), the report workers alive (their beat, scoring/reports/heartbeat.py), the kept
reports' files against their limit, the last nightly backup and its copy in the second place,
and the address and scheme the app sees for this request (what the proxy in front passes on:
docs/running.md)."""

import sqlite3
import subprocess
import tomllib
from functools import cache
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from members.locks import client_address
from members.roles import site_keeper_required
from scoring.backups import last_backup
from scoring.reports.heartbeat import workers_alive
from scoring.reports.pruning import kept_size

ENGINES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


@cache
def version() -> str:
    """The project's version (pyproject.toml) and, in a git checkout, its commit."""
    with (settings.BASE_DIR / "pyproject.toml").open("rb") as file:
        number = str(tomllib.load(file)["project"]["version"])
    try:
        commit = subprocess.run(
            ["git", "-C", str(settings.BASE_DIR), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return f"{number} ({commit})" if commit else number


def database() -> dict[str, Any]:
    engine = ENGINES.get(connection.vendor, connection.vendor)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        server = ""
        if connection.vendor == "sqlite":
            server = sqlite3.sqlite_version
        elif connection.vendor == "postgresql":
            major, rest = divmod(getattr(connection, "pg_version", 0), 10000)
            server = f"{major}.{rest}"
        return {"engine": f"{engine} {server}".strip(), "error": ""}
    except DatabaseError as error:
        return {"engine": engine, "error": str(error)}


@site_keeper_required
@require_safe
def health(request: HttpRequest) -> HttpResponse:
    db = database()
    size = None if db["error"] else kept_size()
    context = {
        "version": version(),
        "database": db,
        "workers": [{"name": n, "ago": round(a)} for n, a in workers_alive().items()],
        "kept_size": size,
        "kept_limit": settings.REPORTS_MAX_BYTES,
        "kept_over": size is not None and size > settings.REPORTS_MAX_BYTES,
        "backup": last_backup(),
        "backup_stale": last_backup().stale(timezone.now()),
        "copy_place": settings.BACKUP_COPY_DIR,
        "address": client_address(request),
        "secure": request.is_secure(),
        "proxies": settings.PROXY_COUNT,
    }
    return render(request, "health.html", context)
