"""What the making of reports (``making.py``) and of their parts (``parts.py``) both go by:
how long a kept file is kept unused (``KEEP_FOR``) and the version of what lays reports out
(``template_version``), which every digest of a report or a part includes. Below both, so
that neither imports the other for them."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from functools import cache
from pathlib import Path

from django.conf import settings

# A kept file nobody asked for in this long is removed (a part: no report used it).
KEEP_FOR = timedelta(days=30)


@cache
def template_version() -> str:
    """A digest of everything that lays reports out: the report templates, the modules of
    scoring/reports/ and the compiled catalogues. A deploy that changes any of them makes
    every report new."""
    base = Path(settings.BASE_DIR)
    files = sorted(
        [
            *(base / "templates" / "reports").glob("*.html"),
            *(base / "scoring" / "reports").glob("*.py"),
            *(base / "locale").glob("*/LC_MESSAGES/django.mo"),
        ]
    )
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()
