"""The season's awards (表彰): who wins each award of a standings group in a period, with the
figure that won.

Read from ``compute_standings``' rows (guests left out there unless shown), in a fixed number
of queries whatever the number of members: the standings (three), the meets held with their
seats by kind of game (one), the group's awards (one), and the rating at the period's end for
最高レーティング賞 (three).

Each award's figure comes from one function of the measure registry (``MEASURES``): a
measure maps the season to an exact figure per member (a fraction), says whether the
highest or the lowest figure wins, or whether every member with a figure wins (皆勤賞,
役満賞). Ties are not broken: every member with the winning figure is named
(``AwardResult.tied``).

Eligibility (規定半荘数): an award with a minimum share counts only the members with at least
``ceil(meets held × games per meet × share / 100)`` games (the circles' 70 %: meets × 2 ×
0.70; 12 meets → 16.8 → 17 games: "規定数以上", so a part of a game is rounded up).

Each kind of game apart (``Scope``): a place at a 3-player table is not a 4-player place
(sheet 002 ranks four, 「一位30P 二位10P 三位▲10P 四位▲30P」; sheet 000's 3-player game three,
「ルールは 4 人マージャンと同じです」), so 最高平均順位賞 is judged for 4-player and 3-player
games apart, each winner's figure named by its kind when the period has both; 最高レーティング賞
is R in the group's main rating (4-player where it has 4-player rule sets). An award of one
kind counts the games of that kind, and its minimum is the share of the games of that kind a
member could have played: each meet held counts its games per meet times the share of its
seats that were at tables of that kind (a meet of one 4-player and three 3-player tables a
round: 4 of 13 seats), so a club without 3-player games keeps meets × 2 × 70 % exactly.
Averages are compared exactly (fractions), never rounded first; only the figure written is
rounded.

Guests (``Member.is_guest``) are left out unless the filters show them (``?guests=1``); a
guest who wins is named 「（ゲスト）」 as the standings name them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from fractions import Fraction

from django.db.models import Count, Q
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.models import Award, Measure
from scoring.notation import GUEST_MARK, HandLevel, points, signed_p
from scoring.standings.club import HUNDREDTH, Filters, StandingRow, compute_standings, results_for
from scoring.standings.rating import main_players, rating_at_the_end


@dataclass(frozen=True)
class Season:
    """What every measure reads: the filters, the standings rows counted (guests left out
    unless shown), how many meets were held in the period and, for each kind of game played
    (4 or 3 players), the meets' worth of it: the sum over the meets of the share of each
    meet's seats that were at tables of that kind (a meet of 4-player tables only counts 1)."""

    filters: Filters
    rows: list[StandingRow]
    meets_held: int
    kind_meets: dict[int, Fraction] = field(default_factory=dict)

    def meets_for(self, players: int | None) -> Fraction:
        """The meets held (``players`` None), or the meets' worth of games of that kind."""
        if players is None:
            return Fraction(self.meets_held)
        return self.kind_meets.get(players, Fraction(0))

    @property
    def kinds(self) -> list[int]:
        """The kinds of game played in the period, 4-player first (the group's main kind when
        nothing was played)."""
        played = sorted(self.kind_meets, reverse=True)
        return played or [main_players(self.filters.group_rule_sets)]


class Scope(StrEnum):
    """Which games an award is judged on."""

    EVERY = "every"  # every game of the group, whatever the kind
    EACH = "each"  # each kind of game apart, a winner (or a tie) for each
    MAIN = "main"  # the group's main kind only (the rating's: 4-player if it has such rules)


class Best(StrEnum):
    HIGHEST = "highest"
    LOWEST = "lowest"
    EVERY = "every"  # every member with a figure wins


Figures = Callable[[Season, int | None], dict[int, Fraction]]
"""A measure's figure for each member who competes, exact, for the games of one kind (4 or 3
players) or of every kind (None)."""


