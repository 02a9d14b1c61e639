"""Settlement arithmetic, checked against figures worked by hand. No database."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import rules
from scoring.rules import (
    InvalidGame,
    RuleParams,
    SeatScore,
    SplitRounding,
    TieBreak,
    TotalPolicy,
    settle,
)

D = Decimal
CLUB = RuleParams()  # 30,000 / 30,000, +30/+10/−10/−30, split ties, −10 P per chombo
JKMA = RuleParams(  # 日本健康麻将協会: 25,000 start, rank points ±12,000 / ±4,000
    start_points=25_000,
    return_points=25_000,
    rank_points=(D(12), D(4), D(-4), D(-12)),
    tie_break=TieBreak.SEAT,
    chombo_penalty=D(0),
    total_policy=TotalPolicy.EXCESS_OFF_TOP,
    holds_deposits=False,
)
PARLOR3 = RuleParams(  # 3-player, 30,000 start / 34,000 return, +20/0/−20, seat ties
    players=3,
    start_points=30_000,
    return_points=34_000,
    rank_points=(D(20), D(0), D(-20)),
    tie_break=TieBreak.SEAT,
    chombo_penalty=D(0),
    floor_at_zero=True,
)
KANTAN = RuleParams(
    start_points=25_000,
    return_points=25_000,
    rank_points=(D(0),) * 4,
    tie_break=TieBreak.SEAT,
    chombo_penalty=D(0),
    total_policy=TotalPolicy.SHORT_ALLOWED,
    scores_count=False,
    single_top=True,
)


def game(*scores: int, chombo: dict[int, int] | None = None) -> list[SeatScore]:
    chombo = chombo or {}
    return [SeatScore(seat=i, score=s, chombo=chombo.get(i, 0)) for i, s in enumerate(scores)]


def totals(settlement) -> list[Decimal]:
    return [r.total for r in settlement.results]


def places(settlement) -> list[int]:
    return [r.place for r in settlement.results]


class TestClubRule:
    def test_the_worked_table_in_domain_md(self):
        """東 32,600 (1 chombo) / 南 30,000 / 西 30,000 / 北 27,400.

        東 +2.6 +30 −10 = +22.6; 南, 西 tie for 2nd: 0.0 + (10 − 10)/2 = 0.0; 北 −2.6 −30 = −32.6.
        """
        s = settle(CLUB, game(32_600, 30_000, 30_000, 27_400, chombo={0: 1}))
        assert totals(s) == [D("22.6"), D("0.0"), D("0.0"), D("-32.6")]
        assert places(s) == [1, 2, 2, 4]
        east = s.results[0]
        assert (east.score_points, east.uma, east.chombo_points) == (D("2.6"), D(30), D(-10))
        assert s.total_points == D("-10.0")

    def test_conversion_examples(self):
        """32,600 → +2.6; 27,400 → −2.6; −3,200 → −33.2 (score points only)."""
        s = settle(CLUB, game(32_600, 27_400, 63_200, -3_200))
        assert [r.score_points for r in s.results] == [D("2.6"), D("-2.6"), D("33.2"), D("-33.2")]

    def test_no_ties(self):
        """45,000 / 35,000 / 25,000 / 15,000: +15+30, +5+10, −5−10, −15−30."""
        s = settle(CLUB, game(25_000, 45_000, 15_000, 35_000))
        assert totals(s) == [D(-15), D(45), D(-45), D(15)]
        assert places(s) == [3, 1, 4, 2]

    @pytest.mark.parametrize(
        ("scores", "expected_uma", "expected_places"),
        [
            # two tied for 1st: (30 + 10) / 2 = 20 each
            ((40_000, 40_000, 25_000, 15_000), [20, 20, -10, -30], [1, 1, 3, 4]),
            # two tied for 2nd: (10 − 10) / 2 = 0 each
            ((40_000, 30_000, 30_000, 20_000), [30, 0, 0, -30], [1, 2, 2, 4]),
            # two tied for 3rd: (−10 − 30) / 2 = −20 each
            ((50_000, 30_000, 20_000, 20_000), [30, 10, -20, -20], [1, 2, 3, 3]),
            # three tied for 1st: (30 + 10 − 10) / 3 = 10 each
            ((35_000, 35_000, 35_000, 15_000), [10, 10, 10, -30], [1, 1, 1, 4]),
            # three tied for 2nd: (10 − 10 − 30) / 3 = −10 each
            ((45_000, 25_000, 25_000, 25_000), [30, -10, -10, -10], [1, 2, 2, 2]),
            # four tied: (30 + 10 − 10 − 30) / 4 = 0 each
            ((30_000, 30_000, 30_000, 30_000), [0, 0, 0, 0], [1, 1, 1, 1]),
            # two pairs: (30 + 10) / 2 and (−10 − 30) / 2
            ((40_000, 40_000, 20_000, 20_000), [20, 20, -20, -20], [1, 1, 3, 3]),
        ],
    )
    def test_ties_share_rank_points(self, scores, expected_uma, expected_places):
        s = settle(CLUB, game(*scores))
        assert [r.uma for r in s.results] == [D(u) for u in expected_uma]
        assert places(s) == expected_places
        assert s.total_points == 0

    def test_negative_scores(self):
        """箱割れ: 北 −3,200 → −33.2 − 30 = −63.2; 東 63,200 → +33.2 + 30 = +63.2."""
        s = settle(CLUB, game(63_200, 30_000, 30_000, -3_200))
        assert totals(s) == [D("63.2"), D(0), D(0), D("-63.2")]

    def test_several_chombo(self):
        """東 two chombo, 北 one: −20 and −10 after the places; the table is −30."""
        s = settle(CLUB, game(40_000, 35_000, 25_000, 20_000, chombo={0: 2, 3: 1}))
        assert totals(s) == [D(20), D(15), D(-15), D(-50)]
        assert places(s) == [1, 2, 3, 4]  # chombo does not move places
        assert s.total_points == D(-30)

    def test_deposits_held(self):
        """Two sticks held (預かり): the table adds up to 118,000 and that is right."""
        s = settle(CLUB, game(33_000, 30_000, 28_000, 27_000), deposits_held=2_000)
        assert s.expected_total == 118_000
        assert totals(s) == [D(33), D(10), D(-12), D(-33)]  # the held 2.0 P leave the table
        with pytest.raises(InvalidGame) as exc:
            settle(CLUB, game(33_000, 30_000, 28_000, 27_000))
        assert exc.value.code == "table_short"
        assert exc.value.params["difference"] == 2_000


class TestOka:
    def test_oka_split_between_tied_tops(self):
        """25,000 start / 30,000 return: oka (30,000 − 25,000) × 4 = 20,000 = +20 P.

        35,200, 35,200, 20,000, 9,600 → score points +5.2, +5.2, −10.0, −20.4;
        the two tops share 30 + 10 + 20 = 60 → +30 each: +35.2, +35.2, −20.0, −50.4.
        """
        params = RuleParams(start_points=25_000, return_points=30_000)
        assert params.oka == D(20)
        s = settle(params, game(35_200, 35_200, 20_000, 9_600))
        assert totals(s) == [D("35.2"), D("35.2"), D("-20.0"), D("-50.4")]
        assert s.total_points == 0

    def test_a_split_that_does_not_divide_rounds_and_keeps_the_total(self):
        """Three tied tops share 30 + 10 − 10 + 20 (oka) = 50 P: 16.7, 16.7, 16.6 in tenths.

        Each share of the uma is 10.0 exactly; the oka 20.0 / 3 = 6.6 rest 0.2, the two
        extra tenths go to the tied players nearest the first dealer (SEAT).
        """
        params = RuleParams(start_points=25_000, return_points=30_000)
        s = settle(params, game(30_000, 30_000, 30_000, 10_000))
        assert [r.oka for r in s.results] == [D("6.7"), D("6.7"), D("6.6"), D(0)]
        assert s.total_points == 0
        reverse = RuleParams(
            start_points=25_000, return_points=30_000, split_rounding=SplitRounding.REVERSE_SEAT
        )
        s = settle(reverse, game(30_000, 30_000, 30_000, 10_000))
        assert [r.oka for r in s.results] == [D("6.6"), D("6.7"), D("6.7"), D(0)]

    def test_negative_split_rounds_and_keeps_the_total(self):
        """Rank points +31/+9/−10/−30 (odd on purpose): three tied for 2nd share −31 P.

        −31.0 / 3 = −10.3 rest −0.1 → in tenths divmod(−310, 3) = (−104, 2): −10.3, −10.3, −10.4.
        """
        params = RuleParams(rank_points=(D(31), D(9), D(-10), D(-30)))
        s = settle(params, game(45_000, 25_000, 25_000, 25_000))
        assert [r.uma for r in s.results] == [D(31), D("-10.3"), D("-10.3"), D("-10.4")]
        assert s.total_points == 0


class TestJapanHealthMahjongAssociation:
    def test_ties_go_to_the_seat_nearer_the_first_dealer(self):
        """南 and 北 tie at 25,000: 南 sits nearer 東 and is 2nd; no shared places."""
        s = settle(JKMA, game(35_000, 25_000, 15_000, 25_000))
        assert places(s) == [1, 2, 4, 3]
        assert [r.uma for r in s.results] == [D(12), D(4), D(-12), D(-4)]

    def test_excess_is_taken_off_the_top_places_unchanged(self):
        """The sheet adds up to 101,000: 1,000 comes off the top (36,000 → 35,000)."""
        s = settle(JKMA, game(36_000, 30_000, 20_000, 15_000))
        assert s.excess_taken == 1_000
        assert [r.final_score for r in s.results] == [35_000, 30_000, 20_000, 15_000]
        assert totals(s) == [D(22), D(9), D(-9), D(-22)]

    def test_excess_does_not_move_places_even_below_second(self):
        """36,000 and 35,500 with a 1,000 excess: the top becomes 35,000 but stays 1st."""
        s = settle(JKMA, game(36_000, 35_500, 20_000, 9_500))
        assert places(s) == [1, 2, 3, 4]
        assert s.results[0].final_score == 35_000

    def test_a_short_table_is_tallied_as_it_is(self):
        s = settle(JKMA, game(35_000, 30_000, 20_000, 14_000))
        assert s.shortfall == 1_000 and s.excess_taken == 0
        assert totals(s) == [D(22), D(9), D(-9), D(-23)]

    def test_deposits_go_to_the_top_so_none_are_held(self):
        """Sheet 001: 「オーラス親がノーテンだと半荘終了（供託はトップ取り）」: the rule never holds
        deposits. 40,000 / 30,000 / 20,000 / 10,000 with 1,000 held is refused, not settled
        with 1,000 taken off the top."""
        with pytest.raises(InvalidGame) as exc:
            settle(JKMA, game(40_000, 30_000, 20_000, 10_000), deposits_held=1_000)
        assert exc.value.code == "deposits_not_held"
        assert totals(settle(JKMA, game(40_000, 30_000, 20_000, 10_000))) == [
            D(27),
            D(9),
            D(-9),
            D(-27),
        ]

    def test_the_club_rule_keeps_deposits_held(self):
        """Sheet 000 rule 13: 「不明時は預かりとする」: the club rule holds them."""
        s = settle(CLUB, game(40_000, 30_000, 20_000, 29_000), deposits_held=1_000)
        assert s.expected_total == 119_000


class TestThreePlayer:
    def test_parlor_30000_start_34000_return(self):
        """Oka (34,000 − 30,000) × 3 = 12,000 = +12 P to the top.

        50,000 / 25,000 / 15,000: +16 +20 +12 = +48; −9 + 0 = −9; −19 − 20 = −39.
        """
        s = settle(PARLOR3, [SeatScore(0, 50_000), SeatScore(1, 25_000), SeatScore(2, 15_000)])
        assert totals(s) == [D(48), D(-9), D(-39)]
        assert s.total_points == 0

    def test_parlor_tie_by_seat_gives_oka_to_the_first_dealer_side(self):
        s = settle(PARLOR3, [SeatScore(0, 20_000), SeatScore(1, 35_000), SeatScore(2, 35_000)])
        assert places(s) == [3, 1, 2]
        assert [r.oka for r in s.results] == [D(0), D(12), D(0)]

    def test_no_settlement_below_zero(self):
        """Sheet 003: 「箱下精算はありません」: −5,000 settles as 0 and the 5,000 come off the top.

        70,000 / 25,000 / −5,000 → 65,000 / 25,000 / 0: +31 +20 +12 = +63.0; −9 + 0 = −9.0;
        −34 − 20 = −54.0. The table still sums to zero and the places stand.
        """
        s = settle(PARLOR3, [SeatScore(0, 70_000), SeatScore(1, 25_000), SeatScore(2, -5_000)])
        assert totals(s) == [D("63.0"), D("-9.0"), D("-54.0")]
        assert [r.final_score for r in s.results] == [65_000, 25_000, 0]
        assert places(s) == [1, 2, 3]
        assert s.below_zero_taken == 5_000
        assert s.total_points == 0

    def test_parlor_chombo_is_paid_at_the_table(self):
        """Sheet 003: 「チョンボは親・子関係なく5000点ALLの支払い」: it is in the scores already,
        so a chombo costs no P afterwards."""
        s = settle(
            PARLOR3,
            [SeatScore(0, 50_000, chombo=1), SeatScore(1, 25_000), SeatScore(2, 15_000)],
        )
        assert totals(s) == [D(48), D(-9), D(-39)]

    def test_four_players_under_a_three_player_rule_is_refused(self):
        with pytest.raises(InvalidGame) as exc:
            settle(PARLOR3, game(30_000, 30_000, 30_000, 30_000))
        assert exc.value.code == "wrong_player_count"


class TestKantan:
    def test_only_the_win_counts(self):
        s = settle(KANTAN, game(20_000, 41_000, 20_000, 19_000))
        assert places(s) == [2, 1, 3, 4]
        assert totals(s) == [D(0)] * 4

    def test_a_tied_top_is_refused(self):
        with pytest.raises(InvalidGame) as exc:
            settle(KANTAN, game(30_000, 30_000, 20_000, 20_000))
        assert exc.value.code == "tied_top"

    def test_a_pot_left_on_the_table_stands(self):
        """Sheet 004: 「西場から 供託ルール追加 西1局 1000点、西2局 2000点」: the pot can stay on
        the table, so a table 3,000 short of 100,000 is accepted as it is."""
        s = settle(KANTAN, game(40_000, 30_000, 17_000, 10_000))
        assert s.shortfall == 3_000
        assert places(s) == [1, 2, 3, 4]

    def test_an_excess_is_refused(self):
        with pytest.raises(InvalidGame) as exc:
            settle(KANTAN, game(41_000, 30_000, 20_000, 10_000))
        assert exc.value.code == "table_over"


class TestBadInput:
    @pytest.mark.parametrize(
        ("seats", "code"),
        [
            (game(32_650, 30_000, 30_000, 27_350), "score_not_multiple"),
            (game(31_000, 30_000, 30_000, 27_800), "table_short"),
            (game(31_000, 30_000, 30_000, 30_000), "table_over"),
            (game(1_030_000, -1_000_000, 60_000, 30_000), "score_out_of_range"),
            (game(30_000, 30_000, 30_000, 30_000, chombo={1: -1}), "chombo_negative"),
            (game(30_000, 30_000, 30_000, 30_000, chombo={1: 21}), "chombo_too_many"),
            (game(30_000, 30_000, 30_000), "wrong_player_count"),
            (
                [SeatScore(0, 30_000), SeatScore(0, 30_000), SeatScore(2, 30_000), SeatScore(3, 0)],
                "seat_twice",
            ),
            (
                [SeatScore(0, 30_000), SeatScore(1, 30_000), SeatScore(2, 30_000), SeatScore(5, 0)],
                "seat_missing",
            ),
        ],
    )
    def test_is_refused_with_a_code(self, seats, code):
        with pytest.raises(InvalidGame) as exc:
            settle(CLUB, seats)
        assert exc.value.code == code

    def test_table_short_says_by_how_much(self):
        with pytest.raises(InvalidGame) as exc:
            settle(CLUB, game(31_000, 30_000, 30_000, 27_800))
        assert exc.value.params == {"total": 118_800, "expected": 120_000, "difference": 1_200}

    @pytest.mark.parametrize("deposits", [-1_000, 500, 200_000])
    def test_bad_deposits(self, deposits):
        with pytest.raises(InvalidGame) as exc:
            settle(CLUB, game(30_000, 30_000, 30_000, 30_000), deposits_held=deposits)
        assert exc.value.code == "bad_deposits"

    @pytest.mark.parametrize(
        "kwargs",
        [
            {"players": 5, "rank_points": (D(0),) * 5},
            {"rank_points": (D(30), D(10), D(-10))},
            {"rank_points": (D("30.05"), D(10), D(-10), D(-30))},
            {"points_per_p": 300},
            {"start_points": 30_000, "return_points": 25_000},
        ],
    )
    def test_bad_rule_parameters(self, kwargs):
        with pytest.raises(InvalidGame):
            RuleParams(**kwargs)


# Property: for any valid game, the table's total P is −chombo × penalty, exactly.
hundreds = st.integers(min_value=-500, max_value=1_200)


@st.composite
def valid_games(draw, params: RuleParams):
    first = [draw(hundreds) * 100 for _ in range(params.players - 1)]
    last = params.table_total - sum(first)
    scores = [*first, last]
    chombo = [draw(st.integers(min_value=0, max_value=3)) for _ in scores]
    order = draw(st.permutations(range(params.players)))
    return [
        SeatScore(seat=order[i], score=s, chombo=c)
        for i, (s, c) in enumerate(zip(scores, chombo, strict=True))
    ]


@pytest.mark.parametrize(
    "params",
    [
        CLUB,
        RuleParams(start_points=25_000, return_points=30_000),
        RuleParams(
            start_points=25_000, return_points=30_000, split_rounding=SplitRounding.REVERSE_SEAT
        ),
        PARLOR3,
        RuleParams(players=3, rank_points=(D(30), D(0), D(-30))),
        JKMA,
    ],
    ids=["club", "oka", "oka-reverse", "parlor3", "club3", "jkma"],
)
@given(data=st.data())
def test_table_total_is_minus_chombo_times_penalty(params, data):
    seats = data.draw(valid_games(params))
    s = settle(params, seats)
    chombo = sum(seat.chombo for seat in seats)
    assert s.total_points == -chombo * params.chombo_penalty
    assert sorted(r.place for r in s.results)[0] == 1
    for r in s.results:  # every figure is a whole number of tenths
        assert r.total == r.total.quantize(D("0.1"))


def test_table_balance_and_remaining_score():
    from scoring.rules import remaining_score, table_balance

    assert table_balance(CLUB, [32_600, 30_000, 30_000, 26_200]) == -1_200
    assert table_balance(CLUB, [33_000, 30_000, 28_000, 27_000], deposits_held=2_000) == 0
    assert remaining_score(CLUB, [32_600, 30_000, 30_000]) == 27_400
    assert remaining_score(PARLOR3, [50_000, 25_000]) == 15_000


# Issue 28, 7: the plausibility warning's rule (scoring.rules.doubtful_scores), case by case.
# Scores by seat 東 南 西 北; ``filled``: the seat filled in from the table total, if any.
DOUBTS = [
    # The case: in hundreds, 38 (meant 380), 240, 240, 北 blank → 68,200 filled in.
    ([3_800, 24_000, 24_000, 68_200], 3, [(3, "far")]),
    # Points: 30000 typed as 3000 → the blank 北 takes the 27,000 dropped.
    ([30_000, 25_000, 3_000, 62_000], 3, [(3, "far")]),
    # The other way: one typed score too high pushes the filled one far below.
    ([70_000, 60_000, 24_000, -34_000], 3, [(3, "far")]),
    ([45_000, 44_000, 43_000, -12_000], 3, [(3, "far")]),
    # An extra digit in hundreds: 3800 for 380 → 380,000; the blank goes far negative.
    ([380_000, 24_000, 24_000, -308_000], 3, [(0, "over"), (3, "far")]),
    # Under 1,000 or over 100,000 wherever it is, typed or filled in.
    ([500, 40_000, 40_000, 39_500], None, [(0, "under")]),
    ([0, 40_000, 40_000, 40_000], None, [(0, "under")]),
    ([101_000, 10_000, 5_000, 4_000], None, [(0, "over")]),
    # Let through: ordinary games, edges of the rule, and busts (箱割れ: play goes on below
    # zero, sheet 002 ④), typed or filled in near the others.
    ([-1_200, 50_000, 40_000, 31_200], None, []),
    ([52_000, 51_000, 50_000, -33_000], None, []),
    ([50_000, 40_000, 15_000, -5_000], 3, []),
    ([45_000, 30_000, 25_000, 20_000], 3, []),
    ([32_600, 30_000, 30_000, 27_400], 3, []),
    ([1_000, 100_000, 10_000, 9_000], None, []),  # 1,000 and 100,000 themselves pass
    ([24_000, 24_000, 18_000, 54_000], 3, []),  # exactly 30,000 above the highest typed
    ([30_000, 22_000, 12_000, 56_000], 3, []),  # a big top, within 30,000 of the typed
    ([40_000, 39_000, 39_000, 2_000], 3, [(3, "far")]),  # 37,000 below the lowest typed
    ([68_200, 24_000, 24_000, 3_800], None, []),  # all typed: only the bounds apply
    ([65_000, 15_000, 15_000, 25_000], 0, [(0, "far")]),  # a filled-in top far above
    ([41_000, 35_000, 29_000], 2, []),  # three players (35,000 each)
    ([75_000, 20_000, 10_000], 0, [(0, "far")]),
]


@pytest.mark.parametrize(("scores", "filled", "doubts"), DOUBTS)
def test_doubtful_scores(scores, filled, doubts):
    found = rules.doubtful_scores(dict(enumerate(scores)), filled)
    assert [(d.seat, d.doubt.value) for d in found] == doubts
    assert all(d.score == scores[d.seat] for d in found)
