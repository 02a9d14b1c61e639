"""The PDFs read back (scoring/reports/pdf.py and the parts it is joined from, parts.py): text,
fonts, pages, and which parts are laid out again. The Excel and the CSV: test_xlsx.py and
test_games_csv.py."""

import io
import re
from datetime import timedelta
from fractions import Fraction

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from pypdf import PdfReader

from members.models import Member
from scoring.models import Hanchan, Meet, PlayerEntry
from scoring.reports import kept_files
from scoring.reports.ledger import FIGURE_PADDING, FIGURES, column_shares, ems
from scoring.reports.pdf import (
    render_meet_pdf,
    render_member_pdf,
    render_standings_pdf,
    standings_title,
)
from scoring.standings import Filters, Period, big_hand_list, compute_standings
from scoring.templatetags.scoring_tags import signed_p
from shirakaba.devtools.handouts import Run, text_runs
from tests.builders import H1, JKMA, KANTAN, pdf_fonts, pdf_text, play, rule

pytestmark = pytest.mark.django_db
H2 = Filters(period=Period.parse("2025-H2"))


@pytest.mark.slow
def test_the_half_year_pdf_holds_the_standings_and_embeds_the_japanese_font(club):
    filename, content_type, data = render_standings_pdf(H2)
    assert (filename, content_type) == ("shirakaba-standings-2025-H2.pdf", "application/pdf")
    text = pdf_text(data)
    assert "半期成績表" in text and "2025年度 下期（10月〜3月）" in text
    for row in compute_standings(H2):
        assert f"{row.position} {row.name} {row.games} {signed_p(row.total)}" in text
    # A page per member after the cover and the standings, with their daily sheet.
    pages = PdfReader(io.BytesIO(data)).pages
    assert len(pages) >= 2 + len(club)
    assert "日別成績表" in text and "日計" in text
    assert "IPAexGothic" in pdf_fonts(data)


FOOT = 16 / 25.4 * 72  # the A4 page's bottom margin, in points
MIDDLE = 210 / 25.4 * 72 / 2


def page_lines(data: bytes) -> list[list[str]]:
    """Each page's lines of text, sorted: the same page whatever order it was drawn in."""
    pages = PdfReader(io.BytesIO(data)).pages
    return [sorted(line.strip() for line in page.extract_text().splitlines()) for page in pages]


def first_pages(data: bytes) -> dict[str, int]:
    """Each member's first page (0-based), by the name at the top of their page."""
    names = {m.name for m in Member.objects.all()}
    found: dict[str, int] = {}
    for number, page in enumerate(PdfReader(io.BytesIO(data)).pages):
        for line in page.extract_text().splitlines():
            for name in names:
                if line.startswith(name) and "2025年度" in line:
                    found.setdefault(name, number)
    return found


@pytest.mark.slow
def test_the_half_year_pdf_is_joined_from_parts_stamped_with_page_numbers_and_ranks(club):
    """Issue 17: the front matter and each member's pages are parts laid out apart; the page
    numbers ("2 / 12") and each member's rank, which depend on every member, are stamped on
    the joined pages."""
    from scoring.models import ReportPart

    data = render_standings_pdf(H2)[2]
    # The standings; the awards (表彰, issue 29); 満貫以上, a part a month with any; チョンボ
    # and attendance; a part a member; the stamps: the ranks, the page numbers "n /" (one run)
    # and their total.
    months = {hand["date"].replace(day=1) for hand in big_hand_list(H2)}
    assert ReportPart.objects.count() == 1 + 1 + max(1, len(months)) + 1 + len(club) + 3
    pages = page_lines(data)
    # "n / T" at the foot's middle: "n /" ending there, the total after it on the same line.
    foot: dict[int, list[Run]] = {}
    for run in text_runs(data):
        if run.y < FOOT:
            foot.setdefault(run.page, []).append(run)
    assert 0 not in foot  # the cover
    assert sorted(foot) == list(range(1, len(pages)))
    for page, runs in foot.items():
        number, total = sorted(runs, key=lambda run: run.x)
        assert (number.text, total.text) == (f"{page + 1}/", str(len(pages)))
        assert number.y == total.y
        assert number.x < MIDDLE < total.x < MIDDLE + 5  # a space after the slash
    rows = compute_standings(H2)
    firsts = first_pages(data)
    assert len(firsts) == len(rows)
    for row in rows:
        lines = pages[firsts[row.name]]
        assert f"順位 {row.position} 位（{len(rows)} 名中）" in lines, row.name
    assert "IPAexGothic" in pdf_fonts(data)
    reader = PdfReader(io.BytesIO(data))
    assert reader.metadata.title == "半期成績表 2025年度 下期（10月〜3月）"
    assert reader.root_object["/Lang"] == "ja"
    assert len(reader.outline) > len(club)  # the members' names among the bookmarks
    # Every member's chart is drawn in their part: as many different images as members.
    images = {image.data for page in reader.pages for image in page.images}
    assert len(images) == len(club)


