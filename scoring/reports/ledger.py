"""A member's games in the half-year report (the club's 個人成績表) as lines of text in
columns, not as a table.

WeasyPrint lays out a table cell by cell: a member's 58 games in a table of nine columns took
about 0.23 of the 0.32 s of CPU their part took at the 50-member bench (the part laid out with
and without them), and the same lines as plain text about 0.05 s. So each game is
one line of text, its columns lined up by spaces: the report's font set with its half-width
forms (the OpenType feature ``hwid``) draws every ASCII character, the digits among them, half
an em wide and a kanji or kana a whole em, so a column's width is counted in half ems
(``units``) and each figure is padded with en spaces (U+2002, half an em) to the right edge
of its column. The one sign the feature leaves proportional, the minus (U+2212), is written as
the full-width minus (U+FF0D, ``FULL_MINUS``), an em, as the club's ▲ is. The months and the
places counted are set the same way (``in_columns``).

The member's summary (``summary``) is set in lines in columns too: a heading and its figure,
four to a line.

The same font's widths share the standings' tables among their columns (``column_shares``), so
that those tables are laid out with fixed widths rather than measured cell by cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache

from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from fontTools.ttLib import TTFont

from scoring.notation import MINUS, meet_date, points, signed_p
from scoring.reports.weasy import STATIC
from scoring.standings import MemberRecord, MonthLine, PlaceColumns, StandingRow, SummaryItem

FONT = "fonts/ipaexg.ttf"  # under static/, as the reports' @font-face names it
EN_SPACE = "\u2002"  # half an em in the report's font, with or without hwid
GAP = 3  # half ems between two columns
FULL_MINUS = "\uff0d"
"""A ledger's minus: the full-width minus (U+FF0D, the JIS minus sign as Japanese Windows and
input methods write it), the very glyph the feature ``fwid`` makes of U+2212 in the report's
font and one that ``hwid`` leaves an em wide. So a ledger's line is one run of text: a span
for each minus (in ``fwid``) was a seventh of a member's part."""


@cache
def _advances() -> tuple[dict[str, int], int, Fraction]:
    """Each character's width as the report's font draws it with ``hwid``, in the font's own
    units (whole numbers); the width of a character not in the font's map (an em); and half an
    em in those units."""
    font = TTFont(STATIC / FONT, lazy=True)
    em = font["head"].unitsPerEm
    metrics = font["hmtx"]
    halved: dict[str, str] = {}
    table = font["GSUB"].table
    for record in table.FeatureList.FeatureRecord:
        if record.FeatureTag == "hwid":
            for index in record.Feature.LookupListIndex:
                for sub in table.LookupList.Lookup[index].SubTable:
                    halved.update(getattr(sub, "ExtSubTable", sub).mapping)
    widths = {
        chr(code): metrics[halved.get(glyph, glyph)][0]
        for code, glyph in font.getBestCmap().items()
    }
    return widths, em, Fraction(em, 2)


@cache
def _proportional() -> dict[int, Fraction]:
    """Each character's width in ems as the report's font draws it without ``hwid`` (its
    figures are all of one width: the font has no proportional figures)."""
    font = TTFont(STATIC / FONT, lazy=True)
    em = Fraction(font["head"].unitsPerEm)
    metrics = font["hmtx"]
    return {code: Fraction(metrics[glyph][0]) / em for code, glyph in font.getBestCmap().items()}


@lru_cache(maxsize=4096)
def ems(text: str) -> Fraction:
    """``text``'s width in ems, set in the report's font as a table's cell sets it (remembered:
    the summaries of fifty members measure the same headings and many of the same figures)."""
    widths = _proportional()
    return sum((widths.get(ord(c), Fraction(1)) for c in text), Fraction(0))


