"""例会速報: a finalised meet's news for the club's LINE group, as plain text and as a card
(PNG) to look at on a phone.

The text is what the organizer pastes into LINE: the date, how many attended, each table's
order and P in one short line, the day's top, the big hands, and the standings' top 5 for the
month and the half-year (guests left out, as the standings leave them), and the link. The
card is the day at a glance: the club and the date at the top, each player's P round by round
and the day's total in the day's order with the top three marked, the big hands and chombo by
name, and the month's top 5; no link. WeasyPrint lays it out on a page of 360 × 450 CSS px
(a card for up to 16 players, and a second page for more), pypdfium2 rasterizes it at
1,080 px wide (at most 1,350 tall) with no browser, cut below its last line. It is kept like
a report (``making.py``, the kind ``news.png``), by a digest of what it shows
(``fingerprint``): drawn once, not on every request.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from urllib.parse import urlencode

import pypdfium2
from django.conf import settings
from django.db.models import Count, Max, QuerySet, Sum
from django.http import HttpRequest
from django.shortcuts import resolve_url
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from PIL import ImageOps

from members.models import Member
from scoring.models import ClubSettings, HanchanResult, Meet, RuleSet, StandingsGroup
from scoring.notation import meet_date, signed_p
from scoring.periods import Period
from scoring.reports import weasy
from scoring.standings import Filters, MeetSheet, compute_standings, meet_sheet, results_for

TOP = 5  # the standings' lines in the news
WIDTH_PX = 360  # the picture's page, in CSS pixels: a phone's width
HEIGHT_PX = 450  # and its height: 4:5, the most a chat shows of a picture without cutting it
SCALE = 4  # 360 CSS px are 270 pt: four times is 1,080 px wide (and 1,350 tall), sharp
CARD_ROWS = 16  # players on one card; a larger meet's card has a second page


@dataclass(frozen=True)
class Block:
    """A heading and its lines."""

    heading: str
    lines: list[str] = field(default_factory=list)

    @property
    def picture_lines(self) -> list[list[str]]:
        """Each line cut at 「／」 between players: the picture keeps a player and their P on
        one line (a name is never broken)."""
        return [line.split("／") for line in self.lines]


@dataclass(frozen=True)
class CardRow:
    """A player's line on the card: the day's place, name, P in each round ("" where they sat
    out) and the day's total, all as written."""

    position: int
    name: str
    rounds: list[str]
    total: str


@dataclass(frozen=True)
class Card:
    """What the picture shows: the day at a glance, in the day's order, and the month's top
    five; no link (the text that goes with it carries it)."""

    day: str
    attended: str
    round_numbers: list[int]
    rows: list[CardRow]
    hands: list[tuple[str, list[str]]]  # (跳満, [山田 勝×2, 鈴木 一郎]): a kind, who won it
    chombo: list[str]  # 「山田 勝 1」
    month: Block

    @property
    def cards(self) -> list[list[CardRow]]:
        """The rows a card each: up to ``CARD_ROWS`` players on one (a second card, and so
        on, for a larger meet)."""
        return [self.rows[i : i + CARD_ROWS] for i in range(0, len(self.rows), CARD_ROWS)] or [[]]


@dataclass(frozen=True)
class News:
    title: str
    attended: str
    blocks: list[Block]
    link: str
    card: Card | None = None

    @property
    def text(self) -> str:
        """The news as plain text for LINE: a line a table, a blank line between blocks."""
        parts = [self.title, self.attended]
        for block in self.blocks:
            parts.append("")
            parts.append(f"■{block.heading}")
            parts.extend(block.lines)
        parts += ["", self.link]
        return "\n".join(parts)


def _top(filters: Filters) -> list[str]:
    rows = compute_standings(filters)[:TOP]
    return [f"{r.position}. {r.name} {signed_p(r.total)}" for r in rows]


def _until(meet: Meet, period: Period) -> Filters:
    """``period`` of the meet's group up to the meet's day (its later meets left out)."""
    return Filters(Period.between(period.start, meet.date), group=meet.rule_set.group)


