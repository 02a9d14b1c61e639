"""The tests' own layout: no test module imports another. What several tests build lives in
tests/builders.py, and their shared fixtures in conftest.py files (which pytest finds
itself); a test module that imported another would run that module's tests' set-up rules,
fixtures and marks in a place nobody looks for them."""

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ALLOWED = {"tests.builders"}


def imported(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) for every import in ``path``, wherever it stands (top or in a function);
    relative imports as written (``.x``), and ``from tests import x`` as ``tests.x``."""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if module in ("tests", ".") or (node.level and not node.module):
                for alias in node.names:
                    yield node.lineno, f"{module.rstrip('.') or '.'}.{alias.name}"
            else:
                yield node.lineno, module


def test_no_test_module_imports_another():
    found = [
        f"{path.relative_to(TESTS.parent)}:{line} imports {module}"
        for path in sorted(TESTS.rglob("*.py"))
        if "node_modules" not in path.parts
        for line, module in imported(path)
        if (module.startswith(".") or module == "tests" or module.startswith("tests."))
        and module not in ALLOWED
    ]
    assert found == [], "shared code belongs in tests/builders.py or a conftest.py"


def test_the_check_sees_each_kind_of_import(tmp_path):
    """The check itself: it finds a top-level, a deferred and a relative import of a test
    module, and lets the builders through."""
    path = tmp_path / "test_x.py"
    path.write_text(
        "from tests.scoring.test_views import game_post\n"
        "from tests import conftest, builders\n"
        "import tests.builders\n"
        "def f():\n"
        "    from .test_y import z\n"
    )
    assert [m for _l, m in imported(path)] == [
        "tests.scoring.test_views",
        "tests.conftest",
        "tests.builders",
        "tests.builders",
        ".test_y",
    ]
