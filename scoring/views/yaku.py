"""点数を調べる: a hand entered tile by tile, read by ``scoring/yaku.py`` under a rule set, and
each rule set's list of hands (役一覧), printable on A4.

As on the calculator, the inputs live in the address (GET) and every button is a link: it
works without JavaScript, and a hand can be bookmarked or shown to the table. The address:
``t`` the concealed tiles in the order tapped (the last is the winning tile), ``m`` the melds
(``p5z.c2m``: p ポン, c チー, k 明カン, a 暗カン), ``d``/``u`` the dora and ura dora indicators,
``mode`` what a tile tap does, and the situation. Odd input is left out with a message, never
an error page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring import hands
from scoring.forms import query_number
from scoring.hands import System
from scoring.models import RuleSet
from scoring.notation import points
from scoring.reports.score_table import level_name, system_for, system_name
from scoring.yaku import HAND_TILES, TILES, HandInput, Meld, NotAWin, Reading, read
from scoring.yaku_list import FU_NAMES, LISTS, NAMES

MODES = ("hand", "pon", "chi", "minkan", "ankan", "dora", "ura")
MELD_CODES = {"p": "pon", "c": "chi", "k": "minkan", "a": "ankan"}
CODE_OF_MELD = {v: k for k, v in MELD_CODES.items()}
FLAGS = ("riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan")
WIND_CODES = ("1z", "2z", "3z", "4z")
TILE_RE = re.compile(r"[1-9][mps]|[1-7]z")


def tile_face(code: str) -> dict[str, str]:
    """How a tile is drawn: a number over its suit (一 over 萬), or an honor's one kanji."""
    n, suit = code[0], code[1]
    if suit == "z":
        return {"top": "東南西北白發中"[int(n) - 1], "bottom": "", "suit": "z", "code": code}
    top = "一二三四五六七八九"[int(n) - 1] if suit == "m" else n
    return {
        "top": top,
        "bottom": {"m": "萬", "p": "筒", "s": "索"}[suit],
        "suit": suit,
        "code": code,
    }


def tile_name(code: str) -> str:
    face = tile_face(code)
    return face["top"] + face["bottom"]


@dataclass
class State:
    rule: int | None = None
    tiles: list[str] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    dora: list[str] = field(default_factory=list)
    ura: list[str] = field(default_factory=list)
    mode: str = "hand"
    tsumo: bool = False
    seat: str = "2z"
    round: str = "1z"
    flags: frozenset[str] = frozenset()
    honba: int = 0
    sticks: int = 0
    nuki: int = 0

    def query(self, **changes: Any) -> str:
        s = replace(self, **changes)
        params: dict[str, str | int] = {"rule": s.rule if s.rule is not None else ""}
        if s.tiles:
            params["t"] = "".join(s.tiles)
        if s.melds:
            params["m"] = ".".join(CODE_OF_MELD[m.kind] + m.tile for m in s.melds)
        if s.dora:
            params["d"] = "".join(s.dora)
        if s.ura:
            params["u"] = "".join(s.ura)
        if s.mode != "hand":
            params["mode"] = s.mode
        params["win"] = "tsumo" if s.tsumo else "ron"
        params["seat"] = s.seat
        params["round"] = s.round
        for flag in sorted(s.flags):
            params[flag] = 1
        for name in ("honba", "sticks", "nuki"):
            if getattr(s, name):
                params[name] = getattr(s, name)
        return "?" + urlencode(params)

    @property
    def count(self) -> int:
        return len(self.tiles) + 3 * len(self.melds)

    def used(self, code: str) -> int:
        return self.tiles.count(code) + sum(m_tiles(m).count(code) for m in self.melds)


def m_tiles(m: Meld) -> tuple[str, ...]:
    return m.tiles


def _tiles(raw: str) -> list[str] | None:
    found = TILE_RE.findall(raw)
    return found if "".join(found) == raw else None


