"""Fixtures of the scoring tests."""

import os
import uuid
from datetime import date

import psycopg
import pytest

from members.models import Member
from scoring.models import HandLevel, Meet
from scoring.reports import pdf, xlsx
from tests.builders import (
    CLUB3,
    CLUB4,
    JKMA,
    KANTAN,
    FakeRenderer,
    games_under_every_rule,
    make_club,
    play,
    rule,
)


@pytest.fixture
def databases(tmp_path):
    """Two scratch databases of the suite's kind: (live URL, restore URL)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        yield f"sqlite:///{tmp_path / 'live.sqlite3'}", f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    base = url.rsplit("/", 1)[0]
    names = [f"shirakaba_bk_{uuid.uuid4().hex[:8]}_{n}" for n in ("live", "restored")]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        for name in names:
            admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{base}/{names[0]}", f"{base}/{names[1]}"
    finally:
        with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def fake(monkeypatch) -> FakeRenderer:
    renderer = FakeRenderer()
    monkeypatch.setattr(pdf, "render_standings_pdf", renderer)
    monkeypatch.setattr(xlsx, "render_standings_xlsx", renderer)
    return renderer


@pytest.fixture
def club(club_rule):
    return make_club(club_rule, members=8, meets=3)


@pytest.fixture
def people(db) -> list[Member]:
    names = ["相川 愛", "井上 一", "上田 卯", "江藤 栄", "大野 音", "加藤 和", "木村 喜", "久保 久"]
    kana = ["あいかわ", "いのうえ", "うえだ", "えとう", "おおの", "かとう", "きむら", "くぼ"]
    return [Member.objects.create(name=n, furigana=k) for n, k in zip(names, kana, strict=True)]


@pytest.fixture
def bare_meet(club_rule, people) -> Meet:
    """The Wednesday meet of 2025-04-09 under the club's rule, nobody marked attending (the
    ``people`` fixture's tests)."""
    return Meet.objects.create(date="2025-04-09", kind="wed", rule_set=club_rule)


@pytest.fixture
def three_systems(people, club_rule):
    """相川 plays the club's 4-player (1st, +40.0) and 3-player (last, −45.0) rules, the
    協会's (1st, +22.0) and カンターン (a win) in 2025-H1."""
    a, others = people[0], people[1:]
    wed = Meet.objects.create(date="2025-04-09", kind="wed", rule_set=club_rule)
    play(wed, 1, 1, rule(CLUB4), [a, *others[:3]], [40_000, 30_000, 30_000, 20_000])
    play(wed, 1, 2, rule(CLUB3), [others[3], others[4], a], [40_000, 35_000, 15_000])
    sat = Meet.objects.create(date="2025-05-10", kind="sat", rule_set=rule(JKMA))
    play(sat, 1, 1, rule(JKMA), [a, *others[:3]], [35_000, 25_000, 25_000, 15_000])
    play(sat, 1, 2, rule(KANTAN), [a, *others[:3]], [41_000, 20_000, 20_000, 19_000])
    return a


@pytest.fixture
def final_game(bare_meet, people, club_rule):
    game = play(bare_meet, 1, 1, club_rule, people[:4], [40_000, 30_000, 30_000, 20_000])
    bare_meet.finalise()
    return game


@pytest.fixture
def every_rule(people, club_rule):
    games_under_every_rule(people, club_rule)


@pytest.fixture
def guest_season(club_rule) -> dict[str, Member]:
    """Four games on 2025-04-09 (水曜会, table 1) under the club's rule (30,000 returned,
    +30/+10/−10/−30), seats 東 南 西 北 in the order written; 大野 is a guest (ゲスト).

    R1 東 相川 40,000 (1, +40)  南 井上 35,000 (2, +15)  西 上田 25,000 (3, −15)  北 江藤 20,000 (4, −40)
    R2 東 井上 45,000 (1, +45)  南 上田 35,000 (2, +15)  西 相川 25,000 (3, −15)  北 大野 15,000 (4, −45)
    R3 東 大野 50,000 (1, +50, 満貫)  南 井上 38,000 (2, +18, 跳満)  西 上田 34,000 (3, −6)
       北 相川 −2,000 (4, −62: below zero)
    R4 東 江藤 48,000 (1, +48, 倍満)  南 相川 32,000 (2, +12, 満貫 and 役満 大三元)
       西 井上 22,000 (3, −18)  北 上田 18,000 (4, −42)

    Totals: 井上 +60 (4 games), 江藤 +8 (2), 大野 +5 (2, guest), 相川 −25 (4), 上田 −48 (4).
    """
    names = [
        ("相川 愛", "あいかわ"),
        ("井上 一", "いのうえ"),
        ("上田 卯", "うえだ"),
        ("江藤 栄", "えとう"),
    ]
    a, b, c, d = (Member.objects.create(name=n, furigana=k) for n, k in names)
    g = Member.objects.create(name="大野 音", furigana="おおの", is_guest=True)
    wed = Meet.objects.create(date="2025-04-09", kind="wed", rule_set=club_rule)
    play(wed, 1, 1, club_rule, [a, b, c, d], [40_000, 35_000, 25_000, 20_000])
    play(wed, 1, 2, club_rule, [b, c, a, g], [45_000, 35_000, 25_000, 15_000])
    hands3 = {0: [("mangan", "")], 1: [("haneman", "")]}
    play(wed, 1, 3, club_rule, [g, b, c, a], [50_000, 38_000, 34_000, -2_000], hands=hands3)
    hands4 = {0: [("baiman", "")], 1: [("mangan", ""), ("yakuman", "大三元")]}
    play(wed, 1, 4, club_rule, [d, a, b, c], [48_000, 32_000, 22_000, 18_000], hands=hands4)
    return {"A": a, "B": b, "C": c, "D": d, "G": g}


