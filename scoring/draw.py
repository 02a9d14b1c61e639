"""Pure table draw (卓組み) of a meet: who sits at which table in each round.

No Django import lives here, and no float in the score: every component is an integer, and
the same (players, rounds, seed, history, mode, effort) give the same draw on the same Python.

What the code follows:

- Table layout. ``THREE_PLAYER_TABLES``: as many tables of four as possible, the rest at
  tables of three (13 → 4+3+3+3, 14 → 4+4+3+3, 15 → 4+4+4+3, 9 → 3+3+3, 6 → 3+3). Below six
  players: 5 → one table of four and one player sits out, 4 → one table of four, 3 → one
  table of three; fewer than 3 is refused. ``SIT_OUT`` (抜け番): tables of four only, the
  remaining 1–3 players sit out; fewer than 4 is refused. The layout is the same in every
  round; players are reshuffled every round.
- A *short seat* is a seat at a three-player table or a sit-out. Both count alike for
  fairness.
- The draw minimises, lexicographically:

  1. ``repeats``: repeated meetings within the meet, the sum over pairs of C(c, 2) where c is
     the number of rounds the pair shares a table: a pair meeting twice counts 1, three times
     3 (the number of pairs of rounds it meets in). Without a triple meeting this is the number
     of pairs who meet more than once; the convex count spreads repeats rather than piling
     them on one pair.
  2. ``uneven``: the most short seats of a (present) player this meet minus the fewest. With
     S short seats a round, the 3S of a meet among n players split evenly (0) when n divides
     3S, else 1 at best; the draw reaches that wherever it goes with the fewest repeats
     (tests/scoring/test_draw_fairness.py, every attendance 6–40 in both modes). Where it does
     not, the least is 2: 7, 10 and 11 players at tables of three (exhaustive search, with 9,
     3 and 6 repeats, which are the fewest), and 13 and 14 (with zero repeats, see below).
  3. ``extra_short``: the sum over players of C(k, 2), k their short seats this meet: nobody
     gets two short seats in one meet if avoidable, and where some must (13 players at
     4+3+3+3 take 27 short seats), they are spread as evenly as possible.
  4. ``recent_short``: for each short seat, the player's recent short-seat weight
     (``History.short``): those who had them recently get them less.
  5. ``history``: for each meeting at a table, the pair's recent weight (``History.pairs``).

  The brief put recent pairs (5) before fairness (2–4). That order is deliberately not
  followed: a sit-out removes its player's pairs from the tables, so with pairs first the
  player with the most recent pairs (a regular) would sit out every round of every meet.
  With fairness first, who takes the short seats is decided by fairness, and among those
  draws the recent pairs are avoided.
- Redraw (``redraw_tables``): when the attendance changes during a meet (a late arrival,
  someone leaving), the rounds not yet started are drawn again for who is present, and the
  rounds already started stay as they were. Those count like drawn rounds: meeting a kept
  round's tablemate again is a repeat, and a kept short seat counts for fairness.
- Search: first the even search. Who takes the short seats is dealt first (``_even_shorts``:
  one seat at a time to the player with the fewest so far, then the fewest recent ones; each
  round in turn, so nobody gets two in a round), and the moves keep every player's number of
  short seats (a swap within short or within full groups, or two players trading a short seat
  in one round and back in another). Only if that leaves a repeat does the free search run
  too (any move, from twice as many random seatings, each walk three times as long), and the
  better draw is kept. Both are a seeded local search over the whole meet jointly. A move
  swaps two players of one round between two groups (tables or the sit-out group); its change
  of score is computed from the pairs it touches. Moves that do not worsen the score are taken
  (plateau walks), a worsening one now and then (a fixed small probability), and the best draw
  seen is kept. Several restarts; the search stops early at a zero score (no repeat, the least
  unevenness, no other cost).

Which attendances can reach zero repeats within 3 rounds (checked in tests/scoring/test_draw.py):
a table of k players in round 2 or 3 must take its k players from k different groups of
round 1 (a sit-out player is a group of one), else two of them met in round 1.

- ``SIT_OUT``: 4–11 players cannot (one to two tables of four: a round-2 table draws four
  players from at most 2 tables + 3 sit-outs, and two tables need eight). 12 cannot (three
  tables: four players from three tables, pigeonhole). 13 and 14 cannot (three tables of four
  in round 2 each need a round-1 sit-out, and there are only one or two). 15 and 16 or more
  can (16 = the 4 × 4 grid: rows, columns, one diagonal class of the affine plane of order 4;
  20, 24, 28, … by search; the social golfer problem g-4-3 is solvable for every g ≥ 4).
- ``THREE_PLAYER_TABLES``: 3, 4 and 5 cannot (one table meets itself every round); 6, 7, 8
  cannot (two tables), 10, 11, 12 cannot (a table of four
  needs four round-1 tables, there are three); 9 (3+3+3) can (the affine plane of order 3:
  rows, columns, diagonals); 13 or more (four tables or more) can.

The fewest repeats where zero is impossible, found by exhaustive search (tests): 8 players
(two tables of four) need 12, 12 players (three tables of four) need 9; at tables of three 6
need 6, 7 need 9, 10 need 3 and 11 need 6 (tests/scoring/test_draw_fairness.py).

Short seats with zero repeats at 13 and 14 players (tables of three) cannot be even. 13
(4+3+3+3): round 2's table of four takes one player from each round-1 group, so one player a
of round 1's table of four sits at a table of four again; round 3's takes one player of each
earlier table of four. If that is a, a has no short seat and the 9 other long seats leave 3
players with three; else two more players have two long seats, and the 12 long seats leave 4
players with none: 1 to 3 short seats, unevenness 2 (reached). 14 (4+4+3+3): round 2's two
tables of four each take one player of each round-1 group, so 4 of round 1's 8 long seats sit
long again and 2 players are short in both rounds; round 3's tables of four take 4 players
from round 1's and 4 from round 2's long seats. Evenness (1 or 2 short seats) needs both of
those 2 at round 3's tables of four and none of the 4 who were long twice, so all 8 of round
3's long seats would go to the 8 players long exactly once, with no room for the 2: someone
has 0 or 3, unevenness 2 (reached).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

DEFAULT_ROUNDS = 3
RECENCY_WEIGHTS = (4, 3, 2, 1)
"""Weights of the previous meets, most recent first (the previous meet weighs most)."""


class Mode(StrEnum):
    THREE_PLAYER_TABLES = "three_player_tables"  # the rest play at tables of three
    SIT_OUT = "sit_out"  # 抜け番: tables of four only, the rest sit out


@dataclass(frozen=True)
class History[P: Hashable]:
    """What recent meets left: a weight per pair who met, a weight per player's short seats."""

    pairs: Mapping[frozenset[P], int] = field(default_factory=dict)
    short: Mapping[P, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Round[P: Hashable]:
    """One round: the tables (unordered players; seats are drawn at the table) and sit-outs."""

    tables: tuple[tuple[P, ...], ...]
    sitting_out: tuple[P, ...] = ()


@dataclass(frozen=True, order=True)
class Score:
    """The components the draw minimises, in their order of priority."""

    repeats: int
    uneven: int
    extra_short: int
    recent_short: int
    history: int


@dataclass(frozen=True)
class Draw[P: Hashable]:
    rounds: tuple[Round[P], ...]
    score: Score


def table_sizes(players: int, mode: Mode) -> tuple[tuple[int, ...], int]:
    """The table sizes (fours first) and the number of sit-outs for an attendance."""
    if mode is Mode.SIT_OUT:
        if players < 4:
            raise ValueError(f"{players} players cannot fill a table of four")
        return (4,) * (players // 4), players % 4
    if players < 3:
        raise ValueError(f"{players} players cannot fill a table")
    if players == 5:
        return (4,), 1
    threes = (-players) % 4
    return (4,) * ((players - 3 * threes) // 4) + (3,) * threes, 0


def history_from[P: Hashable](
    past: Sequence[Sequence[Round[P]]], weights: Sequence[int] = RECENCY_WEIGHTS
) -> History[P]:
    """The history of past meets (most recent first): each meet weighs its recency weight per
    meeting of a pair and per short seat; meets beyond ``weights`` are forgotten."""
    pairs: dict[frozenset[P], int] = {}
    short: dict[P, int] = {}
    for meet, weight in zip(past, weights, strict=False):
        for rnd in meet:
            for table in rnd.tables:
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        key = frozenset((a, b))
                        pairs[key] = pairs.get(key, 0) + weight
                if len(table) == 3:
                    for a in table:
                        short[a] = short.get(a, 0) + weight
            for a in rnd.sitting_out:
                short[a] = short.get(a, 0) + weight
    return History(pairs, short)


def meet_score[P: Hashable](rounds: Sequence[Round[P]], history: History[P] | None = None) -> Score:
    """The score of given rounds (for draws made elsewhere, e.g. by hand or at random)."""
    history = history or History()
    met: dict[frozenset[P], int] = {}
    shorts: dict[P, int] = {}
    hist = recent = 0
    for rnd in rounds:
        for table in rnd.tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    key = frozenset((a, b))
                    met[key] = met.get(key, 0) + 1
                    hist += history.pairs.get(key, 0)
        short_players = [p for t in rnd.tables if len(t) == 3 for p in t] + list(rnd.sitting_out)
        for p in short_players:
            shorts[p] = shorts.get(p, 0) + 1
            recent += history.short.get(p, 0)
    present = (
        [p for t in rounds[-1].tables for p in t] + list(rounds[-1].sitting_out) if rounds else []
    )
    return Score(
        repeats=sum(c * (c - 1) // 2 for c in met.values()),
        uneven=_spread([shorts.get(p, 0) for p in present]),
        extra_short=sum(c * (c - 1) // 2 for c in shorts.values()),
        recent_short=recent,
        history=hist,
    )


def draw_tables[P: Hashable](
    players: Sequence[P],
    *,
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 0,
    history: History[P] | None = None,
    mode: Mode = Mode.THREE_PLAYER_TABLES,
    effort: int = 1,
) -> Draw[P]:
    """Draw the tables of a meet. ``effort`` multiplies the search budget."""
    return redraw_tables(
        players, (), rounds=rounds, seed=seed, history=history, mode=mode, effort=effort
    )


def redraw_tables[P: Hashable](
    players: Sequence[P],
    kept: Sequence[Round[P]],
    *,
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 0,
    history: History[P] | None = None,
    mode: Mode = Mode.THREE_PLAYER_TABLES,
    effort: int = 1,
) -> Draw[P]:
    """Draw rounds ``len(kept) + 1`` to ``rounds`` for ``players`` (the attendance now),
    keeping the rounds already started or played (``kept``) as they were.

    The kept rounds count as this meet's rounds: a pair who met there and meets again is a
    repeat, and a short seat there counts towards the player's short seats of the meet. Who
    is in ``kept`` but not in ``players`` has left (their pairs no longer matter); who is in
    ``players`` but not in ``kept`` came late (the rounds they missed are not short seats).
    The returned draw holds every round, the kept ones first, and its score is the whole
    meet's. With no kept rounds this is ``draw_tables``: the same seed gives the same draw.
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if rounds < 1:
        raise ValueError("a meet has at least one round")
    if len(kept) > rounds:
        raise ValueError("more rounds kept than the meet has")
    history = history or History()
    kept = tuple(kept)
    n = len(players)
    if len(kept) == rounds:
        return Draw(kept, meet_score(kept, history))
    sizes, sit_out = table_sizes(n, mode)
    index = {p: i for i, p in enumerate(players)}
    # Groups of a round: the tables, then the sit-out group (not a table) if any.
    group_size = list(sizes) + ([sit_out] if sit_out else [])
    is_table = [True] * len(sizes) + ([False] if sit_out else [])
    is_short = [s == 3 for s in sizes] + ([True] if sit_out else [])
    n_groups = len(group_size)

    w = [0] * (n * n)
    for pair, weight in history.pairs.items():
        if len(pair) == 2:
            a, b = (index.get(p) for p in pair)
            if a is not None and b is not None:
                w[a * n + b] = w[b * n + a] = weight
    sw = [history.short.get(p, 0) for p in players]
    # What the kept rounds left: meetings of present pairs and short seats of present players.
    base_cnt = [0] * (n * n)
    base_shorts = [0] * n
    for rnd in kept:
        for table in rnd.tables:
            seated = [index[p] for p in table if p in index]
            for i, a in enumerate(seated):
                for b in seated[i + 1 :]:
                    base_cnt[a * n + b] += 1
                    base_cnt[b * n + a] += 1
            if len(table) == 3:
                for a in seated:
                    base_shorts[a] += 1
        for p in rnd.sitting_out:
            if p in index:
                base_shorts[index[p]] += 1
    to_draw = rounds - len(kept)

    pairs_per_round = sum(s * (s - 1) // 2 for s in sizes)
    shorts_per_round = sum(s for s, short in zip(group_size, is_short, strict=True) if short)
    m3 = rounds * pairs_per_round * max(w, default=0) + 1
    m2 = m3 * (rounds * shorts_per_round * max(sw, default=0) + 1)
    mu = m2 * (n * rounds * rounds + 1)
    m1 = mu * (rounds + 1)
    # The fewest possible unevenness (``_even_shorts`` reaches it); the search counts the
    # excess over it, so that a draw without a repeat and with even short seats scores 0.
    take = _short_counts(n, to_draw, shorts_per_round, base_shorts, sw, list(range(n)))
    least = _spread([b + t for b, t in zip(base_shorts, take, strict=True)])

    rng = random.Random(seed)
    budget = effort * max(2_000, 40 * n * rounds)
    restarts = 4
    args = (n, to_draw, group_size, is_table, is_short, n_groups, w, sw, (m1, mu, m2, m3), least)
    # First the even search: who takes the short seats starts from ``_even_shorts`` (the most
    # even counts, the fewest recent short seats), and only moves that keep every player's
    # count are tried. Only if it leaves a repeat is the free search (any move, from random
    # seatings, twice the restarts, each walk three times as long) tried too, and the better
    # draw of both is kept: the fewest repeats come first, then evenness. Where zero repeats
    # need uneven short seats (7, 10, 11, 13, 14 players at tables of three) the free search
    # finds the least uneven of them.
    best: tuple[int, list[list[list[int]]]] | None = None
    for phase in ("even", "free"):
        even = phase == "even"
        for _ in range(restarts if even else 2 * restarts):
            start = (
                _even_shorts(n, to_draw, shorts_per_round, base_shorts, sw, rng) if even else None
            )
            found = _search(
                *args,
                rng,
                budget if even else 3 * budget,
                (base_cnt, base_shorts),
                start,
                keep=even,
            )
            if best is None or found[0] < best[0]:
                best = found
            if best[0] == 0:
                break
        if best is not None and best[0] < m1:
            break  # no repeat: the even short seats are the fairest possible
    assert best is not None
    result: list[Round[P]] = list(kept)
    for groups in best[1]:
        tables = [
            tuple(players[i] for i in sorted(g))
            for g, table in zip(groups, is_table, strict=True)
            if table
        ]
        tables.sort(key=lambda t: (-len(t), index[t[0]]))
        out = [
            tuple(players[i] for i in sorted(g))
            for g, t in zip(groups, is_table, strict=True)
            if not t
        ]
        result.append(Round(tuple(tables), out[0] if out else ()))
    return Draw(tuple(result), meet_score(result, history))


def _spread(counts: Sequence[int]) -> int:
    """The most short seats of a player minus the fewest."""
    return max(counts) - min(counts) if counts else 0


def _short_counts(
    n: int, rounds: int, per_round: int, base: list[int], sw: list[int], tie: list[int]
) -> list[int]:
    """How many of the ``rounds * per_round`` short seats each player takes: one at a time,
    each to the player with the fewest short seats so far in the meet (``base``: those of the
    kept rounds), among them the one with the fewest recent short seats (``sw``), then by
    ``tie``; at most one a round. This minimises the sum of C(k, 2), the spread (most minus
    fewest) and then the recent weight (greedy is optimal: each player's cost of one more
    seat only grows)."""
    take = [0] * n
    for _ in range(rounds * per_round):
        p = min(
            (q for q in range(n) if take[q] < rounds),
            key=lambda q: (base[q] + take[q], sw[q], tie[q]),
        )
        take[p] += 1
    return take


def _even_shorts(
    n: int,
    rounds: int,
    per_round: int,
    base: list[int],
    sw: list[int],
    rng: random.Random,
) -> list[list[int]]:
    """Who takes the short seats in each drawn round, as evenly as possible (the counts of
    ``_short_counts``, seeded ties): the players are dealt to the rounds in turn, those with
    the most seats first, so nobody gets two in a round."""
    tie = list(range(n))
    rng.shuffle(tie)
    take = _short_counts(n, rounds, per_round, base, sw, tie)
    order = sorted(range(n), key=lambda q: (-take[q], tie[q]))
    sequence = [p for p in order for _ in range(take[p])]
    return [sequence[r::rounds] for r in range(rounds)]


def _search(
    n: int,
    rounds: int,
    group_size: list[int],
    is_table: list[bool],
    is_short: list[bool],
    n_groups: int,
    w: list[int],
    sw: list[int],
    mults: tuple[int, int, int, int],
    least: int,
    rng: random.Random,
    budget: int,
    base: tuple[list[int], list[int]],
    start: list[list[int]] | None = None,
    *,
    keep: bool = False,
) -> tuple[int, list[list[list[int]]]]:
    """One restart: a random seating, then ``budget`` proposed swaps. Returns the best
    combined score seen (beyond what the kept rounds, ``base``, cost already) and its groups
    (per round, per group, player indices).

    With ``fixed`` (per round, who takes its short seats) the seating starts from it and every
    move keeps each player's number of short seats: a swap within short or within full groups,
    or two swaps at once (x and y trade a short seat in one round and trade it back in another).
    """
    m1, mu, m2, m3 = mults
    groups: list[list[list[int]]] = []
    where: list[list[int]] = []  # where[r][p] = group of p in round r
    for r in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        if start is not None:
            short_now = set(start[r])
            pools = ([p for p in order if p not in short_now], [p for p in order if p in short_now])
        rgroups = []
        at = 0
        for size, short in zip(group_size, is_short, strict=True):
            if start is not None:
                pool = pools[short]
                rgroups.append(pool[:size])
                del pool[:size]
            else:
                rgroups.append(order[at : at + size])
                at += size
        groups.append(rgroups)
        loc = [0] * n
        for g, members in enumerate(rgroups):
            for p in members:
                loc[p] = g
        where.append(loc)
    cnt = list(base[0])
    shorts = list(base[1])
    total = 0
    for r in range(rounds):
        for g in range(n_groups):
            members = groups[r][g]
            if is_table[g]:
                for i, a in enumerate(members):
                    for b in members[i + 1 :]:
                        c = cnt[a * n + b]
                        total += c * m1
                        total += w[a * n + b]
                        cnt[a * n + b] = cnt[b * n + a] = c + 1
            if is_short[g]:
                for p in members:
                    total += shorts[p] * m2
                    shorts[p] += 1
                    total += m3 * sw[p]
    # How many players have k short seats: the spread (most minus fewest) follows from it.
    hist = [0] * (rounds + max(shorts, default=0) + 2)
    for k in shorts:
        hist[k] += 1

    def spread() -> int:
        lo = 0
        while lo < len(hist) - 1 and not hist[lo]:
            lo += 1
        hi = len(hist) - 1
        while hi > lo and not hist[hi]:
            hi -= 1
        return hi - lo

    total += (spread() - least) * mu
    best = total
    best_groups = [[list(g) for g in rg] for rg in groups]

    def table_delta(r: int, x: int, y: int) -> int:
        """The change of the pair terms if x and y swap groups in round r."""
        g1 = where[r][x]
        g2 = where[r][y]
        delta = 0
        xn = x * n
        yn = y * n
        if is_table[g1]:
            for a in groups[r][g1]:
                if a != x:
                    delta += (cnt[yn + a] - cnt[xn + a] + 1) * m1
                    delta += w[yn + a] - w[xn + a]
        if is_table[g2]:
            for b in groups[r][g2]:
                if b != y:
                    delta += (cnt[xn + b] - cnt[yn + b] + 1) * m1
                    delta += w[xn + b] - w[yn + b]
        return delta

    def swap(r: int, x: int, y: int) -> None:
        loc = where[r]
        g1 = loc[x]
        g2 = loc[y]
        xn = x * n
        yn = y * n
        if is_table[g1]:
            for a in groups[r][g1]:
                if a != x:
                    cnt[xn + a] -= 1
                    cnt[a * n + x] -= 1
                    cnt[yn + a] += 1
                    cnt[a * n + y] += 1
        if is_table[g2]:
            for b in groups[r][g2]:
                if b != y:
                    cnt[yn + b] -= 1
                    cnt[b * n + y] -= 1
                    cnt[xn + b] += 1
                    cnt[b * n + x] += 1
        if is_short[g1] != is_short[g2]:
            out, into = (x, y) if is_short[g1] else (y, x)
            hist[shorts[out]] -= 1
            hist[shorts[into]] -= 1
            shorts[out] -= 1
            shorts[into] += 1
            hist[shorts[out]] += 1
            hist[shorts[into]] += 1
        m = groups[r][g1]
        m[m.index(x)] = y
        m = groups[r][g2]
        m[m.index(y)] = x
        loc[x] = g2
        loc[y] = g1

    randrange = rng.randrange
    rand = rng.random
    for _ in range(budget):
        if best == 0:
            break
        r = randrange(rounds)
        x = randrange(n)
        y = randrange(n)
        g1 = where[r][x]
        g2 = where[r][y]
        if g1 == g2:
            continue
        s1 = is_short[g1]
        delta = table_delta(r, x, y)
        other = -1
        if s1 != is_short[g2]:
            if not keep:
                out, into = (x, y) if s1 else (y, x)
                delta += (shorts[into] - shorts[out] + 1) * m2
                delta += m3 * (sw[into] - sw[out])
                before = spread()
                hist[shorts[out]] -= 1
                hist[shorts[into]] -= 1
                hist[shorts[out] - 1] += 1
                hist[shorts[into] + 1] += 1
                delta += (spread() - before) * mu
                hist[shorts[out] - 1] -= 1
                hist[shorts[into] + 1] -= 1
                hist[shorts[out]] += 1
                hist[shorts[into]] += 1
            else:
                # x and y trade back in a round where their seats are the other way round.
                back = [
                    q
                    for q in range(rounds)
                    if is_short[where[q][x]] != s1 and is_short[where[q][y]] == s1
                ]
                if not back:
                    continue
                other = back[randrange(len(back))]
                swap(r, x, y)
                delta += table_delta(other, x, y)
        if delta > 0 and rand() >= 0.002:
            if other >= 0:
                swap(r, x, y)  # undo the first half
            continue
        if other >= 0:
            swap(other, x, y)
        else:
            swap(r, x, y)
        total += delta
        if total < best:
            best = total
            best_groups = [[list(g) for g in rg] for rg in groups]
    return best, best_groups