# The standings' cells as the report's style sets them (static/reports/report.css, in pt):
# the figures 10.5 pt with 1.2 mm on either side, the headings 9.5 pt with 0.8 mm.
MM = Fraction(720, 254)
FIGURES, FIGURE_PADDING = Fraction(21, 2), 2 * Fraction(12, 10) * MM
HEADINGS, HEADING_PADDING = Fraction(19, 2), 2 * Fraction(8, 10) * MM


def column_shares(headings: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Each column's share of a table's width (a percentage, as CSS writes it) as WeasyPrint's
    automatic table layout shares it out when the table is wider than its text: each column
    its widest cell unbroken, the room left over in proportion. With these widths the table is
    laid out with ``table-layout: fixed``, which measures no cell: the standings' two tables,
    50 rows of 10 and 12 cells, spent a fifth of their layout measuring them."""
    widest = [
        max(
            [
                ems(heading) * HEADINGS + HEADING_PADDING,
                *(ems(row[i]) * FIGURES + FIGURE_PADDING for row in rows),
            ]
        )
        for i, heading in enumerate(headings)
    ]
    whole = sum(widest)
    return [f"{float(w * 100 / whole):.2f}" for w in widest]


@lru_cache(maxsize=4096)
def units(text: str) -> Fraction:
    """``text``'s width in half ems as a ledger line sets it (a minus, U+2212, written full
    width: an em). Summed in the font's units, whole numbers, and divided once: a member's part
    measures a few thousand texts (each twice), most of them the same dates and figures as
    the other members', so they are remembered too."""
    widths, em, half = _advances()
    return Fraction(sum(em if c == MINUS else widths.get(c, em) for c in text)) / half


@dataclass(frozen=True)
class Column:
    """A column of the ledger: its heading, and whether its figures stand at its right edge."""

    heading: str
    right: bool = True


@dataclass(frozen=True)
class Line:
    """A line of the ledger: its HTML (one run of text) and its kind:
    ``head``, ``game``, ``day`` (a day's last game) or ``month`` (a month's subtotal)."""

    html: SafeString
    kind: str


def _pad(text: str, width: Fraction, right: bool) -> str:
    spaces = EN_SPACE * int(width - units(text))
    return spaces + text if right else text + spaces


def _sign(minus: str) -> str:
    """The club's ``minus`` as a ledger sets it: ▲, or the full-width minus."""
    return "▲" if minus == "▲" else FULL_MINUS


def _html(text: str, minus: str) -> SafeString:
    """``text`` (each negative number's sign U+2212) as a line's HTML, each such sign the
    club's ``minus`` as a ledger sets it (``_sign``)."""
    return mark_safe(str(escape(text)).replace(MINUS, _sign(minus)))  # escaped first


def _join(cells: Sequence[tuple[str, Fraction, bool]]) -> str:
    return (EN_SPACE * GAP).join(_pad(text, width, right) for text, width, right in cells)


def in_columns(
    columns: Sequence[Column], rows: Sequence[Sequence[str]], kind: str, minus: str
) -> list[Line]:
    """``rows`` (a text for each of ``columns``) as lines of ``kind`` under a line of the
    columns' headings, each column as wide as its widest text: a small table (a member's months,
    their places counted) set as the games are, which WeasyPrint lays out in a fraction of a
    table's time (the two tables were a quarter of a member's part)."""
    widths = [
        max([units(c.heading), *(units(texts[i]) for texts in rows)]) for i, c in enumerate(columns)
    ]
    head = _join([(c.heading, w, c.right) for c, w in zip(columns, widths, strict=True)])
    lines = [
        _join([(t, w, c.right) for t, w, c in zip(texts, widths, columns, strict=True)])
        for texts in rows
    ]
    return [Line(_html(head, minus), "head"), *(Line(_html(line, minus), kind) for line in lines)]


# The summary: 11 pt, across the page's 186 mm; a long figure (the big hands by kind, the
# 3-player places) a line of its own, after the others.
SUMMARY_SIZE = Fraction(11)
ACROSS = 186 * MM / SUMMARY_SIZE  # ems
LONG = Fraction(6)  # ems
SPACE = " "


