"""Standings over a small season, every figure worked out on paper.

Members A 青木, B 井上, C 上田, D 江藤, E 小野 (furigana あおき いのうえ うえだ えとう おの).
Club rule (30,000 return, +30/+10/−10/−30, ties split, −10 P a chombo).

G1 2025-09-30 (Tue, その他) A 40,000  B 35,000  C 25,000  D 20,000
   A +10+30 = +40   B +5+10 = +15   C −5−10 = −15   D −10−30 = −40
G2 2025-10-01 (水曜会) round 1: A 20,000 (1 chombo)  B 30,000  C 30,000  E 40,000
   E +40;  B and C tie for 2nd: 0 + (10−10)/2 = 0 each;  A −10−30−10 = −50
G3 2025-10-01 (水曜会) round 2: A 50,000 (満貫, 役満 国士無双)  C 30,000  D 25,000  E 15,000
   A +20+30 = +50   C 0+10 = +10   D −5−10 = −15   E −15−30 = −45
G4 2026-03-31 (Tue, その他) B 45,000  C 35,000  D 25,000  E 15,000
   B +45   C +15   D −15   E −45
G5 2026-04-01 (水曜会) A, B, C, D all 30,000: four tied for 1st, 0.0 each, all place 1

下期 FY2025 (2025-10-01 … 2026-03-31) = G2, G3, G4:
   B: 2 games, 0 + 45 = +45.0, places 2,1 → avg place 1.50, top .500, top-two 1.000, last-avoid 1.000
   C: 3 games, 0 + 10 + 15 = +25.0, places 2,2,2 → avg 2.00, top .000, top-two 1.000, l-a 1.000
   A: 2 games, −50 + 50 = 0.0, places 4,1 → avg 2.50, top .500, top-two .500, l-a .500,
      1 chombo, 2 big hands (満貫 1, 役満 1), best game +50.0, highest score 50,000, 1 meet
   D: 2 games, −15 − 15 = −30.0, places 3,3 → avg 3.00, top .000, top-two .000, l-a 1.000
   E: 3 games, +40 − 45 − 45 = −50.0, places 1,4,4 → avg 3.00, top .333, top-two .333, l-a .333
   Sum of totals: 45 + 25 + 0 − 30 − 50 = −10 = −10 × 1 chombo.
"""

from datetime import date

import pytest

from members.models import Member
from scoring.models import Hanchan, Meet, PlayerEntry


@pytest.fixture
def season(club_rule):
    names = [
        ("青木", "あおき"),
        ("井上", "いのうえ"),
        ("上田", "うえだ"),
        ("江藤", "えとう"),
        ("小野", "おの"),
    ]
    a, b, c, d, e = (Member.objects.create(name=n, furigana=f) for n, f in names)
    meets: dict[tuple[date, str], Meet] = {}

    def play(day, kind, round_no, players, chombo=None, hands=None, rule=club_rule):
        meet = meets.get((day, kind)) or Meet.objects.create(date=day, kind=kind, rule_set=rule)
        meets[(day, kind)] = meet
        chombo, hands = chombo or {}, hands or {}
        entries = [
            PlayerEntry(m, seat, score, chombo.get(m, 0), hands.get(m, ()))
            for seat, (m, score) in enumerate(players)
        ]
        Hanchan(meet=meet, table_no=1, round_no=round_no, rule_set=rule).record(entries)

    play(date(2025, 9, 30), "other", 1, [(a, 40_000), (b, 35_000), (c, 25_000), (d, 20_000)])
    play(
        date(2025, 10, 1),
        "wed",
        1,
        [(a, 20_000), (b, 30_000), (c, 30_000), (e, 40_000)],
        chombo={a: 1},
    )
    play(
        date(2025, 10, 1),
        "wed",
        2,
        [(a, 50_000), (c, 30_000), (d, 25_000), (e, 15_000)],
        hands={a: [("mangan", ""), ("yakuman", "国士無双")]},
    )
    play(date(2026, 3, 31), "other", 1, [(b, 45_000), (c, 35_000), (d, 25_000), (e, 15_000)])
    play(date(2026, 4, 1), "wed", 1, [(a, 30_000), (b, 30_000), (c, 30_000), (d, 30_000)])
    return {"A": a, "B": b, "C": c, "D": d, "E": e, "play": play}
