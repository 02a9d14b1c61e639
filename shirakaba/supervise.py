"""Run the server and the report workers together, and end them all when this ends, however
it ends (``make start`` and ``make serve`` run it)::

    python -m shirakaba.supervise "manage.py db_worker" "manage.py runserver 127.0.0.1:8000"

- Each command runs in a process group of its own. When one of them ends, or this gets
  SIGTERM, SIGINT or SIGHUP, every group gets SIGTERM, and SIGKILL ``--grace`` seconds later.
- This process ends with its parent (``make``), even when the parent was killed with SIGKILL:
  on Linux the kernel sends it SIGTERM then (``prctl(PR_SET_PDEATHSIG)``).
- The commands, and the processes they start, end with their parent the same way:
  ``SHIRAKABA_DIE_WITH_PARENT=1`` in their environment makes ``manage.py`` and ``wsgi.py`` ask
  for it (the autoreloader of runserver and db_worker serves in a child of its own; gunicorn's
  workers are forks of its master).

Only the standard library: it runs before Django is imported.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import shlex
import signal
import subprocess
import sys
import time
from types import FrameType

ASK = "SHIRAKABA_DIE_WITH_PARENT"
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent(parent: int | None = None) -> None:
    """Ask the kernel for SIGTERM when this process's parent ends (Linux; elsewhere nothing).

    The signal comes when the parent's *thread* that started this process ends; the servers
    here start their children from their main thread. With ``parent`` (the pid expected as
    the parent), end at once if it has already gone."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if parent is not None and os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


def die_with_parent_if_asked() -> None:
    """``die_with_parent()`` when the environment asks for it (``supervise`` does)."""
    if os.environ.get(ASK) == "1":
        die_with_parent()


class Stop(Exception):
    def __init__(self, signum: int) -> None:
        self.signum = signum


def stop(signum: int, frame: FrameType | None) -> None:
    raise Stop(signum)


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def signal_group(pgid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signum)


def run(commands: list[list[str]], grace: float) -> int:
    """Start ``commands``; return when all have ended, with the status to exit with."""
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, stop)
    me = os.getpid()
    os.environ[ASK] = "1"
    processes: list[subprocess.Popen[bytes]] = []
    status = 0
    try:
        die_with_parent(os.getppid())
        for command in commands:
            processes.append(
                subprocess.Popen(command, process_group=0, preexec_fn=lambda: die_with_parent(me))
            )
        while True:
            ended = [p for p in processes if p.poll() is not None]
            if ended:
                status = ended[0].returncode
                name = shlex.join(ended[0].args)  # type: ignore[arg-type]
                print(f"supervise: {name} ended ({status}); stopping the others.", flush=True)
                break
            time.sleep(0.2)
    except Stop as signalled:
        status = 128 + signalled.signum
    finally:
        # From here on a second Ctrl-C must not leave the stopping half done.
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, signal.SIG_IGN)
        groups = [p.pid for p in processes]
        for pgid in groups:
            signal_group(pgid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            for process in processes:
                process.poll()  # reap: a zombie still counts as a member of its group
            if not any(group_alive(pgid) for pgid in groups):
                break
            time.sleep(0.1)
        else:
            for pgid in groups:
                signal_group(pgid, signal.SIGKILL)
        for process in processes:
            process.wait()
    return status if status >= 0 else 128 - status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shirakaba.supervise", description=__doc__)
    parser.add_argument("commands", nargs="+", help="a command line, quoted as one argument")
    parser.add_argument(
        "--grace",
        type=float,
        default=10,
        help="seconds between SIGTERM and SIGKILL (a report worker finishes its report first)",
    )
    options = parser.parse_args(argv)
    return run([shlex.split(command) for command in options.commands], options.grace)


if __name__ == "__main__":
    sys.exit(main())
