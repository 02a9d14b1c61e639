"""What a hand pays (scoring/hands.py), checked against a formula written here independently
and against figures worked by hand, and each rule system's own lines. No database."""

import pytest

from scoring.hands import FU_VALUES, InvalidHand, Level, Payer, System, score, system_of
from scoring.rules import RuleParams, TieBreak, TotalPolicy

HANS = (1, 2, 3, 4)
FUS = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)


def round_up(points: int) -> int:
    return (points + 99) // 100 * 100


def possible(han: int, fu: int, tsumo: bool) -> bool:
    """20符 is ピンフツモ only (two han at least), 25符 is 七対子 (two han; three with ツモ)."""
    if fu == 20:
        return tsumo and han >= 2
    if fu == 25:
        return han >= 3 or (han == 2 and not tsumo)
    return True


def expected(han: int, fu: int, dealer: bool, tsumo: bool) -> list[int]:
    """The common formula, written again here: base = fu × 2^(2+han), capped at 2,000 (満貫),
    with 4翻30符 and 3翻60符 taken up to 満貫 (切り上げ満貫); each payment rounded up to 100."""
    base = fu * 2 ** (2 + han)
    if base > 2000 or (han, fu) in ((4, 30), (3, 60)):
        base = 2000
    if not tsumo:
        return [round_up(base * (6 if dealer else 4))]
    if dealer:
        return [round_up(base * 2)] * 3
    return [round_up(base * 2), round_up(base), round_up(base)]


CELLS = [
    (han, fu, dealer, tsumo)
    for han in HANS
    for fu in FUS
    for dealer in (False, True)
    for tsumo in (False, True)
]


@pytest.mark.parametrize(("han", "fu", "dealer", "tsumo"), CELLS)
def test_every_cell_of_the_four_player_table(han, fu, dealer, tsumo):
    if not possible(han, fu, tsumo):
        with pytest.raises(InvalidHand) as refused:
            score(System.CLUB4, han, fu, dealer=dealer, tsumo=tsumo)
        assert refused.value.code == "impossible"
        return
    hand = score(System.CLUB4, han, fu, dealer=dealer, tsumo=tsumo)
    assert [p.points for p in hand.payments] == expected(han, fu, dealer, tsumo)
    assert hand.total == sum(expected(han, fu, dealer, tsumo))
    payers = [p.payer for p in hand.payments]
    if not tsumo:
        assert payers == [Payer.DISCARDER]
    elif dealer:
        assert payers == [Payer.NON_DEALER] * 3
    else:
        assert payers == [Payer.DEALER, Payer.NON_DEALER, Payer.NON_DEALER]


def test_the_table_covers_every_cell():
    assert len(CELLS) == 4 * 11 * 2 * 2
    assert FUS == FU_VALUES


# Figures worked by hand from the printed common table (子 / 親; ron, and tsumo 子・親 / オール).
BY_HAND = [
    # han, fu, dealer, tsumo, payments
    (1, 30, False, False, [1000]),
    (2, 30, False, False, [2000]),
    (3, 30, False, False, [3900]),
    (1, 40, False, False, [1300]),
    (3, 40, False, False, [5200]),
    (1, 110, False, False, [3600]),
    (2, 110, False, False, [7100]),
    (1, 30, True, False, [1500]),
    (2, 30, True, False, [2900]),
    (3, 30, True, False, [5800]),
    (3, 40, True, False, [7700]),
    (2, 110, True, False, [10600]),
    (1, 30, False, True, [500, 300, 300]),
    (2, 20, False, True, [700, 400, 400]),
    (3, 20, False, True, [1300, 700, 700]),
    (4, 20, False, True, [2600, 1300, 1300]),
    (1, 110, False, True, [1800, 900, 900]),
    (2, 20, True, True, [700, 700, 700]),
    (4, 20, True, True, [2600, 2600, 2600]),
    (2, 25, False, False, [1600]),
    (3, 25, False, True, [1600, 800, 800]),
    (4, 25, True, False, [9600]),
    (3, 70, False, False, [8000]),
    (4, 40, True, True, [4000, 4000, 4000]),
]


@pytest.mark.parametrize(("han", "fu", "dealer", "tsumo", "payments"), BY_HAND)
def test_figures_worked_by_hand(han, fu, dealer, tsumo, payments):
    hand = score(System.CLUB4, han, fu, dealer=dealer, tsumo=tsumo)
    assert [p.points for p in hand.payments] == payments


