"""Benchmark of the table draw (a measurement, not a test); no database.

For each attendance, a chain of meets is drawn with ``scoring.draw.draw_tables``, each with
the history of the 4 meets before it (recency weights 4, 3, 2, 1); the first 4 are warm-up.
Each measured meet is compared with a random draw of the same layout against the same
history. Columns: the mean repeats within the meet (sum over pairs of C(meetings, 2)) of the
draw and of random draws, the lower bound (proven: 12 for 8 players and 9 for 12 players at
tables of four, see tests/scoring/test_draw.py; 0 where the draw reached it; ``?``
otherwise), the mean pair meetings with pairs of the previous meet and the mean weighted
history score (4, 3, 2, 1 per meeting with a pair of the previous 1st..4th meet), each for
the draw and for random draws, and the draw's mean and worst time.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from members.scopes import ClubCommand
from scoring.draw import (
    Mode,
    Round,
    draw_tables,
    history_from,
    meet_score,
    table_sizes,
)

PROVEN = {
    (8, Mode.THREE_PLAYER_TABLES): 12,
    (8, Mode.SIT_OUT): 12,
    (12, Mode.THREE_PLAYER_TABLES): 9,
    (12, Mode.SIT_OUT): 9,
}
# The least unevenness where an even split of the short seats needs more than the fewest
# repeats (tables of three; tests/scoring/test_draw_fairness.py: exhaustive for 7, 10, 11, the
# pigeonhole argument of scoring/draw.py for 13 and 14).
LEAST_UNEVEN = {
    (7, Mode.THREE_PLAYER_TABLES): 2,
    (10, Mode.THREE_PLAYER_TABLES): 2,
    (11, Mode.THREE_PLAYER_TABLES): 2,
    (13, Mode.THREE_PLAYER_TABLES): 2,
    (14, Mode.THREE_PLAYER_TABLES): 2,
}


def random_draw(
    players: Sequence[int], mode: Mode, rounds: int, rng: random.Random
) -> tuple[Round[int], ...]:
    sizes, _ = table_sizes(len(players), mode)
    out = []
    for _ in range(rounds):
        order = list(players)
        rng.shuffle(order)
        tables = []
        at = 0
        for size in sizes:
            tables.append(tuple(order[at : at + size]))
            at += size
        out.append(Round(tuple(tables), tuple(order[at:])))
    return tuple(out)


def met_before(rounds: Sequence[Round[int]], past: set[frozenset[int]]) -> int:
    return sum(
        1
        for rnd in rounds
        for t in rnd.tables
        for i, a in enumerate(t)
        for b in t[i + 1 :]
        if frozenset((a, b)) in past
    )


class Command(ClubCommand):
    help = "Compare the table draw with random draws for 8 to 40 players (no database)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--min", type=int, default=8)
        parser.add_argument("--max", type=int, default=40)
        parser.add_argument("--step", type=int, default=1)
        parser.add_argument("--seeds", type=int, default=100)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument(
            "--mode", choices=[m.value for m in Mode], default=Mode.THREE_PLAYER_TABLES.value
        )
        parser.add_argument(
            "--fairness",
            action="store_true",
            help="short-seat evenness per attendance instead (--seeds draws each, without and "
            "with history)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        mode = Mode(options["mode"])
        if options["fairness"]:
            self.fairness(mode, options)
            return
        rounds = options["rounds"]
        self.stdout.write(f"mode {mode.value}, {rounds} rounds, {options['seeds']} meets each")
        self.stdout.write(
            f"{'players':>7} {'tables':>14} {'rep draw':>8} {'random':>7} {'bound':>5} "
            f"{'prev1 draw':>10} {'random':>7} {'hist draw':>9} {'random':>7} "
            f"{'ms mean':>7} {'ms max':>7}"
        )
        for n in range(options["min"], options["max"] + 1, options["step"]):
            players = list(range(n))
            sizes, sit_out = table_sizes(n, mode)
            layout = "+".join(map(str, sizes)) + (f" ({sit_out} out)" if sit_out else "")
            rng = random.Random(n)
            past: list[tuple[Round[int], ...]] = []
            rep, rep_rnd, prev, prev_rnd, times = [], [], [], [], []
            hist, hist_rnd = [], []
            for meet in range(4 + options["seeds"]):
                history = history_from(past)
                start = time.perf_counter()
                draw = draw_tables(players, rounds=rounds, seed=meet, history=history, mode=mode)
                elapsed = time.perf_counter() - start
                if meet >= 4:
                    old = set(history_from(past[:1]).pairs)
                    other = random_draw(players, mode, rounds, rng)
                    rep.append(draw.score.repeats)
                    rep_rnd.append(meet_score(other).repeats)
                    prev.append(met_before(draw.rounds, old))
                    prev_rnd.append(met_before(other, old))
                    times.append(elapsed * 1000)
                    hist.append(draw.score.history)
                    hist_rnd.append(meet_score(other, history).history)
                past.insert(0, draw.rounds)
                del past[4:]
            bound = PROVEN.get((n, mode), 0 if min(rep) == 0 else None)
            self.stdout.write(
                f"{n:>7} {layout:>14} {statistics.mean(rep):>8.2f} {statistics.mean(rep_rnd):>7.2f} "
                f"{'?' if bound is None else bound:>5} {statistics.mean(prev):>10.1f} "
                f"{statistics.mean(prev_rnd):>7.1f} {statistics.mean(hist):>9.1f} "
                f"{statistics.mean(hist_rnd):>7.1f} "
                f"{statistics.mean(times):>7.1f} {max(times):>7.1f}"
            )

    def fairness(self, mode: Mode, options: dict[str, Any]) -> None:
        """Per attendance: the repeats and the short-seat unevenness (most short seats of a
        player minus fewest) of ``--seeds`` draws without history (seeds 0, 1, ...) and of a
        chain of ``--seeds`` meets each drawn with the history of the 4 before it (after 4
        warm-up meets). ``even``: 0 if the meet's short seats divide evenly among the players,
        else 1; ``least``: the least unevenness with the fewest repeats (``even`` unless
        ``LEAST_UNEVEN`` says more); ``above``: the draws more uneven than ``least``."""
        rounds = options["rounds"]
        seeds = options["seeds"]
        self.stdout.write(f"mode {mode.value}, {rounds} rounds, {seeds} draws each")
        self.stdout.write(
            f"{'players':>7} {'tables':>16} {'even':>4} {'least':>5} | {'rep':>5} {'max':>3} "
            f"{'unev':>4} {'above':>5} | {'rep':>5} {'max':>3} {'unev':>4} {'above':>5} | "
            f"{'ms max':>6}"
        )
        low = max(options["min"], 4 if mode is Mode.SIT_OUT else 3)
        for n in range(low, options["max"] + 1, options["step"]):
            players = list(range(n))
            sizes, sit_out = table_sizes(n, mode)
            layout = "+".join(map(str, sizes)) + (f" ({sit_out} out)" if sit_out else "")
            per_round = sum(s for s in sizes if s == 3) + sit_out
            even = 0 if (rounds * per_round) % n == 0 else 1
            least = LEAST_UNEVEN.get((n, mode), even)
            cols = []
            slowest = 0.0
            for with_history in (False, True):
                past: list[tuple[Round[int], ...]] = []
                rep, unev = [], []
                for meet in range(4 + seeds if with_history else seeds):
                    history = history_from(past) if with_history else None
                    start = time.perf_counter()
                    draw = draw_tables(
                        players, rounds=rounds, seed=meet, history=history, mode=mode
                    )
                    slowest = max(slowest, time.perf_counter() - start)
                    if not with_history or meet >= 4:
                        rep.append(draw.score.repeats)
                        unev.append(unevenness(draw.rounds, players))
                    past.insert(0, draw.rounds)
                    del past[4:]
                above = sum(1 for u in unev if u > least)
                cols.append(f"{statistics.mean(rep):>5.2f} {max(rep):>3} {max(unev):>4} {above:>5}")
            self.stdout.write(
                f"{n:>7} {layout:>16} {even:>4} {least:>5} | {cols[0]} | {cols[1]} | {slowest * 1000:>6.0f}"
            )


def unevenness(rounds: Sequence[Round[int]], players: Sequence[int]) -> int:
    """The most short seats (tables of three and sit-outs) of a player minus the fewest."""
    count = dict.fromkeys(players, 0)
    for rnd in rounds:
        for p in [p for t in rnd.tables if len(t) == 3 for p in t] + list(rnd.sitting_out):
            count[p] += 1
    return max(count.values()) - min(count.values())
