"""The web app manifest: the score book on a tablet's home screen, with the club's name and
icon."""

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
