"""Sign-in, sign-out, who may see what, and the language."""

import pytest
from django.urls import reverse

from members.models import Member
from scoring.models import RuleSet

pytestmark = pytest.mark.django_db

PAGES = ["/", "/members/", "/members/new/", "/rules/", "/admin/"]


@pytest.fixture
def rule_set_pages(db):
    pk = RuleSet.objects.default().pk
    return [f"/rules/{pk}/", f"/rules/{pk}/copy/"]


@pytest.mark.parametrize("path", PAGES)
def test_an_anonymous_visitor_is_sent_to_sign_in(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith("/login/") or response["Location"].startswith(
        "/admin/login/"
    )


def test_anonymous_visitor_is_sent_to_sign_in_from_rule_set_pages(client, rule_set_pages):
    for path in rule_set_pages:
        response = client.get(path)
        assert response.status_code == 302, path
        assert response["Location"] == f"/login/?next={path}"


def test_the_sign_in_page_is_open_and_japanese(client):
    response = client.get("/login/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="ja" ' in html
    assert "ログイン" in html and "白樺会マージャンサークル" in html


def test_sign_in_and_sign_out(client, bob):
    response = client.post("/login/", {"username": "bob", "password": "bob-pass-123"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.get("/").status_code == 200
    response = client.post("/logout/")
    assert response.status_code == 302
    assert client.get("/").status_code == 302


def test_a_wrong_password_is_refused_in_japanese(client, bob):
    response = client.post("/login/", {"username": "bob", "password": "wrong"})
    assert response.status_code == 200
    assert "ログイン名またはパスワードが違います" in response.content.decode()


@pytest.mark.parametrize("path", ["/members/new/", "/admin/"])
def test_a_member_cannot_reach_organizer_pages(member_client, path):
    response = member_client.get(path)
    # The admin sends non-staff users to its own sign-in; our pages answer 403.
    if path == "/admin/":
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    else:
        assert response.status_code == 403
        assert "記録係" in response.content.decode()


def test_a_member_cannot_edit_a_member_or_copy_a_rule_set(member_client, four_members):
    pk = four_members[0].pk
    assert member_client.get(f"/members/{pk}/edit/").status_code == 403
    response = member_client.post(f"/members/{pk}/edit/", {"name": "x", "furigana": "えっくす"})
    assert response.status_code == 403
    four_members[0].refresh_from_db()
    assert four_members[0].name == "東山 一郎"
    rule = RuleSet.objects.default()
    assert member_client.post(f"/rules/{rule.pk}/copy/", {"name": "copy"}).status_code == 403
    assert RuleSet.objects.count() == 5


def test_an_organizer_reaches_organizer_pages(organizer_client):
    assert organizer_client.get("/members/new/").status_code == 200
    assert organizer_client.get("/admin/").status_code == 200
    assert organizer_client.get("/admin/scoring/hanchan/").status_code == 200


def test_an_organizer_adds_a_member(organizer_client):
    response = organizer_client.post(
        "/members/new/", {"name": "新井 良子", "furigana": "あらい よしこ", "is_active": "on"}
    )
    assert response.status_code == 302
    assert Member.objects.get(name="新井 良子").furigana == "あらい よしこ"
    html = organizer_client.get("/members/").content.decode()
    member = Member.objects.get(name="新井 良子")
    assert f'<a href="/members/{member.pk}/">新井 良子</a>' in html
    assert "新井 良子 を保存しました。" in html


def test_a_bad_member_form_shows_japanese_errors(organizer_client):
    response = organizer_client.post("/members/new/", {"name": "", "furigana": "arai"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "入力してください。" in html and "フィールド" not in html  # the club's words
    assert "ふりがなはかな" in html


def test_rule_set_copy_and_get_is_refused(organizer_client):
    rule = RuleSet.objects.default()
    assert organizer_client.get(f"/rules/{rule.pk}/copy/").status_code == 405
    response = organizer_client.post(f"/rules/{rule.pk}/copy/", {"name": "白樺会 四人打ち 改"})
    assert response.status_code == 302
    assert RuleSet.objects.filter(name="白樺会 四人打ち 改", is_default=False).exists()
    response = organizer_client.post(f"/rules/{rule.pk}/copy/", {"name": "白樺会 四人打ち 改"})
    assert response.status_code == 400


def test_pages_render_for_a_member(member_client):
    for path in ["/", "/members/", "/rules/", f"/rules/{RuleSet.objects.default().pk}/"]:
        response = member_client.get(path)
        assert response.status_code == 200, path
        assert '<html lang="ja" ' in response.content.decode()


def test_the_members_page_hides_organizer_buttons_from_members(member_client, organizer_client):
    assert "会員を追加" not in member_client.get("/members/").content.decode()
    assert "会員を追加" in organizer_client.get("/members/").content.decode()


def test_the_language_switch_gives_english(member_client):
    assert "ホーム" in member_client.get("/").content.decode()
    response = member_client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    html = member_client.get("/").content.decode()
    assert '<html lang="en" ' in html
    assert "Home" in html and "Shirakaba Mahjong Circle" in html
    assert "ホーム" not in html


def test_an_anonymous_visitor_can_switch_the_sign_in_page_to_english(client):
    client.post(reverse("set_language"), {"language": "en", "next": "/login/"})
    html = client.get("/login/").content.decode()
    assert "Sign in" in html and "ログイン" not in html


def test_htmx_is_served_from_our_own_static_files(member_client):
    html = member_client.get("/").content.decode()
    assert "/static/django_htmx/htmx-2" in html
    assert "unpkg" not in html and "cdn" not in html.lower()
    assert 'hx-headers=\'{"x-csrftoken":' in html


def test_an_english_browser_still_gets_japanese_until_the_switch(member_client):
    response = member_client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert '<html lang="ja" ' in response.content.decode()
    assert response["Content-Language"] == "ja"


def test_charlie_with_no_role_is_refused_every_organizer_page_and_write(
    outsider_client, recorded_game, four_members
):
    meet, member, rule = recorded_game.meet, four_members[0], RuleSet.objects.default()
    pages = [
        "/members/new/",
        f"/members/{member.pk}/edit/",
        "/members/locks/",
        "/meets/new/",
        f"/meets/{meet.pk}/edit/",
        f"/meets/{meet.pk}/games/new/",
        f"/games/{recorded_game.pk}/edit/",
        f"/games/{recorded_game.pk}/delete/",
        "/import/",
    ]
    for path in pages:
        assert outsider_client.get(path).status_code == 403, path
        assert outsider_client.post(path, {"name": "x", "furigana": "えっくす"}).status_code == 403
    for path in (f"/meets/{meet.pk}/finalise/", f"/rules/{rule.pk}/copy/"):
        assert outsider_client.post(path, {"name": "copy"}).status_code == 403, path
    response = outsider_client.get("/admin/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert Member.objects.count() == 4 and RuleSet.objects.count() == 5
    recorded_game.refresh_from_db()
    assert recorded_game.version == 1 and not recorded_game.meet.is_final


def test_charlie_with_no_role_sees_nothing_of_the_clubs_data(outsider_client, recorded_game):
    meet, member = recorded_game.meet, recorded_game.results.get(seat=0).member
    pages = [
        "/",
        "/standings/?period=all",
        "/meets/",
        f"/meets/{meet.pk}/",
        f"/games/{recorded_game.pk}/",
        "/members/",
        f"/members/{member.pk}/?period=all",
        "/reports/games.csv?period=all",
    ]
    seen = []
    for path in pages:
        response = outsider_client.get(path)
        body = response.content.decode("utf-8-sig", errors="replace")
        if response.status_code == 200 and member.name in body:
            seen.append(path)
    assert seen == []


def test_charlie_still_reaches_his_own_account(outsider_client):
    """A login without a club role may sign out, change its password and pick a language."""
    assert outsider_client.get("/password/").status_code == 200
    assert outsider_client.post("/i18n/setlang/", {"language": "en"}).status_code == 302
    assert outsider_client.get("/").status_code == 403
    assert outsider_client.post("/logout/").status_code == 302


def test_a_wrong_password_is_told_in_the_clubs_words(client, bob):
    """ログイン名, never ユーザー名 or フィールド (Django's own message says both)."""
    html = client.post("/login/", {"username": "bob", "password": "wrong"}).content.decode()
    assert "ログイン名またはパスワードが違います。" in html
    assert "ユーザー名" not in html and "フィールド" not in html
