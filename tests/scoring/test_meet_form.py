"""The meet form (MeetForm): a 土曜会 not on a Saturday, or a 水曜会 not on a Wednesday, is
asked about before it is saved; no English on its Japanese page."""

from datetime import date

import pytest
from django.utils import timezone

from scoring.forms import MeetForm
from scoring.models import Meet


def post(client, club_rule, **data):
    return client.post("/meets/new/", {"rule_set": club_rule.pk, **data})


def test_a_saturday_meet_on_a_wednesday_is_asked_about(organizer_client, club_rule):
    response = post(organizer_client, club_rule, date="2025-04-09", kind="sat")
    assert response.status_code == 400
    html = response.content.decode()
    assert "2025年4月9日（水） 土曜会：その日は土曜日ではありません。" in html
    assert "このまま保存" in html and 'name="confirm_day"' in html
    assert not Meet.objects.exists()


def test_ticking_save_anyway_saves_it(organizer_client, club_rule):
    response = post(organizer_client, club_rule, date="2025-04-09", kind="sat", confirm_day="on")
    assert response.status_code == 302
    assert Meet.objects.get().kind == "sat"


@pytest.mark.parametrize(
    ("day", "kind", "asked"),
    [
        ("2025-04-12", "sat", False),  # a Saturday
        ("2025-04-09", "wed", False),  # a Wednesday
        ("2025-04-10", "wed", True),  # a Thursday
        ("2025-04-12", "wed", True),  # a Saturday
        ("2025-04-10", "other", False),  # その他: any day
    ],
)
def test_only_a_meet_off_its_weekday_is_asked_about(organizer_client, club_rule, day, kind, asked):
    response = post(organizer_client, club_rule, date=day, kind=kind)
    assert (response.status_code == 400) is asked
    assert ("このまま保存" in response.content.decode()) is asked


def test_an_edit_that_keeps_the_date_and_kind_is_not_asked_again(organizer_client, club_rule):
    meet = Meet.objects.create(date="2025-04-10", kind="sat", rule_set=club_rule)
    response = organizer_client.post(
        f"/meets/{meet.pk}/edit/",
        {"date": "2025-04-10", "kind": "sat", "rule_set": club_rule.pk, "note": "祝日で木曜に"},
    )
    assert response.status_code == 302
    meet.refresh_from_db()
    assert meet.note == "祝日で木曜に"


def test_the_meet_form_has_no_english_select_label(organizer_client):
    html = organizer_client.get("/meets/new/").content.decode()
    assert "Select an option" not in html
    assert "（選んでください）" in html


@pytest.mark.parametrize(
    ("today", "kind"),
    [(date(2025, 4, 9), "wed"), (date(2025, 4, 12), "sat"), (date(2025, 4, 14), "other")],
)
def test_a_new_meet_starts_today_with_todays_kind(monkeypatch, club_rule, today, kind):
    monkeypatch.setattr(timezone, "localdate", lambda: today)
    form = MeetForm()
    assert form.initial["date"] == today and form.initial["kind"] == kind
    saved = MeetForm({"date": today, "kind": kind, "rule_set": club_rule.pk})
    assert saved.is_valid() and not saved.day_warning  # today's default is never asked about


@pytest.mark.parametrize("day", ["1980-01-01", "2100-01-01"])
def test_a_date_out_of_range_is_told_with_japanese_dates(organizer_client, club_rule, day):
    response = post(organizer_client, club_rule, date=day, kind="other")
    assert response.status_code == 400
    html = response.content.decode()
    assert "例会の日付は1990年1月1日から2099年12月31日までです。" in html
    assert "1990-01-01" not in html and "2099-12-31" not in html
