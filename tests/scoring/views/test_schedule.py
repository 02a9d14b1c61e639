"""Before the meet (issue 30 §1): the schedule entered in one step, a planned meet that becomes
the meet, 出欠 by a member and by the organizer, the attendance from the answers, the calendar
feed read back with ``icalendar``, who may see the schedule, and the 回覧板 notice."""

from datetime import date, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from icalendar import Calendar

from scoring.forms import MeetForm
from scoring.models import Answer, AnswerChoice, CalendarLink, ClubSettings, Hanchan, Meet
from tests.builders import game_post, pdf_text

pytestmark = pytest.mark.django_db

MeetAttendanceHistory = apps.get_model("scoring", "HistoricalMeet_attendees")
WRITES = {"INSERT", "UPDATE", "DELETE"}

HALF_YEAR = {
    "first": "2027-04-01",
    "last": "2027-09-30",
    "wednesdays": ["1", "3"],
    "saturdays": ["2", "4"],
    "wednesday_start": "13:00",
    "saturday_start": "10:00",
    "place": "白樺会館 2階",
    "note": "",
}


@pytest.fixture
def coming(club_rule) -> Meet:
    """A 水曜会 a week from today, from 13:00 at 白樺会館."""
    return Meet.objects.create(
        date=timezone.localdate() + timedelta(days=7),
        kind="wed",
        rule_set=club_rule,
        start_time=time(13, 0),
        place="白樺会館",
    )


@pytest.fixture
def bobs_member(bob, four_members):
    """bob's login is 東山 一郎's."""
    four_members[0].user = bob
    four_members[0].save()
    return four_members[0]


class TestPlan:
    def test_a_half_year_of_1st_3rd_wednesdays_and_2nd_4th_saturdays(
        self, organizer_client, club_rule
    ):
        """上期 2027: April 2027 starts on a Thursday, so its 1st and 3rd Wednesdays are the 7th
        and 21st and its 2nd and 4th Saturdays the 10th and 24th; 4 meets a month, 24 in all."""
        response = organizer_client.post("/schedule/plan/", HALF_YEAR)
        assert response.status_code == 302
        meets = list(Meet.objects.order_by("date"))
        assert len(meets) == 24
        assert sum(m.kind == "wed" for m in meets) == 12
        assert [(m.date, m.kind) for m in meets[:4]] == [
            (date(2027, 4, 7), "wed"),
            (date(2027, 4, 10), "sat"),
            (date(2027, 4, 21), "wed"),
            (date(2027, 4, 24), "sat"),
        ]
        assert meets[-1].date == date(2027, 9, 25)
        assert {(m.kind, m.start_time, m.place, m.rule_set) for m in meets} == {
            ("wed", time(13, 0), "白樺会館 2階", club_rule),
            ("sat", time(10, 0), "白樺会館 2階", club_rule),
        }
        assert all(not m.hanchans.exists() and not m.attendees.exists() for m in meets)

    def test_planning_again_keeps_the_meets_there(self, organizer_client, club_rule):
        Meet.objects.create(date=date(2027, 4, 7), kind="wed", rule_set=club_rule, note="花見")
        response = organizer_client.post("/schedule/plan/", HALF_YEAR, follow=True)
        assert "23 件の例会を予定しました（1 件は予定済み）" in response.content.decode()
        assert Meet.objects.count() == 24
        assert Meet.objects.get(date=date(2027, 4, 7)).note == "花見"

    def test_a_rule_without_a_day_is_refused(self, organizer_client, club_rule):
        data = {**HALF_YEAR, "wednesdays": [], "saturdays": []}
        assert organizer_client.post("/schedule/plan/", data).status_code == 400
        assert not Meet.objects.exists()

    def test_the_form_starts_on_the_next_half_year_with_the_clubs_weeks(self, organizer_client):
        html = organizer_client.get("/schedule/plan/").content.decode()
        assert 'name="wednesdays" value="1"' in html
        form = organizer_client.get("/schedule/plan/").context["form"]
        assert form.initial["wednesdays"] == ["1", "3"]
        assert form.initial["saturdays"] == ["2", "4"]

    def test_members_cannot_plan(self, member_client):
        assert member_client.post("/schedule/plan/", HALF_YEAR).status_code == 403
        assert not Meet.objects.exists()


