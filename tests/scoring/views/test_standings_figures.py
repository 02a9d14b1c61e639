"""The standings page's figures of issue 29: the guests' switch (「ゲストを含める」), and what the
member page shows of head-to-head, seats, busts and recent games (``guest_season``)."""

import re

import pytest

from scoring.models import ClubSettings, Meet
from tests.builders import sheet_rows

pytestmark = pytest.mark.django_db


def test_the_standings_page_leaves_guests_out_until_switched_in(member_client, guest_season):
    html = member_client.get("/standings/?period=2025-H1").content.decode()
    assert "相川 愛" in html and "大野 音" not in html
    assert 'name="guests" value="1">' in html and "ゲストを含める" in html
    html = member_client.get("/standings/?period=2025-H1&guests=1").content.decode()
    assert "大野 音（ゲスト）" in html
    assert 'name="guests" value="1" checked>' in html
    assert "guests=1" in html  # the downloads carry the switch


def test_the_excel_marks_a_guest_row(member_client, guest_season):
    response = member_client.get("/reports/standings.xlsx?period=2025-H1&guests=1")
    assert "guests" in response["Content-Disposition"]
    names = [row[1] for row in sheet_rows(b"".join(response.streaming_content))[1:]]
    assert "大野 音（ゲスト）" in names and "相川 愛" in names
    response = member_client.get("/reports/standings.xlsx?period=2025-H1")
    names = [row[1] for row in sheet_rows(b"".join(response.streaming_content))[1:]]
    assert "相川 愛" in names and not any("大野" in str(name) for name in names)


def test_the_member_page_shows_head_to_head_seats_busts_and_recent_games(
    member_client, guest_season, django_assert_max_num_queries
):
    """井上's page (2025-H1, head-to-head from 2 games together): 上田 first (above 4 of 4),
    then 相川 (2 of 4) and 江藤 (1 of 2); 大野 is a guest and left out. Seats: 東 1.00,
    南 2.00, 西 3.00. The four games newest first: round 4 down to round 1."""
    ClubSettings.objects.create(pk=1, head_to_head_min=2)
    b = guest_season["B"]
    html = member_client.get(f"/members/{b.pk}/?period=2025-H1").content.decode()
    pairs = [
        "上田 卯さんと同卓 4 回・上位 4 回",
        "相川 愛さんと同卓 4 回・上位 2 回",
        "江藤 栄さんと同卓 2 回・上位 1 回",
    ]
    at = [html.index(p) for p in pairs]
    assert at == sorted(at) and "大野 音さん" not in html
    assert "相性" in html and "席別成績" in html and "最近の対局" in html
    assert re.search(
        r"<th scope=\"row\">東</th><td class=\"num\">1</td><td class=\"num\">1.00</td>", html
    )
    assert re.search(
        r"<th scope=\"row\">南</th><td class=\"num\">2</td><td class=\"num\">2.00</td>", html
    )
    recent = html[html.index('id="recent-games"') :]
    rounds = re.findall(r'<td class="num">(\d)</td><td>[東南西北]</td>', recent)
    assert rounds[:4] == ["4", "3", "2", "1"]
    assert f'href="/meets/{Meet.objects.get().pk}/"' in recent
    # 相川's page: one bust in four games (.250), worst game −62.0.
    html = member_client.get(f"/members/{guest_season['A'].pk}/?period=2025-H1").content.decode()
    assert "最低P" in html and "−62.0" in html and "25.0%" in html
    assert "満貫 1・役満 1" in html  # the big hands by kind under 満貫以上


def test_a_guests_own_page_counts_their_games(member_client, guest_season):
    html = member_client.get(f"/members/{guest_season['G'].pk}/?period=2025-H1").content.decode()
    assert "+5.0" in html  # 大野: −45 + 50


