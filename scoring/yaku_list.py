"""The hands (役) as people read them: each one's name, a line of what it is, an example hand,
and each rule set's list of hands (役一覧) with the han closed and open and what its sheet does
not adopt, quoted (``/work/shared/rules/``). Names are English source strings translated in
the Japanese catalogue; the examples are read by ``scoring/yaku.py`` in the tests, so each one
is a hand that really makes its yaku.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.hands import System
from scoring.yaku import HandInput, Meld, MeldKind

NAMES: dict[str, Promise] = {
    "riichi": _("Riichi"),
    "daburu_riichi": _("Double riichi"),
    "ippatsu": _("Ippatsu"),
    "tsumo": _("Menzen tsumo"),
    "pinfu": _("Pinfu"),
    "tanyao": _("Tanyao"),
    "iipeiko": _("Iipeikou"),
    "haku": _("Yakuhai: white dragon"),
    "hatsu": _("Yakuhai: green dragon"),
    "chun": _("Yakuhai: red dragon"),
    "seat_wind_east": _("Seat wind: east"),
    "seat_wind_south": _("Seat wind: south"),
    "seat_wind_west": _("Seat wind: west"),
    "seat_wind_north": _("Seat wind: north"),
    "round_wind_east": _("Round wind: east"),
    "seat_wind": _("Seat wind"),
    "round_wind": _("Round wind"),
    "round_wind_south": _("Round wind: south"),
    "round_wind_west": _("Round wind: west"),
    "round_wind_north": _("Round wind: north"),
    "haitei": _("Haitei"),
    "houtei": _("Houtei"),
    "rinshan": _("Rinshan kaihou"),
    "chankan": _("Chankan"),
    "sanshoku": _("Sanshoku doujun"),
    "ittsu": _("Ittsu"),
    "chantai": _("Chanta"),
    "toitoi": _("Toitoi"),
    "sanankou": _("San ankou"),
    "sanshoku_douko": _("Sanshoku doukou"),
    "sankantsu": _("San kantsu"),
    "chiitoitsu": _("Chiitoitsu"),
    "honroto": _("Honroutou"),
    "shosangen": _("Shousangen"),
    "honitsu": _("Honitsu"),
    "junchan": _("Junchan"),
    "ryanpeiko": _("Ryanpeikou"),
    "chinitsu": _("Chinitsu"),
    "kokushi": _("Kokushi musou"),
    "daburu_kokushi": _("Kokushi musou, thirteen-sided wait"),
    "suuankou": _("Suu ankou"),
    "suuankou_tanki": _("Suu ankou, pair wait"),
    "daisangen": _("Daisangen"),
    "shosuushi": _("Shousuushii"),
    "daisuushi": _("Daisuushii"),
    "tsuisou": _("Tsuuiisou"),
    "ryuisou": _("Ryuuiisou"),
    "chinroto": _("Chinroutou"),
    "chuuren_poutou": _("Chuuren poutou"),
    "daburu_chuuren_poutou": _("Junsei chuuren poutou"),
    "suukantsu": _("Suu kantsu"),
    "tenhou": _("Tenhou"),
    "chiihou": _("Chiihou"),
    "dora": _("Dora"),
    "ura_dora": _("Ura dora"),
    "aka_dora": _("Red five"),
    "ankan_up": _("Concealed kan (one han up)"),
    "renhou": _("Renhou"),
    "nagashi_mangan": _("Nagashi mangan"),
    "isshoku_sanjun": _("Isshoku sanjun"),
    "sanrenkou": _("Sanrenkou"),
    "isshoku_yonjun": _("Isshoku yonjun"),
    "suurenkou": _("Suurenkou"),
    "daisharin": _("Daisharin"),
    "shiisanputaa": _("Shiisan puutaa"),
    "hyakumangoku": _("Hyakumangoku"),
    "kanburi": _("Kan furi"),
    "kazoe_yakuman": _("Counted yakuman (13 han)"),
}
"""Every hand's name: the keys of ``scoring.yaku`` and of the lists below."""