def test_a_planned_meet_becomes_the_meet_when_a_game_is_entered(
    organizer_client, club_rule, four_members
):
    organizer_client.post("/schedule/plan/", HALF_YEAR)
    planned = Meet.objects.get(date=date(2027, 4, 7))
    planned.attendees.set(four_members)
    url = f"/meets/{planned.pk}/games/new/"
    # A meet dated ahead asks before its results are taken (a date eight days ahead was once
    # taken and finalised without a word).
    asked = organizer_client.post(url, game_post(club_rule), headers={"accept-language": "ja"})
    assert asked.status_code == 400
    days = (planned.date - timezone.localdate()).days
    assert f"この例会の日付は今日から {days} 日先です。" in asked.content.decode()
    assert not Hanchan.objects.exists()
    response = organizer_client.post(url, game_post(club_rule, confirm_date="on"))
    assert response.status_code == 302
    game = Hanchan.objects.get()
    assert game.meet_id == planned.pk
    assert Meet.objects.filter(date=date(2027, 4, 7)).count() == 1
    assert Meet.objects.count() == 24
    kept = Meet.objects.get(pk=planned.pk)
    assert (kept.start_time, kept.place) == (time(13, 0), "白樺会館 2階")


class TestAnswers:
    def test_a_member_answers_with_one_tap(self, member_client, bob, bobs_member, coming):
        response = member_client.post(
            f"/meets/{coming.pk}/answer/", {"answer": "coming"}, HTTP_HX_REQUEST="true"
        )
        html = response.content.decode()
        assert response.status_code == 200
        assert "<html" not in html and f'id="planned-{coming.pk}"' in html
        assert 'value="coming" class="button answer coming chosen" aria-pressed="true"' in html
        answer = Answer.objects.get()
        assert (answer.member, answer.answer, answer.answered_by) == (bobs_member, "coming", bob)
        # Before the day, 参加 puts the member in the attendance the draw reads.
        assert list(coming.attendees.all()) == [bobs_member]
        member_client.post(f"/meets/{coming.pk}/answer/", {"answer": "not_coming"})
        assert Answer.objects.get().answer == AnswerChoice.NOT_COMING
        assert not coming.attendees.exists()
        assert Answer.history.count() == 2  # the earlier answer is kept in the history

    def test_the_page_shows_the_members_own_answer(self, member_client, bobs_member, coming):
        coming.answer(bobs_member, "undecided", None)
        html = member_client.get("/schedule/").content.decode()
        assert "白樺会館" in html and "13:00" in html
        assert 'class="button answer undecided chosen" aria-pressed="true">未定' in html

    def test_the_organizer_answers_for_a_member_who_phoned(
        self, organizer_client, alice, four_members, coming
    ):
        who = four_members[2]
        response = organizer_client.post(
            f"/meets/{coming.pk}/answer/",
            {"answer": "coming", "member": who.pk},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200
        html = response.content.decode()
        assert html.strip().startswith('<div id="answers">')
        assert "現在の出席 1 人: 西川 次郎" in html  # the attendance shown is the new one
        assert f'<option value="{who.pk}" selected>' in html
        answer = Answer.objects.get()
        assert (answer.member, answer.answered_by) == (who, alice)
        page = organizer_client.get(f"/meets/{coming.pk}/answers/").content.decode()
        assert '参加</th><td class="num">1</td><td>西川 次郎</td>' in page
        assert '回答なし</th><td class="num">3</td>' in page

    def test_a_member_cannot_answer_for_another(
        self, member_client, bobs_member, four_members, coming
    ):
        response = member_client.post(
            f"/meets/{coming.pk}/answer/", {"answer": "coming", "member": four_members[1].pk}
        )
        assert response.status_code == 403
        assert not Answer.objects.exists()

    def test_the_organizer_sees_the_counts_on_the_schedule(
        self, organizer_client, four_members, coming
    ):
        coming.answer(four_members[0], "coming", None)
        coming.answer(four_members[1], "coming", None)
        coming.answer(four_members[2], "not_coming", None)
        html = organizer_client.get("/schedule/").content.decode()
        assert "参加 2 · 欠席 1 · 未定 0" in html

    def test_a_past_meet_takes_no_answer(self, member_client, bobs_member, club_rule):
        past = Meet.objects.create(date=date(2025, 4, 9), kind="wed", rule_set=club_rule)
        assert (
            member_client.post(f"/meets/{past.pk}/answer/", {"answer": "coming"}).status_code == 409
        )
        assert not Answer.objects.exists()

    def test_a_finalised_meet_to_come_offers_no_answer(
        self, member_client, organizer_client, bobs_member, coming, club_rule
    ):
        """Results entered ahead of a meet's day and finalised: the endpoint answers 409, so
        neither the schedule nor the meet's 出欠 page offers 参加/欠席/未定 for it; the meet
        after it still does."""
        later = Meet.objects.create(
            date=coming.date + timedelta(days=3), kind="sat", rule_set=club_rule
        )
        Meet.objects.filter(pk=coming.pk).update(is_final=True)
        html = member_client.get("/schedule/").content.decode()
        assert f'action="/meets/{coming.pk}/answer/"' not in html
        assert f'action="/meets/{later.pk}/answer/"' in html
        assert "確定済み：結果が入っているため、出欠は受け付けません。" in html
        answers = organizer_client.get(f"/meets/{coming.pk}/answers/").content.decode()
        assert f'action="/meets/{coming.pk}/answer/"' not in answers
        assert (
            member_client.post(f"/meets/{coming.pk}/answer/", {"answer": "coming"}).status_code
            == 409
        )

    def test_an_answer_writes_one_history_row_and_the_same_again_none(
        self, member_client, bobs_member, coming
    ):
        """参加 puts the member in the attendance; what is kept of it is the answer's own
        history row, not a row of the meet and of its attendance besides. The same answer
        again changes nothing and writes nothing."""
        meets, attendance = Meet.history.count(), MeetAttendanceHistory.objects.count()
        url = f"/meets/{coming.pk}/answer/"
        member_client.post(url, {"answer": "coming"}, HTTP_HX_REQUEST="true")
        assert list(coming.attendees.all()) == [bobs_member]
        assert Answer.history.count() == 1
        assert (Meet.history.count(), MeetAttendanceHistory.objects.count()) == (meets, attendance)
        answered_at = Answer.objects.get().answered_at
        with CaptureQueriesContext(connection) as queries:
            response = member_client.post(url, {"answer": "coming"}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        writes = [q["sql"] for q in queries if q["sql"].split()[0] in WRITES]
        # The session's expiry is renewed on each request (SESSION_SAVE_EVERY_REQUEST).
        assert [sql for sql in writes if "django_session" not in sql] == []
        assert Answer.history.count() == 1 and Answer.objects.get().answered_at == answered_at
        member_client.post(url, {"answer": "not_coming"}, HTTP_HX_REQUEST="true")
        assert not coming.attendees.exists()
        assert Answer.history.count() == 2
        assert (Meet.history.count(), MeetAttendanceHistory.objects.count()) == (meets, attendance)

    def test_the_same_answer_given_by_the_organizer_is_kept_as_theirs(
        self, organizer_client, alice, member_client, bob, bobs_member, coming
    ):
        """The same 参加, phoned in to the organizer after the member tapped it: the answer
        now says who gave it last, in one more history row."""
        url = f"/meets/{coming.pk}/answer/"
        member_client.post(url, {"answer": "coming"}, HTTP_HX_REQUEST="true")
        organizer_client.post(url, {"answer": "coming", "member": bobs_member.pk})
        assert Answer.objects.get().answered_by == alice
        assert list(Answer.history.values_list("answered_by", flat=True)) == [alice.pk, bob.pk]


class TestAttendance:
    def test_attendance_starts_from_those_who_said_coming(
        self, organizer_client, four_members, coming
    ):
        """The evening before: three said 参加, one 欠席; the meet form, which the organizer
        changes as people arrive, and the draw both read those three."""
        for m in four_members[:3]:
            coming.answer(m, "coming", None)
        coming.answer(four_members[3], "not_coming", None)
        assert set(coming.attendees.all()) == set(four_members[:3])
        form = organizer_client.get(f"/meets/{coming.pk}/edit/").context["form"]
        assert isinstance(form, MeetForm)
        assert set(form.initial["attendees"]) == set(four_members[:3])

    def test_on_the_day_the_organizer_keeps_the_attendance(
        self, organizer_client, four_members, club_rule
    ):
        today = Meet.objects.create(date=timezone.localdate(), kind="other", rule_set=club_rule)
        today.attendees.set([four_members[3]])  # came without answering
        today.answer(four_members[0], "coming", None)
        today.answer(four_members[1], "not_coming", None)
        assert list(today.attendees.all()) == [four_members[3]]  # an answer on the day: kept only
        response = organizer_client.post(f"/meets/{today.pk}/attendance-from-answers/")
        assert response.status_code == 302
        assert set(today.attendees.all()) == {four_members[0], four_members[3]}

    def test_the_organizers_change_of_the_attendance_keeps_its_history(
        self, organizer_client, alice, four_members, coming
    ):
        """What the organizer does to the attendance (here: from the answers) stays in the
        meet's history, with the attendance as it then was and who changed it."""
        coming.answer(four_members[0], "coming", None)
        coming.answer(four_members[1], "coming", None)
        coming.attendees.remove(four_members[1])  # left early the evening before, say
        meets = Meet.history.filter(id=coming.pk).count()
        response = organizer_client.post(f"/meets/{coming.pk}/attendance-from-answers/")
        assert response.status_code == 302
        assert Meet.history.filter(id=coming.pk).count() > meets
        latest = Meet.history.filter(id=coming.pk).latest()
        assert latest.history_user == alice
        assert {row.member_id for row in latest.attendees.all()} == {
            four_members[0].pk,
            four_members[1].pk,
        }

    def test_members_cannot_set_the_attendance(self, member_client, coming):
        assert member_client.post(f"/meets/{coming.pk}/attendance-from-answers/").status_code == 403


class TestFeed:
    def test_the_feed_read_back_with_icalendar(self, member_client, bobs_member, coming, club_rule):
        Meet.objects.create(
            date=coming.date + timedelta(days=3), kind="sat", rule_set=club_rule
        )  # no start time: all day
        member_client.post("/schedule/calendar-link/", {"link": "make"})
        token = CalendarLink.objects.get(member=bobs_member).token
        response = Client().get(f"/schedule/{token}.ics")  # a calendar app: no session
        assert response.status_code == 200
        assert response["Content-Type"] == "text/calendar; charset=utf-8"
        events = Calendar.from_ical(response.content).events
        assert len(events) == 2
        wed, sat = sorted(events, key=lambda e: str(e.start))
        assert str(wed["SUMMARY"]) == "白樺会マージャンサークル 水曜会"
        assert str(wed["LOCATION"]) == "白樺会館"
        tokyo = ZoneInfo("Asia/Tokyo")
        assert wed.start == timezone.datetime.combine(coming.date, time(13, 0), tzinfo=tokyo)
        assert wed.end - wed.start == timedelta(hours=4)
        assert str(sat["SUMMARY"]) == "白樺会マージャンサークル 土曜会"
        assert sat.start == coming.date + timedelta(days=3)  # a date: all day
        assert "LOCATION" not in sat

    def test_the_feed_keeps_the_last_two_months(self, member_client, bobs_member, club_rule):
        """A phone's calendar drops what the feed no longer holds: a meet 30 days ago stays,
        one 90 days ago is gone."""
        today = timezone.localdate()
        for days, kind in ((30, "wed"), (90, "sat")):
            Meet.objects.create(date=today - timedelta(days=days), kind=kind, rule_set=club_rule)
        member_client.post("/schedule/calendar-link/", {"link": "make"})
        token = CalendarLink.objects.get().token
        events = Calendar.from_ical(Client().get(f"/schedule/{token}.ics").content).events
        assert [e.start for e in events] == [today - timedelta(days=30)]

    def test_a_new_address_ends_the_old_and_a_leaving_member_has_none(
        self, member_client, bobs_member, coming
    ):
        member_client.post("/schedule/calendar-link/", {"link": "make"})
        old = CalendarLink.objects.get().token
        member_client.post("/schedule/calendar-link/", {"link": "renew"})
        new = CalendarLink.objects.get().token
        assert new != old and len(new) >= 40
        assert Client().get(f"/schedule/{old}.ics").status_code == 302
        assert Client().get(f"/schedule/{new}.ics").status_code == 200
        bobs_member.is_active = False
        bobs_member.save()
        assert Client().get(f"/schedule/{new}.ics").status_code == 302

    def test_the_member_page_shows_their_own_address(self, member_client, bobs_member, coming):
        member_client.post("/schedule/calendar-link/", {"link": "make"})
        token = CalendarLink.objects.get().token
        html = member_client.get("/schedule/").content.decode()
        assert f'value="http://testserver/schedule/{token}.ics"' in html
        assert f'href="webcal://testserver/schedule/{token}.ics"' in html


class TestWhoSees:
    def test_members_only_hides_the_page_and_the_feed_from_the_signed_out(self, client, coming):
        assert not ClubSettings.load().schedule_public
        for path in ("/schedule/", "/schedule.ics"):
            response = client.get(path)
            assert response.status_code == 302 and "/login/?next=" in response["Location"]
            assert "白樺会館" not in response.content.decode()

    def test_the_organizer_opens_the_schedule_to_visitors(self, organizer_client, client, coming):
        organizer_client.post("/schedule/visibility/", {"public": "1"})
        assert ClubSettings.load().schedule_public
        html = client.get("/schedule/").content.decode()
        assert "白樺会館" in html
        assert "button answer" not in html  # a visitor has nothing to answer with
        events = Calendar.from_ical(client.get("/schedule.ics").content).events
        assert [str(e["LOCATION"]) for e in events] == ["白樺会館"]
        organizer_client.post("/schedule/visibility/", {"public": "0"})
        assert client.get("/schedule/").status_code == 302

    def test_a_visitor_cannot_answer(self, client, coming):
        assert client.post(f"/meets/{coming.pk}/answer/", {"answer": "coming"}).status_code == 302
        assert not Answer.objects.exists()

    def test_members_cannot_open_it(self, member_client):
        assert member_client.post("/schedule/visibility/", {"public": "1"}).status_code == 403
        assert not ClubSettings.load().schedule_public


@pytest.mark.slow  # makes a PDF
def test_the_notice_for_the_month(member_client, club_rule):
    for day, kind in ((date(2027, 4, 7), "wed"), (date(2027, 4, 10), "sat")):
        Meet.objects.create(
            date=day, kind=kind, rule_set=club_rule, start_time=time(13), place="白樺会館"
        )
    Meet.objects.create(date=date(2027, 5, 1), kind="sat", rule_set=club_rule)  # May: not shown
    response = member_client.get("/schedule/notice.pdf?month=2027-04")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.getvalue())
    assert "2027年4月の開催日" in text
    assert "4月7日（水）" in text and "4月10日（土）" in text and "5月1日" not in text
    assert text.count("白樺会館") == 2 and "13:00" in text
    assert "参加される方のお名前" in text
