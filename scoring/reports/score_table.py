"""The score table (点数計算表) of a rule set: one A4 page, by han the club's way (sheet 002),
the fu cases set apart, made with WeasyPrint (``weasy.py``). The calculator page
(``views/hands.py``) names the systems and their notes the same way, from here."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import hands
from scoring.hands import FU_VALUES, RULES, InvalidHand, Level, System
from scoring.models import RuleSet
from scoring.notation import hand_level_label, points
from scoring.reports import weasy


def level_name(level: Level) -> str:
    """A hand's level as the page's language writes it (notation's ``HandLevel``)."""
    return hand_level_label(level)


def system_name(system: System) -> str:
    return {
        System.CLUB4: _("Club 4-player table (sheets 002, 000)"),
        System.CLUB3: _("Club 3-player table (sheet 000)"),
        System.JKMA: _("Japan Health Mahjong Association table (sheet 001)"),
        System.PARLOR3: _("Parlor 3-player table, all at 30 fu (sheet 003)"),
        System.KANTAN: _("Kantan fixed table (sheet 004)"),
    }[system]


def system_notes(system: System) -> list[str]:
    """The lines of the system's sheet that a player needs at the table."""
    notes = {
        System.CLUB4: [
            _("4 han 30 fu and 3 han 60 fu are mangan (kiriage mangan)."),
            _("Pinfu tsumo is 2 han 20 fu; seven pairs is 2 han 25 fu."),
            _("No double yakuman."),
            _("Each honba adds 300 (100 from each payer on tsumo)."),
        ],
        System.CLUB3: [
            _("On tsumo, dealer or not, the win is divided by 2 between the two others."),
            _("4 han 30 fu and 3 han 60 fu are mangan (kiriage mangan)."),
            _("Each honba adds 300 on ron, 100 from each payer on tsumo."),
        ],
        System.JKMA: [
            _("4 han 30 fu and 3 han 60 fu are mangan (kiriage mangan)."),
            _("Each honba adds 300 (100 from each payer on tsumo)."),
            _("No counted yakuman: 13 han or more is sanbaiman. No double yakuman."),
        ],
        System.PARLOR3: [
            _("Everything at 30 fu: no fu to count."),
            _("Tsumo only (1 han tsumo) is 500 all, dealer or not."),
            _("Tsumori-son: a non-dealer mangan tsumo is 2,000 + 4,000."),
            _("Each honba adds 1,000, on ron and from each payer on tsumo."),
            _("Counted yakuman from 13 han; double yakuman counts."),
        ],
        System.KANTAN: [
            _("No fu, no difference between dealer and non-dealer."),
            _("No renchan and no honba."),
        ],
    }
    return notes[system]


def system_for(rule_set: RuleSet) -> System:
    """The rule set's hand-scoring system (``hands.system_of``); a rule set whose parameters do
    not fit rules.py (possible only through the admin) scores by the club's table."""
    try:
        return hands.system_of(rule_set.params())
    except ValidationError:
        return System.CLUB3 if rule_set.players == 3 else System.CLUB4


def _cell(
    system: System, han: int, fu: int | None, *, dealer: bool, tsumo: bool, yakuman: int = 0
) -> str:
    try:
        hand = hands.score(system, han, fu, dealer=dealer, tsumo=tsumo, yakuman=yakuman)
    except InvalidHand:
        return "—"
    if not tsumo:
        return points(hand.total)
    if hand.each is not None:
        return _("%(n)s all") % {"n": points(hand.each)}
    amounts = sorted(p.points for p in hand.payments)
    return f"{points(amounts[0])}・{points(amounts[-1])}"


# Rows of the table by han: (label, han) — the limits by their least han.
LIMIT_ROWS = ((5, "5"), (6, "6–7"), (8, "8–10"), (11, "11–12"), (13, "13"))


def score_table(system: System) -> dict[str, Any]:
    """The club's way (sheet 002): by han, no fu needed; the fu cases set apart."""
    rules = RULES[system]

    def row(
        label: str, han: int, fu: int | None = None, level: str = "", yakuman: int = 0
    ) -> dict[str, Any]:
        return {
            "label": label,
            "level": level,
            "cells": [
                _cell(system, han, fu, dealer=dealer, tsumo=tsumo, yakuman=yakuman)
                for dealer in (False, True)
                for tsumo in (False, True)
            ],
        }

    main = []
    for han in (1, 2, 3, 4):
        level = hands.score(system, han, dealer=False, tsumo=False).level
        main.append(row(_("%(n)s han") % {"n": han}, han, level=level_name(level)))
    for han, label in LIMIT_ROWS:
        level = hands.score(system, han, dealer=False, tsumo=False).level
        name = _("%(n)s han+") % {"n": han} if han == 13 else _("%(n)s han") % {"n": label}
        main.append(row(name, han, level=level_name(level)))
    if not rules.counted_yakuman or system is System.KANTAN:
        main.append(row(_("Yakuman"), 1, level=level_name(Level.YAKUMAN), yakuman=1))
    else:
        main[-1]["label"] += " / " + _("Yakuman")
    if rules.multiple_yakuman:
        main.append(row(_("Double yakuman"), 1, level=level_name(Level.YAKUMAN), yakuman=2))
    fu_cases: list[dict[str, Any]] = []
    grid: list[dict[str, Any]] = []
    if rules.counts_fu:
        fu_cases.append(
            {
                "title": _("20 fu (pinfu tsumo)"),
                "rows": [row(_("%(n)s han") % {"n": h}, h, 20) for h in (2, 3, 4)],
            }
        )
        fu_cases.append(
            {
                "title": _("25 fu (seven pairs)"),
                "rows": [row(_("%(n)s han") % {"n": h}, h, 25) for h in (2, 3, 4)],
            }
        )
        for dealer in (False, True):
            rows = []
            for fu in FU_VALUES[3:]:
                cells = []
                for h in (1, 2, 3):
                    hand = hands.score(system, h, fu, dealer=dealer, tsumo=False)
                    if hand.level is not Level.NONE:
                        cells.append({"text": level_name(hand.level), "span": 2})
                    else:
                        cells += [
                            {"text": _cell(system, h, fu, dealer=dealer, tsumo=tsumo), "span": 1}
                            for tsumo in (False, True)
                        ]
                rows.append({"fu": fu, "cells": cells})
            grid.append({"title": _("Dealer") if dealer else _("Non-dealer"), "rows": rows})
    return {
        "main": main,
        "fu_cases": fu_cases,
        "grid": grid,
        "dealer_differs": rules.dealer_differs,
    }


def render_score_table_pdf(rule_set: RuleSet) -> bytes:
    system = system_for(rule_set)
    context = {
        "title": _("Score table"),
        "period_label": rule_set.name,
        "rule_set": rule_set,
        "system_name": system_name(system),
        "notes": system_notes(system),
        "table": score_table(system),
        "made_on": timezone.localdate(),
    }
    return weasy.write_pdf(render_to_string("reports/score_table.html", context))


def shown(rule_set: RuleSet) -> list[object]:
    """What the score table shows of its rule set, beside the language: the rule set's
    system and name, and the day it is made (printed at its foot)."""
    return [str(system_for(rule_set)), rule_set.name, str(timezone.localdate())]
