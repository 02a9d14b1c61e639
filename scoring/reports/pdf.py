"""Print-ready PDF reports (A4, Japanese) drawn by WeasyPrint from HTML templates.

Every number comes from the standings package (``scoring/standings/``) or the stored games;
these functions only lay them out. The Japanese font ships with the project
(``static/fonts/ipaexg.ttf``, IPA Font License) and is embedded in the PDF, so a machine without
Japanese fonts prints it correctly. Each renderer returns ``(filename, content_type, bytes)``.
The half-year report is made of parts, kept and shared among workers (``parts.py``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from itertools import accumulate, groupby
from typing import Any

from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from members.models import Member, club_name_in_scope
from scoring.meet_draw import (
    MeetDraw,
    sheet_game_substitutes,
    stored_draw,
    three_player_rule_set,
)
from scoring.models import ClubSettings, Meet, ReportPart
from scoring.notation import HandLevel, meet_date
from scoring.reports import Progress, ledger, no_progress, parts, weasy
from scoring.reports.cells import lay_out
from scoring.reports.charts import cumulative_chart
from scoring.standings import (
    STANDINGS,
    AwardResult,
    Filters,
    Medium,
    MeetSheet,
    MemberRecord,
    Period,
    PeriodKind,
    PlaceColumns,
    Promotion,
    Rating,
    SheetGame,
    SheetRound,
    StandingRow,
    SummaryItem,
    Winner,
    big_hand_list,
    compute_awards,
    compute_standings,
    counts_wins,
    meet_sheet,
    member_record,
    member_records,
    period_summary,
    promotions,
    rating_at_the_end,
    rule_text,
    shown_for,
    summary_items,
    tied_note,
)

CONTENT_TYPE = "application/pdf"
# The page-number stamps "n /" are laid out in runs of this many pages, shared among workers
# and kept for every report (a report uses its last run's first pages only).
NUMBERS_RUN = 50
# The members' records are read, and their parts' HTML made, this many members at a time.
MEMBERS_RUN = 100
TOP_ON_COVER = 3  # the half-year report's first page names the top three


def _html(template: str, context: dict[str, Any]) -> str:
    html = render_to_string(template, {**context, "made_on": timezone.localdate()})
    return weasy.signed_with(html, context.get("minus", "−"))


# The printed standings in two tables a member can follow across the page: the ranking with
# P, games and places; then the rates, the big hands by kind and chombo (each with the rank
# and the name again). A column not named here goes in the first table.
SECOND_TABLE = frozenset(
    {"top_rate", "top_two_rate", "last_avoid_rate", "big_hands", *HandLevel.values, "chombo"}
)
REPEATED = frozenset({"position", "name"})


def standings_tables(filters: Filters, rows: list[StandingRow]) -> list[dict[str, Any]]:
    """The standings' PDF columns (``STANDINGS``, in the PDF's order) split into the two
    printed tables, each laid out with its heading."""
    columns = STANDINGS.shown(Medium.PDF, shown_for(filters, rows))
    first = [c for c in columns if c.key not in SECOND_TABLE]
    second = [c for c in columns if c.key in SECOND_TABLE or c.key in REPEATED]
    return [
        {"heading": heading, "table": table, "shares": _shares(table)}
        for heading, cols in [
            (_("Ranking: P, games and places"), first),
            (_("Rates, mangan or better by kind, chombo"), second),
        ]
        if len(cols) > len(REPEATED)
        for table in [lay_out(cols, rows)]
    ]


def _shares(table: Any) -> list[str]:
    """Each column's share of the table's width, for its fixed layout."""
    return ledger.column_shares(
        [h.text for h in table.headings], [[c.text for c in line.cells] for line in table.lines]
    )


def _chart_args(record: MemberRecord) -> tuple[list[str], list[Decimal], str, str]:
    """What a member's cumulative-P chart is drawn from."""
    return (
        [f"{g.date:%-m/%-d}" for g in record.games],
        [g.cumulative for g in record.games],
        _("Cumulative P"),
        _("P"),
    )


