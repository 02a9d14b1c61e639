"""点数計算: the calculator page, and the printable score table (点数計算表) of a rule set served
(made in ``reports/score_table.py``).

Both read ``scoring/hands.py``; a rule set's hand-scoring system comes from its parameters
(``hands.system_of``). The calculator's inputs live in the address (GET), so a result can be
bookmarked or shared, and every button is a link: it works without JavaScript. Odd input
(``han=abc``, ``fu=999999``, a rule set that is not there) is answered with a message and the
page as it would be without that input, never an error page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring import hands
from scoring.forms import query_number
from scoring.hands import FU_VALUES, RULES, Hand, InvalidHand, Payer, System
from scoring.models import RuleSet
from scoring.notation import points
from scoring.reports.score_table import (
    level_name,
    system_for,
    system_name,
    system_notes,
)

HAN_BUTTONS = tuple(range(1, 14))
COUNT_BUTTONS = (0, 1, 2, 3, 4, 5)
INT_FIELDS = ("rule", "han", "fu", "honba", "sticks", "yakuman")


@dataclass(frozen=True)
class Option:
    label: str
    href: str
    selected: bool
    wide: bool = False


@dataclass
class State:
    """The calculator's inputs as the address gives them."""

    rule: int | None = None
    han: int = 1
    fu: int | None = None
    dealer: bool = False
    tsumo: bool = False
    honba: int = 0
    sticks: int = 0
    yakuman: int = 0

    def query(self, **changes: Any) -> str:
        values = {**self.__dict__, **changes}
        params: dict[str, str | int] = {
            "rule": values["rule"] if values["rule"] is not None else "",
            "han": values["han"],
            "fu": values["fu"] if values["fu"] is not None else "",
            "dealer": 1 if values["dealer"] else 0,
            "win": "tsumo" if values["tsumo"] else "ron",
            "honba": values["honba"],
            "sticks": values["sticks"],
        }
        if values["yakuman"]:
            params["yakuman"] = values["yakuman"]
        return "?" + urlencode(params)


def read_state(request: HttpRequest) -> tuple[State, list[str]]:
    """The inputs, and a message for each that could not be read (that input keeps its default)."""
    state, problems = State(), []
    labels = {
        "rule": _("rule set"),
        "han": _("han"),
        "fu": _("fu"),
        "honba": _("honba"),
        "sticks": _("riichi sticks"),
        "yakuman": _("yakuman"),
    }
    for name in INT_FIELDS:
        raw = request.GET.get(name, "").strip()
        if raw == "":
            continue
        if (value := query_number(raw)) is None:
            problems.append(
                _("“%(value)s” is not a number of %(what)s; it was left out.")
                % {"value": raw[:20], "what": labels[name]}
            )
            continue
        setattr(state, name, value)
    dealer = request.GET.get("dealer", "0")
    if dealer not in ("0", "1"):
        problems.append(_("Dealer or not is 0 or 1; non-dealer was taken."))
    state.dealer = dealer == "1"
    win = request.GET.get("win", "ron")
    if win not in ("ron", "tsumo"):
        problems.append(_("The win is ron or tsumo; ron was taken."))
    state.tsumo = win == "tsumo"
    return state, problems


def _hand_problem(error: InvalidHand) -> str:
    if error.code == "impossible":
        return _(
            "No hand is %(han)s han %(fu)s fu with this win: 20 fu is a pinfu tsumo (2 han or "
            "more), 25 fu is seven pairs (2 han; 3 with tsumo)."
        ) % {"han": error.params["han"], "fu": error.params["fu"]}
    if error.code == "bad_fu":
        return _("Fu is 20, 25 or 30 to 110 in tens; %(fu)s is not.") % error.params
    if error.code == "bad_han":
        return _("Han is 1 to %(limit)s.") % error.params
    if error.code == "bad_honba":
        return _("Honba is 0 to %(limit)s.") % error.params
    if error.code == "bad_sticks":
        return _("Riichi sticks are 0 to %(limit)s.") % error.params
    return _("Yakuman is 0 to %(limit)s.") % error.params


def headline(hand: Hand) -> dict[str, str]:
    """「子 ロン 3,900」「親 2,600 オール」「子 ツモ 1,300・2,600」: the hand's worth as called at the
    table (honba apart)."""
    who = _("Dealer") if hand.dealer else _("Non-dealer")
    if not hand.tsumo:
        return {"who": who, "win": _("Ron"), "figure": points(hand.hand_points)}
    amounts = [p.points - p.honba for p in hand.payments]
    if len(set(amounts)) == 1:
        return {"who": who, "win": "", "figure": _("%(n)s all") % {"n": points(amounts[0])}}
    low, high = min(amounts), max(amounts)
    return {"who": who, "win": _("Tsumo"), "figure": f"{points(low)}・{points(high)}"}