class TestClubFourPlayer:
    def test_kiriage_mangan(self):
        """002 ⑪「四翻30符(三翻60符)は、切り上げ満貫とします。(翻数には場ゾロ含みません)」"""
        for han, fu in ((4, 30), (3, 60)):
            hand = score(System.CLUB4, han, fu, dealer=False, tsumo=False)
            assert (hand.total, hand.level) == (8000, Level.MANGAN)
            hand = score(System.CLUB4, han, fu, dealer=True, tsumo=True)
            assert (hand.each, hand.level) == (4000, Level.MANGAN)
        # Just below: 3翻50符 is 6,400, not 満貫.
        hand = score(System.CLUB4, 3, 50, dealer=False, tsumo=False)
        assert (hand.total, hand.level) == (6400, Level.NONE)

    def test_pinfu_tsumo_is_two_han_twenty_fu(self):
        """002 ①「ピンフツモありの二翻20符扱い」; 000「ピンフ・ツモは２０符 2 翻とする」: 400・700."""
        hand = score(System.CLUB4, 2, 20, dealer=False, tsumo=True)
        assert (hand.paid_by(Payer.DEALER), hand.paid_by(Payer.NON_DEALER)) == (700, 400)
        with pytest.raises(InvalidHand):
            score(System.CLUB4, 2, 20, dealer=False, tsumo=False)  # no 20符 ron
        with pytest.raises(InvalidHand):
            score(System.CLUB4, 1, 20, dealer=False, tsumo=True)

    def test_chiitoitsu_is_twenty_five_fu_two_han(self):
        """000「チートイツは２５符２翻とする」: 子 1,600, 親 2,400."""
        assert score(System.CLUB4, 2, 25, dealer=False, tsumo=False).total == 1600
        assert score(System.CLUB4, 2, 25, dealer=True, tsumo=False).total == 2400
        with pytest.raises(InvalidHand):
            score(System.CLUB4, 1, 25, dealer=False, tsumo=False)

    def test_without_fu_the_table_by_han_reads_thirty_fu(self):
        """002「符計算せずに翻数を以て点数計算が出るように」: 1翻 1,000, 2翻 2,000, 3翻 3,900, 4翻 満貫."""
        totals = [score(System.CLUB4, han, dealer=False, tsumo=False).total for han in HANS]
        assert totals == [1000, 2000, 3900, 8000]
        dealer = [score(System.CLUB4, han, dealer=True, tsumo=True).each for han in HANS]
        assert dealer == [500, 1000, 2000, 4000]

    @pytest.mark.parametrize(
        ("han", "ron", "dealer_ron", "level"),
        [
            (5, 8000, 12000, Level.MANGAN),
            (6, 12000, 18000, Level.HANEMAN),
            (7, 12000, 18000, Level.HANEMAN),
            (8, 16000, 24000, Level.BAIMAN),
            (10, 16000, 24000, Level.BAIMAN),
            (11, 24000, 36000, Level.SANBAIMAN),
            (12, 24000, 36000, Level.SANBAIMAN),
            (13, 32000, 48000, Level.YAKUMAN),
            (20, 32000, 48000, Level.YAKUMAN),
        ],
    )
    def test_mangan_to_yakuman(self, han, ron, dealer_ron, level):
        """Mangan 5翻, haneman 6–7, baiman 8–10, sanbaiman 11–12, yakuman 13 (fu not read)."""
        assert score(System.CLUB4, han, 110, dealer=False, tsumo=False).total == ron
        hand = score(System.CLUB4, han, dealer=True, tsumo=False)
        assert (hand.total, hand.level, hand.fu) == (dealer_ron, level, None)

    def test_no_double_yakuman(self):
        """000 rule 16「役満は、4 倍満とし、ダブル役満は無い。」"""
        assert score(System.CLUB4, 13, dealer=False, tsumo=False, yakuman=2).total == 32000
        assert score(System.CLUB4, 1, dealer=True, tsumo=True, yakuman=2).each == 16000

    def test_honba_adds_300(self):
        """002 ⑦「積み棒は一本に付きアガリに300点加算」: ron +300, tsumo 100 from each."""
        ron = score(System.CLUB4, 3, dealer=False, tsumo=False, honba=2)
        assert (ron.total, ron.honba_points, ron.hand_points) == (4500, 600, 3900)
        tsumo = score(System.CLUB4, 2, 20, dealer=False, tsumo=True, honba=1)
        assert [p.points for p in tsumo.payments] == [800, 500, 500]
        assert tsumo.honba_points == 300

    def test_the_riichi_sticks_go_to_the_winner(self):
        hand = score(System.CLUB4, 1, dealer=False, tsumo=False, honba=1, sticks=2)
        assert (hand.deposits, hand.total) == (2000, 1000 + 300 + 2000)
        assert [p.points for p in hand.payments] == [1300]