def read_state(request: HttpRequest) -> tuple[State, list[str]]:
    state, problems = State(), []
    raw_rule = request.GET.get("rule", "").strip()
    if raw_rule:
        state.rule = query_number(raw_rule)
        if state.rule is None:
            problems.append(_("There is no such rule set; the club's default is shown."))
    for name, attr, limit in (("t", "tiles", HAND_TILES + 4), ("d", "dora", 5), ("u", "ura", 5)):
        raw = request.GET.get(name, "")
        tiles = _tiles(raw[:200])
        if tiles is None or len(tiles) > limit:
            problems.append(_("Some tiles could not be read; they were left out."))
        else:
            setattr(state, attr, tiles)
    for part in filter(None, request.GET.get("m", "")[:100].split(".")):
        if len(part) == 3 and part[0] in MELD_CODES and TILE_RE.fullmatch(part[1:]):
            state.melds.append(Meld(MELD_CODES[part[0]], part[1:]))  # type: ignore[arg-type]
        else:
            problems.append(_("A set could not be read; it was left out."))
    state.melds = state.melds[:4]
    mode = request.GET.get("mode", "hand")
    state.mode = mode if mode in MODES else "hand"
    state.tsumo = request.GET.get("win") == "tsumo"
    seat, round_ = request.GET.get("seat", "2z"), request.GET.get("round", "1z")
    state.seat = seat if seat in WIND_CODES else "2z"
    state.round = round_ if round_ in WIND_CODES else "1z"
    state.flags = frozenset(f for f in FLAGS if request.GET.get(f) == "1")
    for name, limit in (("honba", hands.HONBA_LIMIT), ("sticks", hands.STICK_LIMIT), ("nuki", 4)):
        raw = request.GET.get(name, "").strip()
        if raw:
            value = query_number(raw)
            if value is None or not 0 <= value <= limit:
                problems.append(
                    _("“%(value)s” is not a count we can use; it was left out.")
                    % {"value": raw[:20]}
                )
            else:
                setattr(state, name, value)
    return state, problems


def reason(error: NotAWin) -> str:
    """Why the hand is not a win, in plain words."""
    messages = {
        "count": _("A hand has 14 tiles (a kan counts as three); this one has %(have)s."),
        "no_win_tile": _("Tap the winning tile last."),
        "shape": _(
            "These tiles do not make a winning hand: four sets and a pair, seven pairs "
            "or thirteen orphans."
        ),
        "no_yaku": _(
            "No yaku: the hand is complete, but nothing in it is a yaku (dora alone "
            "is not one). It cannot be won this way."
        ),
        "five": _("There are only four of each tile; %(tile)s is there five times."),
        "bad_tile": _("A tile could not be read."),
        "bad_chi": _("A chi is three tiles in a row of one suit."),
        "too_many_dora": _("At most %(limit)s dora indicators."),
        "three_player_man": _("Three-player tables play without 2 to 8 of characters."),
        "three_player_chi": _("Three-player tables have no chi."),
        "kantan_kan": _("Kantan mahjong has no kan."),
        "kantan_situation": _(
            "Kantan mahjong has no ippatsu, ura dora, haitei, houtei, rinshan or chankan."
        ),
        "nuki": _("Only this parlour's three-player rule takes north out as dora (at most four)."),
        "ura_without_riichi": _("Ura dora count only after a riichi."),
        "open_riichi": _("An open hand cannot riichi."),
        "ippatsu_without_riichi": _("Ippatsu needs a riichi."),
        "chankan_tsumo": _("Chankan is a ron on another's kan, not a tsumo."),
        "rinshan_ron": _("Rinshan kaihou is a tsumo."),
        "haitei_ron": _("Haitei is a tsumo (the last tile by ron is houtei)."),
        "houtei_tsumo": _("Houtei is a ron (the last tile by tsumo is haitei)."),
        "haitei_rinshan": _("Haitei and rinshan kaihou do not count together."),
        "houtei_chankan": _("Houtei and chankan do not count together."),
        "tenhou_dealer": _("Tenhou is the dealer's."),
        "tenhou_tsumo": _("Tenhou and chiihou are a tsumo."),
        "tenhou_meld": _("Tenhou and chiihou have no call."),
        "chiihou_dealer": _("Chiihou is a non-dealer's."),
    }
    return messages.get(error.code, messages["shape"]) % error.params


