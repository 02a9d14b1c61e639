"""Issue 28, items 14–18, "the record as printed": a 3-player place says so in a member's daily
lines (page, PDF, Excel); the 例会成績表 PDF names its substitutes (代打); the English standings
PDFs keep every column on the A4 page and write the month in words; the Excel's 成績表 prints
readably; and the order within equal P is stated under the table (page, PDF, Excel)."""

import io
from datetime import date

import pytest
from django.utils import translation
from openpyxl import load_workbook
from openpyxl.utils import column_index_from_string, get_column_letter

from members.models import Member
from scoring.meet_draw import make_draw, save_draw, stored_draw
from scoring.models import Meet
from scoring.reports import weasy
from scoring.reports.pdf import render_meet_pdf, render_member_pdf, render_standings_pdf
from scoring.reports.xlsx import TITLE_ROWS, render_standings_xlsx
from scoring.standings import Filters, Period
from tests.builders import H1, pdf_text, play

pytestmark = pytest.mark.django_db

TIED_JA = (
    "合計 P が同じ会員は同じ順位とし、その中はふりがな順、同じふりがなは名前順に並べています。"
)


# --- 14. a 3-player place says it was a table of three ---------------------------------------


def test_a_three_player_place_is_marked_on_the_members_page(three_systems, member_client):
    """相川 was last (3位) at a 3-player table on 2025-04-09: her daily line says （三人）; her
    4-player games do not. The game is on the page twice: in the recent games (issue 29) and
    in the daily sheet."""
    page = member_client.get(f"/members/{three_systems.pk}/?period=2025-H1").content.decode()
    assert '<td class="num">3（三人）</td>' in page
    assert page.count("（三人）") == 2  # only the one 3-player game, in both lists


@pytest.mark.slow  # makes a PDF
def test_a_three_player_place_is_marked_in_the_members_pdf(three_systems):
    # The games' columns are lined up by spaces: compared word by word.
    text = " ".join(pdf_text(render_member_pdf(three_systems.pk, Filters(period=H1))[2]).split())
    # Every game a line: date, round, table, seat, score, place, P (and the day's total), each
    # minus the full-width one (ledger.FULL_MINUS).
    assert "4月9日（水） 2 1 西 15,000 3（三人） －45.0 －5.0" in text
    assert text.count("3（三人）") == 1
    assert "4月9日（水） 1 1 東 40,000 1 +40.0" in text  # a 4-player place is a plain number


def test_a_three_player_place_is_marked_in_the_excel_member_sheet(three_systems):
    """The place stays a number (a sum or a filter still works); its number format writes
    （三人） after it, on 3-player games only."""
    data = render_standings_xlsx(Filters(period=H1))[2]
    sheet = load_workbook(io.BytesIO(data))["相川 愛"]
    header = [c.value for c in sheet[TITLE_ROWS + 1]]
    place, round_no = header.index("順位"), header.index("回戦")
    rows = list(sheet.iter_rows(min_row=TITLE_ROWS + 2))
    assert [(r[round_no].value, r[place].value) for r in rows] == [(1, 1), (2, 3)]
    four, three = rows
    assert three[place].number_format == '0"（三人）"'
    assert "三人" not in four[place].number_format


# --- 15. the 例会成績表 PDF names the substitutes ---------------------------------------------


@pytest.mark.slow  # makes a PDF
def test_the_meet_sheet_pdf_names_a_substitute(club_rule, people):
    meet = Meet.objects.create(date=date(2025, 5, 14), kind="wed", rule_set=club_rule)
    meet.attendees.set(people)
    save_draw(meet, make_draw(meet, seed=1, from_round=1), seed=1)
    drawn = stored_draw(meet)
    assert drawn is not None
    table = drawn.rounds[0].tables[0]
    players = list(table.players)
    gone = players[1]
    players[1] = Member.objects.create(name="井上 文子", furigana="いのうえ ふみこ")
    play(meet, table.table_no, 1, club_rule, players, [40_000, 30_000, 30_000, 20_000])
    text = pdf_text(render_meet_pdf(meet)[2])
    assert f"代打 {gone.name} → 井上 文子" in text
    assert text.count("→") == 1


# --- 16. the English standings PDFs fit the page and write the month in words ------------------


def test_the_month_is_written_in_words():
    with translation.override("en"):
        assert Period.parse("2026-11").label == "November 2026"
    assert Period.parse("2026-11").label == "2026年11月"


def laid_out_html(monkeypatch, filters: Filters, **kwargs) -> list[str]:
    """The HTML of each document the standings PDF is laid out from."""
    seen: list[str] = []
    real = weasy.lay_out
    monkeypatch.setattr(
        weasy,
        "lay_out",
        lambda html, images=None, **kw: (seen.append(html), real(html, images, **kw))[1],
    )
    render_standings_pdf(filters, **kwargs)
    return seen


def overflow(html: str) -> float:
    """How far (CSS px) the standings table's furthest box reaches past the right edge of the
    page's content box on its first page (0 when it fits)."""
    document = weasy.render(html)
    page = document.pages[0]._page_box
    right = page.content_box_x() + page.width
    reach = []

    def walk(box, inside: bool) -> None:
        element = getattr(box, "element", None)
        if element is not None and "standings" in (element.get("class") or "").split():
            inside = True
        if inside:
            reach.append(box.position_x + box.margin_width())
        for child in getattr(box, "children", ()):
            walk(child, inside)

    walk(page, False)
    assert reach, "no standings table laid out"
    return max(0.0, max(reach) - right)


