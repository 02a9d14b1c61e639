"""The table draw (卓組み): zero repeats where possible, proven minima elsewhere. No database."""

from collections import Counter
from itertools import combinations

import pytest

from scoring.draw import (
    Draw,
    History,
    Mode,
    Round,
    draw_tables,
    history_from,
    meet_score,
    redraw_tables,
    table_sizes,
)


def partitions(players: tuple[int, ...], size: int) -> list[tuple[frozenset[int], ...]]:
    """Every split of ``players`` into unordered tables of ``size`` (canonical: each table
    holds the smallest player not yet seated)."""
    if not players:
        return [()]
    first, rest = players[0], players[1:]
    out = []
    for others in combinations(rest, size - 1):
        table = frozenset((first, *others))
        remaining = tuple(p for p in rest if p not in table)
        out.extend((table, *tail) for tail in partitions(remaining, size))
    return out


def overlap(a: tuple[frozenset[int], ...], b: tuple[frozenset[int], ...]) -> int:
    """Pairs at one table in both rounds."""
    pairs = {frozenset(p) for t in a for p in combinations(sorted(t), 2)}
    return sum(1 for t in b for p in combinations(sorted(t), 2) if frozenset(p) in pairs)


def check(draw: Draw[int], players: list[int], mode: Mode) -> None:
    sizes, sit_out = table_sizes(len(players), mode)
    for rnd in draw.rounds:
        seated = [p for t in rnd.tables for p in t] + list(rnd.sitting_out)
        assert sorted(seated) == sorted(players)
        assert sorted(len(t) for t in rnd.tables) == sorted(sizes)
        assert len(rnd.sitting_out) == sit_out
    assert draw.score == meet_score(draw.rounds)  # no history given


@pytest.mark.parametrize(
    ("players", "size", "bound"),
    [(8, 4, 4), (12, 4, 3)],
)
def test_two_rounds_of_four_tables_share_pairs(players: int, size: int, bound: int) -> None:
    # Exhaustive: every second round shares at least `bound` pairs with the first (pigeonhole:
    # a table of four drawn from two or three tables holds two players of one).
    every = partitions(tuple(range(players)), size)
    assert len(every) == {8: 35, 12: 5775}[players]
    first = every[0]
    assert min(overlap(first, other) for other in every) == bound


@pytest.mark.parametrize(("players", "fewest"), [(8, 12), (12, 9)])
@pytest.mark.parametrize("mode", list(Mode))
def test_fewest_repeats_where_zero_is_impossible(players: int, fewest: int, mode: Mode) -> None:
    # Repeats are the pairs of rounds sharing a pair, so three pairs of rounds × the bound of
    # the test above (4 for 8 players, 3 for 12) is a lower bound; the draw reaches it.
    for seed in range(5):
        draw = draw_tables(list(range(players)), seed=seed, mode=mode)
        check(draw, list(range(players)), mode)
        assert draw.score.repeats == fewest


@pytest.mark.parametrize("players", [15, 16, 17, 18, 19, 20, 24, 28, 32, 40])
def test_zero_repeats_with_sit_outs(players: int) -> None:
    for seed in range(3):
        draw = draw_tables(list(range(players)), seed=seed, mode=Mode.SIT_OUT)
        check(draw, list(range(players)), Mode.SIT_OUT)
        assert draw.score.repeats == 0
        assert draw.score.extra_short == 0  # nobody sits out twice


@pytest.mark.parametrize("players", [9, 13, 14, 15, 16, 17, 20, 21, 24, 28, 40])
def test_zero_repeats_with_three_player_tables(players: int) -> None:
    for seed in range(3):
        draw = draw_tables(list(range(players)), seed=seed)
        check(draw, list(range(players)), Mode.THREE_PLAYER_TABLES)
        assert draw.score.repeats == 0


