"""`make start` and `make serve` leave nothing running once make has ended, however it ended
(issue 26: after SIGTERM to `make start` its runserver kept the port, and after SIGKILL to
`make serve` gunicorn and the workers went on serving). shirakaba/supervise.py runs them."""

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.slow  # runs make: migrate, collectstatic, the servers
ROOT = Path(__file__).resolve().parents[2]
# Ctrl-C: the terminal sends SIGINT to the whole foreground process group (make's). SIGINT to
# make alone is not a way make can be stopped: GNU make then waits for its recipe to end.
ENDINGS = {
    "SIGTERM": lambda make: os.kill(make, signal.SIGTERM),
    "Ctrl-C": lambda make: os.killpg(make, signal.SIGINT),
    "SIGKILL": lambda make: os.kill(make, signal.SIGKILL),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent, session) of a process, or None when it has gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1]), int(fields[3])


def alive(pid: int) -> bool:
    found = stat(pid)
    return found is not None and found[0] not in ("Z", "X")  # a zombie serves nothing


def started_by(make: int) -> dict[int, str]:
    """What runs in make's session or descends from make: pid -> command line."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (found := stat(int(entry.name))):
            table[int(entry.name)] = found
    family = {make}
    grew = True
    while grew:
        more = {pid for pid, (_, ppid, _) in table.items() if ppid in family} - family
        family |= more
        grew = bool(more)
    family |= {pid for pid, (_, _, session) in table.items() if session == make}
    commands = {}
    for pid in family - {make}:
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            commands[pid] = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    return {pid: what(argv) for pid, argv in commands.items() if alive(pid)}


def what(argv: list[str]) -> str:
    """`runserver`, `db_worker`, `gunicorn`, or the command line of anything else."""
    if "manage.py" in argv[:2] and len(argv) > argv.index("manage.py") + 1:
        return argv[argv.index("manage.py") + 1]
    if any(arg.endswith("/gunicorn") for arg in argv[:2]):
        return "gunicorn"
    return " ".join(argv).strip()


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    """One scratch data directory (database, static files) for the module's runs."""
    return tmp_path_factory.mktemp("make-data")


def run_make(target: str, data_dir: Path, port: int, extra: dict[str, str]) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO"))}
    env |= {
        "SHIRAKABA_DATA_DIR": str(data_dir),
        "DATABASE_URL": f"sqlite:///{data_dir / 'db.sqlite3'}",
        **extra,
    }
    return subprocess.Popen(
        # -o: the virtualenv counts as installed (nothing is installed by the test).
        ["make", "--no-print-directory", "-o", ".venv/.installed", target, f"PORT={port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # make leads a session: what it starts is found by it
    )


@pytest.fixture
def running(data_dir) -> Iterator:
    """Start make; kill whatever it started in the end, whatever the test found."""
    started: list[tuple[subprocess.Popen, dict[int, str]]] = []

    def start(target: str, expected: list[str], extra: dict[str, str]) -> tuple:
        port = free_port()
        make = run_make(target, data_dir, port, extra)
        started.append((make, {}))
        deadline = time.monotonic() + 180
        while True:
            if make.poll() is not None:
                pytest.fail(f"make {target} stopped: " + make.stdout.read().decode())
            assert time.monotonic() < deadline, f"make {target} did not start"
            family = started_by(make.pid)
            started[-1] = (make, family)
            counts = [list(family.values()).count(name) for name in expected]
            if all(counts):
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/login/", timeout=5).status_code < 500:
                        break
                except httpx.TransportError:
                    pass
            time.sleep(0.3)
        time.sleep(1)  # the autoreloaders' children started too
        started[-1] = (make, started_by(make.pid))
        return make, port, started[-1][1]

    try:
        yield start
    finally:
        for make, family in started:
            for pid in [make.pid, *family]:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
            for pid in started_by(make.pid):
                os.kill(pid, signal.SIGKILL)
            make.wait(30)


def ends_with_make(make: subprocess.Popen, port: int, family: dict[int, str], ending: str):
    ENDINGS[ending](make.pid)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        left = {pid: c for pid, c in family.items() if alive(pid)} | started_by(make.pid)
        if make.poll() is not None and not left and port_free(port):
            break
        time.sleep(0.2)
    assert make.poll() is not None, "make itself is still running"
    assert left == {}, f"still running 15 s after {ending} to make: {left}"
    assert port_free(port), f"port {port} still taken"


@pytest.mark.parametrize("ending", ENDINGS)
def test_make_start_leaves_nothing_running(running, ending) -> None:
    make, port, family = running("start", ["runserver", "db_worker"], {})
    # runserver and db_worker --reload each serve in a child of their autoreloader.
    assert list(family.values()).count("runserver") == 2, family
    assert list(family.values()).count("db_worker") == 2, family
    ends_with_make(make, port, family, ending)


@pytest.mark.parametrize("ending", ENDINGS)
def test_make_serve_leaves_nothing_running(running, ending) -> None:
    production = {  # as in docs/running.md (and tests/shirakaba/test_production.py)
        "SECRET_KEY": "a-long-random-production-key-" + "x7Q#" * 10,
        "ALLOWED_HOSTS": "127.0.0.1",
        "HTTPS": "1",
        "PROXY_COUNT": "1",
        "MAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "DEBUG": "0",
        "WORKERS": "2",
    }
    make, port, family = running("serve", ["gunicorn", "db_worker"], production)
    assert list(family.values()).count("gunicorn") == 3, family  # the master, 2 workers
    assert list(family.values()).count("db_worker") == 2, family
    ends_with_make(make, port, family, ending)
