"""What the making of reports (``making.py``) and of their parts (``parts.py``) both go by:
how long a kept file is kept unused (``KEEP_FOR``) and the version of what lays reports out
(``template_version``), which every digest of a report or a part includes; and where a
report's file is kept and whether it is there (``kept_name``, ``is_kept``). Below both, so
that neither imports the other for them."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from functools import cache
from pathlib import Path

from django.conf import settings

from scoring.models import Report, ReportStatus
from scoring.reports import NotKept, kept_files

# A kept file nobody asked for in this long is removed (a part: no report used it).
KEEP_FOR = timedelta(days=30)


@cache
def template_version() -> str:
    """A digest of everything that lays reports out: the report templates and their shared
    style sheet, the modules of scoring/reports/ and the compiled catalogues. A deploy that
    changes any of them makes every report new."""
    base = Path(settings.BASE_DIR)
    files = sorted(
        [
            *(base / "templates" / "reports").glob("*.html"),
            *(base / "static" / "reports").glob("*.css"),
            *(base / "scoring" / "reports").glob("*.py"),
            *(base / "locale").glob("*/LC_MESSAGES/django.mo"),
        ]
    )
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def kept_name(report: Report) -> str:
    """The name of the report's file in the reports storage (``kept_files``)."""
    return report.digest


def is_kept(report: Report) -> bool:
    return report.status == ReportStatus.READY and kept_files().exists(kept_name(report))


def could_not_keep(report: Report) -> bool:
    """Whether the report failed because its file (or a part's) could not be written: the
    disk is full or the reports directory cannot be written, which only whoever runs the
    server can put right."""
    return report.status == ReportStatus.FAILED and f"{NotKept.__name__}(" in report.error
