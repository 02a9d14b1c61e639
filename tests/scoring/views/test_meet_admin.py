"""Issue 28, meet day second pass: 確定する asks first and names the tables not entered (item
5), the meet form's kind follows the date (item 10), and whoever played counts as attending
(item 13)."""

from datetime import date

import pytest
from django.utils import timezone

from members.models import Member
from scoring.meet_draw import make_draw, save_draw, stored_draw
from scoring.models import Hanchan, Meet, PlayerEntry
from scoring.reports.pdf import render_meet_pdf
from scoring.standings import Filters, Period, compute_standings
from tests.builders import pdf_text

pytestmark = pytest.mark.django_db

SCORES4 = [40_000, 30_000, 30_000, 20_000]


@pytest.fixture
def people(db) -> list[Member]:
    return [
        Member.objects.create(name=f"会員 {i:02d}", furigana=f"かいいん {i:02d}") for i in range(16)
    ]


def play(meet: Meet, round_no: int, table_no: int, players) -> Hanchan:
    game = Hanchan(meet=meet, round_no=round_no, table_no=table_no, rule_set=meet.rule_set)
    game.record(
        [PlayerEntry(m, seat, s) for seat, (m, s) in enumerate(zip(players, SCORES4, strict=True))]
    )
    return game


@pytest.fixture
def drawn8(club_rule, people) -> Meet:
    """Eight attending, drawn: two tables of four in each of the three rounds."""
    meet = Meet.objects.create(date=date(2025, 5, 14), kind="wed", rule_set=club_rule)
    meet.attendees.set(people[:8])
    save_draw(meet, make_draw(meet, seed=3), seed=3)
    return meet


def play_drawn(meet: Meet, skip: set[tuple[int, int]] = frozenset()) -> None:
    drawn = stored_draw(meet)
    assert drawn is not None
    for rnd in drawn.rounds:
        for table in rnd.tables:
            if (rnd.round_no, table.table_no) not in skip:
                play(meet, rnd.round_no, table.table_no, list(table.players))


# --- item 5: 確定する asks first ---------------------------------------------------------------


class TestFinaliseAsksFirst:
    def test_a_post_without_the_confirmation_names_the_missing_table_and_finalises_nothing(
        self, organizer_client, drawn8
    ):
        play_drawn(drawn8, skip={(3, 2)})
        response = organizer_client.post(f"/meets/{drawn8.pk}/finalise/")
        assert response.status_code == 200
        html = response.content.decode()
        assert "3回戦 2卓 が未入力です。" in html
        assert 'name="missing" value="3-2"' in html
        drawn8.refresh_from_db()
        assert not drawn8.is_final

    def test_the_confirmation_page_lists_every_drawn_table_not_entered(
        self, organizer_client, drawn8
    ):
        """The issue's case: 6 drawn tables, 1 entered; one tap finalised it."""
        drawn = stored_draw(drawn8)
        assert drawn is not None
        first = drawn.rounds[0].tables[0]
        play(drawn8, 1, 1, list(first.players))
        html = organizer_client.get(f"/meets/{drawn8.pk}/finalise/").content.decode()
        assert "1回戦 2卓、2回戦 1卓、2回戦 2卓、3回戦 1卓、3回戦 2卓 が未入力です。" in html
        assert "未入力のまま確定する" in html
        assert not Meet.objects.get(pk=drawn8.pk).is_final

    def test_confirming_what_was_shown_finalises(self, organizer_client, drawn8):
        play_drawn(drawn8, skip={(3, 2)})
        response = organizer_client.post(
            f"/meets/{drawn8.pk}/finalise/", {"confirm": "1", "missing": "3-2"}
        )
        assert response["Location"] == f"/meets/{drawn8.pk}/"
        assert Meet.objects.get(pk=drawn8.pk).is_final

    def test_a_table_gone_missing_since_the_page_asks_again(self, organizer_client, drawn8):
        play_drawn(drawn8)
        Hanchan.objects.get(meet=drawn8, round_no=2, table_no=1).remove()
        response = organizer_client.post(
            f"/meets/{drawn8.pk}/finalise/", {"confirm": "1", "missing": ""}
        )
        assert response.status_code == 200
        assert "2回戦 1卓 が未入力です。" in response.content.decode()
        assert not Meet.objects.get(pk=drawn8.pk).is_final

    def test_with_nothing_missing_a_simple_confirmation_still(self, organizer_client, drawn8):
        play_drawn(drawn8)
        response = organizer_client.post(f"/meets/{drawn8.pk}/finalise/")
        html = response.content.decode()
        assert response.status_code == 200
        assert "未入力" not in html
        assert "卓組みの卓はすべて入力済みです。" in html
        assert not Meet.objects.get(pk=drawn8.pk).is_final
        organizer_client.post(f"/meets/{drawn8.pk}/finalise/", {"confirm": "1", "missing": ""})
        assert Meet.objects.get(pk=drawn8.pk).is_final

    def test_without_a_draw_every_empty_cell_of_the_grid_is_missing(
        self, organizer_client, club_rule, people
    ):
        """No draw: the grid (three rounds × the tables of the attendance, and any entered)
        must be complete; an extra round (4回戦) asks for nothing."""
        meet = Meet.objects.create(date=date(2025, 5, 14), kind="wed", rule_set=club_rule)
        meet.attendees.set(people[:8])
        for r in (1, 2, 3):
            play(meet, r, 1, people[:4])
            if r != 2:
                play(meet, r, 2, people[4:8])
        play(meet, 4, 1, people[:4])
        html = organizer_client.get(f"/meets/{meet.pk}/finalise/").content.decode()
        assert "2回戦 2卓 が未入力です。" in html
        play(meet, 2, 2, people[4:8])
        html = organizer_client.get(f"/meets/{meet.pk}/finalise/").content.decode()
        assert "未入力" not in html and "すべての卓が入力済みです。" in html

    def test_the_meet_page_leads_to_the_confirmation(self, organizer_client, drawn8):
        html = organizer_client.get(f"/meets/{drawn8.pk}/").content.decode()
        assert f'href="/meets/{drawn8.pk}/finalise/"' in html

    def test_a_finalised_meet_is_not_asked_again(self, organizer_client, drawn8):
        drawn8.finalise()
        response = organizer_client.get(f"/meets/{drawn8.pk}/finalise/")
        assert response["Location"] == f"/meets/{drawn8.pk}/"


