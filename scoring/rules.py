"""Pure settlement of one hanchan: rule-set parameters in, points out.

No Django import lives here, and no float: all arithmetic is done in integer tenths of a
point (P) and handed out as :class:`~decimal.Decimal` with one decimal place.

What the code follows, where the sources could be read two ways:

- The club rule (sheet 002, DOMAIN.md): 30,000 start and return, 100 points = 0.1 P, rank
  points +30/+10/−10/−30, tied players share the rank points of the places they occupy
  evenly (折半), −10 P per chombo after the places are settled. The four scores must add up to
  4 × 30,000, less any riichi deposits held (預かり, sheet 000 rule 13).
- Rank points and oka are shared together: tied players split the sum of the rank points (and
  the oka, which belongs to first place) of the places they occupy. When that sum does not
  divide into whole tenths, each gets the share rounded down to a tenth and the remaining
  tenths go one each to the tied players in seat order, from the first dealer (``SEAT``) or
  from the last seat (``REVERSE_SEAT``). The table total stays exact either way; under the
  club rule the split always divides evenly.
- 日本健康麻将協会 (sheet 001): ties go to the player nearer the first dealer; 「4 人の点数の合計が
  10 万点を越えている場合、その分をトップから引く。（この減算による半荘順位の変動はない）10 万点未満の
  場合はそのまま集計する」 (``TotalPolicy.EXCESS_OFF_TOP``). Chombo is paid at the table
  (「親・子に関わらず 3000 点ずつ相手 3 人に支払い」), so it is already inside the scores (the
  rule set's chombo penalty is 0). 「（供託はトップ取り）」: this rule never holds deposits, so a
  record with deposits held is refused (``holds_deposits=False``).
- 三人打ち 30000持ち34000返し (sheet 003): 「箱下精算はありません」: a score below zero settles as 0
  and the points below zero come off the top player's score, so the table still sums to zero
  and places do not change (``floor_at_zero=True``): 70,000 / 25,000 / −5,000 →
  +63.0 / −9.0 / −54.0. 「チョンボは親・子関係なく5000点ALLの支払い」: chombo is paid at the table
  (penalty 0).
- カンターン麻雀 (sheet 004): only the win counts. Its rule set has ``scores_count=False`` and
  zero rank points, so every player's P is 0 and the standings count wins (place 1). The game
  always ends with a single top, so a tie for first is an error (``single_top=True``). 「西場
  から 供託ルール追加 西1局 1000点、西2局 2000点、西3局 3000点」: the pot can be left on the table,
  so a table short of its start total stands as it is and only an excess is refused
  (``TotalPolicy.SHORT_ALLOWED``).
- Places: under ``SPLIT`` the place is "1 + the number of players with a strictly higher
  score" (tied players share the better place: 1, 1, 3, 4); under ``SEAT`` there are no
  shared places.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

SCORE_UNIT = 100
"""Every score is a multiple of 100 points."""

SCORE_LIMIT = 1_000_000
"""Scores beyond ±1,000,000 are taken to be typing mistakes."""

CHOMBO_LIMIT = 20
"""More than this many chombo in one game is taken to be a typing mistake."""

DEPOSIT_UNIT = 1_000
"""Riichi deposits are 1,000-point sticks."""

TENTHS = Decimal("0.1")


class TieBreak(StrEnum):
    SPLIT = "split"  # tied players share rank points and oka evenly (the club)
    SEAT = "seat"  # the player nearer the first dealer ranks higher


class SplitRounding(StrEnum):
    SEAT = "seat"  # remaining tenths go to the tied players from the first dealer
    REVERSE_SEAT = "reverse_seat"  # ... from the seat farthest from the first dealer


class TotalPolicy(StrEnum):
    EXACT = "exact"  # the scores must add up to players × start, less deposits held
    EXCESS_OFF_TOP = "excess_off_top"  # an excess is taken off the top; a shortfall stands
    SHORT_ALLOWED = "short_allowed"  # a shortfall stands (a pot left on the table); no excess


class InvalidGame(ValueError):
    """The game cannot be settled. ``code`` names the problem, ``params`` give its figures.

    The caller turns these into a message in the user's language.
    """

    def __init__(self, code: str, **params: int | str) -> None:
        self.code = code
        self.params = params
        super().__init__(f"{code}: {params}")


@dataclass(frozen=True)
class RuleParams:
    """The parameters of a rule set. Every rule is a parameter, not a special case."""

    players: int = 4
    start_points: int = 30_000
    return_points: int = 30_000
    points_per_p: int = 1_000
    rank_points: tuple[Decimal, ...] = (Decimal(30), Decimal(10), Decimal(-10), Decimal(-30))
    tie_break: TieBreak = TieBreak.SPLIT
    split_rounding: SplitRounding = SplitRounding.SEAT
    chombo_penalty: Decimal = Decimal(10)
    total_policy: TotalPolicy = TotalPolicy.EXACT
    scores_count: bool = True
    single_top: bool = False
    holds_deposits: bool = True  # False: deposits always go to the top (供託はトップ取り)
    floor_at_zero: bool = False  # 箱下精算なし: below zero settles as 0, taken off the top

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise InvalidGame("bad_rule_players", players=self.players)
        if len(self.rank_points) != self.players:
            raise InvalidGame(
                "bad_rule_rank_points", players=self.players, given=len(self.rank_points)
            )
        if self.points_per_p <= 0 or 1_000 % self.points_per_p:
            # Every 100 points must be a whole number of tenths of a P.
            raise InvalidGame("bad_rule_points_per_p", points_per_p=self.points_per_p)
        if self.start_points % SCORE_UNIT or self.return_points % SCORE_UNIT:
            raise InvalidGame("bad_rule_start", start=self.start_points)
        for value in (*self.rank_points, self.chombo_penalty):
            _to_tenths(value)  # raises when a parameter is finer than a tenth
        if self.return_points < self.start_points and self.scores_count:
            # A negative oka would be taken off the top; no rule sheet has one.
            raise InvalidGame(
                "bad_rule_return", start=self.start_points, return_points=self.return_points
            )

    @property
    def table_total(self) -> int:
        return self.players * self.start_points

    @property
    def oka(self) -> Decimal:
        """The bonus to the top: (return − start) × players, in P."""
        if not self.scores_count:
            return Decimal(0)
        return _from_tenths(
            _points_to_tenths((self.return_points - self.start_points) * self.players, self)
        )


@dataclass(frozen=True)
class SeatScore:
    """One player's end-of-game record. ``seat`` counts from the first dealer: 0 = 東."""

    seat: int
    score: int
    chombo: int = 0