def test_the_organizers_see_the_whole_head_to_head_matrix(
    organizer_client, member_client, guest_season
):
    """井上's row: 上田 4/4 (above every time), 相川 2/4, 江藤 1/2; never with himself."""
    assert member_client.get("/standings/head-to-head/?period=2025-H1").status_code == 403
    html = organizer_client.get("/standings/head-to-head/?period=2025-H1").content.decode()
    row = html[html.index(">井上 一</a></th>") :].split("</tr>")[0]
    # Columns in furigana order: 相川 井上 上田 江藤 (大野 is a guest: left out).
    assert re.findall(r'<td class="num[^"]*">([^<]*)</td>', row) == ["2/4", "—", "4/4", "1/2"]
    assert "大野" not in html
    html = organizer_client.get("/standings/head-to-head/?period=2025-H1&guests=1").content
    assert "大野 音" in html.decode()


def test_the_organizer_sets_how_often_a_tablemate_must_have_been_met(
    organizer_client, member_client, guest_season
):
    """From 5 (the default: nobody met 井上 so often) to 3: 上田 and 相川 (4 games each)."""
    b = guest_season["B"]
    html = member_client.get(f"/members/{b.pk}/?period=2025-H1").content.decode()
    assert "5 回以上同卓した相手はいません" in html
    assert member_client.post("/standings/head-to-head/", {"least": "3"}).status_code == 403
    for wrong in ("0", "100", "x"):
        organizer_client.post("/standings/head-to-head/", {"least": wrong})
        assert ClubSettings.load().head_to_head_min == 5
    response = organizer_client.post("/standings/head-to-head/?period=2025-H1", {"least": "3"})
    assert response.status_code == 302 and ClubSettings.load().head_to_head_min == 3
    html = member_client.get(f"/members/{b.pk}/?period=2025-H1").content.decode()
    assert "上田 卯さんと同卓 4 回・上位 4 回" in html and "相川 愛さん" in html
    assert "江藤 栄さん" not in html  # 2 games together only


def test_the_standings_page_shows_an_average_place_for_each_kind(member_client, mixed_season):
    """``mixed_season``: F's 四人打ち平均順位 1.00 (one game) and 三人打ち平均順位 1.00 (two);
    E's 3.00 and 2.00. Both columns are named by their kind, and a note says which games each
    counts and that the rates count both."""
    html = member_client.get("/standings/?period=2025-H1").content.decode()
    assert ">四人打ち平均順位</a>" in html and ">三人打ち平均順位</a>" in html
    assert "四人打ち平均順位は四人打ちの半荘だけ" in html
    html = member_client.get("/standings/?period=2025-H1&sort=average_place3").content.decode()
    # Each name with its furigana over it (shown when the member turns ruby on).
    names = re.findall(r'hx-boost="false"><ruby>(\w) 会員<rt>[^<]*</rt></ruby></a>', html)
    assert names[0] == "F"  # 1.00 at 3-player games, the best


def test_the_member_page_names_each_kind_and_says_what_figures_mean(member_client, mixed_season):
    """F's page: 四人打ち平均順位 1.00 and 三人打ち平均順位 1.00, each named; a note on 箱割れ
    (below 0, exactly 0 is not) and on head-to-head (a tie counts for neither), shown with
    the tablemates it lists (met at least once here)."""
    club = ClubSettings.load()
    club.head_to_head_min = 1
    club.save()
    f = mixed_season["F"]
    html = member_client.get(f"/members/{f.pk}/?period=2025-H1").content.decode()
    assert "<dt>四人打ち平均順位</dt><dd>1.00</dd>" in html
    assert "<dt>三人打ち平均順位</dt><dd>1.00</dd>" in html
    assert "ちょうど 0 点は箱割れではありません" in html
    assert "同点（同じ順位）はどちらにも数えません" in html


def test_a_member_of_one_kind_sees_the_plain_average_place(member_client, guest_season):
    a = guest_season["A"]
    html = member_client.get(f"/members/{a.pk}/?period=2025-H1").content.decode()
    assert "<dt>平均順位</dt>" in html and "四人打ち平均順位" not in html


def test_the_organizers_head_to_head_says_a_tie_counts_for_neither(organizer_client, guest_season):
    html = organizer_client.get("/standings/head-to-head/?period=2025-H1").content.decode()
    assert "同点（同じ順位）はどちらにも数えません" in html