# --- item 10: the kind follows the date ----------------------------------------------------


@pytest.fixture
def on_a_thursday(monkeypatch):
    """Today is a Thursday: a new meet's form offers その他."""
    monkeypatch.setattr(timezone, "localdate", lambda *a, **k: date(2025, 4, 10))


class TestKindFollowsTheDate:
    def post(self, client, club_rule, **extra):
        data = {"date": "2025-04-12", "kind": "other", "rule_set": club_rule.pk, **extra}
        return client.post("/meets/new/", data, follow=True)

    def test_a_new_meet_on_a_saturday_left_on_other_is_a_saturday_meet(
        self, organizer_client, club_rule, on_a_thursday
    ):
        response = self.post(organizer_client, club_rule)
        assert Meet.objects.get(date="2025-04-12").kind == "sat"
        assert "種類を日付に合わせて土曜会にしました。" in response.content.decode()

    def test_other_chosen_by_hand_is_kept(self, organizer_client, club_rule, on_a_thursday):
        self.post(organizer_client, club_rule, kind_by_hand="1")
        assert Meet.objects.get(date="2025-04-12").kind == "other"

    def test_other_changed_from_the_offered_kind_is_kept(
        self, organizer_client, club_rule, monkeypatch
    ):
        monkeypatch.setattr(timezone, "localdate", lambda *a, **k: date(2025, 4, 9))  # Wed
        self.post(organizer_client, club_rule)
        assert Meet.objects.get(date="2025-04-12").kind == "other"

    def test_other_on_another_day_stays_other(self, organizer_client, club_rule, on_a_thursday):
        self.post(organizer_client, club_rule, date="2025-04-13")
        assert Meet.objects.get(date="2025-04-13").kind == "other"

    def test_a_wednesday_meet_on_a_saturday_still_asks(
        self, organizer_client, club_rule, on_a_thursday
    ):
        response = self.post(organizer_client, club_rule, kind="wed")
        assert "このまま保存" in response.content.decode()
        assert not Meet.objects.exists()

    def test_an_edit_keeps_other(self, organizer_client, club_rule, on_a_thursday):
        meet = Meet.objects.create(date=date(2025, 4, 10), kind="other", rule_set=club_rule)
        organizer_client.post(
            f"/meets/{meet.pk}/edit/",
            {"date": "2025-04-10", "kind": "other", "rule_set": club_rule.pk, "note": "x"},
        )
        meet.refresh_from_db()
        assert (meet.kind, meet.note) == ("other", "x")

    def test_the_form_loads_its_script_and_says_it_is_new(
        self, organizer_client, club_rule, on_a_thursday
    ):
        html = organizer_client.get("/meets/new/").content.decode()
        assert "js/meet_form.js" in html and "data-kind-follows-date" in html
        assert 'name="kind_by_hand"' in html
        meet = Meet.objects.create(date=date(2025, 4, 10), kind="other", rule_set=club_rule)
        html = organizer_client.get(f"/meets/{meet.pk}/edit/").content.decode()
        assert "data-kind-follows-date" not in html


# --- item 13: whoever played attended ------------------------------------------------------


@pytest.fixture
def one_left(club_rule, people) -> Meet:
    """Nine attend; rounds 1 and 2 are played at two tables of four (会員 08 sits out), a
    substitute (会員 09, not on the attendance) plays round 2 for 会員 07, and 会員 03 leaves
    after round 2: the organizer takes 会員 03 and 会員 09 off the attendance for round 3."""
    meet = Meet.objects.create(date=date(2025, 5, 14), kind="wed", rule_set=club_rule)
    meet.attendees.set(people[:9])
    play(meet, 1, 1, people[0:4])
    play(meet, 1, 2, people[4:8])
    play(meet, 2, 1, [people[0], people[4], people[1], people[3]])
    play(meet, 2, 2, [people[2], people[5], people[6], people[9]])
    meet.attendees.remove(people[3], people[9])
    return meet


class TestWhoeverPlayedAttended:
    def test_the_meet_page_counts_who_played(self, organizer_client, one_left):
        assert one_left.attendees.count() == 8
        html = organizer_client.get(f"/meets/{one_left.pk}/").content.decode()
        assert "出席 10 人" in html

    def test_the_meet_pdf_and_the_half_years_attendance_count_them(self, one_left, people):
        text = pdf_text(render_meet_pdf(one_left)[2])
        for m in [*people[:8], people[9]]:
            assert m.name in text
        rows = {r.member_id: r for r in compute_standings(Filters(period=Period.parse("2025-H1")))}
        assert rows[people[3].pk].meets == 1 and rows[people[9].pk].meets == 1