@dataclass(frozen=True)
class PlayerResult:
    seat: int
    score: int  # as recorded
    final_score: int  # after an excess was taken off the top (otherwise the same)
    place: int  # 1-based; shared under SPLIT
    score_points: Decimal
    uma: Decimal  # this player's share of the rank points
    oka: Decimal  # this player's share of the oka
    chombo: int
    chombo_points: Decimal  # −penalty × chombo (0 or negative)

    @property
    def rank_points(self) -> Decimal:
        return self.uma + self.oka

    @property
    def total(self) -> Decimal:
        return self.score_points + self.uma + self.oka + self.chombo_points


@dataclass(frozen=True)
class Settlement:
    results: tuple[PlayerResult, ...]  # in seat order
    table_total: int  # the recorded scores added up
    expected_total: int  # players × start, less deposits held
    excess_taken: int = 0  # points taken off the top (EXCESS_OFF_TOP)
    shortfall: int = 0  # points the table is short of (EXCESS_OFF_TOP, SHORT_ALLOWED)
    below_zero_taken: int = 0  # points below zero taken off the top (floor_at_zero)

    @property
    def total_points(self) -> Decimal:
        return sum((r.total for r in self.results), Decimal(0))


def _to_tenths(value: Decimal) -> int:
    tenths = Decimal(value) * 10
    if tenths != tenths.to_integral_value():
        raise InvalidGame("finer_than_tenth", value=str(value))
    return int(tenths)


def _from_tenths(tenths: int) -> Decimal:
    return (Decimal(tenths) * TENTHS).quantize(TENTHS)


def _points_to_tenths(points: int, params: RuleParams) -> int:
    """Convert game points to tenths of a P exactly (100 points = 0.1 P with 1,000 per P)."""
    quotient, remainder = divmod(points * 10, params.points_per_p)
    if remainder:
        raise InvalidGame("finer_than_tenth", value=points)
    return quotient


