"""A hand read from its tiles (役と符): its yaku with their han, its fu item by item, and what it
pays under a rule system, by the app's own :func:`scoring.hands.score` (pure, no Django).

The yaku and fu are found by the ``mahjong`` library (``HandCalculator``, pinned in
requirements.txt); this module says which of its options each rule system takes, quoting the
sheets (``/work/shared/rules/``), and what it changes where a sheet asks what the library
cannot. The payment is never the library's: it is ``hands.score`` for the han and fu found.

The club's 4-player rule (``System.CLUB4``, sheets 002 and 000):

- 002 ①「喰いタンあり、後付けあり、ピンフツモありの二翻20符扱い。」: ``has_open_tanyao``; the
  library scores a closed pinfu tsumo at 20 fu with 平和 and 門前ツモ (2 han), which is this line
  (``fu_for_pinfu_tsumo`` left off).
- 000 「チートイツは２５符２翻とする。」: the library's 七対子 is 25 fu, 2 han.
- 000 「喰いタンヤオでピンフと同じ形で、振り込みであがった場合も３０符とする。」:
  ``fu_for_open_pinfu`` (an open pinfu shape by ron counts 2 fu more: 30 fu).
- 002 ㉑「赤牌は採用しません。」: ``has_aka_dora`` off (and the picker has no red fives).
- 002 ⑪「四翻30符(三翻60符)は、切り上げ満貫とします。」: ``kiriage``; ``hands.score`` does the
  same, and it is what pays.
- 002 ㉘「純粋に重複したダブル役満及びトリプル役満は適用しません。」, 000 「役満は、4 倍満とし、
  ダブル役満は無い」: ``has_double_yakuman`` off, and ``hands.score`` counts one yakuman.
- 002 ⑱「ローカルルールは一切採用しません。(役としての人和、流し満貫、十三不塔、大車輪…)」: none
  of them is offered (the library's 人和 and 流し満貫 are never asked for).

The club's 3-player rule (``System.CLUB3``, sheet 000): 「ルールは 4 人マージャンと同じ」, and
「二マンから八マン迄の牌を抜きます。」 (a hand holding one is refused), 「ポンはできますが、チーは
できません。」 (a chi is refused), 「ドラ表示牌に一マンが出たときは、九マンがドラ」
(``is_three_player``), 「三色同順のみできません」 (with no 二萬 to 八萬 no 三色同順 can be made).

日本健康麻将協会 (``System.JKMA``, sheet 001): 「食いタンあり・後付けあり」, 「採用していない役 →
人和・数え役満・流し満貫…」 (13 han and more is 三倍満: ``kazoe_limit`` SANBAIMAN), 「役満の複合
（ダブル・トリプルなど）は認めない」.

The parlour's 3-player rule (``System.PARLOR3``, sheet 003) asks what the library does not:
「点数計算はシンプルにしてあります。（一律30符計算）」 (fu is not counted: the answer says so and
pays by han from the sheet's table), 「喰いタン・後付け無しの完先ルール」 (no open tanyao; 完先 is
not checked), 「暗カンは1翻アップです。…2回以上暗カンしても1翻しか上がりません。」 (one han added
here), 「ツモピンフはありません（ツモった場合はツモのみ）」 (平和 dropped on tsumo), 抜きドラ
「北は抜きドラとしても…常時ドラ扱い」 (``num_nuki_dora``), 「役満の重複について、純粋な重複に限り
認めます。」 (double yakuman counts), 「数え役満は13翻からです。」. Its red fives (「赤2牌」) are not
picked: they are counted as dora by hand.

カンターン (``System.KANTAN``, sheet 004) has its own list and a table by han alone:
「符計算無し・親子の区別無し」, 「ピンフ無し」 and 「カン無し」 (平和 dropped, a kan refused),
「※ピンフ・カンに関連した役・海底・河底がありません。」, 「一発裏ドラ無し」 (not asked), 「ツモ 1 …
※鳴きがあっても成立」 (ツモ counts one han on an open hand too). Its own hands 一色三順, 三連刻,
一色四順, 四連刻 and 大車輪 are not known to the library: :attr:`Reading.notes` says so, and the
han are those found.

A hand that is not a win is answered with :class:`NotAWin` and the reason (``code``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from mahjong.constants import EAST, NORTH, SOUTH, WEST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld as LibMeld

from scoring import hands
from scoring.hands import System

SUITS = ("m", "p", "s", "z")
TILES: tuple[str, ...] = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10)) + tuple(
    f"{n}z" for n in range(1, 8)
)
"""Every tile's code: 1m … 9m (萬子), 1p … 9p (筒子), 1s … 9s (索子), 1z … 7z (東南西北白發中)."""

