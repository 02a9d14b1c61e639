"""A hand read from its tiles (scoring/yaku.py): hands worked by hand from the club's sheets,
each with its yaku, han, fu and what it pays; and every payment is the app's own
``hands.score`` for that han and fu. No database."""

from __future__ import annotations

import re

import pytest
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig

from scoring import hands
from scoring.hands import System
from scoring.yaku import HandInput, Meld, NotAWin, options_for, read

C4, C3, JK, P3, KT = System.CLUB4, System.CLUB3, System.JKMA, System.PARLOR3, System.KANTAN


def tiles(text: str) -> tuple[str, ...]:
    """'234m66p' → ('2m', '3m', '4m', '6p', '6p')."""
    out: list[str] = []
    for digits, suit in re.findall(r"(\d+)([mpsz])", text):
        out += [f"{d}{suit}" for d in digits]
    return tuple(out)


def melds(text: str) -> tuple[Meld, ...]:
    """'pon:5z chi:2m ankan:8s'."""
    kinds = {"pon": "pon", "chi": "chi", "minkan": "minkan", "ankan": "ankan"}
    return tuple(
        Meld(kinds[kind], tile)  # type: ignore[arg-type]
        for kind, tile in (part.split(":") for part in text.split())
    )


def hand(concealed: str, win: str, called: str = "", **kw: object) -> HandInput:
    for key in ("dora", "ura"):
        if key in kw:
            kw[key] = tiles(str(kw[key]))
    return HandInput(tiles(concealed), win, melds(called), **kw)  # type: ignore[arg-type]


