from datetime import date
from decimal import Decimal

import pytest
from django.utils import translation

from scoring.templatetags.scoring_tags import meet_date, points, sign_class, signed_p


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Decimal("2.6"), "+2.6"),
        (Decimal("-33.2"), "−33.2"),
        (Decimal("0"), "0.0"),
        (Decimal("-0.0"), "0.0"),
        (Decimal("22.60"), "+22.6"),
        (30, "+30.0"),
        (None, ""),
    ],
)
def test_signed_p(value, shown):
    assert signed_p(value) == shown


def test_points_and_sign_class():
    assert points(32_600) == "32,600"
    assert points(-3_200) == "−3,200"
    assert [sign_class(Decimal(v)) for v in ("-0.1", "0", "0.1")] == ["neg", "zero", "pos"]


def test_meet_date_in_japanese_and_english():
    with translation.override("ja"):
        assert meet_date(date(2025, 4, 9)) == "2025年4月9日（水）"
        assert meet_date(date(2025, 4, 9), "short") == "4月9日（水）"
    with translation.override("en"):
        assert meet_date(date(2025, 4, 9)) == "Wed 9 Apr 2025"
        assert meet_date(date(2025, 4, 9), "short") == "Wed 9 Apr"


def test_css_string_escapes_quotes_and_backslashes():
    from scoring.templatetags.scoring_tags import css_string

    assert css_string('a "b" \\ c') == 'a \\"b\\" \\\\ c'
    assert css_string("2025-10-22") == "2025-10-22"
