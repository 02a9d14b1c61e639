"""The standings page and members' pages: filters, htmx, visitors, query counts."""

import re

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from members.models import Member
from scoring.models import BigHand, ClubSettings, Meet, StandingsGroup
from tests.builders import JKMA, make_club, rule, sheet_rows

pytestmark = pytest.mark.django_db


def test_the_standings_page_lists_members_with_japanese_headings(member_client, club_rule):
    people = make_club(club_rule, members=8, meets=2)
    html = member_client.get("/standings/?period=2025-H2").content.decode()
    for heading in (
        "順位",
        "氏名",
        "半荘数",
        "合計P",
        "平均順位",
        "1位",
        "4位",
        "トップ率",
        "連対率",
        "ラス回避率",
        "満貫以上",
        "錯和",
    ):
        assert f">{heading}<" in html, heading
    assert "2025年度 下期（10月〜3月）" in html
    for person in people:
        assert f'href="/members/{person.pk}/?period=2025-H2"' in html


def test_htmx_gets_only_the_standings_partial(member_client, club_rule):
    make_club(club_rule, members=4, meets=1)
    response = member_client.get("/standings/?period=2025-10", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "<html" not in html and html.strip().startswith('<div id="standings"')
    assert "2025年10月" in html
    assert response["Vary"].count("HX-Request") == 1


def test_bad_filter_values_fall_back_to_defaults(member_client, club_rule):
    make_club(club_rule, members=4, meets=1)
    response = member_client.get("/standings/?period=2025-13&kind=zzz&rule=abc&min=-3")
    assert response.status_code == 200
    assert "2025年度 下期" in response.content.decode()  # the half-year of the latest meet


def test_sorting_by_a_column(member_client, club_rule):
    make_club(club_rule, members=8, meets=2)
    html = member_client.get("/standings/?period=2025-H2&sort=name").content.decode()
    names = [f"会員{i:03d}" for i in range(8)]
    assert [html.index(n) for n in names] == sorted(html.index(n) for n in names)


def test_visitors_are_sent_to_sign_in_unless_the_standings_are_open(client, settings, club_rule):
    make_club(club_rule, members=4, meets=1)
    response = client.get("/standings/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    settings.STANDINGS_PUBLIC = True
    response = client.get("/standings/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "会員000" in html and "ログアウト" not in html
    # Only the standings open up: members' own pages stay closed.
    member = Member.objects.first()
    assert client.get(f"/members/{member.pk}/").status_code == 302


def test_the_organizer_opens_the_standings_to_visitors_and_closes_them(
    client, organizer_client, member_client, club_rule
):
    make_club(club_rule, members=4, meets=1)
    assert client.get("/standings/").status_code == 302
    html = organizer_client.get("/standings/").content.decode()
    assert "このページは会員だけが見られます" in html and "会員以外にも公開する" in html
    assert "会員以外にも公開する" not in member_client.get("/standings/").content.decode()
    # A member cannot open them.
    assert member_client.post("/standings/visibility/", {"public": "1"}).status_code == 403
    assert client.get("/standings/").status_code == 302
    # The organizer can; the change is in the history with who made it.
    response = organizer_client.post("/standings/visibility/", {"public": "1"})
    assert response.status_code == 302
    assert client.get("/standings/").status_code == 200
    assert "会員000" in client.get("/standings/").content.decode()
    assert ClubSettings.history.latest().history_user.username == "alice"
    organizer_client.post("/standings/visibility/", {"public": "0"})
    assert client.get("/standings/").status_code == 302


def test_a_members_page_shows_summary_charts_monthly_and_daily_sheets(member_client, club_rule):
    people = make_club(club_rule, members=4, meets=2)
    response = member_client.get(f"/members/{people[0].pk}/?period=2025-H2")
    html = response.content.decode()
    assert response.status_code == 200
    for text in (
        "合計P",
        "累計",
        "月別成績",
        "日別成績表",
        "2025年10月1日（水）",
        "2025年10月8日（水）",
    ):
        assert text in html, text
    hands = BigHand.objects.filter(result__member=people[0])
    assert hands.exists()
    assert html.count("：満貫</li>") == hands.count()  # their mangan-or-better list
    assert f'src="/members/{people[0].pk}/chart/cumulative.svg?period=2025-H2"' in html
    chart = member_client.get(f"/members/{people[0].pk}/chart/cumulative.svg?period=2025-H2")
    assert chart["Content-Type"] == "image/svg+xml"
    assert chart.content.startswith(b"<?xml") and b"<svg" in chart.content
    places = member_client.get(f"/members/{people[0].pk}/chart/places.svg?period=2025-H2")
    assert b"<svg" in places.content


def test_a_member_with_no_games_in_the_period(member_client, club_rule):
    people = make_club(club_rule, members=4, meets=1)
    html = member_client.get(f"/members/{people[0].pk}/?period=2024-H1").content.decode()
    assert "この期間の対局はありません。" in html


@pytest.mark.parametrize(("members", "meets"), [(4, 1), (16, 4)])
def test_query_counts_do_not_grow_with_the_club(
    member_client, club_rule, django_assert_max_num_queries, members, meets
):
    people = make_club(club_rule, members=members, meets=meets)
    # Each count includes saving the session (idle timeout, settings.py): an UPDATE, which
    # the test transaction wraps in a SAVEPOINT and its RELEASE; and the standings group
    # with its rule sets (two); and the login's own member, for the menu's 自分の成績 (one).
    # The member page also rates the group's games, 4- and 3-player apart: the results in
    # order, the games' dates and the rated members' names, for each (six, at most); and it
    # adds the club's settings, head-to-head (two), by seat and the recent games (issue 29:
    # five). The login's display settings (text size, contrast, ruby) are read from the
    # session, filled at sign-in: no query of their own (members.context_processors.display).
    with django_assert_max_num_queries(14):
        assert member_client.get("/standings/?period=2025-H2").status_code == 200
    with django_assert_max_num_queries(27):
        assert member_client.get(f"/members/{people[0].pk}/?period=2025-H2").status_code == 200
    with django_assert_max_num_queries(14):
        assert member_client.get("/").status_code == 200


@pytest.mark.parametrize(("members", "meets"), [(4, 1), (16, 4)])
def test_the_meet_page_query_count_does_not_grow_with_its_games(
    member_client, club_rule, django_assert_max_num_queries, members, meets
):
    """The meet page lays out ``meet_sheet``: the meet, its games, their lines, the big hands
    and the attendance (five), whatever the number of tables; the table draw (one); and the
    session, the user and the organizer check; and the login's own member, for the menu (one).
    The display settings, ruby with them, come from the session."""
    make_club(club_rule, members=members, meets=meets)
    meet = Meet.objects.order_by("-date").first()
    with django_assert_max_num_queries(13):
        assert member_client.get(f"/meets/{meet.pk}/").status_code == 200


@pytest.mark.parametrize(("members", "meets"), [(4, 1), (16, 4)])
@pytest.mark.parametrize("chart", ["cumulative", "places"])
def test_a_members_chart_reads_only_their_own_games(
    member_client, club_rule, django_assert_max_num_queries, members, meets, chart
):
    """A chart draws the member's own games (their results and big hands: two queries) for
    the filters in its URL (the standings group and its rule sets: two), never the club's
    standings; and the session, the user, the user's club roles and the member, as above."""
    people = make_club(club_rule, members=members, meets=meets)
    url = f"/members/{people[0].pk}/chart/{chart}.svg?period=2025-H2"
    with django_assert_max_num_queries(11) as captured:
        assert member_client.get(url).status_code == 200
    assert not any("GROUP BY" in q["sql"] for q in captured.captured_queries)


def test_the_member_list_links_to_each_members_page(client: Client, bob, club_rule):
    client.force_login(bob)
    people = make_club(club_rule, members=4, meets=1)
    html = client.get("/members/").content.decode()
    assert f'href="/members/{people[1].pk}/"' in html


def test_the_member_page_gives_a_phone_the_compact_chart(member_client, recorded_game):
    member = recorded_game.results.first().member
    html = member_client.get(f"/members/{member.pk}/?period=2025-H1").content.decode()
    source = re.search(r'<source media="\(max-width: 40rem\)" srcset="([^"]+)"', html)
    assert source is not None and "size=compact" in source.group(1)
    wide = member_client.get(f"/members/{member.pk}/chart/cumulative.svg?period=2025-H1")
    compact = member_client.get(source.group(1).replace("&amp;", "&"))
    width = re.compile(rb'<svg[^>]* width="([0-9.]+)pt"')
    wide_pt = float(width.search(wide.content).group(1))
    compact_pt = float(width.search(compact.content).group(1))
    assert compact_pt < 300 < wide_pt  # drawn for a phone: shown near its own size there


def test_the_standings_page_and_the_export_command_take_a_group(
    three_systems, member_client, tmp_path
):
    group = rule(JKMA).group
    html = member_client.get(f"/standings/?period=2025-H1&group={group.pk}").content.decode()
    assert "+22.0" in html and "−5.0" not in html
    html = member_client.get("/standings/?period=2025-H1").content.decode()
    assert "−5.0" in html and "+22.0" not in html
    out = tmp_path / "jkma.xlsx"
    call_command(
        "export_report",
        "--period",
        "2025-H1",
        "--format",
        "xlsx",
        "--group",
        JKMA,
        "--output",
        str(out),
    )
    assert next(r for r in sheet_rows(out.read_bytes()) if r[1] == "相川 愛")[3] == 22.0
    with pytest.raises(CommandError):
        call_command(
            "export_report", "--period", "2025-H1", "--group", "無い", "--output", str(out)
        )


def test_a_rule_of_another_group_than_the_one_named_is_ignored(three_systems, member_client):
    club = StandingsGroup.clubs_own()
    html = member_client.get(
        f"/standings/?period=2025-H1&group={club.pk}&rule={rule(JKMA).pk}"
    ).content.decode()
    assert "−5.0" in html and "+22.0" not in html


def test_the_download_links_follow_htmx_navigation(three_systems, member_client):
    response = member_client.get("/standings/?period=2024-H2", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="standings"')
    assert "/reports/standings.pdf?period=2024-H2" in html
    assert "/reports/standings.xlsx?period=2024-H2" in html
    group = rule(JKMA).group
    html = member_client.get(
        f"/standings/?period=2025-H1&group={group.pk}&min=2", headers={"HX-Request": "true"}
    ).content.decode()
    assert f"/reports/standings.pdf?period=2025-H1&amp;group={group.pk}&amp;min=2" in html
