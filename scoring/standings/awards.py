"""The season's awards (表彰): who wins each award of a standings group in a period, with the
figure that won.

Read from ``compute_standings``' rows (guests left out there unless shown), in a fixed number
of queries whatever the number of members: the standings (three), the meets held (one), the
group's awards (one), and the rating at the period's end for 最高レーティング賞 (three).

Each award's figure comes from one function of the measure registry (``MEASURES``): a
measure maps the season to a figure per member, says whether the highest or the lowest
figure wins, or whether every member with a figure wins (皆勤賞, 役満賞). Ties are not broken:
every member with the winning figure is named (``AwardResult.tied``).

Eligibility (規定半荘数): an award with a minimum share counts only the members with at least
``ceil(meets held × games per meet × share / 100)`` games (the circles' 70 %: meets × 2 ×
0.70; 12 meets → 16.8 → 17 games: "規定数以上", so a part of a game is rounded up).

Guests (``Member.is_guest``) are left out unless the filters show them (``?guests=1``); a
guest who wins is named 「（ゲスト）」 as the standings name them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, Decimal
from enum import StrEnum

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import Award, Measure
from scoring.notation import GUEST_MARK, HandLevel, points, signed_p
from scoring.standings.club import Filters, StandingRow, compute_standings, results_for
from scoring.standings.rating import rating_at_the_end


@dataclass(frozen=True)
class Season:
    """What every measure reads: the filters, the standings rows counted (guests left out
    unless shown) and how many meets were held in the period."""

    filters: Filters
    rows: list[StandingRow]
    meets_held: int


class Best(StrEnum):
    HIGHEST = "highest"
    LOWEST = "lowest"
    EVERY = "every"  # every member with a figure wins


@dataclass(frozen=True)
class MeasureRule:
    """How an award is won: ``figures`` gives each member's figure (a member without one does
    not compete), ``best`` which figure wins, ``shown`` how a figure is written."""

    figures: Callable[[Season], dict[int, Decimal]]
    best: Best
    shown: Callable[[Decimal], str]


def _by_row(
    value: Callable[[StandingRow], Decimal | int | None], positive: bool = False
) -> Callable[[Season], dict[int, Decimal]]:
    """A measure read from each standings row; ``positive``: a count of 0 does not compete."""

    def figures(season: Season) -> dict[int, Decimal]:
        found = {}
        for row in season.rows:
            figure = value(row)
            if figure is None or (positive and figure <= 0):
                continue
            found[row.member_id] = Decimal(figure)
        return found

    return figures


def _every_meet(season: Season) -> dict[int, Decimal]:
    """皆勤賞: the members who attended every meet held (a meet counts when they played)."""
    if not season.meets_held:
        return {}
    return {r.member_id: Decimal(r.meets) for r in season.rows if r.meets == season.meets_held}


def _rating_at_the_end(season: Season) -> dict[int, Decimal]:
    """最高レーティング: R as it stood at the end of the period, in the group's rating of its
    main table (4-player if it has 4-player rule sets, else 3-player), for the members who
    played in the period."""
    rated = rating_at_the_end(season.filters) if season.rows else None
    if rated is None:
        return {}
    playing = {r.member_id for r in season.rows}
    return {row.member_id: Decimal(row.r) / 100 for row in rated.rows if row.member_id in playing}


def _r(value: Decimal) -> str:
    """A rating: R 1523.47."""
    return f"R {value:.2f}"


def _times(value: Decimal) -> str:
    """A count: 5 回."""
    return ngettext("%(n)s time", "%(n)s times", int(value)) % {"n": int(value)}


def _points(value: Decimal) -> str:
    """A score: 50,000 点."""
    return _("%(n)s points") % {"n": points(int(value))}


MEASURES: dict[str, MeasureRule] = {
    Measure.TOTAL: MeasureRule(_by_row(lambda r: r.total), Best.HIGHEST, signed_p),
    Measure.WINS: MeasureRule(_by_row(lambda r: r.wins, positive=True), Best.HIGHEST, _times),
    Measure.AVERAGE_PLACE: MeasureRule(
        _by_row(lambda r: r.average_place), Best.LOWEST, lambda v: f"{v:.2f}"
    ),
    Measure.ATTENDANCE: MeasureRule(_every_meet, Best.EVERY, _times),
    Measure.YAKUMAN: MeasureRule(
        _by_row(lambda r: r.big_hands.get(HandLevel.YAKUMAN, 0), positive=True),
        Best.EVERY,
        _times,
    ),
    Measure.BIG_HANDS: MeasureRule(
        _by_row(lambda r: r.big_hand_total, positive=True), Best.HIGHEST, _times
    ),
    Measure.HIGHEST_SCORE: MeasureRule(
        _by_row(lambda r: r.highest_score),
        Best.HIGHEST,
        _points,
    ),
    Measure.RATING: MeasureRule(_rating_at_the_end, Best.HIGHEST, _r),
}
"""The measure registry: an award's ``measure`` -> how it is won."""


@dataclass(frozen=True)
class Winner:
    member_id: int
    name: str
    figure: str  # as written: +123.4, 5 回, 2.10, 42,300 点; a reason for an award by hand
    is_guest: bool = False

    @property
    def listed_name(self) -> str:
        """The name as the awards page and the report list it: a guest's marked 「（ゲスト）」
        (the certificate writes the name alone)."""
        return f"{self.name}{GUEST_MARK}" if self.is_guest else self.name


@dataclass
class AwardResult:
    award: Award
    winners: list[Winner] = field(default_factory=list)
    min_games: int = 0  # 規定半荘数 applied (0: none)
    left_out: int = 0  # members with a figure but too few games

    @property
    def tied(self) -> bool:
        """Several winners of an award the best figure wins (not one every holder wins)."""
        rule = MEASURES.get(self.award.measure)
        return len(self.winners) > 1 and rule is not None and rule.best is not Best.EVERY


def min_games_for(award: Award, meets_held: int) -> int:
    """規定半荘数: ``ceil(meets × games per meet × share / 100)``; 0 without a share."""
    needed = Decimal(meets_held * award.games_per_meet) * award.min_share / 100
    return int(needed.to_integral_value(ROUND_CEILING))


def season_for(filters: Filters) -> Season:
    """The standings rows (guests left out unless ``filters.guests``, as the standings do)
    and meets held of ``filters`` (four queries)."""
    rows = compute_standings(filters)
    meets_held = results_for(filters).values("meet_id").distinct().count()
    return Season(filters, rows, meets_held)


def award_result(award: Award, season: Season) -> AwardResult:
    """The winners of one award in the season (no query)."""
    result = AwardResult(award)
    if award.by_hand:
        if award.winner is not None and award.period_key == season.filters.period.key:
            winner = award.winner
            result.winners.append(Winner(winner.pk, winner.name, award.reason, winner.is_guest))
        return result
    rule = MEASURES.get(award.measure)
    if rule is None:
        return result
    result.min_games = min_games_for(award, season.meets_held)
    games = {r.member_id: r.games for r in season.rows}
    figures = rule.figures(season)
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
            result.winners.append(Winner(row.member_id, row.name, figure, row.is_guest))
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
        results.append(award_result(award, season))
    return results


def rule_text(result: AwardResult) -> str:
    """What the page says of an award's eligibility: 規定半荘数 17 (meets × 2 × 70 %)."""
    if not result.min_games:
        return ""
    return _("At least %(n)s games (%(share)s %% of meets × %(per)s)") % {
        "n": result.min_games,
        "share": f"{result.award.min_share.normalize():f}",
        "per": result.award.games_per_meet,
    }
