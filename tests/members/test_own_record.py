"""A member finds themselves: 自分の成績 in the menu, their own row marked in the standings."""

import pytest
from django.test import Client

from members.models import Member


@pytest.fixture
def bob_is_nishikawa(bob, four_members) -> Member:
    """bob's login belongs to the member 西川 次郎."""
    member = four_members[2]
    member.user = bob
    member.save()
    return member


def test_the_menu_links_a_member_to_their_own_record(member_client: Client, bob_is_nishikawa):
    html = member_client.get("/").content.decode()
    assert f'href="/members/{bob_is_nishikawa.pk}/">自分の成績</a>' in html


def test_no_own_record_link_for_a_login_without_a_member(member_client: Client, four_members):
    assert "自分の成績" not in member_client.get("/").content.decode()


def test_the_standings_mark_the_members_own_row(
    member_client: Client, bob_is_nishikawa, recorded_game
):
    html = member_client.get("/standings/?period=2025-H1").content.decode()
    rows = html.split("<tbody>")[1].split("</tbody>")[0].split("<tr")[1:]
    assert len(rows) == 4
    own = [row for row in rows if 'class="own" aria-current="true"' in row]
    assert len(own) == 1 and "西川 次郎" in own[0]


def test_no_row_is_marked_for_a_login_without_a_member(member_client: Client, recorded_game):
    html = member_client.get("/standings/?period=2025-H1").content.decode()
    assert 'aria-current="true">' not in html.split("<tbody>")[1]
