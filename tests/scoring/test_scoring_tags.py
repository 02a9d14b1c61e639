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
    # The dates are remembered, for each language: the same day in Japanese again.
    with translation.override("ja"):
        assert meet_date(date(2025, 4, 9), "short") == "4月9日（水）"


def test_css_string_escapes_quotes_and_backslashes():
    from scoring.templatetags.scoring_tags import css_string

    assert css_string('a "b" \\ c') == 'a \\"b\\" \\\\ c'
    assert css_string("2025-10-22") == "2025-10-22"


def test_a_hard_word_carries_its_reading_and_its_meaning():
    from scoring.templatetags.scoring_tags import term

    with translation.override("ja"):
        html = term("chombo")
    assert html == (
        '<button type="button" class="term" data-meaning="反則（チョンボ）。その局は無効になり、'
        'ルールで決まった P が引かれます。"><ruby>錯和<rt>さくほー</rt></ruby></button>'
    )
    with translation.override("en"):
        html = term("sitting_out")
    assert "<ruby>" not in html and ">Sitting out</button>" in html  # no kana over English


def test_every_word_of_the_glossary_is_translated_with_a_reading_in_kana():
    import re

    from scoring.glossary import GLOSSARY

    hiragana = re.compile(r"[\u3040-\u309f]")
    with translation.override("ja"):
        for key, said in GLOSSARY.items():
            assert re.search(r"[\u4e00-\u9fff]", str(said.word)), key  # 錯和, 抜け番 …
            assert re.fullmatch(r"[\u3040-\u309fー]+", said.reading), key
            assert hiragana.search(str(said.meaning)), key  # the English has none


def test_a_members_name_has_its_furigana_over_it_where_known():
    from members.models import Member
    from scoring.templatetags.scoring_tags import name_ruby

    with translation.override("ja"):
        assert (
            name_ruby(Member(name="青木", furigana="あおき")) == "<ruby>青木<rt>あおき</rt></ruby>"
        )
        assert name_ruby(Member(name="<b>", furigana="")) == "&lt;b&gt;"
