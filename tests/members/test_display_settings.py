"""The text size and contrast a login chooses (文字の大きさ・コントラスト): kept with the login,
drawn on every page (members/views.py display_settings, members/context_processors.py)."""

import pytest
from django.test import Client

from members.models import DisplaySettings

pytestmark = pytest.mark.django_db


def test_a_member_s_choice_is_kept_with_the_login_and_drawn_on_their_pages(member_client, bob):
    response = member_client.post("/display/", {"text_size": "xlarge", "next": "/standings/"})
    assert response.status_code == 302
    assert response["Location"] == "/standings/"
    member_client.post("/display/", {"contrast": "high"}, headers={"X-Requested-With": "fetch"})
    saved = DisplaySettings.objects.get(user=bob)
    assert (saved.text_size, saved.contrast) == ("xlarge", "high")
    other_device = Client()
    other_device.force_login(bob)
    page = other_device.get("/standings/").content.decode()
    assert 'data-text-size="xlarge" data-contrast="high" data-display-saved' in page
    assert '<button type="submit" name="text_size" value="xlarge"' in page


def test_a_script_s_request_is_answered_with_no_content(member_client):
    response = member_client.post(
        "/display/", {"text_size": "large"}, headers={"X-Requested-With": "fetch"}
    )
    assert response.status_code == 204


def test_an_unknown_choice_is_refused_and_nothing_kept(member_client, bob):
    response = member_client.post("/display/", {"text_size": "huge", "contrast": "high"})
    assert response.status_code == 400
    assert not DisplaySettings.objects.filter(user=bob).exists()


def test_signed_out_the_choice_is_kept_in_the_session_for_the_sign_in_page():
    client = Client()
    response = client.post(
        "/display/", {"text_size": "large", "next": "https://elsewhere.example/"}
    )
    assert response["Location"] == "/"  # never sent to another site
    page = client.get("/login/").content.decode()
    assert 'data-text-size="large"' in page
    assert "data-display-saved" not in page
    assert not DisplaySettings.objects.exists()