def _member_page(
    row: StandingRow,
    record: MemberRecord,
    ratings: Rating | None,
    wins: bool,
    places: PlaceColumns,
    minus: str,
) -> dict[str, Any]:
    """What a member's page shows; its chart (a JPEG fetched by name) is named, not drawn;
    the member's R at the period's end, when rated. The summary is the member's page's own
    (``summary_items``), without the rank, which is stamped on, and with R. The summary, the
    places counted, the months and the games are lines in columns (``ledger``), the
    ``places`` columns the club's, each negative number with the club's ``minus``."""
    name = f"{row.member_id}.jpg"
    # R changes only when the member plays: as of their last game, so one more meet lays out
    # again the pages of those who played, not every member's.
    rating = ratings.row_for(row.member_id) if ratings is not None else None
    items = summary_items(row, wins=wins, rank=False)
    if rating:
        items.append(SummaryItem("rating", _("Rating"), rating.r_text))
    return {
        "row": row,
        "record": record,
        "counted": ledger.places_counted(row, record, places, minus),
        "months": ledger.by_month(record, places, minus),
        "ledger": ledger.ledger(record, minus),
        "summary": ledger.summary(items, minus),
        "chart": weasy.IMAGE_SCHEME + name,
        "name": name,
        "rating": rating,
    }


def _front_matter(context: dict[str, Any]) -> list[parts.Piece]:
    """The parts before the member pages: the cover and the standings; the 満貫以上 list, a
    part a month (so one more meet lays out its own month's list again, not the half-year's);
    チョンボ and attendance."""
    context = {**context, "numbers_stamped": True}
    months = [
        {"hands_month": month, "big_hands": list(hands)}
        for month, hands in groupby(context["big_hands"], key=lambda h: h["date"].replace(day=1))
    ] or [{"big_hands": []}]  # "None in this period."
    return [
        parts.Piece(_html("reports/standings.html", {**context, **extra}))
        for extra in [
            {"only": "standings"},
            *([{"only": "awards"}] if context.get("awards") is not None else []),
            *({"only": "hands", **month} for month in months),
            {"only": "attendance"},
        ]
    ]


def _member_parts(
    context: dict[str, Any], rows: Sequence[StandingRow], records: dict[int, MemberRecord]
) -> list[parts.Piece]:
    """A part for each member of ``rows``, in their order. Nothing in it depends on the other
    members: their rank is stamped on afterwards."""
    context = {**context, "numbers_stamped": True}
    pieces = []
    for row in rows:
        record = records[row.member_id]
        page = _member_page(
            row,
            record,
            context["ratings"],
            context["wins"],
            context["place_columns"],
            context["minus"],
        )
        labels, cumulative, title, y_label = _chart_args(record)
        chart = (labels, [str(v) for v in cumulative], title, y_label)
        html = _html("reports/standings.html", {**context, "members": [page], "only": "members"})
        pieces.append(parts.Piece(html, {page["name"]: chart}))
    return pieces


def _stamps(
    pages: list[dict[str, Any]], ranked: int, side: str = "left", **heading: object
) -> parts.Piece:
    """Stamps (``reports/page_numbers.html``): a page each of ``pages``, its label at the
    ``side`` of the foot's middle, or the rank it names; with ``heading`` (``header``,
    ``title`` and ``period_label``), the report's heading at the top too."""
    context = {"stamps": side, "pages": pages, "ranked": ranked, **heading}
    return parts.Piece(_html("reports/page_numbers.html", context))


def number_runs(pages: int) -> list[parts.Piece]:
    """The page numbers' stamps "n /" for ``pages`` pages: whole runs of ``NUMBERS_RUN``
    pages (the first page, the cover, has none), the last one's stamps beyond ``pages`` not
    used. They depend on nothing else, so every report shares them: kept once, made again
    only with a new version of the templates."""
    starts = range(1, pages + 1, NUMBERS_RUN)
    return [
        _stamps([{"label": f"{n} /" if n > 1 else ""} for n in range(s, s + NUMBERS_RUN)], 0)
        for s in starts
    ]