def cell_link(rule_pk: int, reading: Reading, dealer: bool, tsumo: bool) -> str:
    """The calculator's cell of the score table this hand is."""
    params: dict[str, str | int] = {
        "rule": rule_pk,
        "han": min(reading.han, 13),
        "fu": reading.fu if reading.fu and reading.han < 5 else "",
        "dealer": 1 if dealer else 0,
        "win": "tsumo" if tsumo else "ron",
    }
    if reading.yakuman:
        params["yakuman"] = reading.yakuman
    return reverse("scoring:calculator") + "?" + urlencode(params)


def payment_lines(hand: hands.Hand) -> list[dict[str, str]]:
    names = {
        hands.Payer.DISCARDER: _("The player who dealt in"),
        hands.Payer.DEALER: _("The dealer"),
        hands.Payer.NON_DEALER: _("Non-dealer"),
    }
    lines = []
    for payer in hands.Payer:
        paid = [p for p in hand.payments if p.payer is payer]
        if paid:
            lines.append(
                {
                    "who": names[payer],
                    "count": f"× {len(paid)}" if len(paid) > 1 else "",
                    "points": points(paid[0].points),
                    "honba": points(paid[0].honba) if paid[0].honba else "",
                }
            )
    return lines


NOTES = {
    "kantan_own_yaku": lambda: _(
        "Kantan mahjong scores by han alone from its own table. Its own hands isshoku sanjun, "
        "sanrenkou, isshoku yonjun, suurenkou and daisharin are not found here: if the hand "
        "has one, add its han and read the payment from the table by han."
    ),
    "parlour_flat_fu": lambda: _(
        "This parlour counts no fu (30 fu for every hand) and pays by han from its sheet's "
        "table. Red fives are not entered: count each as one dora."
    ),
}


