"""How a login's pages read (文字の大きさ・コントラスト・ふりがな): one choice, kept with the login,
read from the session on every page (members/views.py display_settings,
members/context_processors.py)."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from members.models import DisplaySettings

pytestmark = pytest.mark.django_db


def test_a_member_s_choice_is_kept_with_the_login_and_drawn_on_their_pages(member_client, bob):
    response = member_client.post("/display/", {"text_size": "xlarge", "next": "/standings/"})
    assert response.status_code == 302
    assert response["Location"] == "/standings/"
    member_client.post("/display/", {"contrast": "high"}, headers={"X-Requested-With": "fetch"})
    member_client.post("/display/", {"show_ruby": "on"}, headers={"X-Requested-With": "fetch"})
    saved = DisplaySettings.objects.get(user=bob)
    assert (saved.text_size, saved.contrast, saved.show_ruby) == ("xlarge", "high", True)
    other_device = Client()
    other_device.force_login(bob)
    page = other_device.get("/standings/").content.decode()
    assert (
        'class="ruby-on" data-text-size="xlarge" data-contrast="high" data-ruby="on"'
        " data-display-saved" in page
    )
    assert '<button type="submit" name="text_size" value="xlarge"' in page
    assert '<button type="submit" name="show_ruby" value="on"' in page


def test_ruby_is_one_more_choice_of_the_same_menu_and_the_page_comes_back(member_client, bob):
    html = member_client.get("/standings/").content.decode()
    assert 'data-ruby="off"' in html and "ruby-on" not in html
    assert "data-display-saved" not in html  # not chosen: the device's choice applies
    response = member_client.post(
        "/display/", {"show_ruby": "on", "next": "/standings/?period=all"}
    )
    assert response.status_code == 302 and response["Location"] == "/standings/?period=all"
    assert DisplaySettings.objects.get(user=bob).show_ruby is True
    html = member_client.get("/standings/").content.decode()
    assert 'class="ruby-on"' in html and 'data-ruby="on" data-display-saved' in html
    # The footer's switch, a second door to the same choice: it posts to the same view.
    footer = html[html.index('<footer class="site-footer">') :]
    assert 'action="/display/"' in footer
    assert '<input type="hidden" name="show_ruby" value="off">' in footer
    member_client.post("/display/", {"show_ruby": "off", "next": "https://evil.example/"})
    assert DisplaySettings.objects.get(user=bob).show_ruby is False
    response = member_client.post("/display/", {"show_ruby": "off", "next": "//evil.x/"})
    assert response["Location"] == "/"
    assert member_client.get("/display/").status_code == 405
    assert member_client.post("/members/reading/", {"show_ruby": "1"}).status_code == 404


def test_the_choice_is_read_from_the_session_not_asked_of_the_database(bob):
    """Signing in fills the session with the login's saved choice; a page makes no query for
    it (the query counts of tests/scoring/views/test_standings.py hold without one)."""
    DisplaySettings.objects.create(user=bob, text_size="large", show_ruby=True)
    device = Client()
    device.force_login(bob)
    assert device.session["display"] == {
        "text_size": "large",
        "contrast": "standard",
        "show_ruby": True,
        "saved": True,
    }
    with CaptureQueriesContext(connection) as captured:
        page = device.get("/rules/").content.decode()
    assert 'data-ruby="on"' in page
    assert not any("members_displaysettings" in q["sql"] for q in captured.captured_queries)


def test_a_script_s_request_is_answered_with_no_content(member_client):
    response = member_client.post(
        "/display/", {"text_size": "large"}, headers={"X-Requested-With": "fetch"}
    )
    assert response.status_code == 204


@pytest.mark.parametrize(
    "sent",
    [
        {"text_size": "huge", "contrast": "high"},
        {"contrast": "high", "show_ruby": "1"},
        {"text_size": "large", "show_ruby": "yes"},
    ],
)
def test_an_unknown_choice_is_refused_and_nothing_kept(member_client, bob, sent):
    response = member_client.post("/display/", sent)
    assert response.status_code == 400
    assert not DisplaySettings.objects.filter(user=bob).exists()
    assert "display" not in member_client.session


def test_signed_out_the_choice_is_kept_in_the_session_for_the_sign_in_page():
    client = Client()
    response = client.post(
        "/display/", {"text_size": "large", "next": "https://elsewhere.example/"}
    )
    assert response["Location"] == "/"  # never sent to another site
    client.post("/display/", {"show_ruby": "on"})
    page = client.get("/login/").content.decode()
    assert 'data-text-size="large"' in page and 'data-ruby="on"' in page
    assert "data-display-saved" not in page
    assert not DisplaySettings.objects.exists()