def total_stamp(pages: int, title: str, period_label: str) -> parts.Piece:
    """The stamp of the total, "138" after "n /" (a no-break space between), one page, with
    the report's heading (the club, ``title``, ``period_label``): stamped on every page but
    the cover, it heads them, so that no part lays out the heading of each of its pages."""
    label = {"label": f"\u00a0{pages}"}
    return _stamps([label], 0, "right", header=True, title=title, period_label=period_label)


def _standings_pdf(
    context: dict[str, Any], with_members: bool, progress: Progress, share: bool
) -> bytes:
    """The standings report: in one document without member pages (the monthly report);
    with them, made of parts (``parts.py``), kept and shared among workers, then joined and
    stamped with the page numbers and each member's rank. ``progress`` is told the parts
    made, n of N.

    The stamps are parts too, kept like the others: the ranks ("順位 k 位（N 名中）" for k = 1
    to N, a page each) depend only on how many members are ranked, the page numbers ("n /
    T") are "n /" in runs of ``NUMBERS_RUN`` pages, the same for every report, and one page of
    "T". So after one more meet the ranks are usually kept, and the numbers always but the one
    page of their total; the runs a report is likely to need are shared out with the front
    matter, so that even a first report does not wait for them at the end."""
    if not with_members:
        progress(_("Standings"), 0, 1)
        pdf = weasy.write_pdf(_html("reports/standings.html", context))
        progress(_("Standings"), 1, 1)
        return pdf
    rows, ranked = context["rows"], context["ranked"]
    # The front matter and the ranks go to other workers first; then the members' parts, as
    # their records are read, MEMBERS_RUN members at a time (which bounds the memory they
    # take: the records of a thousand members are half a gigabyte).
    ranks = _stamps([{"label": "", "rank": k} for k in range(1, ranked + 1)], ranked)
    front_matter = _front_matter(context)
    # As many pages as a part has one, a member's two (most have two or three): numbers for as
    # many are made early, by any worker free; the rest, if any, at the end.
    likely = number_runs(len(front_matter) + 2 * len(rows))
    early = parts.prepare([*front_matter, ranks, *likely])
    front, ranks_part = early[: len(front_matter)], early[len(front_matter)]
    if share:
        parts.queue(early)
    members: list[ReportPart] = []
    for start in range(0, len(rows), MEMBERS_RUN):
        run = rows[start : start + MEMBERS_RUN]
        batch = parts.prepare(_member_parts(context, run, member_records(context["filters"], run)))
        if share:
            parts.queue(batch)
        members += batch
    made = [*front, *members, ranks_part]
    step = _("Front matter and member pages")
    parts.make_all(made, progress=lambda n: progress(step, n, len(made)))  # queued already
    *pages_of, ranks_part = parts.made(made)
    counts = [part.pages for part in pages_of]
    total = sum(counts)
    heading = total_stamp(total, context["title"], context["period_label"])
    *numbers, of_total = parts.prepare([*number_runs(total), heading])
    # The runs made early are waited for even when the report ends up shorter: a run held by
    # a worker that died is taken back and made, not left being made.
    # (Read again: those made since are not queued again.)
    guessed = parts.made(early[len(front_matter) + 1 :])
    waited = {part.pk: part for part in [*guessed, *numbers, of_total]}
    parts.make_all(list(waited.values()), share=share)
    # Each member's first page (the pages of the parts before theirs), stamped with the page
    # of their rank.
    starts = [0, *accumulate(counts)]
    firsts = {starts[len(front) + i]: row.position - 1 for i, row in enumerate(rows)}
    return weasy.join(
        [parts.read_part(p.digest) for p in pages_of],
        [parts.read_part(p.digest) for p in numbers],
        parts.read_part(of_total.digest),
        parts.read_part(ranks_part.digest),
        firsts,
    )


