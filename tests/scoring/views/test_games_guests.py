"""A guest added at the table while entering a game (issue 29 §3): organizer only, a clear
error for a bad or taken name, nothing half-saved."""

import pytest

from members.models import Member
from scoring.models import Hanchan, HanchanResult
from tests.builders import game_post, games_state

pytestmark = pytest.mark.django_db


def new_game(meet):
    return f"/meets/{meet.pk}/games/new/"


def test_a_new_guest_is_added_with_the_game(organizer_client, meet, club_rule):
    """北 is 大野 音, new, ticked 新しいゲスト; 北's score left blank is the rest: 120,000 −
    32,600 − 30,000 − 30,000 = 27,400."""
    data = game_post(club_rule, player_3="大野　音", guest_3="on")
    response = organizer_client.post(new_game(meet), data)
    assert response.status_code == 302
    guest = Member.objects.get(name="大野 音")
    assert guest.is_guest and guest.user is None
    result = HanchanResult.objects.get(member=guest)
    assert (result.seat, result.score) == (3, 27_400)
    assert meet.attendees.filter(pk=guest.pk).exists()


def test_the_game_form_offers_the_tick(organizer_client, meet):
    html = organizer_client.get(new_game(meet)).content.decode()
    assert 'name="seat-3-guest"' in html and "新しいゲスト" in html


def test_a_guest_named_like_a_member_is_refused(organizer_client, meet, club_rule):
    before = (games_state(), Member.objects.count())
    data = game_post(club_rule, player_3="北村　三郎", guest_3="on")  # 北村 三郎 is a member
    response = organizer_client.post(new_game(meet), data)
    assert response.status_code == 400
    assert "北村 三郎 さんはすでに登録されています" in response.content.decode()
    assert (games_state(), Member.objects.count()) == before


def test_a_guest_name_with_a_control_character_is_refused(organizer_client, meet, club_rule):
    before = Member.objects.count()
    data = game_post(club_rule, player_3="大野\u202e音", guest_3="on")
    response = organizer_client.post(new_game(meet), data)
    assert response.status_code == 400 and Member.objects.count() == before


def test_the_same_new_guest_twice_is_refused(organizer_client, meet, club_rule):
    before = Member.objects.count()
    data = game_post(club_rule, player_2="大野 音", guest_2="on", player_3="大野音", guest_3="on")
    response = organizer_client.post(new_game(meet), data)
    assert response.status_code == 400
    assert "このゲストが二度入力されています" in response.content.decode()
    assert Member.objects.count() == before


def test_a_game_refused_when_saving_leaves_no_guest_behind(organizer_client, meet, club_rule):
    """Every score typed, 1,000 short of the table total: the settlement refuses the game,
    and the guest saved before it in the same transaction is gone with it."""
    before = (Hanchan.objects.count(), Member.objects.count())
    data = game_post(club_rule, player_3="大野 音", guest_3="on", score_3="26400")
    response = organizer_client.post(new_game(meet), data)
    assert response.status_code == 400
    assert "120,000 点まであと 1,000 点不足" in response.content.decode()  # said by settlement
    assert (Hanchan.objects.count(), Member.objects.count()) == before
    assert not Member.objects.filter(name="大野 音").exists()


def test_the_live_check_says_what_to_do_with_a_new_name(organizer_client, meet, club_rule):
    """A name that finds nobody: the hint to tick 新しいゲスト; ticked on a member's name: to
    untick it."""
    url = new_game(meet)
    headers = {"HX-Request": "true"}
    data = {**game_post(club_rule, player_3="大野 音"), "preview": "1"}
    html = organizer_client.post(url, data, headers=headers).content.decode()
    assert "その席の「新しいゲスト」にチェックを入れてください" in html
    data = {**game_post(club_rule, player_3="北村 三郎", guest_3="on"), "preview": "1"}
    html = organizer_client.post(url, data, headers=headers).content.decode()
    assert "北「北村 三郎」：登録済みの会員です" in html
    assert "にチェックを入れてください" not in html