FU_NAMES: dict[str, Promise] = {
    "base": _("Base (futei)"),
    "menzen_ron": _("Closed hand, ron"),
    "chiitoitsu": _("Seven pairs"),
    "tsumo": _("Tsumo"),
    "hand_without_fu": _("Open pinfu shape, ron"),
    "penchan": _("Edge wait"),
    "kanchan": _("Closed wait"),
    "pair_wait": _("Pair wait"),
    "valued_pair": _("Pair of value tiles"),
    "double_valued_pair": _("Pair of the double wind"),
    "closed_pon": _("Concealed triplet of simples"),
    "open_pon": _("Open triplet of simples"),
    "closed_terminal_pon": _("Concealed triplet of terminals or honors"),
    "open_terminal_pon": _("Open triplet of terminals or honors"),
    "closed_kan": _("Concealed kan of simples"),
    "open_kan": _("Open kan of simples"),
    "closed_terminal_kan": _("Concealed kan of terminals or honors"),
    "open_terminal_kan": _("Open kan of terminals or honors"),
}


@dataclass(frozen=True)
class Example:
    """An example hand: concealed tiles (the winning tile last), melds ("pon:5z chi:2m"), and
    the situation (the fields of ``HandInput``)."""

    concealed: str
    melds: str = ""
    situation: dict[str, Any] = field(default_factory=dict)

    def tiles(self) -> tuple[str, ...]:
        out: list[str] = []
        for digits, suit in re.findall(r"(\d+)([mpsz])", self.concealed):
            out += [f"{d}{suit}" for d in digits]
        return tuple(out)

    def meld_list(self) -> tuple[Meld, ...]:
        out = []
        for part in self.melds.split():
            kind, tile = part.split(":")
            out.append(Meld(_meld_kind(kind), tile))
        return tuple(out)

    def hand(self) -> HandInput:
        tiles = self.tiles()
        situation = dict(self.situation)
        for key in ("dora", "ura"):
            if key in situation:
                situation[key] = Example(situation[key]).tiles()
        return HandInput(tiles, tiles[-1], self.meld_list(), **situation)


def _meld_kind(kind: str) -> MeldKind:
    for k in ("pon", "chi", "minkan", "ankan"):
        if k == kind:
            return k
    raise ValueError(kind)


@dataclass(frozen=True)
class Entry:
    key: str
    closed: int  # han closed (13: a yakuman)
    open: int | None  # han open (None: a closed hand only, 門前のみ)
    explanation: Promise
    example: Example | None = None
    note: Promise | str = ""

    @property
    def name(self) -> Promise:
        return NAMES[self.key]

    @property
    def yakuman(self) -> bool:
        return self.closed >= 13

    @property
    def reduced(self) -> bool:
        """食い下がり: fewer han open than closed."""
        return self.open is not None and self.open < self.closed