TOP = (297 - 16) / 25.4 * 72  # the A4 page's top margin begins here, in points


@pytest.mark.slow
def test_the_heading_is_stamped_on_every_page_but_the_cover_and_no_part_lays_it_out(
    club, monkeypatch
):
    """The club, the title and the period head every page but the cover, once each, in the
    top margin: stamped with the pages' total (``pdf.total_stamp``), so that a part (a
    member's pages, laid out for every member who played) lays out no heading of its own."""
    from scoring.reports import pdf

    laid_out: list[str] = []
    lay_out = pdf.weasy.lay_out
    monkeypatch.setattr(
        pdf.weasy,
        "lay_out",
        lambda html, images=None: (laid_out.append(html), lay_out(html, images))[1],
    )
    data = render_standings_pdf(H2)[2]
    top: dict[int, list[str]] = {}
    for run in text_runs(data):
        if run.y > TOP:
            top.setdefault(run.page, []).append(run.text)
    pages = len(PdfReader(io.BytesIO(data)).pages)
    assert sorted(top) == list(range(1, pages))  # not the cover
    for texts in top.values():
        # (runs as drawn: the spaces between words are not drawn)
        assert sorted(texts) == ["2025年度下期（10月〜3月）", "白樺会マージャンサークル半期成績表"]
    headed = [html for html in laid_out if '@top-left { content: "' in html]
    assert len(headed) == 1 and "@bottom-right" in headed[0]  # the stamp of the total alone


@pytest.mark.slow
def test_the_members_parts_read_a_few_members_at_a_time_make_the_same_report(club, monkeypatch):
    """The records are read and the members' parts made MEMBERS_RUN members at a time (to
    bound the memory); in runs of three the report is page for page the same."""
    from scoring.models import ReportPart
    from scoring.reports import pdf

    whole = page_lines(render_standings_pdf(H2)[2])
    ReportPart.objects.all().delete()
    monkeypatch.setattr(pdf, "MEMBERS_RUN", 3)
    assert page_lines(render_standings_pdf(H2)[2]) == whole


def add_game(meet: Meet, players: list[Member], round_no: int = 9) -> None:

    scores = [41_000, 32_000, 27_000, 20_000]
    Hanchan(meet=meet, table_no=1, round_no=round_no, rule_set=meet.rule_set).record(
        [PlayerEntry(p, seat, s) for seat, (p, s) in enumerate(zip(players, scores, strict=True))]
    )