@pytest.mark.parametrize(
    ("players", "sizes", "sit_out"),
    [
        (3, (3,), 0),
        (4, (4,), 0),
        (5, (4,), 1),
        (6, (3, 3), 0),
        (7, (4, 3), 0),
        (9, (3, 3, 3), 0),
        (13, (4, 3, 3, 3), 0),
        (14, (4, 4, 3, 3), 0),
        (15, (4, 4, 4, 3), 0),
        (16, (4, 4, 4, 4), 0),
    ],
)
def test_three_player_table_sizes(players: int, sizes: tuple[int, ...], sit_out: int) -> None:
    assert table_sizes(players, Mode.THREE_PLAYER_TABLES) == (sizes, sit_out)
    draw = draw_tables(list(range(players)))
    check(draw, list(range(players)), Mode.THREE_PLAYER_TABLES)


def test_too_few_players_are_refused() -> None:
    with pytest.raises(ValueError):
        table_sizes(2, Mode.THREE_PLAYER_TABLES)
    with pytest.raises(ValueError):
        table_sizes(3, Mode.SIT_OUT)
    with pytest.raises(ValueError):
        draw_tables([1, 1, 2, 3])


def test_sit_out_sizes() -> None:
    assert table_sizes(13, Mode.SIT_OUT) == ((4, 4, 4), 1)
    assert table_sizes(23, Mode.SIT_OUT) == ((4,) * 5, 3)


@pytest.mark.parametrize("players", [13, 14, 15, 17, 18, 19, 21, 23, 31])
def test_nobody_sits_out_twice(players: int) -> None:
    draw = draw_tables(list(range(players)), mode=Mode.SIT_OUT)
    counts = Counter(p for rnd in draw.rounds for p in rnd.sitting_out)
    assert max(counts.values()) == 1


@pytest.mark.parametrize("players", [17, 21, 25, 29])
def test_three_player_tables_spread(players: int) -> None:
    # Nobody gets three short seats while someone gets none.
    draw = draw_tables(list(range(players)))
    counts = Counter(p for rnd in draw.rounds for t in rnd.tables if len(t) == 3 for p in t)
    assert max(counts.values()) - min(counts.get(p, 0) for p in range(players)) <= 1


def test_who_sat_out_last_time_does_not_again() -> None:
    players = list(range(19))  # 3 sit out each round, 9 a meet
    last = draw_tables(players, seed=1, mode=Mode.SIT_OUT)
    sat_out = {p for rnd in last.rounds for p in rnd.sitting_out}
    history = history_from([last.rounds])
    draw = draw_tables(players, seed=2, mode=Mode.SIT_OUT, history=history)
    now = {p for rnd in draw.rounds for p in rnd.sitting_out}
    assert len(sat_out) == len(now) == 9
    assert not sat_out & now
    assert draw.score.recent_short == 0


def test_recent_pairs_are_avoided() -> None:
    players = list(range(24))
    past: list[tuple[Round[int], ...]] = []
    for seed in range(2):
        past.insert(0, draw_tables(players, seed=seed, history=history_from(past)).rounds)
    history = history_from(past)
    assert history.pairs  # the two past meets left pairs
    draw = draw_tables(players, seed=7, history=history)
    assert draw.score.repeats == 0
    # 24 players met 2 × 3 × 36 = 216 times of 276 pairs: some must meet again; the pairs of
    # the last meet (weight 4) meet again less often than in an unweighted draw.
    plain = meet_score(draw_tables(players, seed=7).rounds, history)
    assert draw.score.history < plain.history
    last_meet = {frozenset(p) for rnd in past[0] for t in rnd.tables for p in combinations(t, 2)}

    def again(rounds: tuple[Round[int], ...]) -> int:
        met = {frozenset(p) for rnd in rounds for t in rnd.tables for p in combinations(t, 2)}
        return len(met & last_meet)

    assert again(draw.rounds) < again(draw_tables(players, seed=7).rounds)


def test_history_weights_recency() -> None:
    old = (Round(((1, 2, 3, 4),)),)
    new = (Round(((1, 5, 6, 7),), (2,)),)
    history = history_from([new, old])
    assert history.pairs[frozenset((1, 5))] == 4
    assert history.pairs[frozenset((1, 2))] == 3
    assert history.short == {2: 4}


