"""The awards in the PDFs (scoring/reports/pdf.py): the certificate's vertical columns, and
the awards section of the half-year report. The season is ``award_season``'s: in 2025 上期
E wins 最高ポイント賞 with +48.0 (tests/scoring/standings/test_awards.py)."""

from decimal import Decimal

import pytest

from scoring.models import StandingsGroup
from scoring.reports.pdf import (
    body_layout,
    render_member_pdf,
    render_standings_pdf,
    vertical_columns,
)
from scoring.standings import Filters, Period
from tests.builders import pdf_text


def lines(text: str, per_column: int) -> list[str]:
    return ["".join(cells) for cells in vertical_columns(text, per_column)]


def test_vertical_columns_use_the_vertical_forms_and_cut_columns():
    assert lines("マージャン、+48.0（P）。", 6) == ["マ︱ジャン︑", "＋４８．０︵", "Ｐ︶︒"]


def test_a_stop_or_closing_bracket_hangs_at_the_foot_of_the_line_before():
    assert lines("あいうえ。おかきく」け", 4) == ["あいうえ︒", "おかきく﹂", "け"]


def test_a_number_is_never_cut_and_two_digits_stand_side_by_side():
    assert lines("あいう+49.2点", 5) == ["あいう", "＋４９．２", "点"]
    assert vertical_columns("10月3日", 5) == [["10", "月", "３", "日"]]  # 縦中横


def test_a_long_certificate_text_gets_longer_columns_in_smaller_type():
    """At most six body columns of one height (19 characters of 20 pt = 380 pt): 130
    characters → ceil(130 / 6) = 22 a column, 380 / 22 = 17.3 pt; 60 characters keep 19 and
    20 pt."""
    assert body_layout("あ" * 130) == (22, Decimal("17.3"))
    assert body_layout("あ" * 60) == (19, Decimal("20.0"))


@pytest.mark.slow
def test_the_half_year_report_has_the_awards(award_season):
    _name, _type, data = render_standings_pdf(
        Filters(period=Period.half(2025, 1)), with_members=False
    )
    text = pdf_text(data)
    assert "表彰" in text
    assert "最高ポイント賞" in text and "+48.0" in text
    assert "同点 2 名" in text  # 最高得点賞, A and B at 50,000


@pytest.mark.slow
def test_the_half_year_report_in_parts_has_the_awards(award_season):
    _name, _type, data = render_standings_pdf(Filters(period=Period.half(2025, 1)))
    assert "最高ポイント賞" in pdf_text(data)


@pytest.mark.slow
def test_the_monthly_report_has_no_awards(award_season):
    _name, _type, data = render_standings_pdf(Filters(period=Period.month(2025, 4)))
    assert "最高ポイント賞" not in pdf_text(data)


@pytest.mark.slow
def test_the_half_year_report_lists_the_promotions_of_the_ladder(award_season):
    """With 初段 at 1510 and 二段 at 1530 (tests/scoring/standings/test_rating.py works the
    season's R): E reaches both on 4/23 at R 1530.24; without a ladder there is no list."""
    group = StandingsGroup.clubs_own()
    half = Filters(period=Period.half(2025, 1))
    without = pdf_text(render_standings_pdf(half, with_members=False)[2])
    assert "昇段" not in without
    group.dan_ladder = "初段 1510、二段 1530"
    group.save()
    half = Filters(period=Period.half(2025, 1))  # the group read again
    text = pdf_text(render_standings_pdf(half, with_members=False)[2])
    assert "昇段" in text
    lines = [line for line in text.splitlines() if "E 会員" in line and "段" in line]
    assert any(
        "2025年4月23日" in line and "二段" in line and "1530.24" in line for line in lines
    ), lines


@pytest.mark.slow
def test_the_member_pages_print_r_at_the_periods_end_and_the_big_hands_by_kind(award_season):
    """B's page of 2025 上期: R 1528.98 (worked in tests/scoring/standings/test_awards.py),
    満貫 1・跳満 1; the member's own PDF the same."""
    half = Filters(period=Period.half(2025, 1))
    text = pdf_text(render_standings_pdf(half, with_members=True)[2])
    page = next(p for p in text.split("\f") if "B 会員" in p and "日別成績表" in p)
    assert "レーティング" in page and "1528.98" in page
    assert "満貫 1・跳満 1" in page and "レーティング：期間中の最後の対局後" in page
    own = pdf_text(render_member_pdf(award_season["B"].pk, half)[2])
    assert "1528.98" in own and "満貫 1・跳満 1" in own
