"""The rating's arithmetic (scoring/rating.py), with figures worked by hand."""

import random

import pytest

from scoring.rating import (
    START,
    BadLadder,
    Standing,
    average_text,
    change_for,
    correction,
    format_change,
    format_r,
    parse_ladder,
    rank_at,
    rate,
    rate_game,
    rate_quickly,
    round_half_away,
    shared_rank_points,
)

# Game 1 (4 players, all new): A 1st, B 2nd, C 3rd, D 4th.
GAME1 = (4, [("A", 1), ("B", 2), ("C", 3), ("D", 4)])
# Game 2: A and B tie for 1st, C 3rd, E (new) 4th.
GAME2 = (4, [("A", 1), ("B", 1), ("C", 3), ("E", 4)])
# Game 1 edited afterwards: the order turned round.
GAME1_EDITED = (4, [("A", 4), ("B", 3), ("C", 2), ("D", 1)])


def rs(ratings):
    return {player: standing.r for player, standing in ratings.items()}


def test_the_issues_example_line():
    change = change_for(150_000, 4 * 151_240, 4, 30, 1, 1)
    assert change.change == 3025  # 30.31 × 0.998 = 30.24938 → +30.25
    assert change.arithmetic() == "(+30 + (1512.40 − 1500.00) ÷ 40) × 0.998 = +30.25"


def test_correction_falls_from_one_to_a_fifth():
    assert [correction(n) for n in (0, 1, 2, 399, 400, 401, 1000)] == [
        1000,
        998,
        996,
        202,
        200,
        200,
        200,
    ]


def test_ties_share_whole_rank_points():
    assert shared_rank_points(4, [1, 1, 3, 4]) == [(40, 2), (40, 2), (-10, 1), (-30, 1)]
    assert shared_rank_points(4, [1, 2, 2, 2]) == [(30, 1), (-30, 3), (-30, 3), (-30, 3)]
    assert shared_rank_points(3, [1, 1, 3]) == [(30, 2), (30, 2), (-30, 1)]
    assert shared_rank_points(4, [1, 1, 1, 1]) == [(0, 4)] * 4
    # Every tie at either table shares a whole number (the lead's note; rules.py agrees).
    for players in (3, 4):
        for place in range(1, players + 1):
            for tied in range(1, players - place + 2):
                places = [place] * tied
                (total, by), *_ = shared_rank_points(players, places)
                assert total % by == 0


def test_rounding_is_half_away_from_zero():
    assert [round_half_away(n, 2) for n in (1, 3, -1, -3, 0)] == [1, 2, -1, -2, 0]
    assert round_half_away(30_249_38, 100_000) == 30
    assert round_half_away(-5, 10) == -1


def test_a_first_game_moves_by_the_rank_points():
    ratings = rate([GAME1])
    assert rs(ratings) == {"A": 153_000, "B": 151_000, "C": 149_000, "D": 147_000}
    assert all(s.games == 1 for s in ratings.values())


def test_a_second_game_with_a_tie_and_a_newcomer():
    """Table before: 1530 + 1510 + 1490 + 1500 = 6030, average 1507.50.
    A: (20 + (1507.50 − 1530.00) ÷ 40) × 0.998 = 19.4375 × 0.998 = 19.398625 → +19.40
    B: (20 + (1507.50 − 1510.00) ÷ 40) × 0.998 = 19.9375 × 0.998 = 19.897625 → +19.90
    C: (−10 + (1507.50 − 1490.00) ÷ 40) × 0.998 = −9.5625 × 0.998 = −9.543375 → −9.54
    E: (−30 + (1507.50 − 1500.00) ÷ 40) × 1 = −29.8125 → −29.81"""
    ratings = rate([GAME1])
    changes = dict(rate_game(ratings, *GAME2))
    assert {p: c.change for p, c in changes.items()} == {
        "A": 1940,
        "B": 1990,
        "C": -954,
        "E": -2981,
    }
    assert rs(ratings) == {
        "A": 154_940,
        "B": 152_990,
        "C": 148_046,
        "D": 147_000,
        "E": 147_019,
    }
    assert changes["A"].arithmetic() == "(+20 + (1507.50 − 1530.00) ÷ 40) × 0.998 = +19.40"
    assert changes["E"].arithmetic() == "(−30 + (1507.50 − 1500.00) ÷ 40) × 1.000 = −29.81"
    assert ratings["A"].games == 2 and ratings["E"].games == 1