@pytest.mark.slow
def test_after_one_more_game_only_the_parts_that_changed_are_laid_out_again(club, monkeypatch):
    """Issue 17: a member's pages are a part with its own digest. After a game, the four who
    played and the front matter are laid out again; the others' kept parts are used as they
    are, their new ranks stamped on."""
    from scoring.reports import weasy

    render_standings_pdf(H2)
    laid_out: list[str] = []
    real = weasy.lay_out

    def counting(html, images=None):
        if 'class="stamp"' not in html:  # the stamps are made each time
            laid_out.append(html)
        return real(html, images)

    monkeypatch.setattr(weasy, "lay_out", counting)
    assert render_standings_pdf(H2)[2].startswith(b"%PDF")
    assert laid_out == []  # nothing changed: every part kept
    last = club[-4:]  # the lowest ranked climb to the top
    meet = Meet.objects.order_by("date").last()
    for round_no in (7, 8, 9):
        add_game(meet, last, round_no)
    data = render_standings_pdf(H2)[2]
    played = [html for html in laid_out if "日別成績表" in html]
    assert len(played) == 4 and all(any(m.name in h for m in last) for h in played)
    # And the front matter that changed: the standings, the awards and attendance, not the
    # 満貫以上 lists (no big hand in these games).
    front = [html for html in laid_out if "日別成績表" not in html]
    assert len(front) == 3 and not any("満貫以上</h2>" in html for html in front)
    rows = compute_standings(H2)
    pages, firsts = page_lines(data), first_pages(data)
    for row in rows:
        assert f"順位 {row.position} 位（{len(rows)} 名中）" in pages[firsts[row.name]]


@pytest.mark.slow
def test_a_meet_on_a_new_day_lays_out_again_only_its_players_pages(club, monkeypatch):
    """The member pages print R (after each member's last game): a meet on a later day moves
    the R of those who played, not the others' pages (a date "as of" the latest game would
    have changed every page)."""
    from scoring.reports import weasy

    render_standings_pdf(H2)
    laid_out: list[str] = []
    real = weasy.lay_out

    def counting(html, images=None):
        if 'class="stamp"' not in html:
            laid_out.append(html)
        return real(html, images)

    monkeypatch.setattr(weasy, "lay_out", counting)
    last = Meet.objects.order_by("date").last()
    later = Meet.objects.create(
        date=last.date + timedelta(days=7), kind=last.kind, rule_set=last.rule_set
    )
    add_game(later, club[:4], 1)
    render_standings_pdf(H2)
    played = [html for html in laid_out if "日別成績表" in html]
    assert len(played) == 4 and all(any(m.name in h for m in club[:4]) for h in played)


@pytest.mark.slow
def test_a_part_made_by_another_worker_is_waited_for_and_taken_back_if_its_maker_died(
    club, monkeypatch
):
    from datetime import timedelta

    from django.utils import timezone

    from scoring.models import ReportPart, ReportStatus
    from scoring.reports import parts, pdf

    first = render_standings_pdf(H2)[2]
    ReportPart.objects.all().delete()
    made_elsewhere, died = [], []
    real_prepare = parts.prepare

    def prepare(pieces):
        made = real_prepare(pieces)
        if "日別成績表" not in pieces[0].html:  # the front matter and stamps
            return made
        # Another worker holds the last two member parts: one finishes while this one waits,
        # the other's worker died an hour ago.
        busy, dead = made[-3], made[-2]
        ReportPart.objects.filter(pk=busy.pk).update(
            status=ReportStatus.MAKING, started_at=timezone.now()
        )
        hour_ago = timezone.now() - timedelta(hours=1)
        ReportPart.objects.filter(pk=dead.pk).update(
            status=ReportStatus.MAKING, started_at=hour_ago
        )
        made_elsewhere.append(busy.pk)
        died.append(dead.pk)
        return made

    def sleep(seconds):  # meanwhile, the other worker finishes its part
        pk = made_elsewhere[0]
        if ReportPart.objects.get(pk=pk).status == ReportStatus.MAKING:
            ReportPart.objects.filter(pk=pk).update(status=ReportStatus.QUEUED)
            assert parts.make_part(pk)

    monkeypatch.setattr(parts, "prepare", prepare)
    monkeypatch.setattr(parts.time, "sleep", sleep)
    assert page_lines(pdf.render_standings_pdf(H2)[2]) == page_lines(first)
    assert ReportPart.objects.get(pk=died[0]).status == ReportStatus.READY