@pytest.mark.slow  # makes PDFs
@pytest.mark.parametrize("period", ["2025-04", "2025-H1"])
def test_the_english_standings_pdf_keeps_every_column_on_the_page(
    three_systems, monkeypatch, period
):
    """4-player and 3-player games: the widest table the A4 page has (18 columns)."""
    with translation.override("en"):
        html = laid_out_html(monkeypatch, Filters(period=Period.parse(period)), with_members=False)
    assert "Chombo" in html[0] and "3-player 3rd" in html[0]
    assert overflow(html[0]) == 0


@pytest.mark.slow  # makes a PDF
def test_the_english_monthly_pdf_is_titled_with_the_month_in_words(club):
    with translation.override("en"):
        text = pdf_text(render_standings_pdf(Filters(period=Period.parse("2025-10")))[2])
    assert "Monthly standings October 2025" in text and "2025-10" not in text


# --- 17. the Excel's 成績表 prints readably --------------------------------------------------


# Excel column widths in points at 100 %, per width unit: LibreOffice prints a unit 6.35 pt
# wide (measured: the 成績表's first 14 columns, 115 units, print 620 pt wide at 85 %), Excel
# about 5.6 pt (7 px and a margin); the larger, rounded up, makes the estimate a safe one.
POINTS_PER_UNIT = 6.5
A4_LANDSCAPE_WIDTH = 841.9  # points


def printed_font_size(sheet) -> float:
    """The estimated size (pt) the sheet's 11 pt font prints at. Fitted to ``fitToWidth``
    pages across, each page repeating the print-title columns, the scale is the pages'
    printable width over the width to print (every column, and the title columns once more
    on each further page), at most 100 %; a sheet not fitted prints at its ``scale``."""
    setup = sheet.page_setup
    if not sheet.sheet_properties.pageSetUpPr.fitToPage:
        return 11 * (setup.scale or 100) / 100
    widths = [d.width for d in sheet.column_dimensions.values()]
    title_width = 0.0
    if sheet.print_title_cols:
        first, last = (
            column_index_from_string(c) for c in sheet.print_title_cols.replace("$", "").split(":")
        )
        title_width = sum(
            sheet.column_dimensions[get_column_letter(i)].width for i in range(first, last + 1)
        )
    pages = setup.fitToWidth or 1
    needed = (sum(widths) + title_width * (pages - 1)) * POINTS_PER_UNIT
    printable = A4_LANDSCAPE_WIDTH - 72 * (sheet.page_margins.left + sheet.page_margins.right)
    return 11 * min(1.0, pages * printable / needed)


def test_the_standings_sheet_prints_readably_with_the_names_on_every_page(three_systems):
    """The rule: the 成績表 (here with 4- and 3-player columns and the big hands by kind, all
    28) prints its 11 pt font
    at 8 pt or more (estimated by ``printed_font_size``; fitted to one page, as before, it
    was about 5.6 pt), on pages that each repeat the rank and name columns (print titles)
    as they repeat the header row; the pages across come one after the other (over, then
    down), so that a member's two halves are read together. The member sheets, a few
    columns wide, stay fitted to one page's width."""
    book = load_workbook(io.BytesIO(render_standings_xlsx(Filters(period=H1))[2]))
    sheet = book["成績表"]
    assert sheet.max_column == 28
    assert sheet.print_title_cols.replace("$", "") == "A:B"
    assert [c.value for c in sheet[TITLE_ROWS + 1]][:2] == ["順位", "氏名"]
    assert sheet.print_title_rows.replace("$", "") == f"{TITLE_ROWS + 1}:{TITLE_ROWS + 1}"
    assert printed_font_size(sheet) >= 8
    assert sheet.page_setup.fitToHeight == 0  # as many pages down as the rows take
    assert sheet.page_setup.pageOrder == "overThenDown"
    assert sheet.page_setup.orientation == "landscape"
    member = book[book.sheetnames[2]]
    assert member.page_setup.fitToWidth == 1 and printed_font_size(member) >= 8


H2_FILTERS = Filters(period=Period.parse("2025-H2"))


# --- 18. the order within equal P is stated under the table ------------------------------------


def test_the_order_within_equal_p_is_stated_under_the_standings_page(club, member_client):
    page = member_client.get("/standings/?period=2025-H2").content.decode()
    assert TIED_JA in page
    assert page.index("</table>") < page.index(TIED_JA)


@pytest.mark.slow  # makes a PDF
def test_the_order_within_equal_p_is_stated_under_the_standings_pdf(club):
    text = pdf_text(render_standings_pdf(Filters(period=Period.parse("2025-10")))[2])
    assert TIED_JA.replace(" ", "") in text.replace(" ", "").replace("\n", "")
    with translation.override("en"):
        text = pdf_text(render_standings_pdf(Filters(period=Period.parse("2025-10")))[2])
    assert "share a rank" in text.replace("\n", " ")


def test_the_order_within_equal_p_is_stated_under_the_excel_table(club):
    sheet = load_workbook(io.BytesIO(render_standings_xlsx(H2_FILTERS, with_members=False)[2]))[
        "成績表"
    ]
    last = sheet.max_row
    assert sheet.cell(last, 1).value == TIED_JA
    assert sheet.cell(last - 1, 1).value is None  # a blank row between the table and the note
