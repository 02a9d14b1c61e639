"""点数を調べる and the 役一覧 pages (scoring/views/yaku.py)."""

import pytest

from scoring.models import RuleSet

pytestmark = pytest.mark.django_db


def rule(name: str) -> RuleSet:
    return RuleSet.objects.get(name=name)


def test_a_member_reads_a_pinfu_tsumo_with_its_fu_and_payment(member_client):
    club = rule("白樺会 四人打ち")
    response = member_client.get(
        "/hand/", {"rule": club.pk, "t": "2m3m4m7m8m9m1p2p3p4p5p9s9s6p", "win": "tsumo"}
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "平和" in page and "門前清自摸和" in page
    assert "20符" in page
    assert "700" in page and "400" in page and "+1,500" in page
    assert f"/calculator/?rule={club.pk}&amp;han=2&amp;fu=20&amp;dealer=0&amp;win=tsumo" in page


def test_the_fu_are_told_item_by_item(member_client):
    response = member_client.get("/hand/", {"t": "2m2m2m5p5p5p8s8s8s3s5s9m9m4s"})
    page = response.content.decode()
    for words in ("副底", "門前ロン", "暗刻", "嵌張", "44", "50符"):
        assert words in page, words


def test_a_hand_without_yaku_is_told_plainly(member_client):
    response = member_client.get("/hand/", {"t": "1m2m3m4p5p6p7s8s9s2s4s9m9m3s"})
    page = response.content.decode()
    assert "和了りではありません" in page
    assert "役がありません" in page


def test_a_hand_not_yet_complete_counts_the_tiles(member_client):
    response = member_client.get("/hand/", {"t": "1m2m3m", "m": "p5z"})
    page = response.content.decode()
    assert 'data-count="6"' in page
    assert "和了りではありません" not in page


def test_a_tile_tap_adds_the_tile_and_a_meld_tap_the_set(member_client):
    page = member_client.get("/hand/", {"t": "1m", "mode": "pon"}).content.decode()
    assert "t=1m&amp;m=p5z" in page  # tapping 白 in ポン mode adds a pon of 白


def test_hostile_values_are_left_out_with_a_message(member_client):
    response = member_client.get(
        "/hand/", {"t": "xx\x00", "m": "q1m", "honba": "-5", "rule": "abc"}
    )
    assert response.status_code == 400


def test_three_player_offers_no_two_to_eight_of_characters(member_client):
    three = rule("白樺会 三人打ち")
    page = member_client.get("/hand/", {"rule": three.pk}).content.decode()
    assert 'data-tile="1m"' in page and 'data-tile="9m"' in page
    assert 'data-tile="5m"' not in page


@pytest.mark.parametrize(
    ("name", "present", "absent"),
    [
        ("白樺会 四人打ち", ["三色同順", "人和", "流し満貫", "十三不塔", "大車輪"], []),
        ("白樺会 三人打ち", ["三色同順のみできません"], []),
        ("カンターン麻雀 (1-0-0-0)", ["一色三順", "三連刻", "大車輪"], []),
        ("三人打ち 30000持ち34000返し", ["人和は倍満", "抜きドラ"], []),
        ("日本健康麻将協会", ["数え役満"], []),
    ],
)
def test_each_rule_set_lists_its_hands(member_client, name, present, absent):
    rule_set = rule(name)
    response = member_client.get(f"/rules/{rule_set.pk}/yaku/")
    assert response.status_code == 200
    page = response.content.decode()
    for words in present:
        assert words in page, words
    for words in absent:
        assert words not in page, words


def test_the_menu_and_the_calculator_link_the_page(member_client):
    page = member_client.get("/calculator/").content.decode()
    assert 'href="/hand/' in page


@pytest.mark.parametrize(
    "value", ["\x00", "9" * 30, "-1", "1m" * 200, "p1m." * 50, "z9z", "１", "%", "[]"]
)
@pytest.mark.parametrize(
    "name",
    [
        "rule",
        "t",
        "m",
        "d",
        "u",
        "mode",
        "win",
        "seat",
        "round",
        "honba",
        "sticks",
        "nuki",
        "riichi",
    ],
)
def test_no_value_in_the_address_is_a_server_error(member_client, name, value):
    response = member_client.get(
        "/hand/", {name: value, "t": "1m2m3m4p5p6p7s8s9s5s5s", "m": "p7z"} | {name: value}
    )
    assert response.status_code in (200, 400)
