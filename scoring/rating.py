"""The rating (レーティング), Tenhou's formula: pure arithmetic, no Django.

As the peers and health-mahjong circles publish it:

    "start at R 1500; after each game, change = (rank points + (table's average R − own R) / 40)
    × a correction for new players; 4-player rank points +30/+10/−10/−30; 3-player +30/0/−30;
    the correction is 1 − 0.002 × games, never below 0.2, where games = the games the player
    had finished in that rating before this one (1 for the first game; 0.2 once 400 games are
    behind)"

Read so: ``games`` counts the player's games finished in this rating *before* this one, so it
is 0 at the first game, and the correction there is 1 − 0.002 × 0 = 1 (the "1 for the first
game" of the line is the correction's value); at the second game it is 0.998, and from the
401st game on (400 games behind) it stays 0.2. The issue's own example,
「(+30 + (1512.40 − 1500.00) ÷ 40) × 0.998 = +30.25」, is a second game.

The table's average R includes the player's own R, each taken before the game. Tied players
share the rank points of the places they occupy, evenly, as the club shares uma (rules.py,
``TieBreak.SPLIT``): a tie for 1st–2nd at four players gets (30 + 10) / 2 = +20 each, at three
players (30 + 0) / 2 = +15. The places are those stored at settlement (shared ones under the
club's rule; a rule set that breaks ties by seat has none).

Exactness: R is kept as a whole number of hundredths (1500.00 is 150000). A change is worked out
exactly as a fraction of those integers and rounded once, to a hundredth, half away from zero
(+30.24938 → +30.25; −0.005 → −0.01). Nothing else is rounded, so the line
:func:`GameChange.arithmetic` prints checks with a pencil, and R never drifts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

START = 150_000  # R 1500.00, in hundredths
DIVISOR = 40  # (average − own) / 40
STEP = 2  # the correction falls by 0.002 a game: in thousandths
FLOOR = 200  # and stays at 0.2 (thousandths)
RANK_POINTS = {4: (30, 10, -10, -30), 3: (30, 0, -30)}


def correction(games_before: int) -> int:
    """The correction for new players, in thousandths: 1000 at the first game (none behind),
    998 at the second, 200 from 400 games behind."""
    return max(1000 - STEP * games_before, FLOOR)


def shared_rank_points(players: int, places: Sequence[int]) -> list[tuple[int, int]]:
    """Each player's rank points as (sum, shared by) for the stored ``places`` of one game:
    tied players (equal place) share the points of the places they occupy. (40, 2) is +20."""
    points = RANK_POINTS[players]
    shared = []
    for place in places:
        tied = places.count(place)
        shared.append((sum(points[place - 1 : place - 1 + tied]), tied))
    return shared


def round_half_away(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded to a whole number, halves away from zero (den > 0)."""
    quotient = (abs(numerator) * 2 + denominator) // (2 * denominator)
    return quotient if numerator >= 0 else -quotient


@dataclass(frozen=True)
class GameChange:
    """One player's change in one game, with everything its arithmetic line shows."""

    before: int  # own R before the game, hundredths
    table_sum: int  # the table's R before the game, summed (own included), hundredths
    players: int
    rank_sum: int  # rank points of the places occupied, summed
    tied: int  # players sharing them (1: no tie)
    games_before: int  # this player's games in this rating before this one
    change: int  # hundredths, rounded once (half away from zero)

    @property
    def after(self) -> int:
        return self.before + self.change

    @property
    def before_text(self) -> str:
        return format_r(self.before)

    @property
    def after_text(self) -> str:
        return format_r(self.after)

    @property
    def factor(self) -> int:
        """The correction, thousandths."""
        return correction(self.games_before)

    @property
    def rank_points(self) -> int:
        """The (shared) rank points: always whole for the club's tables (asserted in tests)."""
        return self.rank_sum // self.tied

    def arithmetic(self) -> str:
        """The change as a line to check with a pencil:
        ``(+30 + (1512.40 − 1500.00) ÷ 40) × 0.998 = +30.25``. The average is written exactly
        where four decimals hold it, else as the table's sum ÷ 3."""
        average = average_text(self.table_sum, self.players)
        return (
            f"({signed_points(self.rank_sum, self.tied)} + ({average} − {format_r(self.before)})"
            f" ÷ {DIVISOR}) × {self.factor / 1000:.3f} = {format_change(self.change)}"
        )


def change_for(
    before: int, table_sum: int, players: int, rank_sum: int, tied: int, games_before: int
) -> GameChange:
    """The exact change, rounded once to a hundredth:
    (rank_sum / tied + (table_sum / players − before) / 40) × correction, in hundredths,
    = ((100 · rank_sum · players · 40 + tied · (table_sum − players · before)) · c)
      / (tied · players · 40 · 1000)."""
    factor = correction(games_before)
    numerator = (
        100 * rank_sum * players * DIVISOR + tied * (table_sum - players * before)
    ) * factor
    denominator = tied * players * DIVISOR * 1000
    return GameChange(
        before=before,
        table_sum=table_sum,
        players=players,
        rank_sum=rank_sum,
        tied=tied,
        games_before=games_before,
        change=round_half_away(numerator, denominator),
    )


@dataclass
class Standing:
    """One player's place in a rating: R (hundredths) and the games rated so far."""

    r: int = START
    games: int = 0


