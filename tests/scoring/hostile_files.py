"""Writes the hostile and malformed record sheets (tests/builders.py makes them) into a folder,
or measures reading one. Run as a script, to measure them by hand (docs/security.md, "Hostile files"):

    .venv/bin/python -m tests.scoring.hostile_files write DIR [--full-bomb]

or to read one file in this process under a memory limit and print what it took:

    .venv/bin/python -m tests.scoring.hostile_files measure FILE [--limit-mb 200]
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shirakaba.settings")
django.setup()  # before the models are imported (tests.builders, scoring.imports)

import json  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from django.utils import translation  # noqa: E402

from scoring.imports import read_table  # noqa: E402
from tests.builders import HOSTILE, MALFORMED, full_bomb, good_xlsx, vm_kb  # noqa: E402


def measure(path: str, limit_mb: int) -> dict[str, object]:
    """Read one file with ``read_table`` under an address-space limit of what this process
    already uses plus ``limit_mb``; what it took and what it said."""
    translation.activate("ja")
    read_table(good_xlsx())  # warm: every module imported, every cache filled
    data = Path(path).read_bytes()
    before_kb = vm_kb("VmSize")
    Path("/proc/self/clear_refs").write_text("5")  # the peak (VmHWM) starts again from here
    rss_before_kb = vm_kb("VmRSS")
    limit = (before_kb + limit_mb * 1024) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    started = time.perf_counter()
    try:
        rows = read_table(data)
        outcome = f"read {len(rows)} rows"
    except ValueError as error:
        outcome = str(error)
    except MemoryError:
        outcome = "MemoryError"
    seconds = time.perf_counter() - started
    return {
        "file": path,
        "bytes": len(data),
        "seconds": round(seconds, 2),
        "extra_rss_mb": round(
            (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before_kb) / 1024, 1
        ),
        "extra_vm_mb": round((vm_kb("VmPeak") - before_kb) / 1024, 1),
        "outcome": outcome,
    }


def main(argv: list[str]) -> None:
    if argv[:1] == ["write"]:
        folder = Path(argv[1])
        folder.mkdir(parents=True, exist_ok=True)
        makers = {**HOSTILE, **MALFORMED}
        if "--full-bomb" in argv:
            makers["full bomb"] = full_bomb
        for name, make in makers.items():
            path = folder / (name.replace(" ", "-") + (".xlsx" if name != "old xls" else ".xls"))
            path.write_bytes(make())
            print(f"{path}  {path.stat().st_size:,} bytes")
    elif argv[:1] == ["measure"]:
        limit = int(argv[argv.index("--limit-mb") + 1]) if "--limit-mb" in argv else 200
        print(json.dumps(measure(argv[1], limit), ensure_ascii=False))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