@pytest.mark.slow
def test_a_part_that_fails_fails_the_report_and_is_made_again_when_asked_again(club, monkeypatch):
    from scoring.models import ReportPart, ReportStatus
    from scoring.reports import parts, weasy

    real = weasy.lay_out

    def failing(html, images=None):
        if "日別成績表" in html:
            raise MemoryError("no room")
        return real(html, images)

    monkeypatch.setattr(weasy, "lay_out", failing)
    with pytest.raises(parts.PartFailed, match="no room"):  # made here
        parts.make_all(parts.prepare([parts.Piece("<p>日別成績表</p>")]))
    failed = ReportPart.objects.get()
    assert failed.status == ReportStatus.FAILED and "no room" in failed.error
    monkeypatch.setattr(weasy, "lay_out", real)
    (part,) = parts.prepare([parts.Piece("<p>日別成績表</p>")])
    parts.make_all([part])
    part.refresh_from_db()
    assert part.status == ReportStatus.READY and part.pages == 1
    assert part.html == ""  # what it was made from is not kept once the file is
    # A kept part whose file is gone is made again too, from the HTML given again.
    kept_files().delete(parts.part_name(part.digest))
    (again,) = parts.prepare([parts.Piece("<p>日別成績表</p>")])
    assert again.status == ReportStatus.QUEUED
    parts.make_all([again])
    assert "日別成績表" in pdf_text(parts.read_part(part.digest))


@pytest.mark.slow
def test_shared_with_other_workers_a_task_is_queued_for_each_part_not_kept(club, monkeypatch):
    """In a worker the parts are queued as tasks too (here the immediate backend runs each as
    it is queued); the report is the same."""

    from django.tasks.signals import task_enqueued

    from scoring.models import ReportPart

    alone = page_lines(render_standings_pdf(H2)[2])
    ReportPart.objects.all().delete()
    queued: list[int] = []

    def count(sender, task_result, **kwargs):
        if task_result.task.name == "make_report_part":
            queued.append(task_result.args[0])

    task_enqueued.connect(count)
    try:
        assert page_lines(render_standings_pdf(H2, share=True)[2]) == alone
    finally:
        task_enqueued.disconnect(count)
    # Every part, the page numbers too (queued once the others' page counts are known).
    assert len(set(queued)) == len(queued) == ReportPart.objects.count()


def test_parts_nobody_used_for_a_month_are_pruned(club, settings):
    from datetime import timedelta

    from django.utils import timezone

    from scoring.models import ReportPart
    from scoring.reports import parts
    from scoring.reports.pruning import prune

    old, new = parts.prepare([parts.Piece("<p>old</p>"), parts.Piece("<p>new</p>")])
    parts.make_all([old, new])
    ReportPart.objects.filter(pk=old.pk).update(used_at=timezone.now() - timedelta(days=31))
    assert prune() == 1
    assert list(ReportPart.objects.values_list("pk", flat=True)) == [new.pk]
    kept = kept_files()
    assert not kept.exists(parts.part_name(old.digest)) and kept.exists(parts.part_name(new.digest))


@pytest.mark.slow
def test_the_monthly_pdf_has_no_member_pages(club):
    _, _, data = render_standings_pdf(Filters(period=Period.parse("2025-10")))
    text = pdf_text(data)
    assert "月間成績表" in text and "2025年10月" in text and "日別成績表" not in text


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("2025-10", "月間成績表"),
        ("2025-10-01..2025-10-31", "月間成績表"),  # a range within one month
        ("2025-H2", "半期成績表"),
        ("FY2025", "年間成績表"),
        ("2025-10-01..2026-03-31", "成績表"),  # the days of a half, but written as a range
        ("all", "成績表"),
    ],
)
def test_the_standings_pdf_is_titled_by_the_kind_of_its_period(text, title):
    assert standings_title(Period.parse(text)) == title


