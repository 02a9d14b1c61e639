"""Meets: the list, creating one with its attendance, the grid of games, finalise and reopen."""

from datetime import timedelta

import pytest
from django.utils import timezone

from members.models import Member
from scoring.models import Meet, RuleSet
from tests.builders import JKMA, game_post, games_state, rows_now, rule

pytestmark = pytest.mark.django_db


class TestMeets:
    def test_the_list_is_newest_first_by_month(self, organizer_client, club_rule):
        Meet.objects.create(date="2025-04-09", kind="wed", rule_set=club_rule)
        Meet.objects.create(date="2025-05-17", kind="sat", rule_set=club_rule)
        html = organizer_client.get("/meets/").content.decode()
        assert html.index("2025年5月") < html.index("2025年4月")
        assert "2025年5月17日（土）" in html

    def test_create_a_meet_with_attendance(self, organizer_client, club_rule, four_members):
        form = organizer_client.get("/meets/new/").content.decode()
        assert 'value="' + str(club_rule.pk) + '" selected' in form  # club rule preselected
        assert f'value="{timezone.localdate():%Y-%m-%d}"' in form  # date defaults to today
        response = organizer_client.post(
            "/meets/new/",
            {
                "date": "2025-06-11",
                "kind": "wed",
                "rule_set": club_rule.pk,
                "attendees": [m.pk for m in four_members[:3]],
            },
        )
        meet = Meet.objects.get(date="2025-06-11")
        assert response["Location"] == f"/meets/{meet.pk}/"
        assert meet.attendees.count() == 3

    def test_a_new_meet_starts_at_the_clubs_usual_time_and_place(self, organizer_client, club_rule):
        """The planned meets hold the club's usual start and place (13:00 for a 水曜会,
        10:00 for a 土曜会, 白樺会館): 例会を作る fills them in for the kind offered, and the
        page carries them for each kind, for the script that follows the date."""
        import json
        import re
        from datetime import time

        today = timezone.localdate()
        for days, kind, start in [(30, "sat", time(10, 0)), (40, "wed", time(13, 0))]:
            Meet.objects.create(
                date=today + timedelta(days=days),
                kind=kind,
                rule_set=club_rule,
                start_time=start,
                place="白樺会館",
            )
        form = organizer_client.get("/meets/new/").content.decode()
        assert 'name="place" value="白樺会館"' in form
        offered = {2: "13:00", 5: "10:00"}.get(today.weekday(), "13:00")  # その他: the latest
        assert f'name="start_time" value="{offered}"' in form
        usual = json.loads(re.search(r'<script id="usual-times"[^>]*>(.*?)</script>', form)[1])
        assert usual == {
            "wed": {"start_time": "13:00", "place": "白樺会館"},
            "sat": {"start_time": "10:00", "place": "白樺会館"},
            "other": {"start_time": "13:00", "place": "白樺会館"},
        }

    def test_a_meet_twice_on_a_day_is_refused_in_japanese(self, organizer_client, meet, club_rule):
        response = organizer_client.post(
            "/meets/new/", {"date": "2025-04-09", "kind": "wed", "rule_set": club_rule.pk}
        )
        assert response.status_code == 400
        assert "この日にはこの種類の例会がすでにあります。" in response.content.decode()

    def test_the_grid_shows_games_and_empty_cells(self, organizer_client, meet, recorded_game):
        html = organizer_client.get(f"/meets/{meet.pk}/").content.decode()
        assert "1回戦" in html and "3回戦" in html
        assert "+22.6" not in html and "+32.6" in html  # no chombo in this fixture
        assert f"/meets/{meet.pk}/games/new/?table=1&amp;round=2" in html

    def test_the_grid_has_a_table_per_players_of_the_rule_set(
        self, organizer_client, club_rule, members
    ):
        """Nine attending: under a 4-player rule set the tables the draw would make (3+3+3
        with tables of three, two tables of four with 抜け番), three tables of three under a
        3-player one; the club's three rounds (Meet.ROUNDS) either way."""
        three = RuleSet.objects.filter(players=3).first()
        for day, rule_set, mode, tables in [
            ("2025-04-09", club_rule, "three_player_tables", 3),
            ("2025-04-23", club_rule, "sit_out", 2),
            ("2025-04-16", three, "three_player_tables", 3),
        ]:
            meet = Meet.objects.create(date=day, kind="wed", rule_set=rule_set, draw_mode=mode)
            meet.attendees.set([*members, Member.objects.create(name=f"九人目{day}")][:9])
            html = organizer_client.get(f"/meets/{meet.pk}/").content.decode()
            assert html.count('class="card game empty"') == tables * Meet.ROUNDS, rule_set
            assert f"?table={tables}&amp;round={Meet.ROUNDS}" in html
            assert f"?table={tables + 1}&amp;" not in html
            assert f"round={Meet.ROUNDS + 1}&amp;table=1" in html  # another round

    def test_finalise_then_reopen_with_a_reason(
        self, organizer_client, meet, recorded_game, club_rule
    ):
        organizer_client.post(f"/meets/{meet.pk}/finalise/", {"confirm": "1", "missing": ""})
        meet.refresh_from_db()
        assert not meet.is_final  # round 1 table 1 only: the page names what is missing
        organizer_client.post(f"/meets/{meet.pk}/finalise/", {"confirm": "1", "missing": "2-1,3-1"})
        meet.refresh_from_db()
        assert meet.is_final
        before = games_state()
        for url in (f"/games/{recorded_game.pk}/edit/", f"/meets/{meet.pk}/games/new/"):
            assert organizer_client.get(url)["Location"] == f"/meets/{meet.pk}/"
            response = organizer_client.post(url, game_post(club_rule), follow=True)
            assert "この例会は確定済みです" in response.content.decode()
        organizer_client.post(f"/games/{recorded_game.pk}/delete/")
        assert games_state() == before
        html = organizer_client.get(f"/meets/{meet.pk}/").content.decode()
        assert "確定を解除" in html and "この半荘を入力" not in html

        response = organizer_client.post(f"/meets/{meet.pk}/reopen/", {"reason": ""})
        assert response.status_code == 400
        organizer_client.post(f"/meets/{meet.pk}/reopen/", {"reason": "北の点数の誤記"})
        meet.refresh_from_db()
        assert not meet.is_final
        latest = meet.history.first()
        assert latest.history_change_reason == "確定解除: 北の点数の誤記"
        assert latest.history_user.username == "alice"


