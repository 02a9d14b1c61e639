"""The site's own files: the web app manifest (the score book on a tablet's home screen, with
the club's name and icon), the service worker and its offline page (issue 31)."""

import json

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from PIL import Image

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_club_and_its_icons_without_a_session():
    response = Client().get("/manifest.webmanifest")  # fetched without the session
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json; charset=utf-8"
    manifest = json.loads(response.content)
    assert manifest["name"] == "白樺会マージャンサークル"
    assert manifest["short_name"] == "白樺会"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        size = int(icon["sizes"].split("x")[0])
        path = finders.find(f"icons/icon-{size}.png")
        assert path is not None and icon["src"].endswith(".png")
        with Image.open(path) as image:
            assert image.size == (size, size)
    assert sorted(icon["sizes"] for icon in manifest["icons"]) == ["192x192", "512x512"]


def test_every_page_links_the_manifest(organizer_client):
    html = organizer_client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<meta name="theme-color" content="#1d4d2b">' in html


def test_the_service_worker_is_served_from_the_root_and_names_files_that_exist():
    response = Client().get("/sw.js")  # the browser checks it for updates without a page
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    text = response.content.decode()
    precache = json.loads(text.split("const PRECACHE = ", 1)[1].split(";\n", 1)[0])
    assert "/static/js/queue.js" in precache and "/static/css/site.css" in precache
    for url in precache:
        assert finders.find(url.removeprefix("/static/")) is not None, url
    assert 'const OFFLINE = "/offline/";' in text


def test_the_offline_page_shows_nothing_of_the_club():
    html = Client().get("/offline/").content.decode()
    assert "このページは端末に保管されていない" in html
    assert "ログアウト" not in html


def test_only_an_organizers_pages_carry_the_queue(organizer_client, member_client):
    organizer = organizer_client.get("/").content.decode()
    assert "js/queue.js" in organizer and 'id="queue"' in organizer
    assert "オフライン：保存した対局は端末に保管され、接続が戻ると送信されます" in organizer
    member = member_client.get("/").content.decode()
    assert "js/queue.js" not in member and "js/offline.js" not in member
    assert 'id="queue"' not in member


def test_the_service_worker_keeps_every_static_file_the_kept_pages_link(organizer_client, meet):
    """The meet's page, its draw board, its game form and the offline page, rendered as the
    organizer's device keeps them: each stylesheet, script and icon they link is kept."""
    import re

    from django.urls import reverse

    text = Client().get("/sw.js").content.decode()
    precache = set(json.loads(text.split("const PRECACHE = ", 1)[1].split(";\n", 1)[0]))
    pages = [
        reverse("scoring:meet-detail", args=[meet.pk]),
        reverse("scoring:draw-board", args=[meet.pk]),
        reverse("scoring:game-create", args=[meet.pk]),
        "/offline/",
    ]
    linked = set()
    for page in pages:
        html = organizer_client.get(page).content.decode()
        linked |= set(re.findall(r'(?:src|href)="(/static/[^"]+)"', html))
    assert {"/static/js/game_form.js", "/static/css/draw.css"} <= linked
    assert linked - precache == set()