E = Example
STANDARD: tuple[Entry, ...] = (
    Entry(
        "riichi",
        1,
        None,
        _("Declare ready with a closed hand and put out a 1,000 stick."),
        E("234m789m123p45p99s6p", situation={"riichi": True}),
    ),
    Entry(
        "ippatsu",
        1,
        None,
        _("Win within one go-round after your riichi, no call between."),
        E("234m789m123p45p99s6p", situation={"riichi": True, "ippatsu": True}),
    ),
    Entry(
        "daburu_riichi",
        2,
        None,
        _("Riichi on your very first discard, no call before it."),
        E("234m789m123p45p99s6p", situation={"double_riichi": True}),
    ),
    Entry(
        "tsumo",
        1,
        None,
        _("Draw your winning tile yourself with a closed hand."),
        E("24m567m345p678s55s3m", situation={"tsumo": True}),
    ),
    Entry(
        "pinfu",
        1,
        None,
        _("Four runs, a pair of no value, and a two-sided wait."),
        E("234m789m123p45p99s6p", situation={"riichi": True}),
    ),
    Entry(
        "tanyao",
        1,
        1,
        _("Only the tiles 2 to 8, no terminals and no honors."),
        E("567p345s78s22p6s", "chi:2m"),
    ),
    Entry("iipeiko", 1, None, _("Two identical runs in the same suit."), E("223m34m567p789s55s4m")),
    Entry("haku", 1, 1, _("A triplet of white dragons."), E("123m456p789s5s5s", "pon:5z")),
    Entry("hatsu", 1, 1, _("A triplet of green dragons."), E("123m456p789s5s5s", "pon:6z")),
    Entry("chun", 1, 1, _("A triplet of red dragons."), E("123m456p789s5s5s", "pon:7z")),
    Entry(
        "seat_wind", 1, 1, _("A triplet of your own seat's wind."), E("123m456p789s5s5s", "pon:2z")
    ),
    Entry(
        "round_wind",
        1,
        1,
        _("A triplet of the round's wind (east in the east round)."),
        E("123m456p789s5s5s", "pon:1z"),
    ),
    Entry(
        "haitei",
        1,
        1,
        _("Win by drawing the last tile of the wall."),
        E("456m789m99s34s5s", "chi:1p", {"tsumo": True, "haitei": True}),
    ),
    Entry(
        "houtei",
        1,
        1,
        _("Win on the last discard of the hand."),
        E("456m789m99s34s5s", "chi:1p", {"houtei": True}),
    ),
    Entry(
        "rinshan",
        1,
        1,
        _("Win on the replacement tile drawn after a kan."),
        E("456p789s99m45s3s", "minkan:2m", {"tsumo": True, "rinshan": True}),
    ),
    Entry(
        "chankan",
        1,
        1,
        _("Win on the tile another player adds to a triplet to make a kan."),
        E("567m34s678s5p5p5s", "chi:2p", {"chankan": True}),
    ),
    Entry("sanshoku", 2, 1, _("The same run in all three suits."), E("234m234p23s678s99p4s")),
    Entry("ittsu", 2, 1, _("1-2-3, 4-5-6 and 7-8-9 of one suit."), E("1234567p8p567s55m9p")),
    Entry(
        "chantai",
        2,
        1,
        _("Every set and the pair hold a terminal or an honor."),
        E("123m789m789p123s3z3z"),
    ),
    Entry(
        "toitoi",
        2,
        2,
        _("Four triplets (or kans) and a pair."),
        E("333z6s6s", "pon:2m pon:5p pon:8s"),
    ),
    Entry("sanankou", 2, 2, _("Three triplets made without calling."), E("222m555p888s35s9m9m4s")),
    Entry(
        "sanshoku_douko",
        2,
        2,
        _("The same triplet in all three suits."),
        E("222p222s46m99p5m", "pon:2m"),
    ),
    Entry("sankantsu", 2, 2, _("Three kans."), E("35s9p9p4s", "minkan:2m minkan:5p ankan:8s")),
    Entry("chiitoitsu", 2, None, _("Seven different pairs (25 fu)."), E("11m33m55p77p99s22z66z")),
    Entry("honroto", 2, 2, _("Only terminals and honors."), E("111s111z9s9s", "pon:1m pon:9p")),
    Entry(
        "shosangen",
        2,
        2,
        _("Two dragon triplets and a dragon pair."),
        E("7z7z12m456p3m", "pon:5z pon:6z"),
    ),
    Entry("honitsu", 3, 2, _("One suit and honors only."), E("123m345m777m3z3z", "pon:5z")),
    Entry(
        "junchan",
        3,
        2,
        _("Every set and the pair hold a terminal, no honors."),
        E("123m789m789p123s9s9s"),
    ),
    Entry("ryanpeiko", 3, None, _("Two pairs of identical runs."), E("223344m556677p8s8s")),
    Entry("chinitsu", 6, 5, _("One suit only."), E("22m345m456m67m777m8m")),
    Entry(
        "kokushi",
        13,
        None,
        _("One of each terminal and honor, and a pair of one of them."),
        E("119m19p19s123456z7z"),
    ),
    Entry(
        "suuankou",
        13,
        None,
        _("Four triplets made without calling."),
        E("111m999p555s77s3z3z7s", situation={"tsumo": True}),
    ),
    Entry("daisangen", 13, 13, _("Triplets of all three dragons."), E("123m5p5p55z666z777z5z", "")),
    Entry(
        "shosuushi",
        13,
        13,
        _("Three wind triplets and a wind pair."),
        E("333z4z5m5m5m4z", "pon:1z pon:2z"),
    ),
    Entry(
        "daisuushi", 13, 13, _("Triplets of all four winds."), E("444z5m5m", "pon:1z pon:2z pon:3z")
    ),
    Entry("tsuisou", 13, 13, _("Honors only."), E("111z2z2z", "pon:5z pon:6z pon:7z")),
    Entry(
        "ryuisou",
        13,
        13,
        _("Only the green tiles: 2, 3, 4, 6, 8 of bamboo and green dragon."),
        E("234s234s666s6z6z8s8s8s"),
    ),
    Entry("chinroto", 13, 13, _("Only 1s and 9s."), E("111m999m111p99p9s9s9p", "")),
    Entry(
        "chuuren_poutou",
        13,
        None,
        _("1112345678999 of one suit and one more of it."),
        E("1112345789999m6m"),
    ),
    Entry("suukantsu", 13, 13, _("Four kans."), E("5s5s", "minkan:2m minkan:5p ankan:8s ankan:1z")),
    Entry(
        "tenhou",
        13,
        None,
        _("The dealer is complete on the first draw."),
        E("234m789m123p45p99s6p", situation={"tsumo": True, "tenhou": True, "seat_wind": "1z"}),
    ),
    Entry(
        "chiihou",
        13,
        None,
        _("A non-dealer is complete on the first draw, no call before."),
        E("234m789m123p45p99s6p", situation={"tsumo": True, "chiihou": True}),
    ),
    Entry(
        "dora",
        1,
        1,
        _("Each dora tile counts one han (not a yaku by itself)."),
        E("34m567p345s678s55p2m", situation={"riichi": True, "dora": "6s"}),
    ),
    Entry(
        "ura_dora",
        1,
        None,
        _("After a riichi win, the tile under each dora indicator."),
        E("34m567p345s678s55p2m", situation={"riichi": True, "ura": "4p"}),
    ),
)

