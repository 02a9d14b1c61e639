"""The handouts for older eyes (scoring/reports/pdf.py, news.py, the templates under
templates/reports/): the type each PDF sets, read back from the file itself
(shirakaba/devtools/handouts.py: every run of text with its size), nothing under 9 pt; the
certificate's vertical lines set as Japanese print sets them; the news card's size; the paper
around the meet. Every test makes a PDF or a picture."""

import ctypes
import io
import random
import re
from datetime import date, timedelta
from decimal import Decimal
from itertools import pairwise

import pypdfium2 as pdfium
import pytest
from django.core.management import call_command
from PIL import Image
from pypdf import PdfReader

from members.models import Member
from scoring.meet_draw import make_draw
from scoring.models import ClubSettings, HandLevel, Meet, RuleSet
from scoring.notation import MINUS, meet_date, points, signed_p
from scoring.reports import news
from scoring.reports.charts import draw_cumulative_chart
from scoring.reports.ledger import FULL_MINUS
from scoring.reports.pdf import (
    notice_meets,
    render_certificate_pdf,
    render_meet_pdf,
    render_member_pdf,
    render_notice_pdf,
    render_record_sheet_pdf,
    render_standings_pdf,
)
from scoring.reports.score_table import render_score_table_pdf
from scoring.reports.table_draw import render_draw_pdf
from scoring.standings import (
    Filters,
    Period,
    compute_awards,
    compute_standings,
    meet_sheet,
    member_record,
    summary_items,
)
from shirakaba.devtools.handouts import Run, small_text, text_runs
from tests.builders import H1, pdf_text, play

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

DEMO_HALF = Period.parse("2025-H2")  # the demo club's games: October and November 2025


@pytest.fixture
def demo(db):
    call_command("load_demo", verbosity=0)
    return Filters(period=DEMO_HALF)


def played_meet() -> Meet:
    return Meet.objects.filter(hanchans__isnull=False).distinct().order_by("-date").first()


def drawn_meet(players: int = 16) -> tuple[Meet, object]:
    """A coming meet with ``players`` attending, and its draw (not saved)."""
    meet = Meet.objects.create(
        date=date(2026, 4, 8), kind="wed", rule_set=RuleSet.objects.default()
    )
    meet.attendees.set(Member.objects.order_by("pk")[:players])
    return meet, make_draw(meet, seed=3)


def handouts(kind: str, filters: Filters) -> list[bytes]:
    if kind == "half-year":
        return [render_standings_pdf(filters)[2]]
    if kind == "monthly":
        return [render_standings_pdf(Filters(period=Period.month(2025, 10)))[2]]
    if kind == "meet sheet":
        return [render_meet_pdf(played_meet())[2]]
    if kind == "record sheet":
        return [render_record_sheet_pdf(*drawn_meet())]
    if kind == "draw":
        return [render_draw_pdf(*drawn_meet())]
    if kind == "notice":
        month = played_meet().date.replace(day=1)
        return [render_notice_pdf(month, list(notice_meets(month)))[2]]
    assert kind == "certificates"
    return [pdf for _, pdf in certificates(filters)]


@pytest.mark.parametrize(
    "kind",
    ["half-year", "monthly", "meet sheet", "record sheet", "draw", "notice", "certificates"],
)
def test_no_handout_sets_text_under_9_pt(demo, kind):
    for pdf in handouts(kind, demo):
        assert small_text(pdf) == []
        assert text_runs(pdf)  # there is text to measure


def standings_runs(pdf: bytes) -> list[Run]:
    """The runs of the pages of the standings tables (under their two headings)."""
    headings = ("順位・ポイント・着順", "率・満貫以上（種類別）・錯和")
    pages = {r.page for r in text_runs(pdf) if any(h in r.text for h in headings)}
    return [r for r in text_runs(pdf) if r.page in pages]


