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