def check_game(params: RuleParams, seats: Sequence[SeatScore], deposits_held: int = 0) -> int:
    """Validate one game's record; return the expected table total. Raise InvalidGame."""
    if len(seats) != params.players:
        raise InvalidGame("wrong_player_count", expected=params.players, given=len(seats))
    seat_numbers = sorted(s.seat for s in seats)
    if seat_numbers != list(range(params.players)):
        duplicates = sorted({n for n in seat_numbers if seat_numbers.count(n) > 1})
        if duplicates:
            raise InvalidGame("seat_twice", seat=duplicates[0])
        raise InvalidGame("seat_missing", players=params.players)
    for s in seats:
        if abs(s.score) > SCORE_LIMIT:
            raise InvalidGame("score_out_of_range", seat=s.seat, score=s.score, limit=SCORE_LIMIT)
        if s.score % SCORE_UNIT:
            raise InvalidGame("score_not_multiple", seat=s.seat, score=s.score, unit=SCORE_UNIT)
        if s.chombo < 0:
            raise InvalidGame("chombo_negative", seat=s.seat, chombo=s.chombo)
        if s.chombo > CHOMBO_LIMIT:
            raise InvalidGame("chombo_too_many", seat=s.seat, chombo=s.chombo, limit=CHOMBO_LIMIT)
    if deposits_held < 0 or deposits_held % DEPOSIT_UNIT or deposits_held > params.table_total:
        raise InvalidGame("bad_deposits", deposits=deposits_held, unit=DEPOSIT_UNIT)
    if deposits_held and not params.holds_deposits:
        raise InvalidGame("deposits_not_held", deposits=deposits_held)
    expected = params.table_total - deposits_held
    total = sum(s.score for s in seats)
    short_stands = params.total_policy in (TotalPolicy.EXCESS_OFF_TOP, TotalPolicy.SHORT_ALLOWED)
    over_stands = params.total_policy is TotalPolicy.EXCESS_OFF_TOP
    if (total < expected and not short_stands) or (total > expected and not over_stands):
        code = "table_short" if total < expected else "table_over"
        raise InvalidGame(code, total=total, expected=expected, difference=abs(total - expected))
    return expected


def _order(seats: Sequence[SeatScore]) -> list[SeatScore]:
    """Seats from the top down; equal scores in seat order from the first dealer."""
    return sorted(seats, key=lambda s: (-s.score, s.seat))


def _share(total_tenths: int, tied: list[SeatScore], rounding: SplitRounding) -> dict[int, int]:
    """Split ``total_tenths`` evenly among ``tied`` (whole tenths, total kept exact)."""
    base, remainder = divmod(total_tenths, len(tied))
    in_order = sorted(tied, key=lambda s: s.seat, reverse=rounding is SplitRounding.REVERSE_SEAT)
    return {s.seat: base + (1 if i < remainder else 0) for i, s in enumerate(in_order)}


def settle(params: RuleParams, seats: Sequence[SeatScore], deposits_held: int = 0) -> Settlement:
    """Settle one game. Raise :class:`InvalidGame` when the record cannot be right."""
    expected = check_game(params, seats, deposits_held)
    ordered = _order(seats)
    if params.single_top and len(ordered) > 1 and ordered[0].score == ordered[1].score:
        raise InvalidGame("tied_top", score=ordered[0].score)

    total = sum(s.score for s in seats)
    final_scores = {s.seat: s.score for s in seats}
    excess = max(0, total - expected)  # only EXCESS_OFF_TOP lets a table run over
    shortfall = max(0, expected - total)
    final_scores[ordered[0].seat] -= excess
    below_zero = 0
    if params.floor_at_zero:
        below_zero = sum(-score for score in final_scores.values() if score < 0)
        final_scores = {seat: max(score, 0) for seat, score in final_scores.items()}
        final_scores[ordered[0].seat] -= below_zero

    rank_tenths = [_to_tenths(v) for v in params.rank_points]
    oka_tenths = [_to_tenths(params.oka)] + [0] * (params.players - 1)

    # Group the ordered seats into places. Ties are on the recorded score: taking an excess
    # or the points below zero off the top does not change places (sheets 001 and 003).
    groups: list[list[SeatScore]] = []
    for s in ordered:
        if params.tie_break is TieBreak.SPLIT and groups and groups[-1][0].score == s.score:
            groups[-1].append(s)
        else:
            groups.append([s])

    places: dict[int, int] = {}
    uma: dict[int, int] = {}
    oka: dict[int, int] = {}
    position = 0
    for group in groups:
        occupied = range(position, position + len(group))
        for s in group:
            places[s.seat] = position + 1
        uma.update(_share(sum(rank_tenths[i] for i in occupied), group, params.split_rounding))
        oka.update(_share(sum(oka_tenths[i] for i in occupied), group, params.split_rounding))
        position += len(group)

    penalty_tenths = _to_tenths(params.chombo_penalty)
    results = []
    for s in sorted(seats, key=lambda s: s.seat):
        score_tenths = (
            _points_to_tenths(final_scores[s.seat] - params.return_points, params)
            if params.scores_count
            else 0
        )
        results.append(
            PlayerResult(
                seat=s.seat,
                score=s.score,
                final_score=final_scores[s.seat],
                place=places[s.seat],
                score_points=_from_tenths(score_tenths),
                uma=_from_tenths(uma[s.seat]),
                oka=_from_tenths(oka[s.seat]),
                chombo=s.chombo,
                chombo_points=_from_tenths(-penalty_tenths * s.chombo),
            )
        )
    return Settlement(
        results=tuple(results),
        table_total=total,
        expected_total=expected,
        excess_taken=excess,
        shortfall=shortfall,
        below_zero_taken=below_zero,
    )