@pytest.fixture
def award_season(club_rule):
    """The awards' small season (tests/scoring/standings/test_awards.py tells its figures): Two meets of 2025 上期, four games; G is a guest. Returns the members by letter."""
    people = {
        letter: Member.objects.create(name=f"{letter} 会員", furigana=f"{letter.lower()}")
        for letter in "ABCDE"
    }
    people["G"] = Member.objects.create(name="G ゲスト", furigana="g", is_guest=True)
    a, b, c, d, e, g = (people[k] for k in "ABCDEG")
    first = Meet.objects.create(date=date(2025, 4, 9), kind="wed", rule_set=club_rule)
    second = Meet.objects.create(date=date(2025, 4, 23), kind="wed", rule_set=club_rule)
    mangan = [(HandLevel.MANGAN, "")]
    yakuman = [(HandLevel.YAKUMAN, "国士無双")]
    play(
        first,
        1,
        1,
        club_rule,
        [a, b, c, d],
        [50000, 30000, 25000, 15000],
        hands={0: mangan, 2: yakuman},
    )
    play(first, 1, 2, club_rule, [a, b, c, d], [15000, 50000, 30000, 25000], hands={1: mangan})
    play(
        second,
        1,
        1,
        club_rule,
        [a, b, e, g],
        [30000, 25000, 48000, 17000],
        hands={1: [(HandLevel.HANEMAN, "")], 3: [(HandLevel.YAKUMAN, "大三元")]},
    )
    return people


@pytest.fixture
def mixed_season(club_rule):
    """Two meets of 2025 上期 in the club's group, 4- and 3-player games, seven members A–G
    (tests/scoring/standings/test_awards.py works out every figure from it). Places only:

    M1 2025-04-09 (水曜会), a 4-player table and a 3-player table each round:
      R1 4p  A 40,000 (1)  B 35,000 (2)  C 25,000 (3)  D 20,000 (4)
      R1 3p  F 40,000 (1)  E 30,000 (2)  G 20,000 (3)
      R2 4p  F 40,000 (1)  E 35,000 (2)  B 25,000 (3)  A 20,000 (4)
      R2 3p  G 40,000 (1)  C 30,000 (2)  D 20,000 (3)
      R3 4p  G 45,000 (1)  C 30,000 (2)  D 25,000 (3)  E 20,000 (4)
      R3 3p  F 40,000 (1)  A 30,000 (2)  B 20,000 (3)
    M2 2025-04-23 (水曜会), 4-player only:
      R1 4p  A 40,000 (1)  B 35,000 (2)  C 25,000 (3)  D 20,000 (4)
      R2 4p  B 40,000 (1)  D 35,000 (2)  A 25,000 (3)  C 20,000 (4)
    """
    people = {
        letter: Member.objects.create(name=f"{letter} 会員", furigana=letter.lower())
        for letter in "ABCDEFG"
    }
    a, b, c, d, e, f, g = (people[k] for k in "ABCDEFG")
    three = rule(CLUB3)
    first = Meet.objects.create(date=date(2025, 4, 9), kind="wed", rule_set=club_rule)
    second = Meet.objects.create(date=date(2025, 4, 23), kind="wed", rule_set=club_rule)
    play(first, 1, 1, club_rule, [a, b, c, d], [40_000, 35_000, 25_000, 20_000])
    play(first, 2, 1, three, [f, e, g], [40_000, 30_000, 20_000])
    play(first, 1, 2, club_rule, [f, e, b, a], [40_000, 35_000, 25_000, 20_000])
    play(first, 2, 2, three, [g, c, d], [40_000, 30_000, 20_000])
    play(first, 1, 3, club_rule, [g, c, d, e], [45_000, 30_000, 25_000, 20_000])
    play(first, 2, 3, three, [f, a, b], [40_000, 30_000, 20_000])
    play(second, 1, 1, club_rule, [a, b, c, d], [40_000, 35_000, 25_000, 20_000])
    play(second, 1, 2, club_rule, [b, d, a, c], [40_000, 35_000, 25_000, 20_000])
    return people
