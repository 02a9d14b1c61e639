"""The record sheet (記録用紙, scoring/reports/pdf.py ``render_record_sheet_pdf``): the club's
own paper, printed from the draw with the names on it, a page a round, a box a table."""

import io
from datetime import date

import pytest
from pypdf import PdfReader

from members.models import Member
from scoring.meet_draw import make_draw, save_draw, stored_draw
from scoring.models import DrawMode, Meet
from scoring.reports.pdf import render_record_sheet_pdf

pytestmark = [pytest.mark.django_db, pytest.mark.slow]  # each makes a PDF


def drawn_meet(club_rule, players: int, mode: str = DrawMode.THREE_PLAYER_TABLES) -> Meet:
    people = [
        Member.objects.create(name=f"会員{n:02d} 名", furigana=f"かい{n:02d}")
        for n in range(players)
    ]
    meet = Meet.objects.create(date=date(2025, 5, 14), kind="wed", rule_set=club_rule)
    meet.draw_mode = mode
    meet.save()
    meet.attendees.set(people)
    save_draw(meet, make_draw(meet, seed=3), seed=3)
    return meet


def pages(meet: Meet) -> list[str]:
    data = render_record_sheet_pdf(meet, stored_draw(meet))
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


@pytest.mark.parametrize(
    ("players", "fours", "threes"), [(13, 1, 3), (14, 2, 2), (15, 3, 1), (16, 4, 0)]
)
def test_a_page_a_round_with_every_table_in_the_drawn_order(club_rule, players, fours, threes):
    meet = drawn_meet(club_rule, players)
    drawn = stored_draw(meet)
    assert drawn is not None
    texts = pages(meet)
    assert len(texts) == 3  # a page a round
    for text, rnd in zip(texts, drawn.rounds, strict=True):
        flat = text.replace(" ", "")
        assert f"第{rnd.round_no}回戦" in flat and "記録用紙" in flat
        assert sum(len(t.players) == 4 for t in rnd.tables) == fours
        assert sum(len(t.players) == 3 for t in rnd.tables) == threes
        for table in rnd.tables:
            names = [m.name.replace(" ", "") for m in table.players]
            at = [flat.index(name) for name in names]
            assert at == sorted(at), (table.table_no, names)  # the drawn order, top down
            assert f"第{table.table_no}卓" in flat
        # a line for the table's check, one for each table: the total it must come to
        assert flat.count("合計") == len(rnd.tables)
        # the club's rules: 4 × 30,000 and 3 × 30,000 (白樺会 三人打ち)
        assert flat.count("点＝120,000点−預かり") == fours
        assert flat.count("点＝90,000点−預かり") == threes
        # the deposits held (預かり, as the game form says), a blank to write in
        assert flat.count("預かり供託点") == len(rnd.tables)


def test_who_sits_out_is_named_each_round(club_rule):
    meet = drawn_meet(club_rule, 14, DrawMode.SIT_OUT)
    drawn = stored_draw(meet)
    assert drawn is not None
    for text, rnd in zip(pages(meet), drawn.rounds, strict=True):
        assert len(rnd.sitting_out) == 2 and all(len(t.players) == 4 for t in rnd.tables)
        flat = text.replace(" ", "")
        assert "抜け番" in flat
        for m in rnd.sitting_out:
            assert m.name.replace(" ", "") in flat


def test_without_a_draw_the_sheet_says_so(club_rule):
    meet = Meet.objects.create(date=date(2025, 5, 14), kind="wed", rule_set=club_rule)
    (text,) = pages(meet)
    assert "まだ卓組みをしていません" in text.replace(" ", "")


def test_the_meet_page_and_the_board_link_the_sheet(organizer_client, club_rule):
    meet = drawn_meet(club_rule, 8)
    url = f"/meets/{meet.pk}/record-sheet.pdf"
    for page in (f"/meets/{meet.pk}/", f"/meets/{meet.pk}/draw/"):
        assert url in organizer_client.get(page).content.decode(), page
    response = organizer_client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_the_sheet_and_the_game_form_list_a_table_in_the_same_order(organizer_client, club_rule):
    """Entering the paper back: the form of round 2, table 3 opens with the names in the
    sheet's order, so the scores are typed down the paper as they are written."""
    meet = drawn_meet(club_rule, 15)
    flat = pages(meet)[1].replace(" ", "")
    box = flat[flat.index("第3卓") : flat.index("第4卓")]
    response = organizer_client.get(f"/meets/{meet.pk}/games/new/?round=2&table=3")
    form = response.context["form"]
    names = [form.seats.forms[s]["player"].value() for s in range(4)]
    assert all(names)
    at = [box.index(name.replace(" ", "")) for name in names]
    assert at == sorted(at)