def payment_lines(hand: Hand) -> list[dict[str, str]]:
    """Who pays the winner how much (honba included), one line per kind of payer."""
    names = {
        Payer.DISCARDER: _("The player who dealt in"),
        Payer.DEALER: _("The dealer"),
        Payer.NON_DEALER: _("Non-dealer"),
    }
    lines: list[dict[str, str]] = []
    for payer in (Payer.DISCARDER, Payer.DEALER, Payer.NON_DEALER):
        paid = [p for p in hand.payments if p.payer is payer]
        if not paid:
            continue
        amount, honba = paid[0].points, paid[0].honba
        count = len(paid)
        lines.append(
            {
                "who": names[payer],
                "count": f"× {count}" if count > 1 else "",
                "points": points(amount),
                "honba": points(honba) if honba else "",
            }
        )
    return lines


def _options(state: State, system: System) -> dict[str, list[Option]]:
    rules = RULES[system]
    han_options = [
        Option(
            _("%(n)s han+") % {"n": n} if n == 13 else str(n),
            state.query(han=n, yakuman=0),
            not state.yakuman and (state.han == n or (n == 13 and state.han > 13)),
            wide=n == 13,
        )
        for n in HAN_BUTTONS
    ]
    han_options.append(Option(_("Yakuman"), state.query(yakuman=1), state.yakuman == 1, wide=True))
    if rules.multiple_yakuman:
        han_options.append(
            Option(_("Double yakuman"), state.query(yakuman=2), state.yakuman == 2, wide=True)
        )
    fu_options = [Option(_("No fu"), state.query(fu=None), state.fu is None, wide=True)]
    fu_options += [Option(str(fu), state.query(fu=fu), state.fu == fu) for fu in FU_VALUES]
    return {
        "dealer": [
            Option(_("Non-dealer"), state.query(dealer=False), not state.dealer),
            Option(_("Dealer"), state.query(dealer=True), state.dealer),
        ],
        "win": [
            Option(_("Ron"), state.query(tsumo=False), not state.tsumo),
            Option(_("Tsumo"), state.query(tsumo=True), state.tsumo),
        ],
        "han": han_options,
        "fu": fu_options if rules.counts_fu else [],
        "honba": [Option(str(n), state.query(honba=n), state.honba == n) for n in COUNT_BUTTONS],
        "sticks": [Option(str(n), state.query(sticks=n), state.sticks == n) for n in COUNT_BUTTONS],
    }


@require_safe
def calculator(request: HttpRequest) -> HttpResponse:
    """The calculator: big buttons for each input, the payment shown large."""
    state, problems = read_state(request)
    rule_set, rule_sets = RuleSet.objects.asked(state.rule, problems)
    if rule_set is None:
        raise Http404(_("There are no rule sets."))
    state.rule = rule_set.pk
    system = system_for(rule_set)
    hand: Hand | None = None
    try:
        hand = hands.score(
            system,
            state.han,
            state.fu,
            dealer=state.dealer,
            tsumo=state.tsumo,
            honba=state.honba,
            sticks=state.sticks,
            yakuman=state.yakuman,
        )
    except InvalidHand as error:
        problems.append(_hand_problem(error))
    context = {
        "state": state,
        "rule_set": rule_set,
        "rule_options": [
            Option(r.name, state.query(rule=r.pk), r.pk == rule_set.pk) for r in rule_sets
        ],
        "system": system,
        "system_name": system_name(system),
        "notes": system_notes(system),
        "counts_fu": RULES[system].counts_fu,
        "has_honba": bool(RULES[system].honba_ron),
        "options": _options(state, system),
        "hand": hand,
        "headline": headline(hand) if hand else None,
        "level": level_name(hand.level) if hand else "",
        "lines": payment_lines(hand) if hand else [],
        "problems": problems,
        "honba_less": state.query(honba=max(state.honba - 1, 0)),
        "honba_more": state.query(honba=min(state.honba + 1, hands.HONBA_LIMIT)),
        "sticks_less": state.query(sticks=max(state.sticks - 1, 0)),
        "sticks_more": state.query(sticks=min(state.sticks + 1, hands.STICK_LIMIT)),
    }
    return render(request, "scoring/calculator.html", context, status=400 if problems else 200)