@dataclass(frozen=True)
class MeasureRule:
    """How an award is won: ``figures`` gives each member's figure (a member without one does
    not compete), ``best`` which figure wins, ``shown`` how a figure is written, ``scope``
    which games it is judged on, and ``meaning`` what the awards page says of it."""

    figures: Figures
    best: Best
    shown: Callable[[Fraction], str]
    scope: Scope = Scope.EVERY
    meaning: str | Promise = ""


def _by_row(
    value: Callable[[StandingRow], Decimal | int | None], positive: bool = False
) -> Figures:
    """A measure read from each standings row, every game counted; ``positive``: a count of
    0 does not compete."""

    def figures(season: Season, players: int | None) -> dict[int, Fraction]:
        found = {}
        for row in season.rows:
            figure = value(row)
            if figure is None or (positive and figure <= 0):
                continue
            found[row.member_id] = Fraction(figure)
        return found

    return figures


def _average_place(season: Season, players: int | None) -> dict[int, Fraction]:
    """最高平均順位: the exact average place of the member's games of one kind (``players``)."""
    kind = players or 4
    return {
        row.member_id: mean for row in season.rows if (mean := row.place_mean(kind)) is not None
    }


def _every_meet(season: Season, players: int | None) -> dict[int, Fraction]:
    """皆勤賞: the members who played at every meet held: a meet is held when games of the
    group were played at it, and a member attended it when they played there."""
    if not season.meets_held:
        return {}
    return {r.member_id: Fraction(r.meets) for r in season.rows if r.meets == season.meets_held}


def _rating_at_the_end(season: Season, players: int | None) -> dict[int, Fraction]:
    """最高レーティング: R as it stood at the end of the period, in the group's rating of its
    main table (4-player if it has 4-player rule sets, else 3-player), for the members who
    played in the period."""
    rated = rating_at_the_end(season.filters) if season.rows else None
    if rated is None:
        return {}
    playing = {r.member_id for r in season.rows}
    return {row.member_id: Fraction(row.r, 100) for row in rated.rows if row.member_id in playing}


def _decimal(value: Fraction) -> Decimal:
    """A figure that ends in a few decimals (P in tenths, R in hundredths) as a Decimal."""
    return Decimal(value.numerator) / value.denominator


def _place(value: Fraction) -> str:
    """An average place to a hundredth, halves up: 19/8 = 2.375 → 2.38."""
    return f"{_decimal(value).quantize(HUNDREDTH, ROUND_HALF_UP)}"


def _p(value: Fraction) -> str:
    """P: +123.4."""
    return signed_p(_decimal(value))


def _r(value: Fraction) -> str:
    """A rating: R 1523.47."""
    return f"R {_decimal(value):.2f}"


def _times(value: Fraction) -> str:
    """A count: 5 回."""
    return ngettext("%(n)s time", "%(n)s times", int(value)) % {"n": int(value)}


def _points(value: Fraction) -> str:
    """A score: 50,000 点."""
    return _("%(n)s points") % {"n": points(int(value))}


MEASURES: dict[str, MeasureRule] = {
    Measure.TOTAL: MeasureRule(
        _by_row(lambda r: r.total),
        Best.HIGHEST,
        _p,
        meaning=gettext_lazy("The total P of every game in the period."),
    ),
    Measure.WINS: MeasureRule(
        _by_row(lambda r: r.wins, positive=True),
        Best.HIGHEST,
        _times,
        meaning=gettext_lazy(
            "Tops (1st places) of 3-player games count together with those of 4-player "
            "games; a 1st place shared by a tie counts for each."
        ),
    ),
    Measure.AVERAGE_PLACE: MeasureRule(
        _average_place,
        Best.LOWEST,
        _place,
        Scope.EACH,
        gettext_lazy(
            "4-player and 3-player games are judged apart. The minimum of games of a kind is "
            "the share of meets × games a meet, times the share of seats at tables of that "
            "kind. Averages are compared before they are rounded."
        ),
    ),
    Measure.ATTENDANCE: MeasureRule(
        _every_meet,
        Best.EVERY,
        _times,
        meaning=gettext_lazy(
            "Members who played at least one game at every meet held in the period (a meet "
            "with games of this group); a meet attended without playing does not count."
        ),
    ),
    Measure.YAKUMAN: MeasureRule(
        _by_row(lambda r: r.big_hands.get(HandLevel.YAKUMAN, 0), positive=True),
        Best.EVERY,
        _times,
        meaning=gettext_lazy("Everyone who won a hand with a yakuman."),
    ),
    Measure.BIG_HANDS: MeasureRule(
        _by_row(lambda r: r.big_hand_total, positive=True),
        Best.HIGHEST,
        _times,
        meaning=gettext_lazy("Mangan, haneman, baiman, sanbaiman and yakuman counted together."),
    ),
    Measure.HIGHEST_SCORE: MeasureRule(
        _by_row(lambda r: r.highest_score),
        Best.HIGHEST,
        _points,
        meaning=gettext_lazy("The highest score at the end of one game."),
    ),
    Measure.RATING: MeasureRule(
        _rating_at_the_end,
        Best.HIGHEST,
        _r,
        Scope.MAIN,
        gettext_lazy(
            "R at the end of the period, in the 4-player rating (the 3-player one in a group "
            "without 4-player rules); the minimum counts games of that kind."
        ),
    ),
}
"""The measure registry: an award's ``measure`` -> how it is won."""


