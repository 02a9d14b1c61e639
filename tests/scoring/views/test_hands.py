"""The calculator page and the printable score table (scoring/views/hands.py)."""

import io

import pytest
from django.utils import translation
from pypdf import PdfReader

from scoring import hands
from scoring.models import RuleSet
from scoring.reports.score_table import score_table, system_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def en(member_client):
    """A member who chose English (the language switch's cookie)."""
    member_client.cookies["django_language"] = "en"
    return member_client


def rule(name: str) -> RuleSet:
    return RuleSet.objects.get(name=name)


def test_each_shipped_rule_set_scores_by_its_own_sheet():
    assert system_for(rule("白樺会 四人打ち")) is hands.System.CLUB4
    assert system_for(rule("白樺会 三人打ち")) is hands.System.CLUB3
    assert system_for(rule("日本健康麻将協会")) is hands.System.JKMA
    assert system_for(rule("三人打ち 30000持ち34000返し")) is hands.System.PARLOR3
    assert system_for(rule("カンターン麻雀 (1-0-0-0)")) is hands.System.KANTAN


def test_a_copy_scores_as_its_original():
    copy = rule("三人打ち 30000持ち34000返し").copy(name="三人打ち (copy)")
    assert system_for(copy) is hands.System.PARLOR3


def test_the_calculator_shows_the_payment_large(en):
    html = en.get("/calculator/?han=3&dealer=0&win=ron").content.decode()
    assert '<span class="who">Non-dealer</span> <span class="win">Ron</span>' in html
    assert '<span class="figure">3,900</span>' in html


def test_a_dealer_tsumo_is_so_much_all(en):
    html = en.get("/calculator/?han=2&fu=40&dealer=1&win=tsumo").content.decode()
    assert '<span class="figure">1,300 all</span>' in html


def test_honba_and_sticks_are_added_to_the_winners_total(en):
    response = en.get("/calculator/?han=2&fu=20&dealer=0&win=tsumo&honba=1&sticks=1")
    html = response.content.decode()
    assert '<span class="figure">400・700</span>' in html  # the hand as called
    assert "+2,800" in html  # 800 + 500 + 500 + 1,000


def test_the_inputs_are_in_the_address_of_every_button(member_client, club_rule):
    html = member_client.get(f"/calculator/?rule={club_rule.pk}&han=3&honba=2").content.decode()
    # The tsumo button keeps the han, the honba and the rule set.
    assert f"?rule={club_rule.pk}&amp;han=3&amp;fu=&amp;dealer=0&amp;win=tsumo&amp;honba=2" in html


def test_the_rule_set_chosen_changes_the_figures(en):
    parlor = rule("三人打ち 30000持ち34000返し")
    html = en.get(f"/calculator/?rule={parlor.pk}&han=1&win=tsumo")
    assert '<span class="figure">500 all</span>' in html.content.decode()  # ツモのみ 500 オール


def test_the_organizer_opens_it_too(organizer_client):
    assert organizer_client.get("/calculator/").status_code == 200


def test_a_visitor_is_sent_to_sign_in(client):
    response = client.get("/calculator/")
    assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("han=abc", "is not a number of han"),
        ("fu=999999", "Fu is 20, 25 or 30 to 110 in tens"),
        ("fu=35", "Fu is 20, 25 or 30 to 110 in tens"),
        ("han=0", "Han is 1 to 99"),
        ("han=1&fu=20&win=tsumo", "No hand is 1 han 20 fu"),
        ("han=2&fu=20&win=ron", "No hand is 2 han 20 fu"),
        ("han=1&fu=25", "No hand is 1 han 25 fu"),
        ("rule=999999", "There is no such rule set"),
        ("rule=x", "is not a number of rule set"),
        ("dealer=2", "Dealer or not is 0 or 1"),
        ("win=draw", "The win is ron or tsumo"),
        ("honba=-1", "is not a number of honba"),
        ("honba=100", "Honba is 0 to 99"),
        ("sticks=１", "is not a number of riichi sticks"),
        ("yakuman=9", "Yakuman is 0 to 6"),
        ("han=99999999999999999999", "is not a number of han"),
    ],
)
def test_odd_input_gets_a_clear_message_not_an_error(en, query, message):
    response = en.get(f"/calculator/?{query}")
    assert response.status_code == 400
    assert message in response.content.decode()


def test_the_rule_set_page_links_to_the_calculator_and_the_table(member_client, club_rule):
    html = member_client.get(f"/rules/{club_rule.pk}/").content.decode()
    assert f"/calculator/?rule={club_rule.pk}" in html
    assert f"/rules/{club_rule.pk}/score-table.pdf" in html


def test_the_table_by_han_needs_no_fu_and_sets_the_fu_cases_apart():
    with translation.override("en"):
        table = score_table(hands.System.CLUB4)
    first = table["main"][0]["cells"]  # 1翻: 子 ロン, 子 ツモ, 親 ロン, 親 ツモ
    assert first == ["1,000", "300・500", "1,500", "500 all"]
    titles = [case["title"] for case in table["fu_cases"]]
    assert titles == ["20 fu (pinfu tsumo)", "25 fu (seven pairs)"]
    pinfu = table["fu_cases"][0]["rows"][0]["cells"]  # 2翻20符: no ron
    assert pinfu == ["—", "400・700", "—", "700 all"]
    forty = table["grid"][0]["rows"][0]["cells"]  # 子 40符: 1翻 ron, tsumo, 2翻 …
    assert [c["text"] for c in forty[:2]] == ["1,300", "400・700"]


def test_kantan_prints_no_fu_cases_and_no_dealer_columns():
    table = score_table(hands.System.KANTAN)
    assert table["fu_cases"] == [] and not table["dealer_differs"]


@pytest.mark.slow
def test_the_score_table_pdf_is_one_a4_page_with_the_figures(member_client, club_rule):
    response = member_client.get(f"/rules/{club_rule.pk}/score-table.pdf")
    assert response["Content-Type"] == "application/pdf"
    pages = PdfReader(io.BytesIO(response.content)).pages
    assert len(pages) == 1
    width, height = pages[0].mediabox.width, pages[0].mediabox.height
    assert (round(width * 25.4 / 72), round(height * 25.4 / 72)) == (210, 297)
    text = pages[0].extract_text()
    for figure in ("3,900", "8,000", "400・700", "32,000"):
        assert figure in text


def test_an_unknown_rule_set_has_no_table(member_client):
    assert member_client.get("/rules/999999/score-table.pdf").status_code == 404


@pytest.mark.parametrize(
    ("query", "said"),
    [
        (
            "han=3&dealer=0&win=ron",
            '子</span> <span class="win">ロン</span> <span class="figure">3,900',
        ),
        ("han=3&fu=40&dealer=1&win=tsumo", '親</span> <span class="figure">2,600 オール'),
        (
            "han=2&fu=20&dealer=0&win=tsumo",
            '子</span> <span class="win">ツモ</span> <span class="figure">400・700',
        ),
    ],
)
def test_the_payment_is_said_the_japanese_way(member_client, query, said):
    """The issue's 「子 ロン 3,900」「親 2,600 オール」."""
    assert said in member_client.get(f"/calculator/?{query}").content.decode()