@lru_cache(maxsize=4096)
def _fill(width: Fraction) -> tuple[str, Fraction]:
    """En spaces and spaces (the font's space is 0.27 em) as near ``width`` ems as they come,
    and their width: within a fiftieth of an em where there is room for a dozen spaces, within
    a tenth where there is an em (the least gap here), so text set without ``hwid`` lines up
    to within a point at 11 pt. (Tabs would not do: WeasyPrint 70 draws the text after a tab
    up to a point and a half off its stop.)"""
    space, half, near = ems(SPACE), Fraction(1, 2), Fraction(1, 50)
    # How far off (a fiftieth is near enough), how many characters, en spaces, spaces.
    best = (width, 0, 0, 0)
    spaces = 0
    while spaces * space <= width:
        rest = width - spaces * space
        for halves in (int(rest // half), int(rest // half) + 1):
            off = max(abs(rest - halves * half), near)
            best = min(best, (off, halves + spaces, halves, spaces))
        spaces += 1
    _off, _characters, halves, spaces = best
    return EN_SPACE * halves + SPACE * spaces, halves * half + spaces * space


def summary(items: Sequence[SummaryItem], minus: str) -> list[Line]:
    """The member's summary (``summary_items``) as lines in columns: each heading, then its
    figure (with its note, the below-zero rate), as many pairs to a line as the page holds
    (four in Japanese, fewer where the headings are longer); a figure with a long note a line
    of its own, after the others. Set without ``hwid``, which would make katakana half-width
    (ﾄｯﾌﾟ率): the widths are the font's own (``ems``), and each text is followed by the en
    spaces and spaces (``_fill``) that bring the next to its column. The boxes they were, a run
    of text for each heading, figure and note, were a sixth of a member's part; a line is one
    run."""
    sign = _sign(minus)

    def width(text: str) -> Fraction:
        return ems(text.replace(MINUS, sign))

    cells = [(i.label, f"{i.value} {i.note}" if i.note else i.value) for i in items]
    short = [c for c in cells if width(c[1]) < LONG]
    for across in (4, 3, 2, 1):
        rows = [short[start : start + across] for start in range(0, len(short), across)]
        starts = [Fraction(0)]  # each column's heading's start and figure's start, in turn (ems)
        for i in range(across):
            for part, gap in ((0, Fraction(1)), (1, Fraction(2))):  # more room after a figure
                texts = [row[i][part] for row in rows if i < len(row)]
                starts.append(starts[-1] + max(map(width, texts), default=Fraction(0)) + gap)
        if starts[-1] <= ACROSS + 2 or across == 1:  # the last gap may overhang
            break
    lines = []
    for row in rows:
        texts = [text for cell in row for text in cell]
        line, at = "", Fraction(0)
        for text, start in zip(texts, starts, strict=False):
            padding, room = _fill(start - at)
            line += padding + text
            at += room + width(text)
        lines.append(line)
    for label, figure in cells:
        if width(figure) >= LONG:
            padding, _room = _fill(max(starts[1], width(label) + 1) - width(label))
            lines.append(label + padding + figure)
    return [Line(_html(line, minus), "game") for line in lines]


def _places_columns(places: PlaceColumns) -> list[Column]:
    four = [_("1st"), _("2nd"), _("3rd"), _("4th")] if places.four else []
    three = [_("3-player 1st"), _("3-player 2nd"), _("3-player 3rd")] if places.three else []
    return [Column(heading) for heading in [*four, *three]]


def _places_counts(counted: MemberRecord | MonthLine, places: PlaceColumns) -> list[str]:
    four = list(counted.places) if places.four else []
    three = list(counted.places3) if places.three else []
    return [str(n) for n in [*four, *three]]


def places_counted(
    row: StandingRow, record: MemberRecord, places: PlaceColumns, minus: str
) -> list[Line]:
    """How often the member came in at each place, and their big hands by kind: a line."""
    kinds = row.big_hand_kinds
    columns = [*_places_columns(places), *(Column(label) for label, _n in kinds)]
    counts = [*_places_counts(record, places), *(str(n) for _l, n in kinds)]
    return in_columns(columns, [counts], "day", minus)


def by_month(record: MemberRecord, places: PlaceColumns, minus: str) -> list[Line]:
    """The member's months: a line each (the month, games, P, the places counted)."""
    columns = [Column(_("Month"), right=False), Column(_("Games")), Column(_("Total P"))]
    rows = [
        [
            date_format(month.month, "YEAR_MONTH_FORMAT"),
            str(month.games),
            signed_p(month.total),
            *_places_counts(month, places),
        ]
        for month in record.months
    ]
    return in_columns([*columns, *_places_columns(places)], rows, "game", minus)


def ledger(record: MemberRecord, minus: str) -> list[Line]:
    """Every game of ``record`` a line (date, round, table, seat, score, place, P, the day's
    total on the day's last game, then its big hands and chombo), month by month, each month
    closed by its subtotal (the month, games and P), under one line of the columns' headings
    (a heading line a month made the 50 members' parts 149 pages rather than 122)."""
    columns = [
        Column(_("Date"), right=False),
        Column(_("Round")),
        Column(_("Table")),
        Column(_("Seat")),
        Column(_("Score")),
        Column(_("Place")),
        Column("P"),
        Column(_("Day total")),
    ]
    rows: list[tuple[list[str], str, str]] = []  # the columns' texts, the hands, the kind
    months: list[tuple[list[tuple[list[str], str, str]], tuple[str, str, str]]] = []
    for sheet in record.month_sheets:
        lines = []
        for line in sheet.lines:
            g = line.game
            place = _("%(n)s (3-player)") % {"n": g.place} if g.table_place.three else str(g.place)
            texts = [
                meet_date(g.date, "short"),
                str(g.round_no),
                str(g.table_no),
                g.seat,
                points(g.score),
                place,
                signed_p(g.total),
                signed_p(line.day_total) if line.day_total is not None else "",
            ]
            hands = [_("Chombo %(n)s") % {"n": g.chombo}] if g.chombo else []
            hands += ["、".join(str(hand) for hand in g.big_hands)] if g.big_hands else []
            lines.append((texts, " ".join(hands), "game" if line.day_total is None else "day"))
        rows += lines
        month = sheet.month
        subtotal = (
            _("Month %(n)s subtotal") % {"n": month.month.month},
            _("%(n)s games") % {"n": month.games},
            signed_p(month.total),
        )
        months.append((lines, subtotal))
    widths = [
        max([units(c.heading), *(units(texts[i]) for texts, _hands, _kind in rows)])
        for i, c in enumerate(columns)
    ]
    gap = Fraction(GAP)
    # The subtotal: the month across date to seat, the games across score and place, the P
    # under the P; the date's and the place's columns widen when those need more room.
    for _lines, (label, games, _total) in months:
        widths[0] = max(widths[0], units(label) - sum(widths[1:4]) - 3 * gap)
        widths[5] = max(widths[5], units(games) - widths[4] - gap)
    first, second = sum(widths[:4]) + 3 * gap, widths[4] + widths[5] + gap
    head = _join([(c.heading, w, c.right) for c, w in zip(columns, widths, strict=True)])
    head += EN_SPACE * GAP + _("Mangan or better")
    out: list[Line] = [Line(_html(head, minus), "head")]
    for month_lines, (label, games, total) in months:
        for figures, big, kind in month_lines:
            cells = [(t, w, c.right) for t, w, c in zip(figures, widths, columns, strict=True)]
            text = _join(cells) + (EN_SPACE * GAP + big if big else "")
            out.append(Line(_html(text.rstrip(EN_SPACE), minus), kind))
        closing = _join([(label, first, False), (games, second, True), (total, widths[6], True)])
        out.append(Line(_html(closing, minus), "month"))
    return out
