"""What a winning hand pays (点数計算), under each rule system the club's rule sets follow.

No Django import lives here, and no float: every figure is a whole number of points.

Inputs: han (翻), fu (符; optional: without it, the system's fu-less reading is used), whether
the winner is the dealer (親), ron or tsumo, honba (積み棒) and the riichi sticks on the table
(供託). :func:`score` returns who pays the winner how much (:class:`Payment`, one per paying
player, honba included) and the winner's total (the payments and the sticks).

The rule systems (:class:`System`), each with its sheet's own lines (``/work/shared/rules/``):

- ``CLUB4``, 白樺会 四人打ち (sheets 002 and 000). The han × fu table of common Japanese rules:
  base = fu × 2^(2 + han); ron pays 4 × base (the dealer's 6 × base); on tsumo the dealer pays
  2 × base and each other player base (a dealer's tsumo: 2 × base from each); every payment
  rounded up to the 100. 002 ⑪「四翻30符(三翻60符)は、切り上げ満貫とします。(翻数には場ゾロ
  含みません)」. 002 ①「ピンフツモありの二翻20符扱い」, 000 「ピンフ・ツモは２０符 2 翻とする」,
  「チートイツは２５符２翻とする」. 000 rule 16「役満は、4 倍満とし、ダブル役満は無い」.
  002 ⑦「積み棒は一本に付きアガリに300点加算」: +300 from the discarder, or 100 from each
  payer on tsumo. Levels: 満貫 5翻, 跳満 6–7, 倍満 8–10, 三倍満 11–12, 役満 13翻 (数え役満).
  000 rule 17 「満貫は６翻以上、８翻でハネ満、１０翻で倍満、１３翻で 3 倍満」 counts the two han of
  場ゾロ (the older way); less those two it is the common table, which the 2025 sheet (002,
  「翻数には場ゾロ含みません」) follows, so the code does. No sheet of the club names 数え役満:
  the common rule (13翻 and more is 役満) is followed.
- ``CLUB3``, 白樺会 三人打ち (sheet 000): 「ルールは 4 人マージャンと同じ」, so the 4-player
  table, and「アガリ点数は親・子に関係なく、ツモ場合、2 で割り、支払います。※例→親が満貫をツモの
  場合、6,000 づつ払う。※例→子が 5,200 をツモの場合、親も子も 2,600 づつ払う。」: on tsumo each
  of the two others pays half the hand's value as the table names it (its ron figure: 子 5,200,
  親 満貫 12,000; a 20符 hand, which has no ron, by the same 4 × base: 2翻20符 1,300). The sheet is
  silent on an odd half (子 1,300 → 650): it is rounded up to the 100 like every payment (700). Honba: the 4-player line, +300 on ron
  and 100 from each payer on tsumo (so 200 a honba on a 3-player tsumo; the sheet is silent).
- ``JKMA``, 日本健康麻将協会 (sheet 001): the same table; 「30 符 4 翻(60 符 3 翻)は切り上げ満貫を
  採用（子 8000 点、親 12000 点）※翻数表記に場ゾロ含まず」; 「積み場は 1 本につきアガリに 300 点加算」;
  「採用していない役、ルール → …数え役満…」: 13翻 and more is 三倍満; 「役満の複合（ダブル・トリプル
  など）は認めない」. Its sheet says nothing of ピンフツモ or 七対子: the common 20符 / 25符 apply.
- ``PARLOR3``, 三人打ち 30000持ち34000返し (sheet 003): 「点数計算はシンプルにしてあります。（一律30符
  計算）親 1500点 3000点 6000点 子 1000点 2000点 4000点」 (1, 2, 3翻), so fu is never read;
  4翻 and more follow the common levels (満貫 子 8,000 / 親 12,000 …). 「ツモリ損あり（子の満貫の
  場合2000点・4000点の6000点の計算です。）」: a tsumo is paid as at a 4-player table with the
  missing player's share lost (子: the dealer a half, the other a quarter; 親: a third each).
  「ツモのみは、親・子関係なく500点オールです。」: a 1翻 tsumo is 500 from each (the code reads
  every 1翻 tsumo so, as a 1翻 tsumo under 一律30符 has no other figure on the sheet).
  「本場はツモ、ロンともに1000点増です。（例2000点オールは1本場だと3000点オール）」: +1,000 a honba
  on ron, and +1,000 from each payer on tsumo. 「数え役満は13翻からです。」 「役満の重複について、
  純粋な重複に限り認めます。」: double yakuman counts.
- ``KANTAN``, カンターン麻雀 (sheet 004): 「符計算無し・親子の区別無し」 and its table (ロン 1500, 3000,
  6000, 12000 (4~5翻), 18000 (6~7), 24000 (8~10), 36000 (11~12), 48000 (13翻~ and 役満); ツモ
  500 オール … 16000 オール). 「連荘・積み棒無し」: honba add nothing. One yakuman at most (the
  table has one 役満 column).

Everywhere: the riichi sticks on the table (1,000 each) go to the winner (common rule; no sheet
says otherwise). A hand no rule can make is refused with :class:`InvalidHand` (code
``impossible``): 20符 ron (a 20-fu hand is a ピンフツモ: 000 「喰いタンヤオでピンフと同じ形で、
振り込みであがった場合も３０符とする」, and a closed pinfu ron is 30符), 20符 1翻 (ピンフツモ is
two han), 25符 1翻 (七対子 is two han) and 25符 2翻 tsumo (七対子 with ツモ is three). Fu must be
20, 25 or 30 … 110 in tens (the common table). Where fu is not read (PARLOR3, KANTAN) a fu given
is ignored.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from scoring.rules import RuleParams

HAN_LIMIT = 99
"""More han than this is taken to be a typing mistake."""

HONBA_LIMIT = 99
STICK_LIMIT = 99
YAKUMAN_LIMIT = 6
STICK = 1_000
FU_VALUES = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)
"""The fu of the common han × fu table."""

FU_LESS = 30
"""The fu-less reading of the fu-counting systems: a hand with no fu counted is read at 30符,
as the club's table by han (sheet 002 「符計算せずに翻数を以て点数計算が出るように」) does."""


