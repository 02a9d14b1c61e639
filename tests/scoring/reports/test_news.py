"""例会速報 (scoring/reports/news.py, scoring/views/news.py): the text for LINE, exactly; the
picture; what the members-only setting does to the link."""

import io

import pytest
from PIL import Image

from scoring.models import ClubSettings, Meet
from scoring.reports.news import meet_news, news_png

pytestmark = pytest.mark.django_db

# The awards' season (tests/scoring/conftest.py award_season), its first meet, 2025-04-09:
# round 1: A 50,000 (満貫) +20+30 = +50.0, B 30,000 +10.0, C 25,000 (役満 国士無双) −15.0,
#   D 15,000 −45.0; round 2: B 50,000 (満貫) +50.0, C 30,000 +10.0, D 25,000 −15.0,
#   A 15,000 −45.0. The day: B +60.0 (2 games), A +5.0, C −5.0, D −60.0; April and the
#   half-year up to that day are the same four.
EXPECTED = """【白樺会 例会速報】2025年4月9日（水） 水曜会
参加 4 名・2 半荘

■1回戦
1卓 A 会員 +50.0／B 会員 +10.0／C 会員 −15.0／D 会員 −45.0

■2回戦
1卓 B 会員 +50.0／C 会員 +10.0／D 会員 −15.0／A 会員 −45.0

■本日のトップ
B 会員 +60.0（2 半荘）

■満貫以上
A 会員 満貫
C 会員 役満(国士無双)
B 会員 満貫

■上位 5 名：2025年4月（4月9日（水） まで）
1. B 会員 +60.0
2. A 会員 +5.0
3. C 会員 −5.0
4. D 会員 −60.0

■上位 5 名：2025年度 上期（4月〜9月）（4月9日（水） まで）
1. B 会員 +60.0
2. A 会員 +5.0
3. C 会員 −5.0
4. D 会員 −60.0

http://testserver/login/?next=%2Fstandings%2F"""


def first_meet() -> Meet:
    return Meet.objects.order_by("date").first()


def test_the_news_text_of_a_meet(award_season, organizer_client):
    meet = first_meet()
    meet.finalise()
    page = organizer_client.get(f"/meets/{meet.pk}/news/")
    assert page.status_code == 200
    assert page.context["news"].text == EXPECTED
    html = page.content.decode()
    assert 'id="news-copy"' in html and 'id="news-share"' in html and "コピー" in html
    assert (
        f'href="/meets/{meet.pk}/news/"'
        in organizer_client.get(f"/meets/{meet.pk}/").content.decode()
    )


def test_the_link_is_the_public_standings_when_they_are_open(award_season, member_client):
    settings = ClubSettings.load()
    settings.standings_public = True
    settings.save()
    text = member_client.get(f"/meets/{first_meet().pk}/news/").context["news"].text
    assert text.endswith("\nhttp://testserver/standings/")
    assert "login" not in text


def test_the_meet_page_offers_the_news_once_finalised(award_season, organizer_client):
    meet = first_meet()
    assert "/news/" not in organizer_client.get(f"/meets/{meet.pk}/").content.decode()


@pytest.mark.slow  # makes a PDF and a picture
def test_the_picture_is_a_phone_width_png(award_season, member_client):
    response = member_client.get(f"/meets/{first_meet().pk}/news.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response.content.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(response.content)) as image:
        width, height = image.size
        # 360 CSS px at four times; cut below the last line, far short of the 4,000 px page
        assert width == 1080 and 1200 < height < 4000 * 4 // 3
        assert image.getpixel((width // 2, height - 2)) == (255, 255, 255)  # the margin


@pytest.mark.slow  # makes a PDF and a picture
def test_news_png_draws_the_same_lines(award_season):
    data = news_png(meet_news(first_meet(), "https://example.org/"))
    assert data.startswith(b"\x89PNG")