@require_safe
def hand_check(request: HttpRequest) -> HttpResponse:
    """点数を調べる."""
    state, problems = read_state(request)
    rule_set, rule_sets = RuleSet.objects.asked(state.rule, problems)
    if rule_set is None:
        raise Http404(_("There are no rule sets."))
    state.rule = rule_set.pk
    system = system_for(rule_set)
    three = hands.RULES[system].players == 3
    reading: Reading | None = None
    not_a_win = ""
    full = state.count >= HAND_TILES
    if state.tiles and full:
        try:
            reading = read(
                HandInput(
                    tuple(state.tiles),
                    state.tiles[-1],
                    tuple(state.melds),
                    tsumo=state.tsumo,
                    seat_wind=state.seat,
                    round_wind=state.round,
                    riichi="riichi" in state.flags,
                    double_riichi="double_riichi" in state.flags,
                    ippatsu="ippatsu" in state.flags,
                    haitei="haitei" in state.flags,
                    houtei="houtei" in state.flags,
                    rinshan="rinshan" in state.flags,
                    chankan="chankan" in state.flags,
                    dora=tuple(state.dora),
                    ura=tuple(state.ura),
                    nuki=state.nuki,
                    honba=state.honba,
                    sticks=state.sticks,
                ),
                system,
            )
        except NotAWin as error:
            not_a_win = reason(error)
    context = {
        "state": state,
        "rule_set": rule_set,
        "system": system,
        "system_name": system_name(system),
        "rule_options": [
            {"label": r.name, "href": state.query(rule=r.pk), "on": r.pk == rule_set.pk}
            for r in rule_sets
        ],
        "picker": _picker(state, system),
        "hand_tiles": [
            {
                **tile_face(c),
                "win": i == len(state.tiles) - 1,
                "href": state.query(tiles=state.tiles[:i] + state.tiles[i + 1 :]),
            }
            for i, c in enumerate(state.tiles)
        ],
        "meld_chips": [
            {
                "label": _meld_label(m.kind),
                "tiles": [tile_face(c) for c in m.tiles],
                "href": state.query(melds=[x for j, x in enumerate(state.melds) if j != i]),
            }
            for i, m in enumerate(state.melds)
        ],
        "dora_chips": [
            {**tile_face(c), "href": state.query(dora=state.dora[:i] + state.dora[i + 1 :])}
            for i, c in enumerate(state.dora)
        ],
        "ura_chips": [
            {**tile_face(c), "href": state.query(ura=state.ura[:i] + state.ura[i + 1 :])}
            for i, c in enumerate(state.ura)
        ],
        "modes": [
            {"label": label, "href": state.query(mode=mode), "on": state.mode == mode}
            for mode, label in _mode_labels(system)
        ],
        "count": state.count,
        "left": max(HAND_TILES - state.count, 0),
        "undo": state.query(tiles=state.tiles[:-1]) if state.tiles else "",
        "clear": state.query(
            tiles=[],
            melds=[],
            dora=[],
            ura=[],
            mode="hand",
            flags=frozenset(),
            honba=0,
            sticks=0,
            nuki=0,
        ),
        "wins": [
            {"label": _("Ron"), "href": state.query(tsumo=False), "on": not state.tsumo},
            {"label": _("Tsumo"), "href": state.query(tsumo=True), "on": state.tsumo},
        ],
        "seats": [
            {"label": tile_name(w), "href": state.query(seat=w), "on": state.seat == w}
            for w in WIND_CODES[: 3 if three else 4]
        ],
        "rounds": [
            {"label": tile_name(w), "href": state.query(round=w), "on": state.round == w}
            for w in WIND_CODES[: 3 if three else 4]
        ],
        "flags": [
            {
                "label": label,
                "href": state.query(flags=state.flags ^ {flag}),
                "on": flag in state.flags,
            }
            for flag, label in _flag_labels(system)
        ],
        "counters": _counters(state, system),
        "reading": reading,
        "not_a_win": not_a_win,
        "problems": problems,
        "yaku_lines": _yaku_lines(reading) if reading else [],
        "fu_lines": [{"label": FU_NAMES.get(f.key, f.key), "fu": f.fu} for f in reading.fu_lines]
        if reading
        else [],
        "lines": payment_lines(reading.scored) if reading else [],
        "level": level_name(reading.scored.level) if reading else "",
        "cell": cell_link(rule_set.pk, reading, state.seat == "1z", state.tsumo) if reading else "",
        "notes": [NOTES[n]() for n in reading.notes] if reading else [],
        "dealer": state.seat == "1z",
    }
    return render(request, "scoring/hand_check.html", context, status=400 if problems else 200)


def _meld_label(kind: str) -> str:
    return {"pon": _("Pon"), "chi": _("Chi"), "minkan": _("Open kan"), "ankan": _("Concealed kan")}[
        kind
    ]


def _mode_labels(system: System) -> list[tuple[str, str]]:
    modes = [("hand", _("Tiles in hand")), ("pon", _("Pon"))]
    if system is not System.CLUB3:
        modes.append(("chi", _("Chi")))
    if system is not System.KANTAN:
        modes += [("minkan", _("Open kan")), ("ankan", _("Concealed kan"))]
    modes.append(("dora", _("Dora indicator")))
    if system is not System.KANTAN:
        modes.append(("ura", _("Ura dora indicator")))
    return modes