def standings_title(period: Period) -> str:
    """月間成績表, 半期成績表, 年間成績表, or 成績表 for any other span."""
    if period.is_monthly:
        return _("Monthly standings")
    if period.kind is PeriodKind.HALF:
        return _("Half-year standings")
    if period.kind is PeriodKind.FISCAL_YEAR:
        return _("Annual standings")
    return _("Standings")


def standings_context(filters: Filters, with_members: bool) -> dict[str, Any]:
    """What the standings report lays out (with the half-year's cover, summary, ratings and
    member pages when ``with_members``)."""
    rows = compute_standings(filters)
    wins = counts_wins(filters)
    return {
        "title": standings_title(filters.period),
        "filters": filters,
        "period_label": filters.heading,
        "rows": rows,
        "tables": standings_tables(filters, rows),
        "summary": period_summary(filters) if with_members else None,
        "top": [r for r in rows if r.position <= TOP_ON_COVER],
        "minus": ClubSettings.minus(),
        "place_columns": PlaceColumns.of(rows),
        "tied_note": tied_note(wins),
        "wins": wins,
        "big_hands": big_hand_list(filters),
        "chombo_rows": [r for r in rows if r.chombo],
        "attendance": sorted(rows, key=lambda r: (-r.meets, r.furigana)),
        "cover": with_members,
        "ranked": len(rows),
        "awards": award_lines(compute_awards(filters)) if has_awards(filters.period) else None,
        "promotions": _promotions(filters) if has_awards(filters.period) else [],
        "ratings": rating_at_the_end(filters) if with_members else None,
    }


def report_pieces(filters: Filters) -> list[tuple[str, parts.Piece]]:
    """The parts of the half-year report of ``filters``, in order, each with what it is (the
    front matter's by what it shows, a member's by their name); not the stamps. For measuring
    what each costs to lay out (``bench_reports --layout``)."""
    context = standings_context(filters, with_members=True)
    front = _front_matter(context)
    labels = ["standings", *(["awards"] if context.get("awards") is not None else [])]
    labels += [f"big hands {n}" for n in range(1, len(front) - len(labels))] + ["attendance"]
    rows = context["rows"]
    members = _member_parts(context, rows, member_records(filters, rows))
    return [
        *zip(labels, front, strict=True),
        *((r.name, p) for r, p in zip(rows, members, strict=True)),
    ]


def render_standings_pdf(
    filters: Filters,
    *,
    with_members: bool | None = None,
    progress: Progress = no_progress,
    share: bool = False,
) -> tuple[str, str, bytes]:
    """月間成績表 for a month; 半期成績表 (with a page per member) for a half-year or longer."""
    monthly = filters.period.is_monthly
    if with_members is None:
        with_members = not monthly
    context = standings_context(filters, with_members)
    kind = "monthly" if monthly else "standings"
    return (
        f"shirakaba-{kind}-{filters.file_key}.pdf",
        CONTENT_TYPE,
        _standings_pdf(context, with_members, progress, share),
    )


def render_member_pdf(member_id: int, filters: Filters) -> tuple[str, str, bytes]:
    """One member's page of the half-year report, for the period chosen."""
    standings = compute_standings(filters)
    record = member_record(member_id, filters, standings)
    members, images = [], {}
    places = PlaceColumns.of([record.summary] if record.summary else [])
    minus = ClubSettings.minus()
    if record.summary is not None:
        wins = counts_wins(filters)
        ratings = rating_at_the_end(filters)
        members.append(_member_page(record.summary, record, ratings, wins, places, minus))
        images[members[0]["name"]] = cumulative_chart(*_chart_args(record), fmt="jpeg", grey=True)
    context = {
        "title": _("Personal record"),
        "minus": minus,
        "filters": filters,
        "period_label": filters.heading,
        "members": members,
        "only": "members",
        "show_rank": True,
        "ranked": len(standings),
        "place_columns": places,
    }
    html = _html("reports/standings.html", context)
    return (
        f"shirakaba-member-{member_id}-{filters.file_key}.pdf",
        CONTENT_TYPE,
        weasy.write_pdf(html, images),
    )