def test_a_reopening_reason_fits_the_history_or_is_refused(organizer_client, meet):
    """The reason is kept as 「確定解除: …」 in the history's change reason (100 characters):
    a longer one is refused with the form's message, and the meet stays finalised."""
    meet.finalise()
    longest = Meet.REOPEN_REASON_LENGTH
    assert longest == 100 - len("確定解除: ")
    response = organizer_client.post(f"/meets/{meet.pk}/reopen/", {"reason": "誤" * (longest + 1)})
    assert response.status_code == 400
    assert f"{longest} 文字以下" in response.content.decode()
    meet.refresh_from_db()
    assert meet.is_final
    organizer_client.post(f"/meets/{meet.pk}/reopen/", {"reason": "誤" * longest})
    meet.refresh_from_db()
    assert not meet.is_final
    assert len(meet.history.first().history_change_reason) == 100


def test_messages_write_dates_the_japanese_way(organizer_client, club_rule):
    response = organizer_client.post(
        "/meets/new/",
        {"date": "2025-04-12", "kind": "sat", "rule_set": club_rule.pk},
        follow=True,
    )
    html = response.content.decode()
    assert "2025年4月12日（土） 土曜会" in html and "2025-04-12" not in html


class TestFinalisedMeansFinal:
    """Finalised means final, by every path (issue 14)."""

    def test_the_meet_form_refuses_a_finalised_meet(self, organizer_client, final_game, club_rule):
        meet = final_game.meet
        before = rows_now()
        assert organizer_client.get(f"/meets/{meet.pk}/edit/").status_code == 302
        response = organizer_client.post(
            f"/meets/{meet.pk}/edit/",
            {"date": "2025-04-10", "kind": "sat", "rule_set": rule(JKMA).pk, "note": "x"},
        )
        assert response.status_code == 302
        assert rows_now() == before


def test_the_home_page_lists_the_meets_just_before_the_latest_newest_first(
    member_client, club_rule
):
    for day in range(1, 10):
        Meet.objects.create(date=f"2025-04-{day:02d}", kind="wed", rule_set=club_rule)
    html = member_client.get("/").content.decode()
    earlier = html[html.index("これまでの例会") :]
    shown = [f"4月{d}日" for d in (8, 7, 6, 5, 4)]
    positions = [earlier.index(s) for s in shown]
    assert positions == sorted(positions)
    assert "4月1日" not in earlier


def test_a_planned_meet_after_today_is_not_the_latest_on_the_home_page(
    member_client, meet, recorded_game, club_rule
):
    """The schedule plans meets ahead (issue 30): the home page still opens on the last one
    played, 2025年4月9日, not on an empty meet to come."""
    Meet.objects.create(
        date=timezone.localdate() + timedelta(days=5), kind="sat", rule_set=club_rule
    )
    response = member_client.get("/")
    assert response.context["latest"] == meet
    assert "東山 一郎" in response.content.decode()


def test_each_earlier_meet_on_the_home_page_opens_its_page_and_keeps_its_name_whole(
    member_client, club_rule
):
    """Seen at 特大 on a phone: the earlier meets were plain text (nothing to tap to see a
    past meet) and 「土曜会」 broke at the line's end as 「土 / 曜会」."""
    meets = [
        Meet.objects.create(date=f"2025-04-{day:02d}", kind="sat", rule_set=club_rule)
        for day in (5, 12)
    ]
    html = member_client.get("/").content.decode()
    earlier = html[html.index("これまでの例会") :]
    assert f'href="/meets/{meets[0].pk}/"' in earlier
    assert '<span class="nowrap">土曜会</span>' in earlier
