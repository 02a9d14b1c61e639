"""The reports: PDF (pdf.py, weasy.py), Excel (xlsx.py), CSV (games_csv.py), their charts, and
their making as tasks (making.py)."""

from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

# Progress of a report being made: (which part, how many done, of how many).
Progress = Callable[[str, int, int], None]


def no_progress(step: str, done: int, total: int) -> None:
    """Progress told to no one."""


class NotKept(OSError):
    """A made file could not be written where it is kept: the disk is full, or the reports
    directory cannot be written (its ``errno`` and ``strerror`` are the system's)."""


def keep(path: Path, content: bytes) -> None:
    """Write a made file where it is kept, whole or not at all: a reader never finds half of
    it (written beside it, then moved into place), and a write that fails (a full disk)
    leaves nothing behind. Raises ``NotKept`` when the file cannot be written."""
    partial = path.with_suffix(".part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            partial.write_bytes(content)
            partial.replace(path)
        except BaseException:
            with suppress(OSError):
                partial.unlink(missing_ok=True)
            raise
    except OSError as error:
        raise NotKept(error.errno, f"{error.strerror}: {path.parent}") from error