class System(StrEnum):
    CLUB4 = "club4"
    CLUB3 = "club3"
    JKMA = "jkma"
    PARLOR3 = "parlor3"
    KANTAN = "kantan"


class Level(StrEnum):
    NONE = ""
    MANGAN = "mangan"
    HANEMAN = "haneman"
    BAIMAN = "baiman"
    SANBAIMAN = "sanbaiman"
    YAKUMAN = "yakuman"


class Payer(StrEnum):
    DISCARDER = "discarder"  # ron: the player who dealt in
    DEALER = "dealer"
    NON_DEALER = "non_dealer"


class InvalidHand(ValueError):
    """The hand cannot be scored. ``code`` names the problem, ``params`` give its figures."""

    def __init__(self, code: str, **params: int | str) -> None:
        self.code = code
        self.params = params
        super().__init__(f"{code}: {params}")


@dataclass(frozen=True)
class Payment:
    payer: Payer
    points: int  # what this player pays the winner, honba included
    honba: int  # the part of ``points`` that is honba


@dataclass(frozen=True)
class Hand:
    system: System
    han: int
    fu: int | None  # the fu used (None: the system reads no fu, or a limit hand)
    yakuman: int  # yakuman counted (0: none)
    dealer: bool
    tsumo: bool
    honba: int
    sticks: int
    level: Level
    payments: tuple[Payment, ...]

    @property
    def hand_points(self) -> int:
        """What the hand itself is worth (the payments without honba)."""
        return sum(p.points - p.honba for p in self.payments)

    @property
    def honba_points(self) -> int:
        return sum(p.honba for p in self.payments)

    @property
    def deposits(self) -> int:
        return self.sticks * STICK

    @property
    def total(self) -> int:
        """The winner's gain: every payment and the sticks on the table."""
        return sum(p.points for p in self.payments) + self.deposits

    @property
    def each(self) -> int | None:
        """On tsumo, when every payer pays the same (「2,600 オール」): that amount."""
        amounts = {p.points for p in self.payments}
        return amounts.pop() if self.tsumo and len(amounts) == 1 else None

    def paid_by(self, payer: Payer) -> int | None:
        """What one player of that kind pays (None: no such payer)."""
        for p in self.payments:
            if p.payer == payer:
                return p.points
        return None


@dataclass(frozen=True)
class SystemRules:
    """What differs between the systems, as figures (the docstring above quotes the sheets)."""

    players: int
    counts_fu: bool
    counted_yakuman: bool  # 13翻 and more is 役満 (数え役満); otherwise 三倍満
    multiple_yakuman: bool
    honba_ron: int  # per honba, from the discarder
    honba_each: int  # per honba, from each payer on tsumo
    dealer_differs: bool = True


RULES: dict[System, SystemRules] = {
    System.CLUB4: SystemRules(4, True, True, False, 300, 100),
    System.CLUB3: SystemRules(3, True, True, False, 300, 100),
    System.JKMA: SystemRules(4, True, False, False, 300, 100),
    System.PARLOR3: SystemRules(3, False, True, True, 1_000, 1_000),
    System.KANTAN: SystemRules(4, False, True, False, 0, 0, dealer_differs=False),
}