def render_record_sheet_pdf(meet: Meet, drawn: MeetDraw | None) -> bytes:
    """記録用紙: the club's paper for the tables, made from the draw (sheet 002: 「対局結果は
    その都度記録用紙に記載され」). A page a round; a box a table, with its players' names in
    the drawn order (the game form opens in the same order), a row each with boxes for the
    seat, the score at the end, 錯和, 満貫以上 (its kind) and a signature, and a line for the
    deposits and the table's total check (what the table's rule set adds up to); who sits
    out (抜け番) under the round."""
    three = three_player_rule_set(meet)
    rounds = [
        (rnd, [(t, three if t.three_players and three else meet.rule_set) for t in rnd.tables])
        for rnd in (drawn.rounds if drawn else ())
    ]
    context = {
        "title": _("Record sheet"),
        "period_label": f"{meet_date(meet.date)} {meet.get_kind_display()}",
        "meet": meet,
        "drawn": drawn,
        "rounds": rounds,
    }
    return weasy.write_pdf(_html("reports/record_sheet.html", context))


def _rounds_with_substitutes(
    meet: Meet, sheet: MeetSheet
) -> list[tuple[SheetRound, list[tuple[SheetGame, list[tuple[str, str]]]]]]:
    """The sheet's rounds, each game with who played instead of a drawn player (代打), as the
    meet page names them."""
    drawn = stored_draw(meet)
    rounds = []
    for round_ in sheet.rounds:
        games = []
        for game in round_.games:
            table = drawn.table(game.round_no, game.table_no) if drawn else None
            games.append((game, sheet_game_substitutes(table, game)))
        rounds.append((round_, games))
    return rounds


def render_meet_pdf(meet: Meet) -> tuple[str, str, bytes]:
    """例会成績表: every entered game of one meet, round by round, and the day's standings,
    ready to post on the wall."""
    sheet = meet_sheet(meet)
    context = {
        "title": _("Meet sheet"),
        "minus": ClubSettings.minus(),
        "meet": meet,
        "period_label": f"{meet_date(meet.date)} {meet.get_kind_display()}",
        "sheet": sheet,
        "rounds": _rounds_with_substitutes(meet, sheet),
    }
    return (
        f"shirakaba-meet-{meet.date:%Y-%m-%d}-{meet.kind}.pdf",
        CONTENT_TYPE,
        weasy.write_pdf(_html("reports/meet.html", context)),
    )


def notice_meets(month: date) -> QuerySet[Meet]:
    """The meets the 回覧板 of ``month`` lists, in order of the day."""
    return Meet.objects.filter(date__year=month.year, date__month=month.month).order_by(
        "date", "kind"
    )


NOTICE_NAMES_A_ROW = 4  # the 回覧板's name lines under a meet, four to a row


def notice_fingerprint(month: date) -> list[object]:
    """What changes whenever the 回覧板 of ``month`` changes (two queries): what it shows of
    each of its meets, how many name lines (the active members), and the day it is made
    (「… 現在」), so it is kept for a day at most."""
    shown = notice_meets(month).values_list("pk", "date", "kind", "start_time", "place", "note")
    return [list(shown), Member.objects.active().count(), timezone.localdate()]


def render_notice_pdf(month: date, meets: Sequence[Meet]) -> tuple[str, str, bytes]:
    """回覧板のお知らせ: a month's meets in large type (day, meet, start, place, note), each
    with a numbered line for the name of every active member, who answer on paper. Sheet
    002: 「毎月の開催日を白樺会ホームページおよび回覧版にてお知らせしております」."""
    lines = list(range(1, max(Member.objects.active().count(), 1) + 1))
    context = {
        "title": _("Meets of the month"),
        "period_label": Period.month(month.year, month.month).label,
        "month": month,
        "meets": meets,
        "name_rows": [
            lines[i : i + NOTICE_NAMES_A_ROW] for i in range(0, len(lines), NOTICE_NAMES_A_ROW)
        ],
    }
    return (
        f"shirakaba-notice-{month:%Y-%m}.pdf",
        CONTENT_TYPE,
        weasy.write_pdf(_html("reports/notice.html", context)),
    )