STANDARD_KEYS = {entry.key for entry in STANDARD}


@dataclass(frozen=True)
class NotAdopted:
    key: str
    note: Promise | str = ""


@dataclass(frozen=True)
class YakuList:
    system: System
    entries: tuple[Entry, ...]
    not_adopted: tuple[NotAdopted, ...]
    quote: str  # the sheet's line on the hands it does not adopt
    notes: tuple[Promise, ...] = ()


def _without(*keys: str) -> tuple[Entry, ...]:
    return tuple(e for e in STANDARD if e.key not in keys)


_CLUB_NOT = tuple(
    NotAdopted(k)
    for k in (
        "renhou",
        "nagashi_mangan",
        "shiisanputaa",
        "daisharin",
        "hyakumangoku",
        "sanrenkou",
        "suurenkou",
        "kanburi",
    )
)

_DOUBLE = _("Two yakuman in one hand count as one.")

# 004: 「手役一覧 役名 翻数→食い下がり」, its own list.
KANTAN: tuple[Entry, ...] = (
    Entry("tsumo", 1, 1, _("Draw your winning tile yourself; counts with calls too.")),
    Entry("riichi", 1, None, STANDARD[0].explanation),
    Entry("daburu_riichi", 2, None, STANDARD[2].explanation),
    Entry("tanyao", 1, 1, STANDARD[5].explanation),
    Entry("haku", 1, 1, STANDARD[7].explanation),
    Entry("hatsu", 1, 1, STANDARD[8].explanation),
    Entry("chun", 1, 1, STANDARD[9].explanation),
    Entry("seat_wind", 1, 1, STANDARD[10].explanation, note=_("Double wind: 2 han.")),
    Entry("round_wind", 1, 1, STANDARD[11].explanation),
    Entry("iipeiko", 1, None, STANDARD[6].explanation),
    Entry("ryanpeiko", 3, None, _("Two pairs of identical runs.")),
    Entry("isshoku_sanjun", 3, None, _("Three identical runs in one suit.")),
    Entry("sanshoku", 2, 1, _("The same run in all three suits.")),
    Entry("ittsu", 2, 1, _("1-2-3, 4-5-6 and 7-8-9 of one suit.")),
    Entry("chiitoitsu", 2, None, _("Seven pairs; four of a kind may count as two pairs.")),
    Entry("toitoi", 2, 2, _("Four triplets and a pair.")),
    Entry("sanankou", 2, 2, _("Three triplets made without calling.")),
    Entry("sanshoku_douko", 2, 2, _("The same triplet in all three suits.")),
    Entry("shosangen", 2, 2, _("Two dragon triplets and a dragon pair.")),
    Entry("sanrenkou", 2, 2, _("Three triplets of one suit in a row, e.g. 333 444 555.")),
    Entry("chantai", 2, 1, _("Every set and the pair hold a terminal or an honor.")),
    Entry("junchan", 3, 2, _("Every set and the pair hold a terminal, no honors.")),
    Entry("honroto", 2, 2, _("Only terminals and honors.")),
    Entry("honitsu", 3, 2, _("One suit and honors only.")),
    Entry("chinitsu", 6, 5, _("One suit only.")),
    Entry("kokushi", 13, None, _("One of each terminal and honor, and a pair of one of them.")),
    Entry("suuankou", 13, None, _("Four triplets made without calling.")),
    Entry("daisangen", 13, 13, _("Triplets of all three dragons.")),
    Entry("shosuushi", 13, 13, _("Three wind triplets and a wind pair.")),
    Entry("daisuushi", 13, 13, _("Triplets of all four winds.")),
    Entry("tsuisou", 13, 13, _("Honors only.")),
    Entry("chinroto", 13, 13, _("Only 1s and 9s.")),
    Entry("ryuisou", 13, 13, _("Only the green tiles: 2, 3, 4, 6, 8 of bamboo and green dragon.")),
    Entry("chuuren_poutou", 13, None, _("1112345678999 of one suit and one more of it.")),
    Entry("isshoku_yonjun", 13, 13, _("Four identical runs in one suit.")),
    Entry("suurenkou", 13, 13, _("Four triplets of one suit in a row.")),
    Entry("daisharin", 13, 13, _("2233445566778 8 of circles: seven pairs in a row.")),
    Entry("tenhou", 13, 13, _("The dealer is complete on the first draw.")),
    Entry("chiihou", 13, 13, _("A non-dealer is complete on the first draw.")),
)