def _flag_labels(system: System) -> list[tuple[str, str]]:
    labels = [("riichi", _("Riichi")), ("double_riichi", _("Double riichi"))]
    if system is not System.KANTAN:
        labels += [
            ("ippatsu", _("Ippatsu")),
            ("haitei", _("Haitei")),
            ("houtei", _("Houtei")),
            ("rinshan", _("Rinshan kaihou")),
            ("chankan", _("Chankan")),
        ]
    return labels


def _counters(state: State, system: System) -> list[dict[str, Any]]:
    rows = []
    if hands.RULES[system].honba_ron:
        rows.append(("honba", _("Honba")))
    rows.append(("sticks", _("Riichi sticks on the table")))
    if system is System.PARLOR3:
        rows.append(("nuki", _("North taken out (nuki dora)")))
    return [
        {
            "label": label,
            "value": getattr(state, name),
            "less": state.query(**{name: max(getattr(state, name) - 1, 0)}),
            "more": state.query(
                **{name: min(getattr(state, name) + 1, 4 if name == "nuki" else 99)}
            ),
        }
        for name, label in rows
    ]


def _picker(state: State, system: System) -> list[list[dict[str, Any]]]:
    """The tile buttons, a row a suit; each links to the state with that tile tapped."""
    rows: list[list[dict[str, Any]]] = []
    for suit in "mpsz":
        row = []
        for code in (c for c in TILES if c[1] == suit):
            if system is System.CLUB3 and code[1] == "m" and code[0] not in "19":
                continue
            href, ok = _tap(state, code)
            row.append({**tile_face(code), "href": href, "ok": ok, "name": tile_name(code)})
        rows.append(row)
    return rows


def _tap(state: State, code: str) -> tuple[str, bool]:
    mode = state.mode
    if mode in ("dora", "ura"):
        chosen = getattr(state, mode)
        return state.query(**{mode: [*chosen, code]}), len(chosen) < 5
    if state.count >= HAND_TILES:
        return "", False
    if mode == "hand":
        return state.query(tiles=[*state.tiles, code]), state.used(code) < 4
    meld = Meld(mode, code)  # type: ignore[arg-type]
    if mode == "chi" and (code[1] == "z" or int(code[0]) > 7):
        return "", False
    if state.count + 3 > HAND_TILES - 1 or len(state.melds) >= 4:
        return "", False
    if any(state.used(t) + meld.tiles.count(t) > 4 for t in set(meld.tiles)):
        return "", False
    return state.query(melds=[*state.melds, meld], mode="hand"), True


def _yaku_lines(reading: Reading) -> list[dict[str, Any]]:
    return [
        {
            "name": NAMES.get(line.key, line.key),
            "han": line.han,
            "closed": line.closed_han,
            "reduced": line.han < line.closed_han,
            "yakuman": line.yakuman,
        }
        for line in reading.yaku
    ]


@require_safe
def yaku_list(request: HttpRequest, pk: int) -> HttpResponse:
    """A rule set's 役一覧: the hands it counts, closed and open, and those it does not."""
    rule_set = get_object_or_404(RuleSet, pk=pk)
    system = system_for(rule_set)
    listing = LISTS[system]
    entries = []
    for e in listing.entries:
        ex = e.example
        entries.append(
            {
                "entry": e,
                "example": [tile_face(c) for c in ex.tiles()] if ex else [],
                "example_melds": [
                    {"label": _meld_label(m.kind), "tiles": [tile_face(c) for c in m.tiles]}
                    for m in ex.meld_list()
                ]
                if ex
                else [],
            }
        )
    return render(
        request,
        "scoring/yaku_list.html",
        {
            "rule_set": rule_set,
            "system_name": system_name(system),
            "entries": entries,
            "not_adopted": [{"name": NAMES[n.key], "note": n.note} for n in listing.not_adopted],
            "quote": listing.quote,
            "notes": listing.notes,
            "check_url": reverse("scoring:hand-check") + "?" + urlencode({"rule": rule_set.pk}),
        },
    )
