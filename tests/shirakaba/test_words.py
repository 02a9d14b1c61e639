"""The club's words on every page: ログイン名 (never ユーザー名), no フィールド in an error, no
English empty choice in a select (shirakaba/words.py gives Django's messages in them)."""

import pytest
from django.contrib.auth.models import User


def test_an_empty_sign_in_says_what_is_missing_without_field(client, bob):
    html = client.post("/login/", {"username": "", "password": ""}).content.decode()
    assert "入力してください。" in html
    assert "フィールド" not in html and "ユーザー名" not in html


def test_the_admin_sign_in_says_login_name(client, bob):
    html = client.post("/admin/login/", {"username": "bob", "password": "wrong"}).content.decode()
    assert "記録係のログイン名かパスワードが違います。" in html
    assert "ユーザー名" not in html and "フィールド" not in html


def test_the_admins_user_pages_say_login_name(client, db):
    client.force_login(User.objects.create_superuser("root", password="root-pass-123"))
    html = client.get("/admin/auth/user/add/").content.decode()
    assert "ログイン名" in html and "ユーザー名" not in html
    html = client.post(
        "/admin/auth/user/add/",
        {"username": "root", "password1": "x", "password2": "x", "usable_password": "true"},
    ).content.decode()
    assert "このログイン名はすでに使われています。" in html
    assert "ユーザー名" not in html


@pytest.mark.parametrize(
    "path", ["/meets/new/", "/admin/scoring/meet/add/", "/admin/members/member/add/"]
)
def test_no_english_select_an_option_on_japanese_pages(organizer_client, path):
    html = organizer_client.get(path).content.decode()
    assert "Select an option" not in html
    assert "（選んでください）" in html