# (name, system, hand, {yaku: han}, han, fu, payments (honba included), total)
CASES = [
    (
        "平和ツモ 20符2翻",
        C4,
        hand("234m789m123p45p99s6p", "6p", tsumo=True),
        {"tsumo": 1, "pinfu": 1},
        2,
        20,
        [700, 400, 400],
        1500,
    ),
    (
        "立直平和 ロン",
        C4,
        hand("234m789m123p45p99s6p", "6p", riichi=True),
        {"riichi": 1, "pinfu": 1},
        2,
        30,
        [2000],
        2000,
    ),
    (
        "七対子 ロン 25符",
        C4,
        hand("11m33m55p77p99s22z66z", "6z"),
        {"chiitoitsu": 2},
        2,
        25,
        [1600],
        1600,
    ),
    (
        "七対子 親ツモ 3翻25符",
        C4,
        hand("11m33m55p77p99s22z66z", "6z", tsumo=True, seat_wind="1z"),
        {"chiitoitsu": 2, "tsumo": 1},
        3,
        25,
        [1600, 1600, 1600],
        4800,
    ),
    (
        "喰いタン ロン (平和形 30符)",
        C4,
        hand("567p345s78s22p6s", "6s", "chi:2m"),
        {"tanyao": 1},
        1,
        30,
        [1000],
        1000,
    ),
    (
        "断幺九 門前 嵌張",
        C4,
        hand("24m567m345p678s55s3m", "3m"),
        {"tanyao": 1},
        1,
        40,
        [1300],
        1300,
    ),
    (
        "中 ポン 単騎",
        C4,
        hand("123m456p789s5s5s", "5s", "pon:7z"),
        {"chun": 1},
        1,
        30,
        [1000],
        1000,
    ),
    (
        "立直一発ツモ平和",
        C4,
        hand("234m789m123p45p99s6p", "6p", tsumo=True, riichi=True, ippatsu=True),
        {"riichi": 1, "ippatsu": 1, "tsumo": 1, "pinfu": 1},
        4,
        20,
        [2600, 1300, 1300],
        5200,
    ),
    (
        "一盃口 平和",
        C4,
        hand("223m34m567p789s55s4m", "4m"),
        {"pinfu": 1, "iipeiko": 1},
        2,
        30,
        [2000],
        2000,
    ),
    (
        "三色同順 門前",
        C4,
        hand("234m234p23s678s99p4s", "4s"),
        {"pinfu": 1, "sanshoku": 2},
        3,
        30,
        [3900],
        3900,
    ),
    (
        "三色同順 喰い下がり",
        C4,
        hand("234p234s678s9p9p", "9p", "chi:2m"),
        {"sanshoku": 1},
        1,
        30,
        [1000],
        1000,
    ),
    (
        "一気通貫 門前",
        C4,
        hand("1234567p89p567s55m", "9p"),
        {"pinfu": 1, "ittsu": 2},
        3,
        30,
        [3900],
        3900,
    ),
    (
        "一気通貫 喰い下がり",
        C4,
        hand("456789p567s5m5m", "5m", "chi:1p"),
        {"ittsu": 1},
        1,
        30,
        [1000],
        1000,
    ),
    (
        "混全帯幺九 門前",
        C4,
        hand("123m789m789p123s3z3z", "3z"),
        {"chantai": 2},
        2,
        40,
        [2600],
        2600,
    ),
    (
        "混全帯幺九 喰い下がり",
        C4,
        hand("789m789p123s3z3z", "3z", "chi:1m"),
        {"chantai": 1},
        1,
        30,
        [1000],
        1000,
    ),
    (
        "純全帯幺九 門前",
        C4,
        hand("123m789m789p123s9s9s", "9s"),
        {"junchan": 3},
        3,
        40,
        [5200],
        5200,
    ),
    (
        "純全帯幺九 喰い下がり",
        C4,
        hand("789m789p123s9s9s", "9s", "chi:1m"),
        {"junchan": 2},
        2,
        30,
        [2000],
        2000,
    ),
    (
        "対々和",
        C4,
        hand("333z6s6s", "6s", "pon:2m pon:5p pon:8s"),
        {"toitoi": 2},
        2,
        40,
        [2600],
        2600,
    ),
    ("三暗刻", C4, hand("222m555p888s35s9m9m4s", "4s"), {"sanankou": 2}, 2, 50, [3200], 3200),
    (
        "三色同刻",
        C4,
        hand("222p222s46m99p5m", "5m", "pon:2m"),
        {"sanshoku_douko": 2},
        2,
        40,
        [2600],
        2600,
    ),
    (
        "小三元 (白・發 つき)",
        C4,
        hand("7z7z12m456p3m", "3m", "pon:5z pon:6z"),
        {"shosangen": 2, "haku": 1, "hatsu": 1},
        4,
        40,
        [8000],
        8000,
    ),
    (
        "混一色 門前",
        C4,
        hand("123m34m777m1z1z555z5m", "5m"),
        {"honitsu": 3, "haku": 1},
        4,
        50,
        [8000],
        8000,
    ),
    (
        "混一色 喰い下がり",
        C4,
        hand("123m345m777m3z3z", "3z", "pon:5z"),
        {"honitsu": 2, "haku": 1},
        3,
        30,
        [3900],
        3900,
    ),
    (
        "清一色 門前 跳満",
        C4,
        hand("22m345m456m67m777m8m", "8m"),
        {"chinitsu": 6, "tanyao": 1},
        7,
        None,
        [12000],
        12000,
    ),
    (
        "清一色 喰い下がり 跳満",
        C4,
        hand("22m456m67m777m8m", "8m", "chi:3m"),
        {"chinitsu": 5, "tanyao": 1},
        6,
        None,
        [12000],
        12000,
    ),
    (
        "混老頭 対々和 場風",
        C4,
        hand("111s111z9s9s", "9s", "pon:1m pon:9p"),
        {"toitoi": 2, "honroto": 2, "round_wind_east": 1},
        5,
        None,
        [8000],
        8000,
    ),
    (
        "三槓子",
        C4,
        hand("35s9p9p4s", "4s", "minkan:2m minkan:5p ankan:8s"),
        {"sankantsu": 2},
        2,
        60,
        [3900],
        3900,
    ),
    (
        "二盃口 単騎",
        C4,
        hand("223344m556677p8s8s", "8s"),
        {"ryanpeiko": 3, "tanyao": 1},
        4,
        40,
        [8000],
        8000,
    ),
    (
        "ダブルリーチ 平和",
        C4,
        hand("234m789m123p45p99s6p", "6p", double_riichi=True),
        {"daburu_riichi": 2, "pinfu": 1},
        3,
        30,
        [3900],
        3900,
    ),
    (
        "海底摸月 (鳴き)",
        C4,
        hand("456m789m99s34s5s", "5s", "chi:1p", tsumo=True, haitei=True),
        {"haitei": 1},
        1,
        30,
        [500, 300, 300],
        1100,
    ),
    (
        "河底撈魚 (鳴き)",
        C4,
        hand("456m789m99s34s5s", "5s", "chi:1p", houtei=True),
        {"houtei": 1},
        1,
        30,
        [1000],
        1000,
    ),
    (
        "嶺上開花",
        C4,
        hand("456p789s99m45s3s", "3s", "minkan:2m", tsumo=True, rinshan=True),
        {"rinshan": 1},
        1,
        30,
        [500, 300, 300],
        1100,
    ),
    (
        "槍槓 喰いタン",
        C4,
        hand("567m34s678s5p5p5s", "5s", "chi:2p", chankan=True),
        {"chankan": 1, "tanyao": 1},
        2,
        30,
        [2000],
        2000,
    ),
    (
        "親 ロン 2本場 供託1本",
        C4,
        hand("234m789m123p45p99s6p", "6p", riichi=True, seat_wind="1z", honba=2, sticks=1),
        {"riichi": 1, "pinfu": 1},
        2,
        30,
        [3500],
        4500,
    ),
    (
        "ダブ東 親",
        C4,
        hand("123m456p789s5s5s", "5s", "pon:1z", seat_wind="1z"),
        {"seat_wind_east": 1, "round_wind_east": 1},
        2,
        30,
        [2900],
        2900,
    ),
    (
        "自風 南 ツモ 1本場",
        C4,
        hand("123m456p789s5s5s", "5s", "pon:2z", tsumo=True, honba=1),
        {"seat_wind_south": 1},
        1,
        30,
        [600, 400, 400],
        1400,
    ),
    (
        "符跳ね 30符4翻 切り上げ満貫",
        C4,
        hand("34m567p345s678s55p2m", "2m", riichi=True, dora="6s"),
        {"riichi": 1, "pinfu": 1, "tanyao": 1, "dora": 1},
        4,
        30,
        [8000],
        8000,
    ),
    (
        "符跳ね 60符3翻 切り上げ満貫",
        C4,
        hand("999s234p68p5s5s7p", "7p", "ankan:2m", riichi=True, ippatsu=True, dora="5p"),
        {"riichi": 1, "ippatsu": 1, "dora": 1},
        3,
        60,
        [8000],
        8000,
    ),
    (
        "裏ドラ",
        C4,
        hand("34m567p345s678s55p2m", "2m", riichi=True, ura="4p"),
        {"riichi": 1, "pinfu": 1, "tanyao": 1, "ura_dora": 3},
        6,
        None,
        [12000],
        12000,
    ),
    ("国士無双", C4, hand("119m19p19s123456z7z", "7z"), {"kokushi": 13}, 13, None, [32000], 32000),
    (
        "大四喜 ダブル役満なし",
        C4,
        hand("444z5m5m", "5m", "pon:1z pon:2z pon:3z"),
        {"daisuushi": 13},
        13,
        None,
        [32000],
        32000,
    ),
    (
        "大三元＋字一色 役満は一つ",
        C4,
        hand("111z2z2z", "2z", "pon:5z pon:6z pon:7z"),
        {"daisangen": 13, "tsuisou": 13},
        26,
        None,
        [32000],
        32000,
    ),
    (
        "四暗刻 親ツモ",
        C4,
        hand("111m999p555s77s3z3z7s", "7s", tsumo=True, seat_wind="1z"),
        {"suuankou": 13},
        13,
        None,
        [16000, 16000, 16000],
        48000,
    ),
    (
        "数え役満 (13翻)",
        C4,
        hand("223344m456m67m55m8m", "8m", tsumo=True, riichi=True, dora="1m"),
        {"riichi": 1, "tsumo": 1, "pinfu": 1, "tanyao": 1, "iipeiko": 1, "chinitsu": 6, "dora": 2},
        13,
        None,
        [16000, 8000, 8000],
        32000,
    ),
    (
        "協会: 13翻は三倍満",
        JK,
        hand("223344m456m67m55m8m", "8m", tsumo=True, riichi=True, dora="1m"),
        {"riichi": 1, "tsumo": 1, "pinfu": 1, "tanyao": 1, "iipeiko": 1, "chinitsu": 6, "dora": 2},
        13,
        None,
        [12000, 6000, 6000],
        24000,
    ),
    (
        "三人打ち 立直ツモ平和 (半分ずつ)",
        C3,
        hand("123p456p789s23s9m9m4s", "4s", tsumo=True, riichi=True),
        {"riichi": 1, "tsumo": 1, "pinfu": 1, "ittsu": 0},
        3,
        20,
        [1300, 1300],
        2600,
    ),
    (
        "三人打ち 一萬表示で九萬ドラ",
        C3,
        hand("123p456p789s23s9m9m4s", "4s", tsumo=True, riichi=True, dora="1m"),
        {"riichi": 1, "tsumo": 1, "pinfu": 1, "dora": 2},
        5,
        None,
        [4000, 4000],
        8000,
    ),
    (
        "雀荘三人: 大三元＋字一色 ダブル役満",
        P3,
        hand("111z2z2z", "2z", "pon:5z pon:6z pon:7z"),
        {"daisangen": 13, "tsuisou": 13},
        26,
        None,
        [64000],
        64000,
    ),
    (
        "雀荘三人: ツモのみ 500オール",
        P3,
        hand("123p456p789s23s9m9m4s", "4s", tsumo=True),
        {"tsumo": 1},
        1,
        None,
        [500, 500],
        1000,
    ),
    (
        "雀荘三人: 一律30符 立直平和",
        P3,
        hand("123p456p789s23s9m9m4s", "4s", riichi=True),
        {"riichi": 1, "pinfu": 1},
        2,
        None,
        [2000],
        2000,
    ),
    (
        "雀荘三人: 抜きドラ 2",
        P3,
        hand("123p456p789s23s9m9m4s", "4s", riichi=True, nuki=2),
        {"riichi": 1, "pinfu": 1, "dora": 2},
        4,
        None,
        [8000],
        8000,
    ),
    (
        "雀荘三人: 暗カン1翻アップ",
        P3,
        hand("123p456p23s9m9m4s", "4s", "ankan:7z"),
        {"chun": 1, "ankan_up": 1},
        2,
        None,
        [2000],
        2000,
    ),
    (
        "カンターン: 平和なし",
        KT,
        hand("234m789m123p45p99s6p", "6p", riichi=True),
        {"riichi": 1},
        1,
        None,
        [1500],
        1500,
    ),
    (
        "カンターン: 鳴いてもツモ",
        KT,
        hand("456m789m99s34s5s", "5s", "pon:7z", tsumo=True),
        {"tsumo": 1, "chun": 1},
        2,
        None,
        [1000, 1000, 1000],
        3000,
    ),
]


