"""The organizer's member form (members/views.py)."""

import pytest
from django.urls import reverse

from members.models import Member

pytestmark = pytest.mark.django_db


def form_data(member: Member, **changes: str) -> dict[str, str]:
    data = {
        "name": member.name,
        "furigana": member.furigana,
        "is_active": "on",
        "joined_on": "",
        "note": member.note,
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_a_member_imported_without_furigana_can_be_saved(organizer_client):
    """A record sheet may name a member the club never had, and the import makes them without
    furigana (scoring/imports.py): the form saves them as they are until someone writes it."""
    member = Member.objects.create(name="新井 一", furigana="")
    url = reverse("members:edit", args=[member.pk])
    response = organizer_client.post(url, form_data(member, note="体験のあと入会"))
    assert response.status_code == 302
    member.refresh_from_db()
    assert (member.furigana, member.note) == ("", "体験のあと入会")
    organizer_client.post(url, form_data(member, furigana="あらい はじめ"))
    member.refresh_from_db()
    assert member.furigana == "あらい はじめ"


def test_a_new_member_and_one_with_furigana_still_need_it(organizer_client):
    response = organizer_client.post(
        reverse("members:create"), {"name": "新井 一", "furigana": "", "is_active": "on"}
    )
    assert response.status_code == 400
    assert not Member.objects.filter(name="新井 一").exists()
    member = Member.objects.create(name="石田 二", furigana="いしだ じろう")
    url = reverse("members:edit", args=[member.pk])
    assert organizer_client.post(url, form_data(member, furigana="")).status_code == 400


def test_extending_the_session_says_how_long_it_lasts(member_client, settings):
    settings.SESSION_COOKIE_AGE = 600
    response = member_client.post("/members/session/extend/")
    assert response.status_code == 200 and response.json() == {"seconds": 600}
    assert member_client.get("/members/session/extend/").status_code == 405


def test_the_session_warning_is_on_the_organizers_pages_only(organizer_client, member_client):
    assert 'id="session-warning"' in organizer_client.get("/").content.decode()
    assert 'id="session-warning"' not in member_client.get("/").content.decode()
