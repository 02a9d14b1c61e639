"""The import drawing: imports run one way, down, with no circle, and no import of the
project's own modules is deferred into a function to hide one.

The contracts are in pyproject.toml (``[tool.importlinter]``); ``make lint`` checks them too
(``.venv/bin/lint-imports``)."""

import ast
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("scoring", "members", "shirakaba")


def test_the_import_contracts_are_kept(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def _deferred_imports(path: Path) -> list[str]:
    """Imports of the project's modules inside a function of ``path``; an app's ``ready()``
    may import (Django loads the models only then)."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if path.name == "apps.py" and function.name == "ready":
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else ["."]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name == "." or name.split(".")[0] in PACKAGES:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    return found


def test_no_import_of_the_project_is_deferred_into_a_function():
    files = [
        path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
    ]
    assert len(files) > 50
    assert [found for path in files for found in _deferred_imports(path)] == []
