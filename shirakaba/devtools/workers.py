"""Real report workers (``manage.py db_worker`` processes) for the reports bench and the
end-to-end tests: started, each looking for tasks, before ``Workers`` returns; and a scratch
place to keep what they make (``scratch_reports``)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.test.utils import override_settings

from shirakaba.supervise import die_with_parent


@contextmanager
def scratch_reports() -> Iterator[Path]:
    """Reports and their parts kept in a new empty directory (the reports storage on the file
    system there) for the block, then removed: a measurement makes everything from nothing."""
    with tempfile.TemporaryDirectory() as folder:
        storage = {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": folder},
        }
        with override_settings(
            REPORTS_DIR=Path(folder), STORAGES={**settings.STORAGES, "reports": storage}
        ):
            yield Path(folder)


class Workers:
    """``count`` ``db_worker`` processes on the database ``database_url``, keeping the files in
    ``reports_dir``, looking for tasks every ``interval`` seconds, each writing its log into
    ``logs_dir``; ``env`` adds to (or replaces) the environment they are given. Raises ``RuntimeError`` when one stops, or they are not all looking for
    tasks within ``timeout`` seconds."""

    def __init__(
        self,
        count: int,
        *,
        database_url: str,
        reports_dir: Path,
        logs_dir: Path,
        interval: float = 0.2,
        timeout: float = 60,
        env: Mapping[str, str] | None = None,
    ) -> None:
        environment = {
            **os.environ,
            "DATABASE_URL": database_url,
            "SHIRAKABA_REPORTS_DIR": str(reports_dir),
            "LOG_LEVEL": "INFO",  # the worker says "Starting worker" when it looks for tasks
            **(env or {}),
        }
        self.logs = [logs_dir / f"worker-{n}.log" for n in range(1, count + 1)]
        command = [sys.executable, "manage.py", "db_worker", "--interval", str(interval)]
        self.processes = [
            subprocess.Popen(
                [*command, "--no-startup-delay", "--no-reload"],
                cwd=settings.BASE_DIR,
                env=environment,
                stdout=log.open("w"),
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent,  # a measurement or test killed ends them too
            )
            for log in self.logs
        ]
        deadline = time.monotonic() + timeout
        while not all("Starting worker" in log.read_text() for log in self.logs):
            if not self.alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(
                    "the workers did not start: " + " | ".join(log.read_text() for log in self.logs)
                )
            time.sleep(0.05)

    def alive(self) -> bool:
        return all(process.poll() is None for process in self.processes)

    def peaks(self) -> list[float]:
        """Each worker's peak resident memory so far, in MB (VmHWM)."""
        peaks = []
        for process in self.processes:
            status = Path(f"/proc/{process.pid}/status").read_text()
            line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
            peaks.append(int(line.split()[1]) / 1024)
        return peaks

    def cpu(self) -> float:
        """The CPU seconds the workers have used so far (user and system, all of them): what
        their work cost, whatever else the machine was doing meanwhile."""
        ticks = os.sysconf("SC_CLK_TCK")
        used = 0
        for process in self.processes:
            # After the command's name in brackets: utime and stime are fields 14 and 15.
            fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            used += int(fields[11]) + int(fields[12])
        return used / ticks

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.wait(30)