def rate_game(
    ratings: dict[int, Standing], players: int, line: Sequence[tuple[int, int]]
) -> list[tuple[int, GameChange]]:
    """Rate one game: ``line`` is (player, stored place) for each seat. Updates ``ratings``
    (a player not in it starts at 1500) and returns each player's change."""
    standings = [ratings.setdefault(player, Standing()) for player, _place in line]
    table_sum = sum(s.r for s in standings)
    shared = shared_rank_points(players, [place for _player, place in line])
    changes = []
    for (player, _place), standing, (rank_sum, tied) in zip(line, standings, shared, strict=True):
        changes.append(
            (player, change_for(standing.r, table_sum, players, rank_sum, tied, standing.games))
        )
    for standing, (_player, change) in zip(standings, changes, strict=True):
        standing.r += change.change
        standing.games += 1
    return changes


_SHARES: dict[tuple[int, tuple[int, ...]], list[tuple[int, int]]] = {}


def rate_quickly(
    ratings: dict[int, Standing], players: int, members: Sequence[int], places: tuple[int, ...]
) -> None:
    """What :func:`rate_game` does to ``ratings``, in plain integers and without the
    :class:`GameChange` of each player (a federation's 100,000 games in well under a second;
    tests/scoring/test_rating.py checks the two agree game by game)."""
    shares = _SHARES.get((players, places))
    if shares is None:
        shares = _SHARES.setdefault((players, places), shared_rank_points(players, places))
    standings = [ratings.get(m) or ratings.setdefault(m, Standing()) for m in members]
    table_sum = 0
    for standing in standings:
        table_sum += standing.r
    scale = players * DIVISOR
    changes = []
    for standing, (rank_sum, tied) in zip(standings, shares, strict=True):
        factor = 1000 - STEP * standing.games
        if factor < FLOOR:
            factor = FLOOR
        numerator = (100 * rank_sum * scale + tied * (table_sum - players * standing.r)) * factor
        denominator = 1000 * tied * scale
        if numerator >= 0:
            changes.append((2 * numerator + denominator) // (2 * denominator))
        else:
            changes.append(-((-2 * numerator + denominator) // (2 * denominator)))
    for standing, change in zip(standings, changes, strict=True):
        standing.r += change
        standing.games += 1


def rate(
    games: Iterable[tuple[int, Sequence[tuple[int, int]]]],
) -> dict[int, Standing]:
    """Every player's R after ``games`` in the order played, each (players, its line)."""
    ratings: dict[int, Standing] = {}
    for players, line in games:
        rate_game(ratings, players, line)
    return ratings


def format_r(hundredths: int) -> str:
    """R as shown: 1523.47 (two decimals; a minus sign where R fell below zero)."""
    sign = "−" if hundredths < 0 else ""
    whole, part = divmod(abs(hundredths), 100)
    return f"{sign}{whole}.{part:02d}"


def format_change(hundredths: int) -> str:
    """A change as shown: +30.25, −12.03, ±0.00."""
    if hundredths == 0:
        return "±0.00"
    return ("+" if hundredths > 0 else "−") + format_r(abs(hundredths))


def signed_points(total: int, shared_by: int) -> str:
    """Rank points as written in the line: +30, −10, 0, or (30 + 10) ÷ 2 worked out: +20."""
    value, rest = divmod(total, shared_by)
    if rest:  # never for the club's tables; written exactly all the same
        return f"{'+' if total > 0 else '−'}{abs(total)}/{shared_by}"
    if value == 0:
        return "0"
    return f"{'+' if value > 0 else '−'}{abs(value)}"


def average_text(table_sum: int, players: int) -> str:
    """The table's average R, exact: 1512.40, 1512.4025; at three players where no four
    decimals hold it, (4537.21 ÷ 3)."""
    if (table_sum * 100) % players == 0:
        ten_thousandths = table_sum * 100 // players
        sign = "−" if ten_thousandths < 0 else ""
        whole, part = divmod(abs(ten_thousandths), 10_000)
        digits = f"{part:04d}".rstrip("0").ljust(2, "0")
        return f"{sign}{whole}.{digits}"
    return f"{format_r(table_sum)} ÷ {players}"


# --- 段位: an optional ladder of ranks by R, a setting of the standings group -------------


class BadLadder(ValueError):
    """A ladder that cannot be read; the message says where."""


LADDER_STEP = re.compile(
    r"\s*(?P<name>[^\s,、，][^,、，]*?)\s+(?P<r>[0-9]{3,5}(?:\.[0-9]{1,2})?)\s*"
)


def parse_ladder(text: str) -> list[tuple[str, int]]:
    """The 段位 ladder as the organizer writes it: a rank's name and the R it starts at,
    separated by 「、」 or commas, lowest first: 「初段 1600、二段 1700、三段 1800」. Returns
    (name, R in hundredths), lowest first; empty for no ladder. Raises ``BadLadder``."""
    steps: list[tuple[str, int]] = []
    for part in re.split(r"[,、，\n]", text.strip()) if text.strip() else []:
        found = LADDER_STEP.fullmatch(part)
        if found is None:
            raise BadLadder(part.strip())
        whole, _dot, cents = found["r"].partition(".")
        r = int(whole) * 100 + int(cents.ljust(2, "0") or 0)
        if steps and r <= steps[-1][1]:
            raise BadLadder(part.strip())
        steps.append((found["name"], r))
    return steps


def rank_at(ladder: Sequence[tuple[str, int]], r: int) -> int:
    """How many steps of ``ladder`` an R of ``r`` (hundredths) has reached: 0 below the first."""
    reached = 0
    for _name, start in ladder:
        if r >= start:
            reached += 1
    return reached