@dataclass(frozen=True)
class Winner:
    member_id: int
    name: str
    figure: str  # as written: +123.4, 5 回, 2.10, 42,300 点; a reason for an award by hand
    is_guest: bool = False
    furigana: str = ""  # over the name on the awards page, when the member shows ruby

    @property
    def guest_mark(self) -> str:
        """「（ゲスト）」 after a guest's name, nothing after a member's."""
        return GUEST_MARK if self.is_guest else ""

    @property
    def listed_name(self) -> str:
        """The name as the awards page and the report list it: a guest's marked 「（ゲスト）」
        (the certificate writes the name alone)."""
        return f"{self.name}{self.guest_mark}"


@dataclass
class AwardResult:
    award: Award
    winners: list[Winner] = field(default_factory=list)
    min_games: int = 0  # 規定半荘数 applied (0: none)
    left_out: int = 0  # members with a figure but too few games
    players: int | None = None  # the kind of game judged (4 or 3); None: every game
    named_kind: bool = False  # the period had both kinds: the figure and minimum say which

    @property
    def tied(self) -> bool:
        """Several winners of an award the best figure wins (not one every holder wins)."""
        rule = MEASURES.get(self.award.measure)
        return len(self.winners) > 1 and rule is not None and rule.best is not Best.EVERY


def kind_name(players: int) -> str:
    """四人打ち / 三人打ち."""
    return _("3 players") if players == 3 else _("4 players")


def min_games_for(award: Award, meets: int | Fraction) -> int:
    """規定半荘数: ``ceil(meets × games per meet × share / 100)``, exactly; 0 without a
    share. ``meets``: the meets held, or the meets' worth of games of one kind."""
    needed = Fraction(meets) * award.games_per_meet * Fraction(award.min_share) / 100
    return math.ceil(needed)


def season_for(filters: Filters) -> Season:
    """The standings rows (guests left out unless ``filters.guests``, as the standings do),
    the meets held of ``filters`` and each one's seats by kind of game (four queries)."""
    rows = compute_standings(filters)
    three = Q(rule_set__in=filters.three_player_ids)
    meets = (
        results_for(filters)
        .values("meet_id")
        .annotate(seats=Count("id"), seats3=Count("id", filter=three))
        .order_by()
    )
    kind_meets: dict[int, Fraction] = {}
    held = 0
    for meet in meets:
        held += 1
        for players, seats in ((4, meet["seats"] - meet["seats3"]), (3, meet["seats3"])):
            if seats:
                kind_meets[players] = kind_meets.get(players, Fraction(0)) + Fraction(
                    seats, meet["seats"]
                )
    return Season(filters, rows, held, kind_meets)


def _scopes(rule: MeasureRule, season: Season) -> list[int | None]:
    """The kinds of game an award is judged on apart: None for every game."""
    if rule.scope is Scope.EACH:
        return list(season.kinds)
    if rule.scope is Scope.MAIN:
        return [main_players(season.filters.group_rule_sets)]
    return [None]


