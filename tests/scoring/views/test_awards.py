"""The awards pages: who may see and change what, the guests switch, the certificate PDF.

The season is tests/scoring/standings/test_awards.py's (fixture ``award_season``): in 2025
上期 E wins 最高ポイント賞 with +48.0; A and B tie for 最高得点賞 with 50,000.
"""

import re

import pytest
from django.urls import reverse

from members.models import Member
from scoring.models import Award, Measure, StandingsGroup
from tests.builders import pdf_fonts, pdf_text

PAGE = reverse("scoring:awards")
EDIT = reverse("scoring:award-edit")
CERTIFICATE = reverse("scoring:award-certificate")
H1 = "period=2025-H1"


def award(measure):
    return Award.objects.of_group(StandingsGroup.clubs_own()).get(measure=measure)


def test_a_member_sees_the_winners_with_their_figures(member_client, award_season):
    response = member_client.get(f"{PAGE}?{H1}")
    assert response.status_code == 200
    text = response.content.decode()
    assert "最高ポイント賞" in text and "E 会員" in text and "+48.0" in text
    assert "同点 2 名" in text  # 最高得点賞: A and B
    assert "規定半荘数 3" in text  # 最高平均順位賞: 2 meets × 2 × 70 % = 2.8 → 3
    assert "未満の 3 名は対象外" in text  # C, D and E
    assert "G ゲスト" not in text
    assert CERTIFICATE not in text  # the organizer prints the certificates


def test_the_guests_switch(member_client, award_season):
    text = member_client.get(f"{PAGE}?{H1}&guests=1").content.decode()
    assert "G ゲスト" in text  # 役満賞: 大三元


def test_visitors_and_logins_without_a_role_see_nothing(client, outsider_client, award_season):
    assert client.get(PAGE).status_code == 302
    assert outsider_client.get(PAGE).status_code == 403


@pytest.mark.slow
def test_the_organizer_gets_a_certificate(organizer_client, award_season):
    text = organizer_client.get(f"{PAGE}?{H1}").content.decode()
    total = award(Measure.TOTAL)
    e = award_season["E"]
    assert f"award={total.pk}&amp;member={e.pk}" in text
    response = organizer_client.get(f"{CERTIFICATE}?{H1}&award={total.pk}&member={e.pk}")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    # Written vertically: one character a line, in vertical forms (ー as ︱), full-width
    # figures; the club's name (the leftmost column) first, the title (the rightmost) last.
    lines = pdf_text(response.content).split("\n")
    assert "".join(lines[:12]) == "白樺会マ︱ジャンサ︱クル"
    assert "".join(lines[-2:]) == "賞状"
    text = "".join(lines)
    assert "最高ポイント賞" in text and "Ｅ会員殿" in "".join(text.split()) and "＋４８．" in text


@pytest.mark.slow
def test_the_certificate_embeds_the_japanese_font(organizer_client, award_season):
    total = award(Measure.TOTAL)
    response = organizer_client.get(
        f"{CERTIFICATE}?{H1}&award={total.pk}&member={award_season['E'].pk}"
    )
    assert "IPAexGothic" in pdf_fonts(response.content)


def test_no_certificate_for_someone_who_did_not_win(organizer_client, member_client, award_season):
    total = award(Measure.TOTAL)
    a = award_season["A"]
    assert (
        organizer_client.get(f"{CERTIFICATE}?{H1}&award={total.pk}&member={a.pk}").status_code
        == 404
    )
    e = award_season["E"]
    assert (
        member_client.get(f"{CERTIFICATE}?{H1}&award={total.pk}&member={e.pk}").status_code == 403
    )


def test_the_organizer_changes_an_awards_eligibility(organizer_client, member_client, award_season):
    assert member_client.get(EDIT).status_code == 403
    page = organizer_client.get(f"{EDIT}?{H1}")
    assert page.status_code == 200
    formset = page.context["formset"]
    data = {
        "awards-TOTAL_FORMS": str(len(formset.forms)),
        "awards-INITIAL_FORMS": str(len(formset.forms)),
    }
    for i, form in enumerate(formset.forms):
        a = form.instance
        data |= {
            f"awards-{i}-id": a.pk,
            f"awards-{i}-name": a.name,
            f"awards-{i}-position": a.position,
            f"awards-{i}-min_share": "0" if a.measure == Measure.AVERAGE_PLACE else a.min_share,
            f"awards-{i}-games_per_meet": a.games_per_meet,
        }
        if a.measure != Measure.WINS:
            data[f"awards-{i}-is_shown"] = "on"
    assert organizer_client.post(f"{EDIT}?{H1}", data).status_code == 302
    assert award(Measure.AVERAGE_PLACE).min_share == 0
    assert not award(Measure.WINS).is_shown
    text = member_client.get(f"{PAGE}?{H1}").content.decode()
    assert "最多トップ賞" not in text
    assert "1.00" in text  # E's average place, no longer cut


@pytest.mark.slow
def test_the_organizer_gives_an_award_by_hand_and_takes_it_back(
    organizer_client, member_client, award_season
):
    d = award_season["D"]
    response = organizer_client.post(
        f"{EDIT}?{H1}",
        {
            "add": "1",
            "name": "敢闘賞",
            "winner": d.pk,
            "period_key": "2025-H1",
            "reason": "最後まで粘りました",
        },
    )
    assert response.status_code == 302
    given = Award.objects.get(name="敢闘賞")
    assert given.measure == Measure.BY_HAND and given.winner == d
    text = member_client.get(f"{PAGE}?{H1}").content.decode()
    assert "敢闘賞" in text and "D 会員" in text and "最後まで粘りました" in text
    assert "敢闘賞" not in member_client.get(f"{PAGE}?period=2025-H2").content.decode()
    certificate = organizer_client.get(f"{CERTIFICATE}?{H1}&award={given.pk}&member={d.pk}")
    assert certificate.status_code == 200
    delete = reverse("scoring:award-delete")
    assert member_client.post(delete, {"award": given.pk}).status_code == 403
    assert organizer_client.post(f"{delete}?{H1}", {"award": given.pk}).status_code == 302
    assert not Award.objects.filter(name="敢闘賞").exists()


