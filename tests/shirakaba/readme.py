"""The "Run in production" example of docs/running.md, read from that file itself, so that the tests
of production run with exactly what an operator would copy (and cannot drift from it)."""

import os
import re
import shlex
import subprocess
from pathlib import Path

RUNNING = Path(__file__).resolve().parents[2] / "docs" / "running.md"


def production_example() -> list[str]:
    """The `export` lines of the first `sh` block under "## Run in production"."""
    section = RUNNING.read_text().split("\n## Run in production\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "docs/running.md's production section has its sh example"
    return [line for line in block[1].splitlines() if line.startswith("export ")]


def production_environment() -> dict[str, str]:
    """The variables the production example exports, with the values bash gives them
    (its ``$(…)`` run as written)."""
    exports = production_example()
    names = [
        word.split("=", 1)[0]
        for line in exports
        for word in shlex.split(line, comments=True)[1:]
        if "=" in word
    ]
    script = "\n".join([*exports, 'printf "%s\\0" ' + " ".join(f'"${n}"' for n in names)])
    values = subprocess.run(
        ["bash", "-euc", script],
        env={"PATH": os.environ["PATH"]},
        capture_output=True,
        check=True,
    ).stdout.decode()
    return dict(zip(names, values.split("\0")[:-1], strict=True))