def _up_to(meet: Meet, period: Period) -> Block:
    """The top 5 of ``period`` as they stood after this meet."""
    until = _until(meet, period)
    heading = _("Top 5: %(period)s, up to %(day)s") % {
        "period": period.label,
        "day": meet_date(meet.date, "short"),
    }
    return Block(heading, _top(until))


def standings_link(request: HttpRequest) -> str:
    """Where the news sends a member for the standings: the public page, or the sign-in page
    (which leads on to them) when the standings are for members only."""
    standings = reverse("scoring:standings")
    if ClubSettings.standings_are_public():
        return request.build_absolute_uri(standings)
    login = resolve_url(settings.LOGIN_URL)
    return request.build_absolute_uri(f"{login}?{urlencode({'next': standings})}")


def meet_news(meet: Meet, link: str) -> News:
    """The news of ``meet``; ``link``: where the text sends a member for the standings (the
    public page, or the sign-in page when the standings are for members only)."""
    sheet = meet_sheet(meet)
    games = [g for r in sheet.rounds for g in r.games]
    title = _("【Shirakaba news】%(day)s %(kind)s") % {
        "day": meet_date(meet.date),
        "kind": meet.get_kind_display(),
    }
    attended = _("%(people)s attended, %(games)s games") % {
        "people": sheet.attending,
        "games": len(games),
    }
    blocks = []
    for rnd in sheet.rounds:
        lines = []
        for game in rnd.games:
            ordered = sorted(game.lines, key=lambda line: (line.place, line.seat))
            players = "／".join(f"{line.name} {signed_p(line.total)}" for line in ordered)
            lines.append(_("Table %(n)s: %(players)s") % {"n": game.table_no, "players": players})
        blocks.append(Block(_("Round %(n)s") % {"n": rnd.round_no}, lines))
    day = [r for r in sheet.day_rows if r.position == 1]
    if day:
        blocks.append(
            Block(
                _("Top of the day"),
                [
                    _("%(name)s %(total)s (%(games)s games)")
                    % {"name": r.name, "total": signed_p(r.total), "games": r.games}
                    for r in day
                ],
            )
        )
    hands: dict[str, list[str]] = {}  # by player, in the order of the games
    for game in games:
        for line in game.lines:
            if line.big_hands:
                hands.setdefault(line.name, []).extend(line.big_hands)
    big = [f"{name} {'・'.join(kinds)}" for name, kinds in hands.items()]
    blocks.append(Block(_("Mangan or better"), big or [_("None today.")]))
    month = _up_to(meet, Period.month(meet.date.year, meet.date.month))
    blocks.append(month)
    blocks.append(_up_to(meet, Period.containing(meet.date)))
    return News(
        title=title,
        attended=attended,
        blocks=blocks,
        link=link,
        card=_card(meet, sheet, hands, month),
    )


def _by_kind(hands: dict[str, list[str]]) -> list[tuple[str, list[str]]]:
    """The day's big hands kind by kind, each with who won it (×2 for twice): shorter on
    the card than a line a player. (跳満, [山田 勝×2, 鈴木 一郎]): the card keeps each name
    whole on a line."""
    kinds: dict[str, dict[str, int]] = {}
    for name, won in hands.items():
        for kind in won:
            kinds.setdefault(kind, {})[name] = kinds.get(kind, {}).get(name, 0) + 1
    return [
        (kind, [f"{name}×{n}" if n > 1 else name for name, n in names.items()])
        for kind, names in kinds.items()
    ]