class TestClubThreePlayer:
    def test_dealer_mangan_tsumo_is_6000_from_each(self):
        """000「アガリ点数は親・子に関係なく、ツモ場合、2 で割り、支払います。
        ※例→親が満貫をツモの場合、6,000 づつ払う。」"""
        hand = score(System.CLUB3, 5, dealer=True, tsumo=True)
        assert [p.points for p in hand.payments] == [6000, 6000]
        assert hand.total == 12000

    def test_non_dealer_5200_tsumo_is_2600_from_each(self):
        """000「※例→子が 5,200 をツモの場合、親も子も 2,600 づつ払う。」"""
        hand = score(System.CLUB3, 3, 40, dealer=False, tsumo=True)
        assert [(p.payer, p.points) for p in hand.payments] == [
            (Payer.DEALER, 2600),
            (Payer.NON_DEALER, 2600),
        ]

    def test_an_odd_half_is_rounded_up(self):
        """The sheet is silent: 子 1,300 (1翻40符) halves to 650, paid as 700."""
        hand = score(System.CLUB3, 1, 40, dealer=False, tsumo=True)
        assert [p.points for p in hand.payments] == [700, 700]

    def test_ron_is_the_four_player_value(self):
        """000「ルールは 4 人マージャンと同じ」"""
        assert score(System.CLUB3, 3, dealer=False, tsumo=False).total == 3900
        assert score(System.CLUB3, 4, 30, dealer=True, tsumo=False).total == 12000

    def test_honba(self):
        """The 4-player line: +300 on ron, 100 from each payer on tsumo."""
        assert score(System.CLUB3, 1, dealer=False, tsumo=False, honba=1).total == 1300
        hand = score(System.CLUB3, 5, dealer=True, tsumo=True, honba=1)
        assert [p.points for p in hand.payments] == [6100, 6100]


class TestJapanHealthMahjong:
    def test_kiriage_mangan(self):
        """001「30 符 4 翻(60 符 3 翻)は切り上げ満貫を採用（子 8000 点、親 12000 点）」"""
        assert score(System.JKMA, 4, 30, dealer=False, tsumo=False).total == 8000
        assert score(System.JKMA, 3, 60, dealer=True, tsumo=False).total == 12000

    def test_honba_adds_300(self):
        """001「積み場は 1 本につきアガリに 300 点加算」"""
        assert score(System.JKMA, 2, dealer=False, tsumo=False, honba=3).total == 2900
        hand = score(System.JKMA, 2, dealer=True, tsumo=True, honba=1)
        assert hand.each == 1100

    def test_no_counted_yakuman(self):
        """001「採用していない役、ルール → …数え役満…」: 13翻 is 三倍満."""
        hand = score(System.JKMA, 13, dealer=False, tsumo=False)
        assert (hand.total, hand.level) == (24000, Level.SANBAIMAN)
        assert score(System.JKMA, 1, dealer=False, tsumo=False, yakuman=1).total == 32000

    def test_no_double_yakuman(self):
        """001「役満の複合（ダブル・トリプルなど）は認めない。」"""
        assert score(System.JKMA, 1, dealer=True, tsumo=False, yakuman=2).total == 48000