def test_same_seed_same_draw_other_seed_other_draw() -> None:
    players = list(range(30))
    history = History(pairs={frozenset((1, 2)): 4}, short={3: 4})
    a = draw_tables(players, seed=5, history=history)
    assert a == draw_tables(players, seed=5, history=history)
    others = {draw_tables(players, seed=s, history=history).rounds for s in range(6, 11)}
    assert a.rounds not in others
    assert len(others) > 1


def test_forty_players_no_repeats_with_history() -> None:
    players = list(range(40))
    past: list[tuple[Round[int], ...]] = []
    for seed in range(4):
        past.insert(0, draw_tables(players, seed=seed, history=history_from(past)).rounds)
    draw = draw_tables(players, seed=9, history=history_from(past))
    check_score = meet_score(draw.rounds, history_from(past))
    assert draw.score == check_score
    assert draw.score.repeats == 0
    assert draw.score.extra_short == 0


@pytest.mark.parametrize(
    ("players", "mode"),
    [(n, Mode.SIT_OUT) for n in range(4, 15)]
    + [(n, Mode.THREE_PLAYER_TABLES) for n in (3, 4, 5, 6, 7, 8, 10, 11, 12)],
)
def test_attendances_without_a_zero_repeat_draw(players: int, mode: Mode) -> None:
    # The module docstring's pigeonhole arguments: these cannot reach zero, so neither can the
    # draw (a consistency check of the claim, not a proof).
    assert draw_tables(list(range(players)), mode=mode).score.repeats > 0


def test_redraw_keeps_the_earlier_rounds_and_avoids_their_pairs() -> None:
    # 16 present: round 1 played; a 17th arrives late and one leaves (16 again, another set).
    first = draw_tables(list(range(16)), seed=3)
    kept = first.rounds[:1]
    now = [p for p in range(17) if p != 0]
    redrawn = redraw_tables(now, kept, seed=4)
    assert redrawn.rounds[0] == kept[0]
    assert len(redrawn.rounds) == 3
    for rnd in redrawn.rounds[1:]:
        assert sorted(p for t in rnd.tables for p in t) == now
    assert redrawn.score.repeats == 0  # nobody meets a round-1 tablemate again
    assert redrawn.score == meet_score(redrawn.rounds)


def test_redraw_counts_the_kept_short_seats() -> None:
    # 19 players sit out in turn (3 a round); after round 1 one leaves (18: 2 a round). Who
    # sat out in round 1 does not sit out again, nor does anyone twice.
    for seed in range(5):
        kept = draw_tables(list(range(19)), seed=seed, mode=Mode.SIT_OUT).rounds[:1]
        now = [p for p in range(19) if p != kept[0].tables[0][0]]
        redrawn = redraw_tables(now, kept, seed=seed, mode=Mode.SIT_OUT)
        later = [p for rnd in redrawn.rounds[1:] for p in rnd.sitting_out]
        assert len(later) == 4
        assert len(set(later)) == 4
        assert not set(later) & set(kept[0].sitting_out)
        assert redrawn.score.repeats == 0
        assert redrawn.score.extra_short == 0


def test_redraw_is_reproducible_and_draw_tables_is_a_redraw_of_nothing() -> None:
    players = list(range(22))
    kept = draw_tables(players, seed=8).rounds[:1]
    history = History(pairs={frozenset((1, 2)): 4}, short={3: 4})
    a = redraw_tables(players[1:], kept, seed=5, history=history)
    assert a == redraw_tables(players[1:], kept, seed=5, history=history)
    assert a.rounds[1:] != redraw_tables(players[1:], kept, seed=6, history=history).rounds[1:]
    assert redraw_tables(players, (), seed=5) == draw_tables(players, seed=5)


def test_redraw_of_a_played_meet_changes_nothing() -> None:
    draw = draw_tables(list(range(12)), seed=2)
    assert redraw_tables(list(range(12)), draw.rounds, seed=9).rounds == draw.rounds
    with pytest.raises(ValueError):
        redraw_tables(list(range(12)), draw.rounds, rounds=2)