@pytest.mark.parametrize("period", ["2025-H2", "2025-10"])
def test_the_standings_figures_are_10_pt_or_more(demo, period):
    pdf = render_standings_pdf(Filters(period=Period.parse(period)))[2]
    figures = [r for r in standings_runs(pdf) if re.search(r"[+−▲]\d+\.\d", r.text)]
    assert figures and min(r.size for r in figures) >= 10


def test_the_half_year_report_opens_with_the_summary_the_top_three_and_the_awards(demo):
    pdf = render_standings_pdf(demo)[2]
    first = "".join(r.text for r in text_runs(pdf) if r.page == 0)
    rows = compute_standings(demo)
    for row in rows[:3]:
        assert "".join(row.name.split()) in first and signed_p(row.total) in first
    assert "例会4回" in first and "30半荘" in first and f"{len(rows)}名" in first
    for result in compute_awards(demo):
        assert result.award.name in first


def test_the_standings_still_hold_every_figure_of_the_page(demo):
    text = pdf_text(render_standings_pdf(demo)[2])
    for row in compute_standings(demo):
        assert f"{row.position} {row.name} {row.games} {signed_p(row.total)}" in text


# --- the certificate ------------------------------------------------------------------------

# What no vertical line may start with (禁則): closing brackets, stops, small kana, the long
# vowel, in their horizontal and vertical forms.
NOT_FIRST = set(
    "、。，．）」』】〕〉》｝︶﹂﹄︒︑︐︘︸︺︼︾﹀ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ・：；！？"
)
DIGITS = set("0123456789０１２３４５６７８９.．")


def columns(pdf: bytes) -> list[tuple[float, str]]:
    """The certificate's vertical lines, right to left as read: (type size, text top to
    bottom). Characters set side by side in a line (縦中横) read left to right."""
    runs = sorted(text_runs(pdf), key=lambda r: -r.x)
    lines: list[list[Run]] = []
    for run in runs:
        if lines and lines[-1][-1].x - run.x < 0.6 * run.size:
            lines[-1].append(run)
        else:
            lines.append([run])
    return [
        (line[0].size, "".join(r.text for r in sorted(line, key=lambda r: (-round(r.y), r.x))))
        for line in lines
    ]


def certificates(filters: Filters) -> list[tuple[str, bytes]]:
    return [
        (f"{result.award.name} {winner.name}", render_certificate_pdf(result, winner, filters)[2])
        for result in compute_awards(filters)
        for winner in result.winners
    ]


def assert_set_vertically(name: str, pdf: bytes) -> None:
    lines = columns(pdf)
    for (size, line), (next_size, next_line) in pairwise(lines):
        assert next_line[0] not in NOT_FIRST, (name, next_line)
        if size == next_size:  # one block's lines: a number never runs on to the next
            assert not (line[-1] in DIGITS and next_line[0] in DIGITS), (name, line, next_line)
    text = "".join(line for _, line in lines)
    assert "ー" not in text and "-" not in text, name  # the long vowel set vertically


def test_every_certificate_of_the_demo_is_set_vertically(demo):
    made = certificates(demo)
    assert len(made) >= 8
    for name, pdf in made:
        assert_set_vertically(name, pdf)


def test_every_certificate_of_a_generated_season_is_set_vertically(club_rule):
    rng = random.Random(38)
    people = [
        Member.objects.create(name=f"会員{i:02d} ー{'長' * (i % 4)}", furigana=f"か{i:02d}")
        for i in range(12)
    ]
    for m in range(6):
        meet = Meet.objects.create(
            date=date(2025, 4, 2) + timedelta(weeks=3 * m), kind="wed", rule_set=club_rule
        )
        for round_no in (1, 2, 3):
            seated = rng.sample(people, 12)
            for t in range(3):
                first = [rng.randrange(50, 700) * 100 for _ in range(3)]
                play(
                    meet,
                    t + 1,
                    round_no,
                    club_rule,
                    seated[t * 4 : t * 4 + 4],
                    [*first, 120_000 - sum(first)],
                    hands={0: [(HandLevel.MANGAN, "")]} if rng.random() < 0.3 else None,
                )
    for name, pdf in certificates(Filters(period=Period.half(2025, 1))):
        assert_set_vertically(name, pdf)