# --- awards (表彰) ---------------------------------------------------------------------------


def _promotions(filters: Filters) -> list[Promotion]:
    """昇段 in the period, when the group keeps a 段位 ladder (guests only with the switch)."""
    group = filters.standings_group
    if group is None or not group.dan_ladder:
        return []
    period = filters.period
    return promotions(group, period.start, period.end, guests=filters.guests)


def has_awards(period: Period) -> bool:
    """The half-year and the year reports carry the season's awards."""
    return period.kind in (PeriodKind.HALF, PeriodKind.FISCAL_YEAR)


def award_lines(results: Sequence[AwardResult]) -> list[dict[str, Any]]:
    """What the awards page and the report list of each award: its name, its winners with
    the figure that won, the eligibility applied, and whether it is a tie."""
    return [
        {
            "award": result.award,
            "winners": result.winners,
            "rule": rule_text(result),
            "tied": result.tied,
            "left_out": result.left_out,
        }
        for result in results
    ]


# Characters written otherwise in a vertical line: the long vowel mark, punctuation and
# brackets take their vertical forms (IPAexGothic has them; WeasyPrint applies neither
# ``writing-mode: vertical-rl`` nor the font's ``vert`` feature), Latin letters and digits
# their full-width forms, set upright one above the other.
VERTICAL_FORMS = str.maketrans(
    {
        "ー": "︱",
        "−": "︱",
        "-": "︱",
        "、": "︑",
        "。": "︒",
        "，": "︐",
        ",": "︐",
        "「": "﹁",
        "」": "﹂",
        "（": "︵",
        "）": "︶",
        "(": "︵",
        ")": "︶",
        "〜": "︱",
        "～": "︱",
        "…": "︙",
        " ": "　",
        **{chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F) if chr(c) not in "-,()"},
    }
)


# What no vertical line may start with (禁則): closing brackets, stops, small kana and the
# iteration marks, as written vertically. Such a character hangs at the foot of the line
# before instead (ぶら下がり).
NOT_AT_LINE_START = frozenset(
    "︶﹂﹄︒︑︐︘︸︺︼︾﹀ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ・：；！？々ゝゞヽヾ"
)
NUMBER = re.compile(r"[+\-−]?\d[\d,.]*")


def vertical_cells(text: str) -> list[list[str]]:
    """``text`` as the cells of a vertical line, in groups never cut across lines: a number
    of two digits is one cell set side by side (縦中横, "10"); any other number is its
    full-width characters one above the other, kept together in one line; every other
    character a cell of its own, in its vertical form."""
    groups: list[list[str]] = []
    at = 0
    for found in NUMBER.finditer(text):
        groups += [[c.translate(VERTICAL_FORMS)] for c in text[at : found.start()]]
        number = found.group()
        if len(number) == 2 and number.isdigit():
            groups.append([number])  # 縦中横
        else:
            groups.append([c.translate(VERTICAL_FORMS) for c in number])
        at = found.end()
    groups += [[c.translate(VERTICAL_FORMS)] for c in text[at:]]
    return groups


def vertical_columns(text: str, per_column: int) -> list[list[str]]:
    """``text`` as vertical lines of at most ``per_column`` cells (a line break starts a new
    line), first line first, each a list of cells: a number is never cut (it starts the next
    line when it does not fit), and a closing bracket or stop never starts a line (it hangs at
    the foot of the line before)."""
    columns: list[list[str]] = []
    for paragraph in text.split("\n"):
        column: list[str] = []
        for group in vertical_cells(paragraph):
            hangs = len(group) == 1 and group[0] in NOT_AT_LINE_START
            if column and len(column) + len(group) > per_column and not hangs:
                columns.append(column)
                column = []
            column += group
        columns.append(column)
    return columns


KANJI_DIGITS = "〇一二三四五六七八九"