@pytest.mark.slow
def test_the_meet_sheet_pdf(club):
    meet = Meet.objects.order_by("date").first()
    _, _, data = render_meet_pdf(meet)
    text = pdf_text(data)
    assert "例会成績表" in text and "2025年10月1日（水）" in text
    attending = meet.attendees.count()
    assert attending > 0 and f"出席 {attending} 人" in text
    game = Hanchan.objects.filter(meet=meet).order_by("round_no", "table_no").first()
    for r in game.results.select_related("member"):
        assert r.member.name in text and signed_p(r.total_points) in text
    assert "IPAexGothic" in pdf_fonts(data)


@pytest.mark.slow
def test_a_members_pdf(club):
    member = club[0]
    _, _, data = render_member_pdf(member.pk, H2)
    text = pdf_text(data)
    row = next(r for r in compute_standings(H2) if r.member_id == member.pk)
    assert member.name in text and signed_p(row.total) in text and "日別成績表" in text


@pytest.mark.slow  # makes a PDF
def test_a_date_in_the_big_hand_list_and_a_hand_in_the_daily_sheet_never_split(club, monkeypatch):
    """Issue 17: in the half-year PDF, 2025年10月1日（水） in the 満貫以上 list stays on one line,
    and the daily sheet never breaks 満貫 or 跳満 across lines (Japanese may break between any
    two characters, so each is kept whole by white-space: nowrap; the daily sheet's lines,
    text in columns since issue 38, are never broken at all: white-space: pre)."""
    from scoring.reports import weasy

    laid_out: list[str] = []
    real = weasy.lay_out
    monkeypatch.setattr(
        weasy,
        "lay_out",
        lambda html, images=None, **kw: (laid_out.append(html), real(html, images, **kw))[1],
    )
    render_standings_pdf(H2)
    html = "".join(laid_out)
    rules = weasy.REPORT_STYLE.read_text()  # every handout's
    assert '<td class="date">2025年10月1日（水）</td>' in html
    assert re.search(r'<div class="(game|day)">[^<]*満貫', html)
    assert 'div.ledger { font-size: 10pt; font-feature-settings: "hwid"; white-space: pre;' in rules
    assert ".date, .word { white-space: nowrap; }" in rules


@pytest.mark.slow
def test_the_pdf_of_each_group(three_systems):
    text = pdf_text(render_standings_pdf(Filters(period=H1), with_members=False)[2])
    # 相川: 2 games, −5.0, 4-player 1位 once; 3-player places 0 0 1 (the last counted apart).
    assert "相川 愛 2 −5.0 −2.5 1 0 0 0 0 0 1 1.00" in text
    text = pdf_text(
        render_standings_pdf(Filters(period=H1, group=rule(JKMA).group), with_members=False)[2]
    )
    assert "日本健康麻将協会" in text and "相川 愛 1 +22.0" in text
    text = pdf_text(
        render_standings_pdf(Filters(period=H1, group=rule(KANTAN).group), with_members=False)[2]
    )
    assert "勝ち数" in text and "勝率" in text and "相川 愛 1 1" in text


@pytest.mark.slow
def test_deposits_held_are_shown_on_the_meet_page_and_its_pdf(
    bare_meet, people, club_rule, member_client
):
    play(bare_meet, 1, 1, club_rule, people[:4], [40_000, 30_000, 29_000, 20_000], deposits=1_000)
    html = member_client.get(f"/meets/{bare_meet.pk}/").content.decode()
    assert "供託 預かり 1,000 点（卓の P 合計はその分 −1.0）" in html
    assert "預かり 1,000 点" in pdf_text(render_meet_pdf(Meet.objects.get(pk=bare_meet.pk))[2])


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_reports_html_says_the_language_it_is_written_in(language):
    """The report's HTML names its language (WeasyPrint picks hyphenation and line breaking by
    it): an English report is not marked Japanese."""
    with translation.override(language):
        html = render_to_string("reports/base.html", {"title": "x"})
    assert f'<html lang="{language}">' in html


