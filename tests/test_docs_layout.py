"""docs/development.md's layout names every module of the apps, and names nothing that is not
there: a module added, moved or removed without its line in the docs fails here."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("scoring", "members", "shirakaba")


def layout() -> str:
    """The fenced block under "## Layout" in docs/development.md."""
    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    section = text.split("\n## Layout\n", 1)[1]
    return section.split("```", 2)[1]


def named(block: str) -> set[str]:
    """Every ``name.py`` and ``name/`` the block writes."""
    return set(re.findall(r"[\w.]+\.py\b|(?<![\w./])\.?[a-z_]+/", block))


def modules() -> list[Path]:
    """The apps' modules a reader looks for: not migrations, packages' ``__init__`` or the
    commands (each command is named by its command's name instead)."""
    return [
        path.relative_to(ROOT)
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
        and path.name != "__init__.py"
        and "commands" not in path.parts
    ]


def test_the_layout_names_every_module_and_package():
    block = layout()
    words = named(block)
    missing = [str(path) for path in modules() if path.name not in words]
    folders = {
        f"{path.parent.name}/"
        for path in modules()
        if path.parent.name not in PACKAGES and path.parent.name != "commands"
    }
    missing += sorted(folder for folder in folders if folder not in words)
    assert missing == []


def test_the_layout_names_every_command():
    block = layout()
    commands = sorted(
        path.stem
        for package in PACKAGES
        for path in (ROOT / package).rglob("management/commands/*.py")
        if path.name != "__init__.py"
    )
    assert [c for c in commands if not re.search(rf"\b{c}\b", block)] == []


def test_the_layout_names_nothing_that_is_not_there():
    everything = {p.name for p in ROOT.rglob("*.py") if ".venv" not in p.parts}
    folders = {f"{p.name}/" for p in ROOT.rglob("*") if p.is_dir() and ".venv" not in p.parts}
    assert sorted(n for n in named(layout()) if n not in everything | folders) == []