def test_the_certificate_is_dated_the_periods_end_and_signed_by_the_representative(demo):
    settings = ClubSettings.load()
    settings.representative = "吉田 宏樹"
    settings.save()
    result = compute_awards(demo)[0]
    text = "".join(line for _, line in columns(certificates(demo)[0][1]))
    assert "令和八年三月三十一日" in text  # 2026-03-31, the end of 2025年度 下期
    assert "代表吉田宏樹" in text and "殿" in text
    assert result.award.name in text


def test_a_shared_award_says_so_on_its_certificate(demo):
    shared = next(r for r in compute_awards(demo) if r.tied)
    for winner in shared.winners:
        pdf = render_certificate_pdf(shared, winner, demo)[2]
        assert "同点" in "".join(line for _, line in columns(pdf))


# --- the news card ----------------------------------------------------------------------------


def meet_of(players: int) -> Meet:
    """A meet of ``players`` (4 to 16) × 3 rounds, with a 満貫 and a chombo in round 1."""
    rule = RuleSet.objects.default()
    people = [
        Member.objects.create(name=f"佐々木 久美子{i:02d}", furigana=f"さ{i:02d}")
        for i in range(players)
    ]
    meet = Meet.objects.create(date=date(2025, 10, 8), kind="wed", rule_set=rule)
    meet.attendees.set(people)
    rng = random.Random(players)
    for round_no in (1, 2, 3):
        seated = rng.sample(people, players)
        for t in range(players // 4):
            first = [rng.randrange(50, 560) * 100 for _ in range(3)]
            play(
                meet,
                t + 1,
                round_no,
                rule,
                seated[t * 4 : t * 4 + 4],
                [*first, 120_000 - sum(first)],
                chombo={1: 1} if round_no == 1 and t == 0 else None,
                hands={0: [(HandLevel.MANGAN, "")]} if round_no == 1 else None,
            )
    return meet


@pytest.mark.parametrize("players", [4, 12, 16])
def test_the_news_card_fits_a_phone_at_4_to_5(club_rule, players):
    meet = meet_of(players)
    told = news.meet_news(meet, "https://example.org/standings/")
    with Image.open(io.BytesIO(news.news_png(told))) as picture:
        assert picture.width == 1080 and picture.height <= 1350
        width, _ = picture.size
    pdf = news.news_pdf(told)
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1  # all of it on the one card
    runs = text_runs(pdf)
    px = width / 270  # the card's page is 270 pt wide
    assert min(r.size for r in runs) * px >= 32
    text = "".join(r.text for r in runs)
    assert "example.org" not in text and "http" not in text
    top = "".join(r.text for r in sorted(runs, key=lambda r: -r.y)[:12])
    assert "白樺会" in top and "10月8日" in top
    for row in meet_sheet(meet).day_rows:  # each player's day, and the names' lines
        assert signed_p(row.total) in text and "".join(row.name.split()) in text
    assert "満貫" in text and "錯和" in text  # the big hands and chombo named


# --- the paper around the meet ----------------------------------------------------------------


def test_the_notice_has_a_name_line_for_every_active_member(demo):
    meet = played_meet()
    month = meet.date.replace(day=1)
    active = Member.objects.active().count()
    pdf = render_notice_pdf(month, list(notice_meets(month)))[2]
    # Each line is a numbered blank: 1 … n under every meet.
    text = pdf_text(pdf)
    assert f"{active}." in text and f"{active + 1}." not in text


def test_the_record_sheet_says_held_deposits_and_a_total_line_without_nested_brackets(demo):
    text = pdf_text(render_record_sheet_pdf(*drawn_meet()))
    assert "預かり" in text
    for line in text.splitlines():
        if "合計" in line:
            depth = 0
            for ch in line:
                depth += ch in "（("
                assert depth <= 1, line
                depth -= ch in "）)"


# --- a member's pages: the club's 個人成績表 ---------------------------------------------------


def test_a_members_pages_hold_every_game_and_the_months_subtotals(demo):
    """Every game a line (date, round, table, seat, score, place, P); each month a subtotal
    line (games and P); the places counted; the big hands by kind; the same summary, heading
    by heading, as the member's own page (``summary_items``)."""
    rows = compute_standings(demo)
    row = rows[0]
    data = render_member_pdf(row.member_id, demo)[2]
    text = " ".join(pdf_text(data).split())  # the games' columns are lined up by spaces
    record = member_record(row.member_id, demo)
    for g in record.games:
        line = (
            f"{meet_date(g.date, 'short')} {g.round_no} {g.table_no} {g.seat} "
            f"{points(g.score)} {g.place} {signed_p(g.total)}"
        )
        assert line.replace(MINUS, FULL_MINUS) in text, line  # the ledger's minus is full width
    for m in record.months:
        line = f"{m.month.month}月 計 {m.games} 半荘 {signed_p(m.total)}"
        assert line.replace(MINUS, FULL_MINUS) in text
    assert "順位の回数" in text
    assert " ".join(str(n) for n in record.places) in text
    # The months: a line each in columns under their heading line (ledger.by_month).
    assert "月間 半荘数 合計P 1位 2位 3位 4位" in text
    for m in record.months:
        line = f"{m.month.year}年{m.month.month}月 {m.games} {signed_p(m.total)} "
        line += " ".join(str(n) for n in m.places)
        assert line.replace(MINUS, FULL_MINUS) in text, line
    for item in summary_items(row, wins=False, rank=False):
        assert item.label in text and item.value.replace(MINUS, FULL_MINUS) in text, item
    assert small_text(data) == []


def glyph_lines(pdf: bytes) -> list[list[tuple[str, float, float]]]:
    """Each line of text of ``pdf``'s pages as drawn: its words (split at spaces), each with
    the left and right edges (pt) of its first and last characters, read with pdfium."""
    lines: dict[tuple[int, int], list[tuple[str, float, float]]] = {}
    document = pdfium.PdfDocument(pdf)
    for number in range(len(document)):
        page = document[number].get_textpage()
        word: list[tuple[str, float, float]] = []
        for i in range(page.count_chars()):
            ch = page.get_text_range(i, 1)
            left, bottom, right, _top = page.get_charbox(i, loose=True)
            key = (number, round(bottom))
            if ch.isspace() or (word and key != word[-1][0]):
                if word:
                    lines.setdefault(word[0][0], []).append(
                        ("".join(c for _, c, _ in word), word[0][2][0], word[-1][2][1])
                    )
                word = []
            if not ch.isspace():
                word.append((key, ch, (left, right)))
    return list(lines.values())


def test_a_members_games_stand_in_columns(demo):
    """The games are lines of text, their columns lined up by spaces in the font's half-width
    forms: on every game's line each figure ends where the same figure ends on the others, a
    minus in full width as a plus is (ledger.py): the full-width minus (U+FF0D), one run of
    text with the rest, or the club's ▲."""
    for sign, row in zip(["−", "▲", "−", "▲"], compute_standings(demo), strict=False):
        ClubSettings.objects.update_or_create(pk=1, defaults={"negative_sign": sign})
        pdf = render_member_pdf(row.member_id, demo)[2]
        games = [line for line in glyph_lines(pdf) if re.fullmatch(r"\d+月\d+日（.）", line[0][0])]
        assert len(games) == len(member_record(row.member_id, demo).games)
        assert len({round(line[0][1], 1) for line in games}) == 1  # the dates start together
        for column in range(1, 7):  # round, table, seat, score, place, P end together
            ends = {round(line[column][2], 1) for line in games}
            assert max(ends) - min(ends) < 0.2, (column, ends)
        printed = FULL_MINUS if sign == MINUS else sign
        assert {"+", printed} <= {line[6][0][0] for line in games}  # both signs, lined up


def baselines(pdf: bytes) -> list[tuple[str, list[float]]]:
    """Each line of text of ``pdf``'s pages (its characters on one baseline, spaces left out)
    and each character's origin (x, pt): where the pen set it, whatever the glyph's ink."""
    lines: dict[tuple[int, int], list[tuple[str, float]]] = {}
    document = pdfium.PdfDocument(pdf)
    x, y = ctypes.c_double(), ctypes.c_double()
    for number in range(len(document)):
        page = document[number].get_textpage()
        for i in range(page.count_chars()):
            ch = page.get_text_range(i, 1)
            if not ch.isspace():
                pdfium.raw.FPDFText_GetCharOrigin(page.raw, i, x, y)
                lines.setdefault((number, round(y.value)), []).append((ch, x.value))
    return [("".join(c for c, _ in chars), [x for _, x in chars]) for chars in lines.values()]


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_members_summary_stands_in_columns_its_katakana_full_width(demo, language):
    """The summary is lines in columns (``ledger.summary``), set without the half-width forms:
    every heading and every figure of a column starts where the same column starts on the other
    lines (the tabs reach the same stop, whatever the widths of the text before them), four
    pairs to a line in Japanese, and no katakana is half-width (トップ率, not ﾄｯﾌﾟ率)."""
    from django.utils import translation
    from django.utils.translation import gettext

    from scoring.reports import ledger
    from scoring.standings import SummaryItem, rating_at_the_end

    with translation.override(language):
        for row in compute_standings(demo)[:4]:
            items = summary_items(row, wins=False, rank=False)
            rated = rating_at_the_end(demo).row_for(row.member_id)
            items += [SummaryItem("rating", gettext("Rating"), rated.r_text)] if rated else []
            pdf = render_member_pdf(row.member_id, demo)[2]
            drawn = baselines(pdf)
            starts: dict[int, set[float]] = {}
            set_lines = [
                re.split(r"[ \u2002]{2,}", line.html.replace(MINUS, FULL_MINUS))
                for line in ledger.summary(items, MINUS)
            ]
            for cells in set_lines:
                if ledger.ems(cells[-1]) >= ledger.LONG:
                    continue  # a long figure's line, after the columns
                texts = [cell.replace(" ", "") for cell in cells if cell]
                text, xs = next(line for line in drawn if line[0].startswith(texts[0]))
                at = 0
                for column, cell in enumerate(texts):
                    at = text.index(cell, at)
                    starts.setdefault(column, set()).add(round(xs[at], 1))
                    at += len(cell)
            for column, lefts in starts.items():
                assert max(lefts) - min(lefts) < 1, (language, column, lefts)  # ledger._fill
            if language == "ja":
                assert max(len([c for c in cells if c]) for cells in set_lines) == 8  # four pairs
            assert not re.search("[\uff61-\uff9f]", pdf_text(pdf))


def test_the_three_player_average_place_is_printed_beside_the_four_player_one(three_systems):
    text = pdf_text(render_member_pdf(three_systems.pk, Filters(period=H1))[2])
    assert "四人打ち平均順位" in text and "三人打ち平均順位" in text
    row = next(r for r in compute_standings(Filters(period=H1)) if r.member_id == three_systems.pk)
    assert re.search(f"三人打ち平均順位\\s+{re.escape(str(row.average_place3))}", text)


def test_the_printed_chart_is_drawn_in_greys():
    """A home printer in black and white: the PDF's chart has no colour to lose."""
    chart = draw_cumulative_chart(
        ["4/9", "4/9", "5/10"],
        [Decimal(40), Decimal(-5), Decimal(17)],
        "累計P",
        "P",
        fmt="jpeg",
        grey=True,
    )
    image = Image.open(io.BytesIO(chart)).convert("RGB")
    spread = max(max(p) - min(p) for p in image.get_flattened_data())
    assert spread <= 24  # JPEG's noise; the screen's green and red are 100 and more apart
    colour = Image.open(
        io.BytesIO(draw_cumulative_chart(["4/9"], [Decimal(-5)], "累計P", "P", fmt="jpeg"))
    ).convert("RGB")
    assert max(max(p) - min(p) for p in colour.get_flattened_data()) > 24


def test_a_meet_of_more_than_16_has_a_card_each_16_asked_for_by_number(club_rule, member_client):
    """20 players: two cards, each its own picture (``?card=1`` the second); the news page
    shows both and shares both."""
    meet = meet_of(20)
    pictures = []
    for card in (0, 1):
        response = member_client.get(f"/meets/{meet.pk}/news.png?card={card}")
        assert response.status_code == 200 and response["Content-Type"] == "image/png"
        pictures.append(response.getvalue())  # the kept file, streamed: read once
        with Image.open(io.BytesIO(pictures[-1])) as picture:
            assert picture.width == 1080 and picture.height <= 1350
    assert pictures[0] != pictures[1]
    assert member_client.get(f"/meets/{meet.pk}/news.png").getvalue() == pictures[0]
    page = member_client.get(f"/meets/{meet.pk}/news/").content.decode()
    assert f"/meets/{meet.pk}/news.png?card=0" in page
    assert f"/meets/{meet.pk}/news.png?card=1" in page
    assert "?card=2" not in page


def test_a_name_on_the_cards_big_hands_line_is_never_broken(club_rule):
    told = news.meet_news(meet_of(16), "https://example.org/standings/")
    html = news.news_html(told)
    hands = html[html.index("<b>満貫以上</b>") :].split("</p>")[0]
    names = re.findall(r"佐々木 久美子\d\d", hands)
    assert names
    assert len(re.findall(r'<span class="name">佐々木 久美子\d\d', hands)) == len(names)
    assert re.search(r"\.name \{[^}]*white-space: nowrap", html)


# --- the score table (点数計算表) --------------------------------------------------------------


def test_the_score_table_sets_nothing_under_9_pt_on_one_a4_page(demo):
    """Every rule set's table: nothing under 9 pt, and still all on one A4 page."""
    for rule_set in RuleSet.objects.all():
        pdf = render_score_table_pdf(rule_set)
        assert len(PdfReader(io.BytesIO(pdf)).pages) == 1, rule_set.name
        assert small_text(pdf) == [], rule_set.name


# --- the meet sheet ---------------------------------------------------------------------------


def test_the_meet_sheets_place_heading_keeps_to_one_line_beside_a_yakuman(club_rule):
    """A 役満 with its name and a chombo in the notes column: the headings 「順位」 and 「持ち点」
    still read on one line each (the notes wrap in their own column)."""
    rule = RuleSet.objects.default()
    people = [Member.objects.create(name=f"長谷川 久美子{i}", furigana=f"は{i}") for i in range(8)]
    meet = Meet.objects.create(date=date(2025, 10, 8), kind="wed", rule_set=rule)
    meet.attendees.set(people)
    for t in (1, 2):
        play(
            meet,
            t,
            1,
            rule,
            people[(t - 1) * 4 : t * 4],
            [52_000, 31_000, 22_000, 15_000],
            chombo={3: 1},
            hands={0: [(HandLevel.YAKUMAN, "四暗刻単騎"), (HandLevel.SANBAIMAN, "")]},
        )
    text = pdf_text(render_meet_pdf(meet)[2])
    lines = text.splitlines()
    headings = [line for line in lines if line.startswith("席 氏名")]  # a table's head
    assert len(headings) == 2 and all("順位" in h and "持ち点" in h for h in headings)
    assert small_text(render_meet_pdf(meet)[2]) == []
