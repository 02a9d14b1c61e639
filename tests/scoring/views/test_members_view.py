"""What a member sees (issue 28, items 1–4): 月間 opens the month of the period's latest meet,
the places chart's labels, the home page on a phone, the standings' sticky columns."""

import re
from datetime import date

import pytest
from django.test import Client

from members.models import Member
from scoring.models import Meet, RuleSet
from tests.builders import play

pytestmark = pytest.mark.django_db


def month_link(html: str) -> str:
    """The period of the tabs' 月間 link."""
    found = re.search(r'<a href="\?period=([^"&]+)[^"]*"[^>]*>月間</a>', html)
    assert found, "no 月間 link"
    return found[1]


@pytest.fixture
def autumn(club_rule: RuleSet, four_members: list[Member]) -> list[Member]:
    """下期 2026: meets on 2026-11-04 and 2026-12-02 (none in October); 東山 plays only in
    November, the others on both days."""
    people = four_members
    first = Meet.objects.create(date=date(2026, 11, 4), kind="wed", rule_set=club_rule)
    play(first, 1, 1, club_rule, people, [40_000, 35_000, 25_000, 20_000])
    later = Meet.objects.create(date=date(2026, 12, 2), kind="wed", rule_set=club_rule)
    extra = Member.objects.create(name="中島 五郎", furigana="なかじま ごろう")
    play(later, 1, 1, club_rule, [extra, *people[1:]], [40_000, 35_000, 25_000, 20_000])
    return people


def test_month_from_the_half_year_is_the_month_of_its_latest_meet(member_client: Client, autumn):
    html = member_client.get("/standings/?period=2026-H2").content.decode()
    assert month_link(html) == "2026-12"  # not 2026-10, which has no meet


def test_month_without_a_period_named_is_the_month_of_the_latest_meet(
    member_client: Client, autumn
):
    html = member_client.get("/standings/").content.decode()
    assert "2026年度 下期" in html
    assert month_link(html) == "2026-12"


def test_month_keeps_the_other_filters(member_client: Client, autumn):
    html = member_client.get("/standings/?period=2026-H2&kind=wed&min=2").content.decode()
    assert re.search(r'href="\?period=2026-12&amp;kind=wed&amp;min=2"[^>]*>月間<', html)


def test_month_of_a_half_year_without_meets_is_its_first(member_client: Client, autumn):
    html = member_client.get("/standings/?period=2025-H1").content.decode()
    assert month_link(html) == "2025-04"


def test_month_from_all_time_is_the_month_of_the_latest_meet(member_client: Client, autumn):
    html = member_client.get("/standings/?period=all").content.decode()
    assert month_link(html) == "2026-12"


def test_month_on_a_members_page_is_the_month_of_their_latest_game(member_client: Client, autumn):
    higashiyama, minamino = autumn[0], autumn[1]
    html = member_client.get(f"/members/{higashiyama.pk}/?period=2026-H2").content.decode()
    assert month_link(html) == "2026-11"  # their last game, not the club's December meet
    month = member_client.get(f"/members/{higashiyama.pk}/?period=2026-11").content.decode()
    assert "この期間の対局はありません。" not in month
    html = member_client.get(f"/members/{minamino.pk}/?period=2026-H2").content.decode()
    assert month_link(html) == "2026-12"


def test_month_on_the_page_of_a_member_without_games_is_the_clubs_latest(
    member_client: Client, autumn
):
    extra = Member.objects.create(name="岡田 六郎", furigana="おかだ ろくろう")
    html = member_client.get(f"/members/{extra.pk}/?period=2026-H2").content.decode()
    assert month_link(html) == "2026-12"


@pytest.fixture
def six_tables(club_rule: RuleSet, bob) -> Member:
    """The latest meet (2026-11-18) has six tables; bob is the member 西川 次郎, at table 4."""
    people = [Member.objects.create(name=f"会員 {n:02d}", furigana="かな") for n in range(24)]
    me = people[13]
    me.name, me.user = "西川 次郎", bob
    me.save()
    meet = Meet.objects.create(date=date(2026, 11, 18), kind="wed", rule_set=club_rule)
    for table in range(6):
        play(meet, table + 1, 1, club_rule, people[table * 4 : table * 4 + 4], SCORES)
    return me


SCORES = [40_000, 35_000, 25_000, 20_000]


def game_cards(html: str) -> list[str]:
    return re.findall(r'<section class="card game[^"]*"[^>]*>.*?</section>', html, re.S)


def test_the_home_page_puts_the_members_own_game_first_and_marks_it(
    member_client: Client, six_tables
):
    html = member_client.get("/").content.decode()
    cards = game_cards(html)
    assert len(cards) == 6
    first = cards[0]
    assert "1回戦・4卓" in first
    assert 'class="card game own"' in first and 'aria-current="true"' in first
    assert "（自分）" in first
    assert re.search(r'<tr class="own" aria-current="true">.*?西川 次郎', first, re.S)
    assert sum('aria-current="true"' in card for card in cards[1:]) == 0


def test_the_home_page_folds_the_other_tables(member_client: Client, six_tables):
    html = member_client.get("/").content.decode()
    folded = re.search(r'<details class="other-games">(.*?)</details>', html, re.S)
    assert folded, "the other tables are in a <details>"
    assert "<summary" in folded[1] and "ほかの卓（5卓）" in folded[1]
    assert len(game_cards(folded[1])) == 5
    assert "西川 次郎" not in folded[1]
    assert len(game_cards(html.split('<details class="other-games">')[0])) == 1


def test_without_an_own_game_every_table_is_folded(
    member_client: Client, club_rule: RuleSet, six_tables
):
    six_tables.user = None
    six_tables.save()
    html = member_client.get("/").content.decode()
    folded = re.search(r'<details class="other-games">(.*?)</details>', html, re.S)
    assert folded and len(game_cards(folded[1])) == 6
    assert "全6卓" in folded[1]
    assert 'aria-current="true"' not in html.split("<main")[1]