def _card(meet: Meet, sheet: MeetSheet, hands: dict[str, list[str]], month: Block) -> Card:
    """The card of the day: each player's P round by round and the day's total in the day's
    order (the sheet's own figures), the big hands and chombo by name, the month's top 5."""
    by_round: dict[int, dict[int, str]] = {}
    chombo: dict[str, int] = {}
    for rnd in sheet.rounds:
        for game in rnd.games:
            for line in game.lines:
                by_round.setdefault(line.member_id, {})[rnd.round_no] = signed_p(line.total)
                if line.chombo:
                    chombo[line.name] = chombo.get(line.name, 0) + line.chombo
    numbers = [rnd.round_no for rnd in sheet.rounds]
    rows = [
        CardRow(
            r.position,
            r.name,
            [by_round.get(r.member_id, {}).get(n, "") for n in numbers],
            signed_p(r.total),
        )
        for r in sheet.day_rows
    ]
    return Card(
        day=f"{meet_date(meet.date)} {meet.get_kind_display()}",
        attended=_("%(people)s attended") % {"people": sheet.attending},
        round_numbers=numbers,
        rows=rows,
        hands=_by_kind(hands),
        chombo=[f"{name} {n}" for name, n in chombo.items()],
        month=month,
    )


def news_html(news: News) -> str:
    """The cards' HTML, with the club's minus sign."""
    html = render_to_string(
        "reports/news.html",
        {
            "news": news,
            "card": news.card,
            "width": WIDTH_PX,
            "height": HEIGHT_PX,
        },
    )
    return weasy.signed_with(html, ClubSettings.minus())


def news_pdf(news: News) -> bytes:
    """The card as WeasyPrint lays it out (before it is rasterized): a page 360 × 450 CSS px
    a card."""
    return weasy.write_pdf(news_html(news), report_style=False)


def news_png(news: News, card: int = 0) -> bytes:
    """The news as a card for a phone: 1,080 px wide and at most 1,350 tall (the page of
    ``card``, counted from 0: a card for each 16 players of the day's order; past the last,
    the last), cut a margin below its last line."""
    pdf = pypdfium2.PdfDocument(news_pdf(news))
    try:
        page = pdf[min(card, len(pdf) - 1)]
        image = page.render(scale=SCALE).to_pil().convert("RGB")
    finally:
        pdf.close()
    inked = ImageOps.invert(image.convert("L")).getbbox()
    if inked is not None:
        margin = 8 * SCALE
        image = image.crop((0, 0, image.width, min(image.height, inked[3] + margin)))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def card_file_name(meet: Meet, card: int = 0) -> str:
    """The picture's file name: the second card and on numbered (…-2.png)."""
    number = f"-{card + 1}" if card else ""
    return f"shirakaba-news-{meet.date:%Y-%m-%d}-{meet.kind}{number}.png"


def render_news_png(meet: Meet, link: str, card: int = 0) -> tuple[str, str, bytes]:
    """The picture of ``meet``'s news as a file, card ``card`` (from 0): (name, type,
    bytes)."""
    return card_file_name(meet, card), "image/png", news_png(meet_news(meet, link), card)


def _counted(results: QuerySet[HanchanResult]) -> dict[str, object]:
    return results.aggregate(
        n=Count("pk"), ids=Sum("pk"), points=Sum("total_points"), changed=Max("hanchan__updated_at")
    )


def fingerprint(meet: Meet) -> list[object]:
    """What changes whenever what ``meet``'s news shows changes (a few small queries), and
    nothing else: the meet's own games and its attendance (「参加 n 名」), the games of its
    half-year up to its day in its group (the two tops; the month's are among them), the
    meet's own history (its day and kind), and the latest change of any member, rule set or
    group (names, guests, which rule sets a group counts). Games after the meet's day and
    answers for other meets leave it as it is. The link at the foot and the language are in
    the report's spec."""
    games = HanchanResult.objects.filter(meet=meet)
    half_year = results_for(_until(meet, Period.containing(meet.date)))
    attending = sorted(meet.attendees.values_list("pk", flat=True))
    own = meet.history.aggregate(latest=Max("history_date"))["latest"]
    labels = [
        model.history.aggregate(latest=Max("history_date"))["latest"]
        for model in (Member, RuleSet, StandingsGroup)
    ]
    return [_counted(games), _counted(half_year), attending, own, labels]
