"""例会速報 (scoring/reports/news.py, scoring/views/news.py): the text for LINE, exactly; the
picture; what the members-only setting does to the link; what the kept picture's digest
follows (what the picture shows, and nothing else)."""

import io
from datetime import date

import pytest
from django.utils import translation
from PIL import Image

from members.models import Member
from scoring.models import ClubSettings, Hanchan, Meet
from scoring.reports import registry
from scoring.reports.news import meet_news, news_png
from scoring.reports.specs import Spec
from tests.builders import making_entry

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
    picture = response.getvalue()  # the kept file, streamed
    assert picture.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(picture)) as image:
        width, height = image.size
        # 360 CSS px at four times; a card of 4:5 at most, cut below its last line
        assert width == 1080 and 300 < height <= 1350
        assert image.getpixel((width // 2, height - 2)) == (255, 255, 255)  # the margin


@pytest.mark.slow  # makes a PDF and a picture
def test_news_png_draws_the_same_lines(award_season):
    data = news_png(meet_news(first_meet(), "https://example.org/"))
    assert data.startswith(b"\x89PNG")


def news_digest(meet: Meet, link: str = "https://example.org/") -> str:
    return registry.digest_of(Spec.of("news.png", meet=meet.pk, link=link))


def play_at(day: date, rule_set, members: list[Member]) -> Hanchan:
    """A game of its own meet on ``day``: the four at 45,000 / 35,000 / 25,000 / 15,000."""
    meet, _ = Meet.objects.get_or_create(date=day, kind="wed", defaults={"rule_set": rule_set})
    game = Hanchan(meet=meet, table_no=1, round_no=1, rule_set=rule_set)
    scores = (45_000, 35_000, 25_000, 15_000)
    game.record([making_entry(m, seat, scores[seat]) for seat, m in enumerate(members)])
    return game


def test_the_news_digest_moves_with_what_the_picture_shows(recorded_game, four_members, club_rule):
    meet = recorded_game.meet
    seen = [news_digest(meet)]
    assert news_digest(meet) == seen[0]  # nothing changed

    def moved(link: str = "https://example.org/") -> bool:
        digest = news_digest(meet, link)
        new = digest not in seen
        seen.append(digest)
        return new

    # The link at its foot (the standings, or the sign-in page before them).
    assert moved("https://example.org/login/?next=%2Fstandings%2F")
    # An earlier game of the half-year: the top 5 up to the day.
    play_at(date(2025, 4, 2), club_rule, four_members)
    assert moved()
    # A name shown.
    renamed = four_members[0]
    renamed.name = "東山 一朗"
    renamed.save()
    assert moved()
    # The day's attendance (「参加 n 名」).
    fifth = Member.objects.create(name="中島 五郎", furigana="なかじま")
    assert moved()  # a member made (names are kept by the latest change of any member)
    meet.attendees.add(fifth)
    assert moved()
    # The language it is written in.
    with translation.override("en"):
        assert moved()


def test_the_news_digest_stays_when_what_it_shows_stays(
    recorded_game, four_members, club_rule, bob
):
    """Not in the picture: a later meet's games (the standings are up to its day), the half-year
    before, a member's 出欠 for another meet, another meet planned."""
    meet = recorded_game.meet
    before = news_digest(meet)
    play_at(date(2025, 4, 23), club_rule, four_members)
    play_at(date(2025, 3, 26), club_rule, four_members)
    coming = Meet.objects.create(date=date(2025, 5, 14), kind="wed", rule_set=club_rule)
    coming.answer(four_members[1], "coming", bob, today=date(2025, 5, 1))
    assert news_digest(meet) == before
