"""Facts written once: a fact of the house (the default rule set, the field limits, …) is
asked for or read in one way, not written again beside its definition."""

import re
from pathlib import Path

from scoring.models import Meet
from scoring.models.meets import HISTORY_REASON_LENGTH

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
    assert _found(r"class HtmxHttpRequest\(") == ["scoring/views/__init__.py:9"]


def test_numbers_in_the_query_string_are_read_by_one_function():
    """``scoring.forms.query_number`` reads every whole number in a URL; no view checks digits
    or calls ``int`` on a query parameter itself."""
    not_views = tuple(n for n in _sources() if "/views" not in n)
    assert _found(r"\.isdigit\(\)|\.isdecimal\(\)", outside=not_views) == []
    assert _found(r"int\(request\.GET|int\(params") == []
    assert _found(r"request\.GET\.get\(\"(table|round|min|group|rule)\"\)\s+or\b") == []


def test_field_limits_are_written_beside_their_model():
    """A name's 40 characters, a note's 200, the 50 tables and 20 rounds: the forms and the
    import read them from the models' modules."""
    assert _found(r"max_length=40\b|> 40\b|MaxValueValidator\((20|50)\)|max_value=(20|50)\b") == []
    # The 200 left are a seat's hands text (満貫以上), a report's file name and a group's 段位
    # ladder, not notes.
    notes = [place.split(":")[0] for place in _found(r"max_length=200\b")]
    assert notes == [
        "scoring/forms/games.py",
        "scoring/models/report_jobs.py",
        "scoring/models/rule_sets.py",
    ], notes


def test_the_history_keeps_a_reason_in_the_length_the_models_say():
    field = Meet.history.model._meta.get_field("history_change_reason")
    assert field.max_length == HISTORY_REASON_LENGTH


def test_meet_kinds_are_named_through_their_enum():
    assert _found(r"kind=\"(wed|sat|other)\"|kind == \"(wed|sat|other)\"") == []


def test_the_static_files_of_the_kept_pages_are_named_by_their_templates_only():
    """The service worker keeps what the kept pages' templates link; no list of stylesheets
    and scripts beside them to fall behind."""
    assert _found(r"[\"'](css|js)/[\w.-]+\.(css|js)[\"']") == []


def test_pages_open_to_visitors_have_one_guard():
    """``members.roles.open_to_visitors_when`` decides who reads the standings, the rating
    and the schedule; no view asks the switches and the sign-in itself."""
    views = tuple(n for n in _sources() if "/views/" not in n)
    assert (
        _found(r"is_authenticated and not \w|_public\(\):\n\s+if not request\.user", outside=views)
        == []
    )


def test_the_record_sheets_headings_are_written_once():
    """The record sheet's words (持ち点, 回戦, 満貫以上, …) are ``notation.COLUMNS``; a table of
    games takes its headings from there."""
    assert _found(r'Column\("\w+", "(日付|例会|回戦|卓|席|氏名|持ち点|錯和|満貫以上)"') == []