def points_to_p(points: int, params: RuleParams) -> Decimal:
    """Game points as P (1,000 deposits held = 1.0 P under the club rule)."""
    return _from_tenths(_points_to_tenths(points, params))


def table_balance(params: RuleParams, scores: Sequence[int], deposits_held: int = 0) -> int:
    """The recorded scores less what the table should add up to (negative: short)."""
    return sum(scores) - (params.table_total - deposits_held)


def remaining_score(params: RuleParams, scores: Sequence[int], deposits_held: int = 0) -> int:
    """The last player's score when all the others are known: what makes the table add up."""
    return params.table_total - deposits_held - sum(scores)


LIKELY_SCORES = (1_000, 100_000)
"""A score from 0 to under 1,000 or over 100,000 points is possible (a near-bust, a huge top)
but rare: the game form asks before saving it (``doubtful_scores``). A bust (below zero) is
not rare enough to ask about."""

FILLED_GAP = 30_000
"""A score filled in from the table total that lies more than this many points beyond every
typed score is asked about before saving (``doubtful_scores``)."""


class Doubt(StrEnum):
    UNDER = "under"  # under LIKELY_SCORES[0]
    OVER = "over"  # over LIKELY_SCORES[1]
    FAR = "far"  # the filled-in score, more than FILLED_GAP beyond every typed score


@dataclass(frozen=True)
class DoubtfulScore:
    seat: int
    score: int
    doubt: Doubt


def doubtful_scores(scores: dict[int, int], filled_seat: int | None = None) -> list[DoubtfulScore]:
    """The scores a game form asks about before saving: a warning, never a refusal.

    Why: "A mistyped digit is absorbed silently by the blank seat. Tried: in hundreds,
    typed 38 (meant 380), 240 and 240, and left 北 blank. Seen: 「合計 120,000 点 ✓」, with 北
    filled as 68,200. Wanted: a plausibility warning before saving, for example when the
    filled-in seat's score is far outside what the others suggest, or any score is under
    1,000 or over 100,000. It is a warning, not a refusal."

    The rule, by seat (``scores``: seat → points, the filled-in one included):

    - any score from 0 to under 1,000 (``Doubt.UNDER``) or over 100,000 points
      (``Doubt.OVER``): ``LIKELY_SCORES``. A negative score is not asked about for itself: the
      club's sheet (002) says 「④箱割れとなっても局は継続します。」, so a bust is an ordinary end
      of a game, and its minus sign is typed on purpose;
    - the score filled in from the table total (``filled_seat``, a bust too), when it is not
      asked about already, and is
      more than 30,000 points (``FILLED_GAP``) above the highest typed score or below the
      lowest (``Doubt.FAR``): a digit dropped or added in one typed score moves the blank
      seat's score by tens of thousands, and the total still checks.

    So 3,800 / 24,000 / 24,000 with 68,200 filled in is asked about (68,200 is 44,200 above
    24,000); 45,000 / 30,000 / 25,000 with 20,000 filled in is not. Exact integers only.
    """
    low, high = LIKELY_SCORES
    doubts: list[DoubtfulScore] = []
    for seat, score in sorted(scores.items()):
        if 0 <= score < low:
            doubts.append(DoubtfulScore(seat, score, Doubt.UNDER))
        elif score > high:
            doubts.append(DoubtfulScore(seat, score, Doubt.OVER))
    typed = [score for seat, score in scores.items() if seat != filled_seat]
    if filled_seat is None or filled_seat not in scores or not typed:
        return doubts
    filled = scores[filled_seat]
    already = any(d.seat == filled_seat for d in doubts)
    if not already and (filled > max(typed) + FILLED_GAP or filled < min(typed) - FILLED_GAP):
        doubts.append(DoubtfulScore(filled_seat, filled, Doubt.FAR))
        doubts.sort(key=lambda d: d.seat)
    return doubts