WINDS = ("1z", "2z", "3z", "4z")
MeldKind = Literal["pon", "chi", "minkan", "ankan"]
MELD_KINDS: tuple[MeldKind, ...] = ("pon", "chi", "minkan", "ankan")
HAND_TILES = 14
MAX_DORA = 5
MAX_NUKI = 4
THREE_PLAYER_GONE = frozenset(f"{n}m" for n in range(2, 9))
"""000: 「二マンから八マン迄の牌を抜きます。」"""


def tile_index(code: str) -> int:
    """The library's 34-index of a tile code."""
    return TILES.index(code)


@dataclass(frozen=True)
class Meld:
    """A called or declared set; ``tile`` is the set's tile (a chi: its lowest tile)."""

    kind: MeldKind
    tile: str

    @property
    def tiles(self) -> tuple[str, ...]:
        if self.kind == "chi":
            n, suit = int(self.tile[0]), self.tile[1]
            return tuple(f"{n + i}{suit}" for i in range(3))
        return (self.tile,) * (3 if self.kind == "pon" else 4)

    @property
    def is_kan(self) -> bool:
        return self.kind in ("minkan", "ankan")

    @property
    def opened(self) -> bool:
        return self.kind != "ankan"


@dataclass(frozen=True)
class HandInput:
    """A won hand. ``tiles`` are the concealed tiles, the winning tile among them (the last
    picked, ``win_tile``); ``melds`` the sets called or declared."""

    tiles: tuple[str, ...]
    win_tile: str
    melds: tuple[Meld, ...] = ()
    tsumo: bool = False
    seat_wind: str = "2z"
    round_wind: str = "1z"
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    dora: tuple[str, ...] = ()  # ドラ表示牌
    ura: tuple[str, ...] = ()  # 裏ドラ表示牌
    nuki: int = 0  # 抜きドラ (the parlour's 北)
    honba: int = 0
    sticks: int = 0

    @property
    def dealer(self) -> bool:
        return self.seat_wind == "1z"

    @property
    def is_open(self) -> bool:
        return any(m.opened for m in self.melds)


@dataclass(frozen=True)
class YakuLine:
    key: str  # the library's attribute name: riichi, tanyao, dora …
    han: int  # as counted in this hand (an open hand's reduced han)
    closed_han: int  # the same hand's han closed (食い下がり when more than ``han``)
    yakuman: int = 0  # yakuman counted by this line (the han are then 13 a yakuman)


@dataclass(frozen=True)
class FuLine:
    key: str  # base, menzen_ron, chiitoitsu, tsumo, the wait, a set, a pair
    fu: int


@dataclass(frozen=True)
class Reading:
    system: System
    yaku: tuple[YakuLine, ...]
    han: int
    fu: int | None  # None: the system counts no fu (the parlour, カンターン), or a yakuman
    fu_lines: tuple[FuLine, ...]
    fu_raw: int  # the sum before rounding up (0 where no fu is counted)
    yakuman: int
    scored: hands.Hand
    notes: tuple[str, ...] = field(default=())  # keys of what the library cannot do here
    is_open: bool = False


class NotAWin(ValueError):
    """The hand is not a win; ``code`` says why (``params`` its figures)."""

    def __init__(self, code: str, **params: int | str) -> None:
        self.code = code
        self.params = params
        super().__init__(f"{code}: {params}")


def options_for(system: System) -> OptionalRules:
    """The library's options of a rule system (the module's docstring quotes the sheets)."""
    three = system in (System.CLUB3, System.PARLOR3)
    return OptionalRules(
        has_open_tanyao=system is not System.PARLOR3,
        has_aka_dora=False,
        has_double_yakuman=system is System.PARLOR3,
        kazoe_limit=(
            HandConstants.KAZOE_SANBAIMAN if system is System.JKMA else HandConstants.KAZOE_LIMITED
        ),
        kiriage=system in (System.CLUB4, System.CLUB3, System.JKMA),
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        is_three_player=three,
    )


WIND_34 = {"1z": EAST, "2z": SOUTH, "3z": WEST, "4z": NORTH}


