"""The standings page's figures of issue 29: the guests' switch (「ゲストを含める」), and what the
member page shows of head-to-head, seats, busts and recent games (``guest_season``)."""

import pytest

from tests.builders import sheet_rows

pytestmark = pytest.mark.django_db


def test_the_standings_page_leaves_guests_out_until_switched_in(member_client, guest_season):
    html = member_client.get("/standings/?period=2025-H1").content.decode()
    assert "相川 愛" in html and "大野 音" not in html
    assert 'name="guests" value="1">' in html and "ゲストを含める" in html
    html = member_client.get("/standings/?period=2025-H1&guests=1").content.decode()
    assert "大野 音（ゲスト）" in html
    assert 'name="guests" value="1" checked>' in html
    assert "guests=1" in html  # the downloads carry the switch


def test_the_excel_marks_a_guest_row(member_client, guest_season):
    response = member_client.get("/reports/standings.xlsx?period=2025-H1&guests=1")
    assert "guests" in response["Content-Disposition"]
    names = [row[1] for row in sheet_rows(b"".join(response.streaming_content))[1:]]
    assert "大野 音（ゲスト）" in names and "相川 愛" in names
    response = member_client.get("/reports/standings.xlsx?period=2025-H1")
    names = [row[1] for row in sheet_rows(b"".join(response.streaming_content))[1:]]
    assert "相川 愛" in names and not any("大野" in str(name) for name in names)