def _check_case(system, h, yaku, han, fu, payments, total):
    reading = read(h, system)
    expected_yaku = {k: v for k, v in yaku.items() if v}
    assert {line.key: line.han for line in reading.yaku} == expected_yaku
    assert not any(line.key == k for k, v in yaku.items() if not v for line in reading.yaku)
    assert reading.han == han
    if fu is not None and han < 5:
        assert reading.fu == fu
    assert [p.points for p in reading.scored.payments] == payments
    assert reading.scored.total == total
    return reading


@pytest.mark.parametrize(
    ("system", "h", "yaku", "han", "fu", "payments", "total"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_worked_hands(system, h, yaku, han, fu, payments, total):
    _check_case(system, h, yaku, han, fu, payments, total)


def test_there_are_forty_worked_hands_or_more():
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_payment_is_the_apps_own_for_its_han_and_fu(case):
    _, system, h, *_ = case
    reading = read(h, system)
    assert reading.scored == hands.score(
        system,
        min(reading.han, hands.HAN_LIMIT),
        reading.fu if reading.han < 5 else None,
        dealer=h.dealer,
        tsumo=h.tsumo,
        honba=h.honba,
        sticks=h.sticks,
        yakuman=reading.yakuman,
    )


@pytest.mark.parametrize(
    "case", [c for c in CASES if c[1] is C4 and c[4] != 26], ids=lambda c: c[0]
)
def test_the_club_table_agrees_with_the_librarys_own_figures(case):
    """An independent check of the 4-player cases: the library's own payment, with 切り上げ
    満貫 and one yakuman, is the same as ``hands.score``'s."""
    _, system, h, *_ = case
    reading = read(h, system)
    from scoring.yaku import TILES

    idx: dict[int, int] = {}

    def t136(codes):
        out = []
        for c in codes:
            i = TILES.index(c)
            out.append(i * 4 + idx.get(i, 0))
            idx[i] = idx.get(i, 0) + 1
        return out

    from mahjong.meld import Meld as LM

    lib_melds, meld_tiles = [], []
    for m in h.melds:
        ts = t136(m.tiles)
        meld_tiles += ts
        kind = {"pon": LM.PON, "chi": LM.CHI}.get(m.kind, LM.KAN)
        lib_melds.append(LM(meld_type=kind, tiles=ts, opened=m.opened))
    conc = t136(h.tiles)
    win = conc[len(h.tiles) - 1 - list(reversed(h.tiles)).index(h.win_tile)]
    di: dict[int, int] = {}

    def d136(codes):
        out = []
        for c in codes:
            i = TILES.index(c)
            out.append(i * 4 + 3 - di.get(i, 0))
            di[i] = di.get(i, 0) + 1
        return out

    winds = {"1z": 27, "2z": 28, "3z": 29, "4z": 30}
    result = HandCalculator.estimate_hand_value(
        conc + meld_tiles,
        win,
        melds=lib_melds,
        dora_indicators=d136(h.dora),
        ura_dora_indicators=d136(h.ura),
        config=HandConfig(
            is_tsumo=h.tsumo,
            is_riichi=h.riichi,
            is_ippatsu=h.ippatsu,
            is_daburu_riichi=h.double_riichi,
            is_haitei=h.haitei,
            is_houtei=h.houtei,
            is_rinshan=h.rinshan,
            is_chankan=h.chankan,
            player_wind=winds[h.seat_wind],
            round_wind=winds[h.round_wind],
            tsumi_number=h.honba,
            kyoutaku_number=h.sticks,
            options=options_for(system),
        ),
    )
    assert result.error is None
    assert result.cost is not None
    # the library adds 100 a honba to each tsumo payer and 300 to a ron, as the club does
    assert reading.scored.total == result.cost["total"]


@pytest.mark.parametrize(
    ("name", "system", "h", "code"),
    [
        ("役なし (門前ロン 嵌張)", C4, hand("123m456p789s24s9m9m3s", "3s"), "no_yaku"),
        ("鳴いた一盃口は役にならない", C4, hand("234m567p789s5s5s", "5s", "chi:2m"), "no_yaku"),
        ("ドラだけでは和了れない", C4, hand("123m456p789s24s9m9m3s", "3s", dora="8m"), "no_yaku"),
        ("形になっていない", C4, hand("1357m2468p19s1234z", "4z"), "shape"),
        ("十三枚しかない", C4, hand("234m789m123p45p99s", "9s"), "count"),
        ("同じ牌が五枚", C4, hand("11111m234p567s789s", "1m"), "five"),
        ("三人打ちに二萬", C3, hand("234m789m123p45p99s6p", "6p", riichi=True), "three_player_man"),
        ("三人打ちでチー", C3, hand("456p789s99m34s5s", "5s", "chi:1p"), "three_player_chi"),
        ("鳴いてリーチ", C4, hand("456m789m99s34s5s", "5s", "chi:1p", riichi=True), "open_riichi"),
        (
            "ロンで嶺上開花",
            C4,
            hand("456p789s99m45s3s", "3s", "minkan:2m", rinshan=True),
            "rinshan_ron",
        ),
        (
            "カンターンにカンはない",
            KT,
            hand("456p789s99m45s3s", "3s", "minkan:2m", tsumo=True),
            "kantan_kan",
        ),
        ("カンターン: 平和だけでは和了れない", KT, hand("234m789m123p45p99s6p", "6p"), "no_yaku"),
        (
            "リーチなしの裏ドラ",
            C4,
            hand("34m567p345s678s55p2m", "2m", ura="4p"),
            "ura_without_riichi",
        ),
    ],
)
def test_what_is_not_a_win_is_told_with_its_reason(name, system, h, code):
    with pytest.raises(NotAWin) as refused:
        read(h, system)
    assert refused.value.code == code, name


def test_the_club_options_are_the_sheets():
    club = options_for(C4)
    assert club.has_open_tanyao and not club.has_aka_dora and club.kiriage
    assert not club.has_double_yakuman and not club.fu_for_pinfu_tsumo and club.fu_for_open_pinfu
    assert options_for(C3).is_three_player and not options_for(C3).has_double_yakuman
    assert not options_for(P3).has_open_tanyao and options_for(P3).has_double_yakuman


def test_the_fu_of_a_closed_ron_is_told_item_by_item():
    """副底 20, 門前ロン 10, a closed simple pon 4 each (×3), 嵌張 2: 44, rounded up to 50."""
    reading = read(hand("222m555p888s35s9m9m4s", "4s"), C4)
    assert [(f.key, f.fu) for f in reading.fu_lines] == [
        ("base", 20),
        ("menzen_ron", 10),
        ("closed_pon", 4),
        ("closed_pon", 4),
        ("closed_pon", 4),
        ("kanchan", 2),
    ]
    assert reading.fu_raw == 44 and reading.fu == 50


def test_the_fu_of_a_tsumo_counts_two():
    reading = read(hand("24m567m345p678s55s3m", "3m", tsumo=True), C4)
    assert ("tsumo", 2) in [(f.key, f.fu) for f in reading.fu_lines]
    assert reading.fu_raw == 24 and reading.fu == 30


def test_every_example_of_the_hands_makes_its_hand():
    """Each example of the 役一覧 is read by scoring/yaku.py as a win with that hand."""
    from scoring.yaku_list import STANDARD

    for entry in STANDARD:
        assert entry.example is not None, entry.key
        reading = read(entry.example.hand(), C4)
        keys = [line.key for line in reading.yaku]
        assert any(k.startswith(entry.key) for k in keys), (entry.key, keys)