def _check(hand: HandInput, system: System) -> None:
    for code in (*hand.tiles, *(m.tile for m in hand.melds), *hand.dora, *hand.ura):
        if code not in TILES:
            raise NotAWin("bad_tile", tile=code[:4])
    for m in hand.melds:
        if m.kind == "chi" and (m.tile[1] == "z" or int(m.tile[0]) > 7):
            raise NotAWin("bad_chi", tile=m.tile)
    sets = len(hand.melds)
    wanted = HAND_TILES - 3 * sets
    if len(hand.tiles) != wanted:
        raise NotAWin("count", have=len(hand.tiles) + 3 * sets, wanted=HAND_TILES)
    if hand.win_tile not in hand.tiles:
        raise NotAWin("no_win_tile")
    every = [*hand.tiles, *(t for m in hand.melds for t in m.tiles)]
    for code in set(every):
        if every.count(code) > 4:
            raise NotAWin("five", tile=code)
    if len(hand.dora) > MAX_DORA or len(hand.ura) > MAX_DORA:
        raise NotAWin("too_many_dora", limit=MAX_DORA)
    if system is System.CLUB3:
        if any(code in THREE_PLAYER_GONE for code in every):
            raise NotAWin("three_player_man")
        if any(m.kind == "chi" for m in hand.melds):
            raise NotAWin("three_player_chi")
    if system is System.KANTAN:
        if any(m.is_kan for m in hand.melds):
            raise NotAWin("kantan_kan")
        if hand.ippatsu or hand.ura or hand.haitei or hand.houtei or hand.rinshan or hand.chankan:
            raise NotAWin("kantan_situation")
    if system is not System.PARLOR3 and hand.nuki:
        raise NotAWin("nuki")
    if hand.nuki > MAX_NUKI:
        raise NotAWin("nuki")
    if hand.ura and not (hand.riichi or hand.double_riichi):
        raise NotAWin("ura_without_riichi")


LIBRARY_ERRORS = {
    HandCalculator.ERR_HAND_NOT_WINNING: "shape",
    HandCalculator.ERR_NO_YAKU: "no_yaku",
    HandCalculator.ERR_OPEN_HAND_RIICHI: "open_riichi",
    HandCalculator.ERR_OPEN_HAND_DABURI: "open_riichi",
    HandCalculator.ERR_IPPATSU_WITHOUT_RIICHI: "ippatsu_without_riichi",
    HandCalculator.ERR_CHANKAN_WITH_TSUMO: "chankan_tsumo",
    HandCalculator.ERR_RINSHAN_WITHOUT_TSUMO: "rinshan_ron",
    HandCalculator.ERR_HAITEI_WITHOUT_TSUMO: "haitei_ron",
    HandCalculator.ERR_HOUTEI_WITH_TSUMO: "houtei_tsumo",
    HandCalculator.ERR_HAITEI_WITH_RINSHAN: "haitei_rinshan",
    HandCalculator.ERR_HOUTEI_WITH_CHANKAN: "houtei_chankan",
    HandCalculator.ERR_TENHOU_NOT_AS_DEALER: "tenhou_dealer",
    HandCalculator.ERR_TENHOU_WITHOUT_TSUMO: "tenhou_tsumo",
    HandCalculator.ERR_TENHOU_WITH_MELD: "tenhou_meld",
    HandCalculator.ERR_CHIIHOU_AS_DEALER: "chiihou_dealer",
    HandCalculator.ERR_CHIIHOU_WITHOUT_TSUMO: "tenhou_tsumo",
    HandCalculator.ERR_CHIIHOU_WITH_MELD: "tenhou_meld",
}

YAKU_KEYS: dict[str, str] = {}
"""The library's yaku class name → the attribute name of its ``YakuConfig`` (filled below)."""


def _yaku_keys() -> dict[str, str]:
    if not YAKU_KEYS:
        from mahjong.hand_calculating.yaku_config import YakuConfig

        YAKU_KEYS.update({type(v).__name__: k for k, v in vars(YakuConfig()).items()})
    return YAKU_KEYS


def _to_136(codes: list[str], used: dict[int, int]) -> list[int]:
    """136-indices for tile codes, each copy of a tile a different index."""
    out = []
    for code in codes:
        i = tile_index(code)
        n = used.get(i, 0)
        used[i] = n + 1
        out.append(i * 4 + n)
    return out


