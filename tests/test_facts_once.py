"""Facts written once: a fact of the house (the default rule set, the field limits, …) is
asked for or read in one way, not written again beside its definition."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("scoring", "members", "shirakaba")


def _sources() -> dict[str, str]:
    return {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
    }


def _found(pattern: str, *, outside: tuple[str, ...] = ()) -> list[str]:
    return [
        f"{name}:{text.count(chr(10), 0, match.start()) + 1}"
        for name, text in _sources().items()
        if name not in outside
        for match in re.finditer(pattern, text)
    ]


def test_the_default_rule_set_is_asked_for_through_the_manager():
    assert _found(r"is_default=True\)\.first\(\)", outside=("scoring/models/rule_sets.py",)) == []


def test_the_htmx_request_type_is_defined_once():
    assert _found(r"class HtmxHttpRequest\(") == ["shirakaba/middleware.py:11"]


def test_numbers_in_the_query_string_are_read_by_one_function():
    """``scoring.forms.query_number`` reads every whole number in a URL; no view checks digits
    or calls ``int`` on a query parameter itself."""
    not_views = tuple(n for n in _sources() if "/views" not in n)
    assert _found(r"\.isdigit\(\)|\.isdecimal\(\)", outside=not_views) == []
    assert _found(r"int\(request\.GET|int\(params") == []
    assert _found(r"request\.GET\.get\(\"(table|round|min|group|rule)\"\)\s+or\b") == []