def award_results(award: Award, season: Season) -> list[AwardResult]:
    """The winners of one award in the season, one result for each kind of game it is judged
    on apart (no query)."""
    if award.by_hand:
        result = AwardResult(award)
        if award.winner is not None and award.period_key == season.filters.period.key:
            winner = award.winner
            result.winners.append(
                Winner(winner.pk, winner.name, award.reason, winner.is_guest, winner.furigana)
            )
        return [result]
    rule = MEASURES.get(award.measure)
    if rule is None:
        return [AwardResult(award)]
    both = len(season.kinds) > 1
    return [_judged(award, rule, season, players, both) for players in _scopes(rule, season)]


def _judged(
    award: Award, rule: MeasureRule, season: Season, players: int | None, both: bool
) -> AwardResult:
    """The winners of ``award`` over the games of one kind (``players``), or of every kind."""
    named = both and players is not None
    result = AwardResult(award, players=players, named_kind=named)
    result.min_games = min_games_for(award, season.meets_for(players))
    games = {r.member_id: r.games if players is None else r.games_of(players) for r in season.rows}
    figures = rule.figures(season, players)
    eligible = {m: v for m, v in figures.items() if games[m] >= result.min_games}
    result.left_out = len(figures) - len(eligible)
    if not eligible:
        return result
    if rule.best is Best.HIGHEST:
        best = max(eligible.values())
        eligible = {m: v for m, v in eligible.items() if v == best}
    elif rule.best is Best.LOWEST:
        best = min(eligible.values())
        eligible = {m: v for m, v in eligible.items() if v == best}
    for row in season.rows:  # in the standings' order (then furigana)
        if row.member_id in eligible:
            figure = rule.shown(eligible[row.member_id])
            if named and rule.scope is Scope.EACH:
                figure = f"{kind_name(players or 4)} {figure}"
            result.winners.append(
                Winner(row.member_id, row.name, figure, row.is_guest, row.furigana)
            )
    return result


def compute_awards(filters: Filters, *, shown_only: bool = True) -> list[AwardResult]:
    """Every award of the filters' standings group for their period, in the group's order,
    each with its winners (ties all named). Awards given by hand are listed in the period they
    were given for. ``shown_only``: leave out the awards the organizer turned off."""
    group = filters.standings_group
    if group is None:
        return []
    awards = Award.objects.of_group(group).select_related("winner")
    season = season_for(filters)
    results = []
    for award in awards:
        if shown_only and not award.is_shown:
            continue
        if award.by_hand and award.period_key != filters.period.key:
            continue
        results.extend(award_results(award, season))
    return results


def rule_text(result: AwardResult) -> str:
    """What the page says of an award's eligibility: 規定半荘数 17 (meets × 2 × 70 %); for one
    kind of game in a period of both, 四人打ち 規定半荘数 12 (meets × 2 × 70 % × the share of
    4-player seats)."""
    if not result.min_games:
        return ""
    values = {
        "n": result.min_games,
        "share": f"{result.award.min_share.normalize():f}",
        "per": result.award.games_per_meet,
    }
    if result.named_kind and result.players is not None:
        return _(
            "%(kind)s: at least %(n)s games (%(share)s %% of meets × %(per)s × the share of "
            "seats at %(kind)s tables)"
        ) % {**values, "kind": kind_name(result.players)}
    return _("At least %(n)s games (%(share)s %% of meets × %(per)s)") % values


def award_notes(results: list[AwardResult]) -> list[tuple[str, str]]:
    """What the awards page says under its table of how each award listed is won: (the
    award's name, what its measure counts), each award once."""
    notes: list[tuple[str, str]] = []
    seen: set[int] = set()
    for result in results:
        rule = MEASURES.get(result.award.measure)
        if rule is None or not rule.meaning or result.award.pk in seen:
            continue
        seen.add(result.award.pk)
        notes.append((result.award.name, str(rule.meaning)))
    return notes