def test_three_player_games_with_a_tie():
    """Rated apart from the 4-player games: everyone starts at 1500 again.
    Game 1: A 1st +30; D and E tie for 2nd–3rd: (0 − 30) ÷ 2 = −15 each.
    Game 2: D 1st, A 2nd, E 3rd; table 1530 + 1485 + 1485 = 4500, average 1500.
    D: (30 + (1500 − 1485) ÷ 40) × 0.998 = 30.375 × 0.998 = 30.31425 → +30.31
    A: (0 + (1500 − 1530) ÷ 40) × 0.998 = −0.75 × 0.998 = −0.7485 → −0.75
    E: (−30 + (1500 − 1485) ÷ 40) × 0.998 = −29.625 × 0.998 = −29.56575 → −29.57"""
    ratings = rate([(3, [("A", 1), ("D", 2), ("E", 2)])])
    assert rs(ratings) == {"A": 153_000, "D": 148_500, "E": 148_500}
    changes = dict(rate_game(ratings, 3, [("D", 1), ("A", 2), ("E", 3)]))
    assert rs(ratings) == {"A": 152_925, "D": 151_531, "E": 145_543}
    assert changes["A"].arithmetic() == "(0 + (1500.00 − 1530.00) ÷ 40) × 0.998 = −0.75"


def test_an_old_game_edited_rerates_what_follows():
    """Game 1 turned round: A 1470, B 1490, C 1510, D 1530; then game 2 as before.
    Table: 1470 + 1490 + 1510 + 1500 = 5970, average 1492.50.
    A: (20 + 22.50 ÷ 40) × 0.998 = 20.5625 × 0.998 = 20.521375 → +20.52 → 1490.52
    B: (20 + 2.50 ÷ 40) × 0.998 = 20.0625 × 0.998 = 20.022375 → +20.02 → 1510.02
    C: (−10 − 17.50 ÷ 40) × 0.998 = −10.4375 × 0.998 = −10.416625 → −10.42 → 1499.58
    E: (−30 − 7.50 ÷ 40) × 1 = −30.1875 → −30.19 → 1469.81"""
    assert rs(rate([GAME1_EDITED, GAME2])) == {
        "A": 149_052,
        "B": 151_002,
        "C": 149_958,
        "D": 153_000,
        "E": 146_981,
    }


def test_the_sum_of_changes_is_near_zero_at_a_new_table():
    """At a table of newcomers the changes cancel: the rank points sum to 0, so do the gaps."""
    ratings = {p: Standing() for p in "ABCD"}
    changes = rate_game(ratings, 4, [("A", 1), ("B", 2), ("C", 3), ("D", 4)])
    assert sum(c.change for _p, c in changes) == 0
    assert START == 150_000


@pytest.mark.parametrize(
    ("hundredths", "r", "change"),
    [
        (152_347, "1523.47", "+1523.47"),
        (5, "0.05", "+0.05"),
        (0, "0.00", "±0.00"),
        (-1203, "−12.03", "−12.03"),
    ],
)
def test_formats(hundredths, r, change):
    assert format_r(hundredths) == r
    assert format_change(hundredths) == change


def test_the_average_is_written_exactly():
    assert average_text(604_960, 4) == "1512.40"
    assert average_text(604_961, 4) == "1512.4025"
    assert average_text(597_870, 4) == "1494.675"
    assert average_text(450_000, 3) == "1500.00"
    assert average_text(453_721, 3) == "4537.21 ÷ 3"


def test_the_quick_path_agrees_with_the_worked_one():
    """rate_quickly (the federation's path) gives what rate_game gives, game by game, over
    5,000 random games with ties, at 3 and 4 players, past the correction's floor."""
    rng = random.Random(29)
    worked: dict[int, Standing] = {}
    quick: dict[int, Standing] = {}
    for _ in range(5_000):
        players = rng.choice((3, 4))
        members = rng.sample(range(12), players)
        scores = [rng.choice((10, 20, 20, 30, 40)) for _ in members]
        places = tuple(1 + sum(other > mine for other in scores) for mine in scores)
        rate_game(worked, players, list(zip(members, places, strict=True)))
        rate_quickly(quick, players, members, places)
        assert rs(worked) == rs(quick)
    assert max(s.games for s in quick.values()) > 400


def test_a_ladder_is_read_lowest_first():
    assert parse_ladder("初段 1600、二段 1700、三段 1800.5") == [
        ("初段", 160_000),
        ("二段", 170_000),
        ("三段", 180_050),
    ]
    assert parse_ladder("  ") == []
    assert parse_ladder("1級 1500, 初段 1600") == [("1級", 150_000), ("初段", 160_000)]
    for wrong in ("初段", "初段 1600、二段 1550", "初段 1600、二段 1600", "初段 16OO"):
        with pytest.raises(BadLadder):
            parse_ladder(wrong)


def test_the_steps_an_r_has_reached():
    ladder = parse_ladder("初段 1600、二段 1700")
    assert [rank_at(ladder, r) for r in (159_999, 160_000, 169_999, 170_000, 250_000)] == [
        0,
        1,
        1,
        2,
        2,
    ]