def _no_open_tanyao(entry: Entry) -> Entry:
    """003 「喰いタン・後付け無しの完先ルール」: tanyao is a closed hand's only."""
    if entry.key != "tanyao":
        return entry
    return Entry(
        entry.key, entry.closed, None, entry.explanation, None, _("Not open (no open tanyao).")
    )


LISTS: dict[System, YakuList] = {
    System.CLUB4: YakuList(
        System.CLUB4,
        STANDARD,
        _CLUB_NOT,
        "「ローカルルールは一切採用しません。(役としての人和、流し満貫、十三不塔、大車輪、百万石、"
        "三連刻、四連刻、槓振りなど…)」(002 ⑱)",
        (_DOUBLE, _("Pinfu tsumo is 20 fu 2 han; seven pairs 25 fu 2 han.")),
    ),
    System.CLUB3: YakuList(
        System.CLUB3,
        _without("sanshoku"),
        (NotAdopted("sanshoku", _("No 2 to 8 of characters: cannot be made.")), *_CLUB_NOT),
        "「手役等は、4 人マージャンと同じですが、三色同順のみできません」(000)",
        (_DOUBLE, _("No chi; 1 of characters as indicator makes 9 of characters dora.")),
    ),
    System.JKMA: YakuList(
        System.JKMA,
        STANDARD,
        tuple(
            NotAdopted(k)
            for k in (
                "renhou",
                "kazoe_yakuman",
                "nagashi_mangan",
                "shiisanputaa",
                "daisharin",
                "sanrenkou",
                "kanburi",
            )
        ),
        "「採用していない役、ルール → 人和・数え役満・流し満貫・十三不搭・大車輪・三連刻・カン振り・"
        "二翻しばり 等」(001)",
        (_DOUBLE, _("13 han or more is a triple mangan.")),
    ),
    System.PARLOR3: YakuList(
        System.PARLOR3,
        (
            *(_no_open_tanyao(e) for e in STANDARD),
            Entry("ankan_up", 1, 1, _("A concealed kan adds one han (once, however many).")),
            Entry(
                "renhou",
                8,
                None,
                _("Win on a discard before your first draw: a double mangan, no other hand added."),
            ),
            Entry(
                "nagashi_mangan",
                8,
                8,
                _("Only terminals and honors discarded, none called: a double mangan."),
            ),
        ),
        (),
        "「人和は倍満（他の手役は加算しません。）」「流し満貫は3人麻雀では倍満とします。」(003)",
        (
            _("Fu are not counted: 30 fu for every hand."),
            _("North taken out (nuki dora) counts as dora."),
            _("No pinfu on tsumo: a tsumo counts only menzen tsumo."),
            _("Two yakuman in one hand count as two."),
        ),
    ),
    System.KANTAN: YakuList(
        System.KANTAN,
        KANTAN,
        tuple(
            NotAdopted(k)
            for k in (
                "pinfu",
                "rinshan",
                "chankan",
                "haitei",
                "houtei",
                "sankantsu",
                "suukantsu",
                "ippatsu",
                "ura_dora",
            )
        ),
        "「※ピンフ・カンに関連した役・海底・河底がありません。」「一発裏ドラ無し」(004)",
        (_("No fu and no difference between dealer and non-dealer: paid by han."),),
    ),
}
