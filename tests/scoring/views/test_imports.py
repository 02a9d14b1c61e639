"""Import in the browser: upload, preview, confirm; errors listed; only organizers."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scoring import imports
from scoring.models import Hanchan, Meet
from scoring.views import imports as views_import
from tests.builders import GOOD_ROWS, MALFORMED, MALFORMED_MESSAGES, csv_bytes, replace_row

pytestmark = pytest.mark.django_db


def upload(client, data, **extra):
    return client.post(
        "/import/", {"file": SimpleUploadedFile("sheet.csv", data, "text/csv"), **extra}
    )


def test_upload_preview_then_confirm(organizer_client, members):
    response = upload(organizer_client, csv_bytes())
    html = response.content.decode()
    assert response.status_code == 200
    assert "2025年4月9日（水） 水曜会" in html and "2025年4月9日（水） 水曜会 1回戦 2卓" in html
    assert not Hanchan.objects.exists()  # nothing until confirmed
    token = response.context["token"]
    response = organizer_client.post("/import/confirm/", {"token": token})
    assert response.status_code == 302 and response["Location"] == "/meets/"
    assert Hanchan.objects.count() == 2
    # The same confirmation again does nothing more.
    organizer_client.post("/import/confirm/", {"token": token})
    assert Hanchan.objects.count() == 2


def test_a_bad_file_lists_every_error_with_row_and_column(organizer_client, members):
    rows = replace_row(2, "2025-04-09,水曜会,1,1,西,西川 次郎,三万,,")
    response = upload(organizer_client, csv_bytes(rows))
    html = response.content.decode()
    assert response.status_code == 400
    assert "問題が 1 件あります" in html
    assert '<td class="num">4</td><td>持ち点</td>' in html
    assert "token" not in organizer_client.session.get("pending_import", {})


def test_unknown_names_need_the_checkbox(organizer_client, db):
    response = upload(organizer_client, csv_bytes())
    assert response.status_code == 400
    assert "「東山 一郎」という会員はいません" in response.content.decode()
    response = upload(organizer_client, csv_bytes(), create_members="on")
    assert response.status_code == 200
    assert "東山 一郎" in response.content.decode()
    organizer_client.post("/import/confirm/", {"token": response.context["token"]})
    assert Meet.objects.count() == 1


def test_an_expired_preview_is_refused(organizer_client, members):
    response = organizer_client.post("/import/confirm/", {"token": "nope"}, follow=True)
    assert "プレビューの有効期限が切れました" in response.content.decode()
    assert not Hanchan.objects.exists()


def test_only_organizers_import(client, member_client, members):
    assert client.get("/import/").status_code == 302
    assert member_client.get("/import/").status_code == 403
    assert upload(member_client, csv_bytes()).status_code == 403
    assert member_client.post("/import/confirm/", {"token": "x"}).status_code == 403
    assert not Hanchan.objects.exists()


@pytest.fixture(autouse=True)
def pending_imports_dir(settings, tmp_path):
    settings.PENDING_IMPORTS_DIR = tmp_path / "pending"


@pytest.mark.parametrize("case", list(MALFORMED_MESSAGES))
def test_a_malformed_excel_file_gets_its_message_not_a_500(organizer_client, members, case):
    response = organizer_client.post(
        "/import/", {"file": SimpleUploadedFile("sheet.xlsx", MALFORMED[case]())}
    )
    assert response.status_code == 400
    assert MALFORMED_MESSAGES[case] in response.content.decode()


def test_an_upload_over_the_limit_is_refused_with_its_real_size_unread(
    organizer_client, members, monkeypatch
):
    monkeypatch.setattr(views_import, "plan_import", pytest.fail)  # never read, never planned
    response = upload(organizer_client, b"x" * (12 * 1_048_576 + 1))
    assert response.status_code == 400
    assert "ファイルが大きすぎます（12.0 MB、上限 5 MB）。" in response.content.decode()


def test_preview_and_confirm_check_the_same_bounds(organizer_client, members):
    rows = [r.replace(",1,1,", ",999999999,1,", 1) for r in GOOD_ROWS]
    response = upload(organizer_client, csv_bytes(rows))
    assert response.status_code == 400
    assert "卓は 50 以下にしてください。" in response.content.decode()
    assert "token" not in organizer_client.session.get("pending_import", {})
    assert not Hanchan.objects.exists()


def test_a_file_with_thousands_of_errors_lists_the_first_hundred_and_counts_the_rest(
    organizer_client, members
):
    rows = [f"2025-04-09,水曜会,{i % 50 + 1},1,東,東山 一郎,三万,," for i in range(20_000)]
    response = upload(organizer_client, csv_bytes(rows))
    html = response.content.decode()
    assert response.status_code == 400
    assert "問題が 20000 件あります" in html
    assert "ほか 19900 件（最初の 100 件を表示しています）。" in html
    assert html.count('<tr><td class="num">') == 100
    assert len(response.content) < 100_000  # it was 61 MB


def run_during_the_import(monkeypatch, action):
    """Run ``action`` once, in the middle of the next import: after its file was checked
    against the book, before anything is saved (as a second request at that moment would)."""
    real_plan = imports.plan_import
    done = []
    started = []

    def plan_then_act(*args, **kwargs):
        plan = real_plan(*args, **kwargs)
        if not started:
            started.append(True)
            done.append(action())
        return plan

    monkeypatch.setattr(imports, "plan_import", plan_then_act)
    return done


def test_two_confirmations_of_one_preview_at_once_import_it_once(
    organizer_client, members, monkeypatch
):
    token = upload(organizer_client, csv_bytes()).context["token"]
    second = run_during_the_import(
        monkeypatch, lambda: organizer_client.post("/import/confirm/", {"token": token})
    )
    first = organizer_client.post("/import/confirm/", {"token": token})
    assert first.status_code == 302 and first["Location"] == "/meets/"
    assert second[0].status_code == 302
    told = [str(m) for m in get_messages(second[0].wsgi_request)]
    assert told == [
        "sheet.csv はすでに取り込まれています（または取り込み中です）。二重には取り込みません。"
    ]
    assert Hanchan.objects.count() == 2
    # Once more, later (a reload): told the same, nothing more imported.
    again = organizer_client.post("/import/confirm/", {"token": token}, follow=True)
    assert "すでに取り込まれています" in again.content.decode()
    assert Hanchan.objects.count() == 2


def test_two_previews_of_the_same_games_confirmed_at_once_import_them_once(
    organizer_client, alice, members, monkeypatch
):
    other_tab = Client()
    other_tab.force_login(alice)
    token = upload(organizer_client, csv_bytes()).context["token"]
    other_token = upload(other_tab, csv_bytes()).context["token"]
    other = run_during_the_import(
        monkeypatch, lambda: other_tab.post("/import/confirm/", {"token": other_token})
    )
    response = organizer_client.post("/import/confirm/", {"token": token}, follow=True)
    assert other[0].status_code == 302 and other[0]["Location"] == "/meets/"
    assert Hanchan.objects.count() == 2
    assert "sheet.csv からは何も取り込んでいません。" in response.content.decode()


@pytest.mark.slow  # a race: eight threads at once
def test_the_claim_on_a_pending_file_is_won_by_one_of_many_at_once(settings, tmp_path):
    token = views_import.keep_pending(b"the file")
    with ThreadPoolExecutor(max_workers=8) as pool:
        claims = list(pool.map(views_import.claim_pending, [token] * 8))
    assert claims.count(b"the file") == 1 and claims.count(None) == 7
    assert list((tmp_path / "pending").iterdir()) == []  # nothing left behind