class TestParlorThreePlayer:
    def test_everything_at_thirty_fu(self):
        """003「（一律30符計算）親 1500点 3000点 6000点 子 1000点 2000点 4000点」"""
        assert [score(System.PARLOR3, h, dealer=False, tsumo=False).total for h in (1, 2, 3)] == [
            1000,
            2000,
            4000,
        ]
        assert [score(System.PARLOR3, h, dealer=True, tsumo=False).total for h in (1, 2, 3)] == [
            1500,
            3000,
            6000,
        ]
        # fu is not read: 「上記に従い、七対子も30符計算です。」
        assert score(System.PARLOR3, 2, 25, dealer=False, tsumo=False).total == 2000

    def test_tsumo_only_is_500_all(self):
        """003「ツモのみは、親・子関係なく500点オールです。」"""
        for dealer in (False, True):
            hand = score(System.PARLOR3, 1, dealer=dealer, tsumo=True)
            assert [p.points for p in hand.payments] == [500, 500]

    def test_tsumori_son(self):
        """003「ツモリ損あり（子の満貫の場合2000点・4000点の6000点の計算です。）」"""
        hand = score(System.PARLOR3, 5, dealer=False, tsumo=True)
        assert [(p.payer, p.points) for p in hand.payments] == [
            (Payer.DEALER, 4000),
            (Payer.NON_DEALER, 2000),
        ]
        assert hand.total == 6000
        assert score(System.PARLOR3, 4, dealer=True, tsumo=True).total == 8000

    def test_honba_adds_1000_on_ron_and_on_tsumo(self):
        """003「本場はツモ、ロンともに1000点増です。(例2000点オールは1本場だと3000点オール)」"""
        hand = score(System.PARLOR3, 3, dealer=True, tsumo=True, honba=1)
        assert [p.points for p in hand.payments] == [3000, 3000]
        assert score(System.PARLOR3, 1, dealer=False, tsumo=False, honba=2).total == 3000

    def test_counted_yakuman_from_13_han(self):
        """003「数え役満は13翻からです。」"""
        assert score(System.PARLOR3, 12, dealer=False, tsumo=False).level == Level.SANBAIMAN
        hand = score(System.PARLOR3, 13, dealer=False, tsumo=False)
        assert (hand.total, hand.level) == (32000, Level.YAKUMAN)

    def test_double_yakuman_counts(self):
        """003「役満の重複について、純粋な重複に限り認めます。」"""
        assert score(System.PARLOR3, 1, dealer=True, tsumo=False, yakuman=2).total == 96000


class TestKantan:
    @pytest.mark.parametrize(
        ("han", "ron", "each"),
        [
            (1, 1500, 500),
            (2, 3000, 1000),
            (3, 6000, 2000),
            (4, 12000, 4000),
            (5, 12000, 4000),
            (6, 18000, 6000),
            (7, 18000, 6000),
            (8, 24000, 8000),
            (10, 24000, 8000),
            (11, 36000, 12000),
            (12, 36000, 12000),
            (13, 48000, 16000),
        ],
    )
    def test_its_fixed_table(self, han, ron, each):
        """004「符計算無し・親子の区別無し」: ロン 1500 … 48000, ツモ 500 オール … 16000 オール."""
        for dealer in (False, True):
            assert score(System.KANTAN, han, 40, dealer=dealer, tsumo=False).total == ron
            hand = score(System.KANTAN, han, dealer=dealer, tsumo=True)
            assert (hand.each, len(hand.payments)) == (each, 3)

    def test_yakuman_is_48000(self):
        """004: 役満 48000 / 16000 オール."""
        assert score(System.KANTAN, 1, dealer=False, tsumo=False, yakuman=2).total == 48000

    def test_no_honba(self):
        """004「連荘・積み棒無し」"""
        hand = score(System.KANTAN, 2, dealer=True, tsumo=False, honba=3, sticks=1)
        assert (hand.honba_points, hand.total) == (0, 3000 + 1000)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"han": 0}, "bad_han"),
        ({"han": 100}, "bad_han"),
        ({"han": 2, "fu": 35}, "bad_fu"),
        ({"han": 2, "fu": 999999}, "bad_fu"),
        ({"han": 2, "honba": -1}, "bad_honba"),
        ({"han": 2, "sticks": 100}, "bad_sticks"),
        ({"han": 2, "yakuman": 7}, "bad_yakuman"),
    ],
)
def test_figures_out_of_range_are_refused(kwargs, code):
    with pytest.raises(InvalidHand) as refused:
        score(System.CLUB4, dealer=False, tsumo=False, **kwargs)
    assert refused.value.code == code


def test_each_shipped_kind_of_rule_set_has_its_system():
    """Read from parameters (the shipped rule sets' values are in views/test_hands.py)."""
    club = RuleParams()
    assert system_of(club) is System.CLUB4
    three = RuleParams(players=3, rank_points=(30, 0, -30))
    assert system_of(three) is System.CLUB3
    parlor = RuleParams(players=3, return_points=34_000, rank_points=(20, 0, -20))
    assert system_of(parlor) is System.PARLOR3
    jkma = RuleParams(
        start_points=25_000,
        return_points=25_000,
        tie_break=TieBreak.SEAT,
        total_policy=TotalPolicy.EXCESS_OFF_TOP,
        holds_deposits=False,
    )
    assert system_of(jkma) is System.JKMA
    kantan = RuleParams(scores_count=False, rank_points=(0, 0, 0, 0))
    assert system_of(kantan) is System.KANTAN
