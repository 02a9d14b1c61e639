"""The rating's pages (scoring/views/standings.py: rating_table, the member page's rating and
its chart): figures worked by hand in tests/scoring/test_rating.py."""

import re
from html import unescape
from urllib.parse import parse_qs

import pytest

from scoring.models import Meet, PlayerEntry
from tests.builders import CLUB3, play, rule

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(club_rule, people):
    """Game 1 (4/9): A 1st, B 2nd, C 3rd, D 4th. Game 2 (4/16): A and B tie for 1st, C 3rd,
    E 4th; E is a guest. R: A 1549.40, B 1529.90, C 1480.46, E 1470.19, D 1470.00."""
    a, b, c, d, e = people[:5]
    first = Meet.objects.create(date="2025-04-09", kind="wed", rule_set=club_rule)
    second = Meet.objects.create(date="2025-04-16", kind="wed", rule_set=club_rule)
    game1 = play(first, 1, 1, club_rule, [a, b, c, d], [40_000, 35_000, 25_000, 20_000])
    play(second, 1, 1, club_rule, [a, b, c, e], [35_000, 35_000, 30_000, 20_000])
    e.is_guest = True
    e.save()
    return game1


def test_the_rating_table_leaves_guests_out_unless_asked(member_client, games, people):
    html = member_client.get("/standings/rating/").content.decode()
    assert "<h1>レーティング</h1>" in html
    for figure in ("1549.40", "1529.90", "1480.46", "1470.00", "+19.40", "2025年4月16日"):
        assert figure in html, figure
    assert "1470.19" not in html and people[4].name not in html
    html = member_client.get("/standings/rating/?guests=1").content.decode()
    assert "1470.19" in html and people[4].name in html


def test_the_minimum_of_games_and_sorting(member_client, games, people):
    html = member_client.get("/standings/rating/?min=2&sort=name").content.decode()
    assert "2 半荘未満の会員は順位をつけず最後に載せています。" in html
    names = [p.name for p in people[:4]]  # あいかわ いのうえ うえだ えとう
    assert [html.index(n) for n in names] == sorted(html.index(n) for n in names)


def test_htmx_gets_the_rating_partial(member_client, games):
    response = member_client.get("/standings/rating/?players=4", HTTP_HX_REQUEST="true")
    assert response.content.decode().strip().startswith('<div id="rating"')


def test_visitors_see_the_rating_only_when_the_standings_are_open(client, games):
    assert client.get("/standings/rating/").status_code == 302


def test_the_standings_page_links_to_the_rating(member_client, games):
    html = member_client.get("/standings/").content.decode()
    assert 'href="/standings/rating/?' in html


def test_the_member_page_shows_r_and_each_games_arithmetic(member_client, games, people):
    html = member_client.get(f"/members/{people[0].pk}/?period=2025-H1").content.decode()
    assert "1549.40" in html
    assert "(+20 + (1507.50 − 1530.00) ÷ 40) × 0.998 = +19.40" in html
    assert "(+30 + (1500.00 − 1500.00) ÷ 40) × 1.000 = +30.00" in html
    assert f"/members/{people[0].pk}/chart/rating.svg?" in html
    chart = member_client.get(f"/members/{people[0].pk}/chart/rating.svg?players=4")
    assert chart["Content-Type"] == "image/svg+xml" and b"<svg" in chart.content


def test_editing_an_old_game_rerates_the_page(member_client, games, people):
    """Game 1 turned round: A 1490.52 (tests/scoring/test_rating.py)."""
    a, b, c, d = people[:4]
    scores = [20_000, 25_000, 35_000, 40_000]
    games.record(
        [
            PlayerEntry(m, seat, s)
            for seat, (m, s) in enumerate(zip([a, b, c, d], scores, strict=True))
        ],
        expected_version=games.version,
    )
    html = member_client.get(f"/members/{a.pk}/?period=2025-H1").content.decode()
    assert "1490.52" in html and "1549.40" not in html


def test_three_player_games_have_their_own_tab_and_section(member_client, games, people):
    """A 3-player game (4/16, round 2): 相川 1st +30, 井上 2nd 0, 上田 3rd −30, all new."""
    second = Meet.objects.get(date="2025-04-16")
    play(second, 1, 2, rule(CLUB3), people[:3], [40_000, 30_000, 20_000])
    html = member_client.get("/standings/rating/?players=3").content.decode()
    assert 'aria-current="page">三人打ち<' in html
    for figure in ("1530.00", "1500.00", "1470.00"):
        assert figure in html
    assert "1549.40" not in html  # the 4-player R
    html = member_client.get(f"/members/{people[0].pk}/?period=2025-H1").content.decode()
    assert "<h3>四人打ち</h3>" in html and "<h3>三人打ち</h3>" in html
    assert "1549.40" in html and "1530.00" in html
    assert "players=3" in html  # the 3-player chart


def test_the_tabs_name_the_players_once(member_client, games, people):
    """Each tab's link says ``players`` once: 三人打ち is ``players=3``, not
    ``players=4&players=3`` (which read as 4 wherever the first value is taken)."""
    second = Meet.objects.get(date="2025-04-16")
    play(second, 1, 2, rule(CLUB3), people[:3], [40_000, 30_000, 20_000])
    html = member_client.get("/standings/rating/?players=4").content.decode()
    tabs = dict(
        (label, parse_qs(unescape(query)))
        for query, label in re.findall(r'<a href="\?([^"]*)"[^>]*>(四人打ち|三人打ち)</a>', html)
    )
    assert tabs["三人打ち"]["players"] == ["3"]
    assert tabs["四人打ち"]["players"] == ["4"]
