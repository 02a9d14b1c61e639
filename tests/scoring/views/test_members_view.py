"""What a member sees (issue 28, items 1–4): 月間 opens the month of the period's latest meet,
the places chart's labels, the home page on a phone, the standings' sticky columns."""

import re
from datetime import date
from itertools import pairwise

import pytest
from django.core.cache import cache
from django.test import Client
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

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


def places_chart_labels(monkeypatch, client: Client, url: str) -> list[tuple[str, Bbox]]:
    """The texts under the places chart's bars, with the boxes they are drawn in (pixels of
    the figure), as the member's page asks for the chart."""
    from scoring.reports import charts

    cache.clear()
    drawn: list[Figure] = []
    real_save = charts._save

    def keeping(figure: Figure, fmt: str) -> bytes:
        drawn.append(figure)
        return real_save(figure, fmt)

    monkeypatch.setattr(charts, "_save", keeping)
    response = client.get(url)
    assert response.status_code == 200 and b"<svg" in response.content
    (figure,) = drawn
    FigureCanvasAgg(figure)
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    (axes,) = figure.axes
    floor = axes.get_window_extent(renderer).y0
    texts = [*axes.get_xticklabels(), *axes.texts]
    return [
        (t.get_text(), t.get_window_extent(renderer))
        for t in texts
        if t.get_text() and t.get_visible() and t.get_window_extent(renderer).y1 <= floor + 1
    ]


def test_the_places_chart_labels_do_not_run_together_with_3_player_games(
    monkeypatch, member_client: Client, three_systems
):
    """相川 has 4- and 3-player games in the club's group: seven bars. Their labels (and the
    groups' names under them) each keep a box of their own, inside the chart."""
    url = f"/members/{three_systems.pk}/chart/places.svg?period=2025-H1"
    labels = places_chart_labels(monkeypatch, member_client, url)
    words = [text for text, _box in labels]
    assert words.count("1位") == 2 and words.count("3位") == 2 and "4位" in words
    assert "四人打ち" in words and "三人打ち" in words
    for n, (text, box) in enumerate(labels):
        assert box.x0 >= 0 and box.x1 <= 4.2 * 96, text
        for other, other_box in labels[n + 1 :]:
            apart = box.x1 + 2 <= other_box.x0 or other_box.x1 + 2 <= box.x0
            assert apart or box.y1 + 1 <= other_box.y0 or other_box.y1 + 1 <= box.y0, (
                text,
                other,
            )


def test_the_places_charts_text_names_the_3_player_places_too(member_client: Client, three_systems):
    """The chart's text alternative says what its bars say, 3-player places included."""
    html = member_client.get(f"/members/{three_systems.pk}/?period=2025-H1").content.decode()
    alt = re.search(r'alt="(順位の回数[^"]*)"', html)
    assert alt is not None
    assert re.fullmatch(
        r"順位の回数：1位 \d+ 回、2位 \d+ 回、3位 \d+ 回、4位 \d+ 回 "
        r"三人打ちの順位の回数：1位 \d+ 回、2位 \d+ 回、3位 \d+ 回",
        alt.group(1),
    ), alt.group(1)


def test_the_overlap_check_sees_labels_that_run_together(monkeypatch, member_client, three_systems):
    """The check above, on the labels as they were (「三人打ち1位」 under each of seven bars)."""
    from scoring.reports import charts

    real = charts.draw_places_chart

    def long_labels(labels, counts, title, fmt="svg", **_kwargs):
        long = ["1位", "2位", "3位", "4位", "三人打ち1位", "三人打ち2位", "三人打ち3位"]
        return real(long, [1, 0, 0, 0, 0, 0, 1], title, fmt)

    monkeypatch.setattr(charts.places_chart, "draw", long_labels)
    url = f"/members/{three_systems.pk}/chart/places.svg?period=2025-H1"
    labels = places_chart_labels(monkeypatch, member_client, url)
    boxes = [box for _text, box in labels]
    assert any(a.x1 > b.x0 for a, b in pairwise(boxes))