def read(hand: HandInput, system: System) -> Reading:
    """The hand's yaku, han, fu and payment under ``system``; :class:`NotAWin` when it is not
    a win (the reason in ``code``)."""
    _check(hand, system)
    used: dict[int, int] = {}
    lib_melds = []
    meld_tiles: list[int] = []
    for m in hand.melds:
        tiles136 = _to_136(list(m.tiles), used)
        meld_tiles += tiles136
        kind = {"pon": LibMeld.PON, "chi": LibMeld.CHI}.get(m.kind, LibMeld.KAN)
        lib_melds.append(LibMeld(meld_type=kind, tiles=tiles136, opened=m.opened))
    concealed = _to_136(list(hand.tiles), used)
    win = concealed[len(hand.tiles) - 1 - list(reversed(hand.tiles)).index(hand.win_tile)]
    dora_used: dict[int, int] = {}
    config = HandConfig(
        is_tsumo=hand.tsumo,
        is_riichi=hand.riichi and not hand.double_riichi,
        is_daburu_riichi=hand.double_riichi,
        is_ippatsu=hand.ippatsu,
        is_haitei=hand.haitei,
        is_houtei=hand.houtei,
        is_rinshan=hand.rinshan,
        is_chankan=hand.chankan,
        is_tenhou=hand.tenhou,
        is_chiihou=hand.chiihou,
        player_wind=WIND_34[hand.seat_wind],
        round_wind=WIND_34[hand.round_wind],
        options=options_for(system),
        num_nuki_dora=hand.nuki,
    )
    result = HandCalculator.estimate_hand_value(
        concealed + meld_tiles,
        win,
        melds=lib_melds,
        dora_indicators=_to_136(list(hand.dora), dora_used),
        ura_dora_indicators=_to_136(list(hand.ura), dora_used),
        config=config,
    )
    if result.error:
        raise NotAWin(LIBRARY_ERRORS.get(result.error, "shape"))
    assert result.yaku is not None and result.han is not None and result.fu is not None
    keys = _yaku_keys()
    lines: list[YakuLine] = []
    is_open = hand.is_open
    for y in result.yaku:
        key = keys.get(type(y).__name__, type(y).__name__)
        han = y.han_open if is_open else y.han_closed
        closed = y.han_closed if y.han_closed else han
        if not han:
            continue
        yakuman = han // 13 if y.is_yakuman else 0
        lines.append(YakuLine(key, han, closed, yakuman))
    notes: list[str] = []
    if system is System.KANTAN:
        lines = [line for line in lines if line.key != "pinfu"]
        if hand.tsumo and is_open:
            lines.insert(0, YakuLine("tsumo", 1, 1))
        notes.append("kantan_own_yaku")
    if system is System.PARLOR3:
        if hand.tsumo:
            lines = [line for line in lines if line.key != "pinfu"]
        if any(m.kind == "ankan" for m in hand.melds):
            lines.append(YakuLine("ankan_up", 1, 1))
        notes.append("parlour_flat_fu")
    if not any(line.key not in ("dora", "ura_dora", "aka_dora") for line in lines):
        raise NotAWin("no_yaku")
    yakuman = sum(line.yakuman for line in lines)
    if yakuman:
        lines = [line for line in lines if line.yakuman]
        han = 13 * yakuman
    else:
        han = sum(line.han for line in lines)
    rules = hands.RULES[system]
    fu: int | None = None
    fu_lines: tuple[FuLine, ...] = ()
    fu_raw = 0
    if rules.counts_fu:
        fu_lines = _fu_lines(result.fu_details or [], lines)
        fu_raw = sum(f.fu for f in fu_lines)
        fu = result.fu
    scored = hands.score(
        system,
        min(han, hands.HAN_LIMIT),
        fu if han < 5 else None,
        dealer=hand.dealer,
        tsumo=hand.tsumo,
        honba=hand.honba,
        sticks=hand.sticks,
        yakuman=yakuman,
    )
    return Reading(
        system,
        tuple(lines),
        han,
        fu if not yakuman else None,
        fu_lines if not yakuman else (),
        fu_raw if not yakuman else 0,
        yakuman,
        scored,
        tuple(notes),
        is_open=is_open,
    )


def _fu_lines(details: Sequence[Mapping[str, object]], lines: list[YakuLine]) -> tuple[FuLine, ...]:
    """The library's fu items, its base of a closed ron (30) told as 副底 20 and 門前ロン 10."""
    out: list[FuLine] = []
    chiitoitsu = any(line.key == "chiitoitsu" for line in lines)
    for d in details:
        reason, fu = str(d["reason"]), int(str(d["fu"]))
        if reason == "base" and chiitoitsu:
            out.append(FuLine("chiitoitsu", fu))
        elif reason == "base" and fu == 30:
            out += [FuLine("base", 20), FuLine("menzen_ron", 10)]
        else:
            out.append(FuLine(reason, fu))
    order = {"base": 0, "chiitoitsu": 0, "menzen_ron": 1, "tsumo": 99}
    return tuple(sorted(out, key=lambda f: order.get(f.key, 50)))
