"""The reports: PDF (pdf.py, weasy.py), Excel (xlsx.py), CSV (games_csv.py), their charts, and
their making as tasks (making.py)."""

from collections.abc import Callable
from pathlib import Path

# Progress of a report being made: (which part, how many done, of how many).
Progress = Callable[[str, int, int], None]


def no_progress(step: str, done: int, total: int) -> None:
    """Progress told to no one."""


def keep(path: Path, content: bytes) -> None:
    """Write a made file where it is kept, whole or not at all: a reader never finds half of
    it (written beside it, then moved into place)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_bytes(content)
    partial.replace(path)