def system_of(params: RuleParams) -> System:
    """The hand-scoring system of a rule set, read from its parameters, so a copy of a shipped
    rule set scores as the original does:

    - scores do not count (1-0-0-0): カンターン (sheet 004);
    - 3 players with 箱下精算なし or an oka (34,000 返し): the parlor's 3-player rule (sheet 003);
    - other 3-player rule sets: the club's 3-player rule (sheet 000);
    - 4 players whose deposits always go to the top (「供託はトップ取り」): 日本健康麻将協会 (001);
    - every other rule set: the club's 4-player table (sheets 002 and 000).
    """
    if not params.scores_count:
        return System.KANTAN
    if params.players == 3:
        if params.floor_at_zero or params.return_points > params.start_points:
            return System.PARLOR3
        return System.CLUB3
    if not params.holds_deposits:
        return System.JKMA
    return System.CLUB4


def _up(points: int) -> int:
    """Rounded up to the 100."""
    return -(-points // 100) * 100


def _limit(han: int, rules: SystemRules) -> tuple[int, Level] | None:
    """The base of a limit hand by han (5翻 and more), or None below 満貫."""
    if han >= 13 and rules.counted_yakuman:
        return 8_000, Level.YAKUMAN
    for least, base, level in (
        (11, 6_000, Level.SANBAIMAN),
        (8, 4_000, Level.BAIMAN),
        (6, 3_000, Level.HANEMAN),
        (5, 2_000, Level.MANGAN),
    ):
        if han >= least:
            return base, level
    return None


def check_fu(han: int, fu: int, tsumo: bool) -> None:
    """Refuse a fu off the table, or a han and fu no hand can have (the module says which)."""
    if fu not in FU_VALUES:
        raise InvalidHand("bad_fu", fu=fu)
    if fu == 20 and not tsumo:
        raise InvalidHand("impossible", han=han, fu=fu)
    if fu in (20, 25) and han < 2:
        raise InvalidHand("impossible", han=han, fu=fu)
    if fu == 25 and han == 2 and tsumo:
        raise InvalidHand("impossible", han=han, fu=fu)


def base_points(han: int, fu: int, rules: SystemRules = RULES[System.CLUB4]) -> tuple[int, Level]:
    """The basic points (基本点) of a fu-counting system and the hand's level.

    002 ⑪「四翻30符(三翻60符)は、切り上げ満貫とします。」: a base of 1,920 (4翻30符, 3翻60符) is 満貫.
    """
    limit = _limit(han, rules)
    if limit is not None:
        return limit
    base = fu * 2 ** (2 + han)
    if base >= 1_920:
        return 2_000, Level.MANGAN
    return base, Level.NONE


# 003: 「親 1500点 3000点 6000点 子 1000点 2000点 4000点」 (1, 2, 3翻): ron values, and from 4翻 the
# common limits (満貫 子 8,000 = 4 × 2,000).
PARLOR_NON_DEALER = {1: 1_000, 2: 2_000, 3: 4_000}
PARLOR_DEALER = {1: 1_500, 2: 3_000, 3: 6_000}

# 004: 「ロン 1500 3000 6000 12000 18000 24000 36000 48000 48000」 by 1, 2, 3, 4~5, 6~7, 8~10,
# 11~12, 13翻~ and 役満 (least han, ron value, level); ツモ is a third of it from each of three.
KANTAN_TABLE = (
    (13, 48_000, Level.YAKUMAN),
    (11, 36_000, Level.SANBAIMAN),
    (8, 24_000, Level.BAIMAN),
    (6, 18_000, Level.HANEMAN),
    (4, 12_000, Level.MANGAN),
    (3, 6_000, Level.NONE),
    (2, 3_000, Level.NONE),
    (1, 1_500, Level.NONE),
)


def _check_counts(han: int, honba: int, sticks: int, yakuman: int) -> None:
    if yakuman < 0 or yakuman > YAKUMAN_LIMIT:
        raise InvalidHand("bad_yakuman", yakuman=yakuman, limit=YAKUMAN_LIMIT)
    if not yakuman and not 1 <= han <= HAN_LIMIT:
        raise InvalidHand("bad_han", han=han, limit=HAN_LIMIT)
    if not 0 <= honba <= HONBA_LIMIT:
        raise InvalidHand("bad_honba", honba=honba, limit=HONBA_LIMIT)
    if not 0 <= sticks <= STICK_LIMIT:
        raise InvalidHand("bad_sticks", sticks=sticks, limit=STICK_LIMIT)


def _others(players: int, dealer: bool) -> list[Payer]:
    """The players who pay a tsumo, dealer first."""
    if dealer:
        return [Payer.NON_DEALER] * (players - 1)
    return [Payer.DEALER] + [Payer.NON_DEALER] * (players - 2)


def score(
    system: System,
    han: int,
    fu: int | None = None,
    *,
    dealer: bool,
    tsumo: bool,
    honba: int = 0,
    sticks: int = 0,
    yakuman: int = 0,
) -> Hand:
    """What the hand pays under ``system``. ``yakuman`` > 0 scores a yakuman hand (that many
    yakuman where the system counts a double; otherwise one) whatever ``han`` says.

    Raise :class:`InvalidHand` for a figure out of range or a han and fu no hand can have.
    """
    rules = RULES[system]
    _check_counts(han, honba, sticks, yakuman)
    if not rules.multiple_yakuman:
        yakuman = min(yakuman, 1)
    if system is System.KANTAN:  # a yakuman: its table's 役満 figure (the 13翻~ one)
        return _kantan(
            13 if yakuman else han,
            dealer=dealer,
            tsumo=tsumo,
            honba=honba,
            sticks=sticks,
            yakuman=yakuman,
            han_given=han,
        )
    used_fu: int | None = None
    if yakuman:
        base, level = 8_000 * yakuman, Level.YAKUMAN
    elif rules.counts_fu:
        used_fu = FU_LESS if fu is None else fu
        check_fu(han, used_fu, tsumo)
        base, level = base_points(han, used_fu, rules)
        if han >= 5:
            used_fu = None  # a limit by han: fu does not matter
    elif han <= 3:  # PARLOR3 below 満貫: 「一律30符計算」, its own figures (in _pay)
        base, level, used_fu = 0, Level.NONE, 30
    else:  # PARLOR3, 4翻 and more: the common limits (4翻 is 満貫 子 8,000 / 親 12,000)
        base, level = _limit(han, rules) or (2_000, Level.MANGAN)
    payments = _pay(system, rules, base, level, han, dealer=dealer, tsumo=tsumo, honba=honba)
    return Hand(system, han, used_fu, yakuman, dealer, tsumo, honba, sticks, level, tuple(payments))


def _pay(
    system: System,
    rules: SystemRules,
    base: int,
    level: Level,
    han: int,
    *,
    dealer: bool,
    tsumo: bool,
    honba: int,
) -> list[Payment]:
    ron_value = _up(base * (6 if dealer else 4))
    if system is System.PARLOR3 and level is Level.NONE:
        ron_value = (PARLOR_DEALER if dealer else PARLOR_NON_DEALER)[han]
    if not tsumo:
        extra = rules.honba_ron * honba
        return [Payment(Payer.DISCARDER, ron_value + extra, extra)]
    extra = rules.honba_each * honba
    payers = _others(rules.players, dealer)
    if system is System.CLUB3:
        # 000: 「アガリ点数は親・子に関係なく、ツモ場合、2 で割り」
        half = _up(ron_value // 2)
        return [Payment(p, half + extra, extra) for p in payers]
    if system is System.PARLOR3:
        if han == 1 and level is Level.NONE:
            # 003: 「ツモのみは、親・子関係なく500点オールです。」
            return [Payment(p, 500 + extra, extra) for p in payers]
        # 003: 「ツモリ損あり（子の満貫の場合2000点・4000点の6000点の計算です。）」
        if dealer:
            return [Payment(p, ron_value // 3 + extra, extra) for p in payers]
        return [
            Payment(p, ron_value // (2 if p is Payer.DEALER else 4) + extra, extra) for p in payers
        ]
    # The 4-player tsumo: the dealer pays 2 × base, each other player base.
    return [
        Payment(p, _up(base * (2 if dealer or p is Payer.DEALER else 1)) + extra, extra)
        for p in payers
    ]


def _kantan(
    han: int, *, dealer: bool, tsumo: bool, honba: int, sticks: int, yakuman: int, han_given: int
) -> Hand:
    """004 「和了点 符計算無し・親子の区別無し」, 「連荘・積み棒無し」: honba add nothing."""
    value, level = next((v, lv) for least, v, lv in KANTAN_TABLE if han >= least)
    if tsumo:
        payments = tuple(Payment(p, value // 3, 0) for p in _others(4, dealer))
    else:
        payments = (Payment(Payer.DISCARDER, value, 0),)
    return Hand(
        System.KANTAN, han_given, None, yakuman, dealer, tsumo, honba, sticks, level, payments
    )