def test_the_rules_every_handout_shares_are_parsed_once_a_thread_not_for_each_document(
    monkeypatch,
):
    """The report's shared rules (static/reports/report.css, four and a half thousand
    characters) are parsed once in a thread and given to each document; a document parses only
    its own (its page boxes, its template's additions). Parsing them for every document was a
    sixth of a member's part of the half-year report (issue 38's speed)."""
    import threading

    import tinycss2
    from PIL import Image

    from scoring.reports import weasy

    parsed: list[tuple[str, int]] = []
    text, raw = tinycss2.parse_stylesheet, tinycss2.parse_stylesheet_bytes

    def parse_text(css, *args, **kwargs):
        parsed.append(("document", len(css)))
        return text(css, *args, **kwargs)

    def parse_bytes(css, *args, **kwargs):
        parsed.append(("file", len(css)))
        return raw(css, *args, **kwargs)

    monkeypatch.setattr(tinycss2, "parse_stylesheet", parse_text)
    monkeypatch.setattr(tinycss2, "parse_stylesheet_bytes", parse_bytes)
    html = render_to_string("reports/standings.html", {"title": "x", "only": "members"})
    html = html.replace("</body>", '<img src="chart:1.jpg" alt=""></body>')
    image = io.BytesIO()
    Image.new("RGB", (40, 20), "grey").save(image, format="jpeg")
    made = []
    # A thread of its own, as a worker's: its first document parses the shared rules.
    worker = threading.Thread(
        target=lambda: made.extend(weasy.lay_out(html, {"1.jpg": image.getvalue()}) for _ in "abc")
    )
    worker.start()
    worker.join()
    assert [pages for _pdf, pages in made] == [1, 1, 1]
    # Each with its image, the first too (the shared rules' font was fetched first).
    assert all(b"/Subtype /Image" in pdf for pdf, _pages in made)
    documents = [n for kind, n in parsed if kind == "document"]
    assert len(documents) == 3 and max(documents) < 1000, documents
    assert [n for kind, n in parsed if kind == "file"] == [weasy.REPORT_STYLE.stat().st_size]


@pytest.mark.slow
def test_the_meet_sheet_writes_a_negative_with_the_clubs_sign(club):
    """With the club's ▲ chosen (「四位▲30P」), the printed sheet writes every negative P with
    it, and none with −; the − comes back when the club chooses it again."""
    from scoring.models import ClubSettings

    meet = Meet.objects.order_by("date").first()
    assert "−" in pdf_text(render_meet_pdf(meet)[2])
    settings = ClubSettings.load()
    settings.negative_sign = "▲"
    settings.save()
    text = pdf_text(render_meet_pdf(meet)[2])
    assert "▲" in text and "−" not in text


def test_the_standings_columns_are_shared_out_as_their_widest_text_needs():
    """The standings' tables are laid out with fixed widths (nothing measured cell by cell):
    each column gets at least its widest text and padding, the room left in proportion, and
    the shares fill the table."""
    rows = [["1", "長谷川喜美子", "+632.0", "2.21"], ["10", "Li", "−447.8", "2.75"]]
    shares = column_shares(["順位", "氏名", "合計P", "平均順位"], rows)
    assert abs(sum(float(s) for s in shares) - 100) < 0.05
    table = Fraction(186) * Fraction(720, 254)  # A4 less its margins, in pt
    for i, share in enumerate(shares):
        widest = max(ems(row[i]) * FIGURES + FIGURE_PADDING for row in rows)
        assert Fraction(share) / 100 * table >= widest
    assert max(shares, key=float) == shares[1]  # the names
    assert column_shares(["順位", "氏名"], []) == ["50.00", "50.00"]
    html = render_to_string(
        "reports/standings.html",
        {"only": "standings", "tables": [{"heading": "", "table": None, "shares": shares}]},
    )
    assert html.count('<col style="width: ') == 4