def kanji_number(n: int) -> str:
    """1 to 99 in kanji numerals, as a date on a certificate writes them: 三十一."""
    tens, ones = divmod(n, 10)
    return ("" if tens == 0 else ("十" if tens == 1 else KANJI_DIGITS[tens] + "十")) + (
        "" if ones == 0 and tens else KANJI_DIGITS[ones]
    )


def certificate_date(day: date) -> str:
    """The certificate's date in the era and kanji numerals: 令和八年三月三十一日 (元年 for
    the first year); in English, as the language writes dates."""
    if get_language() != "ja" or day.year < 2019:
        return date_format(day, "DATE_FORMAT")
    year = day.year - 2018
    era_year = "元" if year == 1 else kanji_number(year)
    return f"令和{era_year}年{kanji_number(day.month)}月{kanji_number(day.day)}日"


def certificate_text(result: AwardResult, winner: Winner, period: Period) -> str:
    """The certificate's words: for an award given by hand its reason, else the figure."""
    if result.award.by_hand:
        return _("In %(period)s: %(reason)s. We commend you for it.") % {
            "period": period.label,
            "reason": winner.figure,
        }
    return _(
        "In %(period)s you achieved the %(what)s (%(figure)s). We commend your fine record."
    ) % {
        "period": period.label,
        "what": result.award.get_measure_display(),
        "figure": winner.figure,
    }


CERTIFICATE_COLUMN = 19  # characters in a column of the certificate's body, at most …
CERTIFICATE_BODY_COLUMNS = 6  # … columns: a longer text gets longer columns in smaller type
CERTIFICATE_BODY_HEIGHT = 380  # points: a body column's height (19 characters of 20 pt)


def body_layout(text: str) -> tuple[int, Decimal]:
    """How long a certificate's body columns are and their type size (pt), so that the body
    keeps to ``CERTIFICATE_BODY_COLUMNS`` columns of the same height: 19 characters of
    20 pt, or (a long reason for an award by hand) more, smaller ones."""
    per_column = max(CERTIFICATE_COLUMN, -(-len(text) // CERTIFICATE_BODY_COLUMNS))
    size = min(Decimal(20), Decimal(CERTIFICATE_BODY_HEIGHT) / per_column)
    return per_column, size.quantize(Decimal("0.1"))


def render_certificate_pdf(
    result: AwardResult, winner: Winner, filters: Filters, day: date | None = None
) -> tuple[str, str, bytes]:
    """賞状: an A4 certificate for one winner of one award, written vertically (right to
    left): the title, the award (「同点」 when shared), the winner with 殿, the words, the
    date (the end of the period, or ``day``), the club and its 代表."""
    body = certificate_text(result, winner, filters.period)
    per_column, body_size = body_layout(body)
    award = result.award.name + (_("（tied）") if result.tied else "")
    signed = ClubSettings.load().representative
    on = day or filters.period.end or timezone.localdate()
    # Right to left, as it is read: each a list of (kind, line of cells).
    right_to_left = [
        ("heading", vertical_columns(_("Certificate"), 4)),
        ("award", vertical_columns(award, 16)),
        ("winner", vertical_columns(_("%(name)s 殿") % {"name": winner.name}, 14)),
        ("body", vertical_columns(body, per_column)),
        ("day", vertical_columns(certificate_date(on), 24)),
        ("club", vertical_columns(club_name_in_scope(), 24)),
        *(
            [("club", vertical_columns(_("Representative %(name)s") % {"name": signed}, 24))]
            if signed
            else []
        ),
    ]
    columns = [(kind, cells) for kind, lines in right_to_left for cells in lines]
    context = {
        "title": _("Certificate"),
        "period_label": filters.period.label,
        "columns": columns[::-1],  # laid out left to right
        "body_size": body_size,
    }
    return (
        f"shirakaba-certificate-{filters.period.key}-{result.award.pk}-{winner.member_id}.pdf",
        CONTENT_TYPE,
        weasy.write_pdf(_html("reports/certificate.html", context)),
    )
