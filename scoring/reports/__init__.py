"""The reports: PDF (pdf.py, weasy.py), Excel (xlsx.py), CSV (games_csv.py), their charts, and
their making as tasks (making.py)."""

from collections.abc import Callable

# Progress of a report being made: (which part, how many done, of how many).
Progress = Callable[[str, int, int], None]


def no_progress(step: str, done: int, total: int) -> None:
    """Progress told to no one."""