def test_an_award_won_by_a_figure_is_not_deleted(organizer_client, award_season):
    total = award(Measure.TOTAL)
    response = organizer_client.post(reverse("scoring:award-delete"), {"award": total.pk})
    assert response.status_code == 404
    assert Award.objects.filter(pk=total.pk).exists()


def test_a_guest_winner_is_marked_as_the_standings_mark_them(member_client, award_season):
    """With guests counted, G (a guest) shares 役満賞 with C: named 「G ゲスト（ゲスト）」, as
    the standings name a guest; C, a member, is named as before."""
    html = member_client.get(f"{PAGE}?{H1}&guests=1").content.decode()
    text = re.sub(r"<[^>]+>", "", re.sub(r"<rt>.*?</rt>", "", html))  # as read, ruby off
    assert "G ゲスト（ゲスト）" in text
    assert "C 会員（ゲスト）" not in text


def test_the_page_says_how_each_award_is_won(member_client, award_season):
    """A short note under the table: 最多トップ賞 counts 3-player tops with 4-player ones, and
    皆勤賞 asks for a game at every meet held."""
    text = member_client.get(f"{PAGE}?{H1}").content.decode()
    assert "三人打ちのトップも四人打ちのトップと合わせて数えます" in text
    assert "期間中に開かれた例会すべてで 1 半荘以上打った会員" in text
    assert "四人打ちと三人打ちは別々に決めます" in text


def test_each_kind_of_game_has_its_winner_on_the_page(member_client, mixed_season):
    """``mixed_season`` (worked out in tests/scoring/standings/test_awards.py): 最高平均順位賞
    goes to B at 四人打ち 2.00 (at least 3 such games) and to F at 三人打ち 1.00 (at least 1)."""
    text = member_client.get(f"{PAGE}?{H1}").content.decode()
    assert "四人打ち 2.00" in text and "三人打ち 1.00" in text
    assert "四人打ち 規定半荘数 3" in text and "三人打ち 規定半荘数 1" in text


def test_the_running_half_years_awards_are_said_to_be_provisional(member_client, award_season):
    """The meet day's try: the running half-year's page named winners as if final. Until the
    period ends the page says 途中経過 and when the figures become final; an ended period
    does not."""
    from django.utils import timezone

    from scoring.notation import meet_date
    from scoring.periods import Period

    running = Period.containing(timezone.localdate())
    text = member_client.get(f"{PAGE}?period={running.key}").content.decode()
    assert "途中経過" in text
    assert meet_date(running.end) in text
    assert "途中経過" not in member_client.get(f"{PAGE}?{H1}").content.decode()


def test_the_organizer_dates_the_certificates(organizer_client, member_client, award_season):
    """The end of the period by default (2025 上期: 2025-09-30); a day the organizer gives
    goes into every certificate's address; a day that is not one is said and left out."""
    text = organizer_client.get(f"{PAGE}?{H1}").content.decode()
    assert 'type="date" name="day" value="2025-09-30"' in text
    links = re.findall(r'href="([^"]*)" class="certificate-link"', text)
    assert links and not any("day=" in link for link in links)
    text = organizer_client.get(f"{PAGE}?{H1}&day=2025-10-05").content.decode()
    assert 'value="2025-10-05"' in text
    links = re.findall(r'href="([^"]*)" class="certificate-link"', text)
    assert links and all("day=2025-10-05" in link for link in links)
    text = organizer_client.get(f"{PAGE}?{H1}&day=2025-13-40").content.decode()
    assert "日付を正しく入力してください。" in text
    links = re.findall(r'href="([^"]*)" class="certificate-link"', text)
    assert links and not any("day=" in link for link in links)
    assert 'name="day"' not in member_client.get(f"{PAGE}?{H1}").content.decode()


@pytest.mark.slow
def test_the_certificate_bears_the_day_the_organizer_gave(organizer_client, award_season):
    total, e = award(Measure.TOTAL), award_season["E"]
    asked = f"{CERTIFICATE}?{H1}&award={total.pk}&member={e.pk}"
    text = "".join(pdf_text(organizer_client.get(f"{asked}&day=2025-10-05").content).split())
    assert "令和七年十月五日" in text
    text = "".join(pdf_text(organizer_client.get(asked).content).split())
    assert "令和七年九月三十日" in text


def test_a_winners_name_carries_their_furigana(member_client, award_season):
    """Names on the awards page carry their ふりがな as the standings' do (ruby, shown when the
    member turns it on); a guest's mark stays after the name, outside the ruby."""
    Member.objects.filter(name="E 会員").update(furigana="いー かいいん")
    Member.objects.filter(name="G ゲスト").update(furigana="じー げすと")
    text = member_client.get(f"{PAGE}?{H1}&guests=1").content.decode()
    assert "<ruby>E 会員<rt>いー かいいん</rt></ruby>" in text
    assert "<ruby>G ゲスト<rt>じー げすと</rt></ruby>（ゲスト）" in text
