"""Comments and docstrings say what the code does and why, not which issue it came from: the
history is in git (``git log -S`` finds the commit that names the issue)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("scoring", "members", "shirakaba", "templates", "static")
ENDINGS = {".py", ".html", ".js", ".css", ".txt"}


def test_no_comment_names_an_issue():
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in SOURCES
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in ENDINGS and "migrations" not in path.parts and "vendor" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bissue \d+", line, re.IGNORECASE)
    ]
    assert found == []
