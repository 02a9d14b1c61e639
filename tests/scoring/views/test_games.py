"""Game entry (views/games.py), and who may do what on a meet and its games: the live check,
errors, version check, history. The meet pages themselves: test_meets.py."""

import re
import threading
import uuid
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.db import close_old_connections
from django.test import Client

from members.models import Member
from members.roles import ORGANIZER, grant
from scoring.forms import GameForm
from scoring.imports import import_results
from scoring.models import BigHand, Hanchan, HanchanResult, Meet, RuleSet
from tests.builders import (
    game_post,
    game_post_for,
    games_state,
    play,
    put_back_migrated_data,
    rows_now,
    worked_table,
)

pytestmark = pytest.mark.django_db
D = Decimal


def scores(game):
    return list(game.results.order_by("seat").values_list("score", flat=True))


def urls(meet, game):
    return {
        "list": "/meets/",
        "create": "/meets/new/",
        "detail": f"/meets/{meet.pk}/",
        "edit": f"/meets/{meet.pk}/edit/",
        "finalise": f"/meets/{meet.pk}/finalise/",
        "reopen": f"/meets/{meet.pk}/reopen/",
        "game-create": f"/meets/{meet.pk}/games/new/",
        "game": f"/games/{game.pk}/",
        "game-edit": f"/games/{game.pk}/edit/",
        "game-delete": f"/games/{game.pk}/delete/",
    }


READ = ["list", "detail", "game"]
WRITE = ["create", "edit", "finalise", "reopen", "game-create", "game-edit", "game-delete"]


class TestPermissions:
    def test_anonymous_visitors_are_sent_to_sign_in(self, client, meet, recorded_game):
        for name, url in urls(meet, recorded_game).items():
            for method in (client.get, client.post):
                response = method(url)
                assert response.status_code == 302, (name, method)
                assert response["Location"].startswith("/login/?next=")

    def test_members_read_but_every_write_is_refused(
        self, member_client, meet, recorded_game, club_rule
    ):
        before = games_state()
        u = urls(meet, recorded_game)
        for name in READ:
            assert member_client.get(u[name]).status_code == 200, name
        for name in WRITE:
            assert member_client.get(u[name]).status_code == 403, name
            assert member_client.post(u[name], game_post(club_rule)).status_code == 403, name
        assert games_state() == before
        assert not Meet.objects.get(pk=meet.pk).is_final

    def test_members_see_no_buttons(self, member_client, meet, recorded_game):
        html = member_client.get(f"/meets/{meet.pk}/").content.decode()
        assert "東山 一郎" in html
        for label in ("修正", "削除", "この半荘を入力", "確定する", "例会を作る"):
            assert label not in html
        assert "例会を作る" not in member_client.get("/meets/").content.decode()

    def test_organizers_reach_every_page(self, organizer_client, meet, recorded_game):
        u = urls(meet, recorded_game)
        for name in ["list", "create", "detail", "edit", "reopen", "game-create", "game"]:
            assert organizer_client.get(u[name]).status_code == 200, name
        assert organizer_client.get(u["game-edit"]).status_code == 200
        assert organizer_client.get(u["game-delete"]).status_code == 200

    def test_finalise_asks_first_on_get(self, organizer_client, meet, recorded_game):
        assert organizer_client.get(f"/meets/{meet.pk}/finalise/").status_code == 200
        assert not Meet.objects.get(pk=meet.pk).is_final


class TestGameEntry:
    def test_the_live_check_returns_only_the_partial(self, organizer_client, meet, club_rule):
        response = organizer_client.post(
            f"/meets/{meet.pk}/games/new/",
            {**game_post(club_rule), "preview": "1"},
            HTTP_HX_REQUEST="true",
        )
        html = response.content.decode()
        assert response.status_code == 200
        assert "<html" not in html and html.strip().startswith('<section id="settlement"')
        assert "合計 120,000 点 ✓" in html
        assert "北：27,400 点" in html  # the blank fourth score, offered from the total
        assert "+22.6" in html and "−32.6" in html
        assert not Hanchan.objects.filter(table_no=2).exists()  # a preview saves nothing

    def test_the_live_check_says_how_much_is_missing(self, organizer_client, meet, club_rule):
        response = organizer_client.post(
            f"/meets/{meet.pk}/games/new/",
            {**game_post(club_rule, score_3="26200"), "preview": "1"},
            HTTP_HX_REQUEST="true",
        )
        assert "合計 118,800 点：あと 1,200 点 不足" in response.content.decode()

    def test_the_live_check_counts_scores_so_far(self, organizer_client, meet, club_rule):
        data = game_post(club_rule, score_1="", score_2="")
        response = organizer_client.post(
            f"/meets/{meet.pk}/games/new/", {**data, "preview": "1"}, HTTP_HX_REQUEST="true"
        )
        assert "4 人中 1 人入力済み：ここまで 32,600 点" in response.content.decode()

    def test_saving_a_game_without_javascript(self, organizer_client, meet, club_rule):
        response = organizer_client.post(f"/meets/{meet.pk}/games/new/", game_post(club_rule))
        game = Hanchan.objects.get(meet=meet, table_no=2, round_no=1)
        assert response.status_code == 302
        assert response["Location"] == f"/meets/{meet.pk}/#game-{game.pk}"
        rows = list(game.results.order_by("seat"))
        assert [r.member.name for r in rows] == ["東山 一郎", "南野 花子", "西川 次郎", "北村 三郎"]
        assert [r.score for r in rows] == [32_600, 30_000, 30_000, 27_400]
        assert [r.total_points for r in rows] == [D("22.6"), D("0.0"), D("0.0"), D("-32.6")]
        assert sorted(b.level for b in rows[0].big_hands.all()) == ["mangan", "yakuman"]

    def test_scores_in_hundreds(self, organizer_client, meet, club_rule):
        data = game_post(
            club_rule, unit="hundreds", score_0="326", score_1="300", score_2="300", score_3="274"
        )
        organizer_client.post(f"/meets/{meet.pk}/games/new/", data)
        game = Hanchan.objects.get(meet=meet, table_no=2)
        assert sorted(game.results.values_list("score", flat=True)) == [
            27_400,
            30_000,
            30_000,
            32_600,
        ]

    @pytest.mark.parametrize(
        ("overrides", "field_error"),
        [
            ({"seat-0-score": "32650"}, "32,650 点は 100 点単位ではありません"),
            ({"seat-0-score": "abc"}, "持ち点は数字で入力してください"),
            ({"seat-1-player": "だれか"}, "「だれか」という会員はいません"),
            ({"seat-3-player": "", "seat-3-score": "27400"}, "この席の対局者を入力してください"),
            # only spaces (and a full-width one): no name either; it answered 500 before
            (
                {"seat-3-player": " \u3000 ", "seat-3-score": "27400"},
                "この席の対局者を入力してください",
            ),
            ({"seat-0-hands": "大満貫"}, "「大満貫」は役の種類として読めません"),
            ({"seat-0-chombo": "-1"}, "0 以上"),
        ],
    )
    def test_errors_are_shown_next_to_the_field_and_nothing_is_saved(
        self, organizer_client, meet, recorded_game, club_rule, overrides, field_error
    ):
        before = games_state()
        response = organizer_client.post(
            f"/meets/{meet.pk}/games/new/", game_post(club_rule, **overrides)
        )
        assert response.status_code == 400
        html = response.content.decode()
        assert field_error in html
        assert 'class="field-error"' in html
        assert games_state() == before

    def test_three_players_under_a_four_player_rule_is_refused_at_the_top(
        self, organizer_client, meet, club_rule
    ):
        response = organizer_client.post(
            f"/meets/{meet.pk}/games/new/", game_post(club_rule, player_3="", score_3="")
        )
        assert response.status_code == 400
        html = response.content.decode()
        summary = html.split(
            '<div id="error-summary" class="form-errors" role="alert" tabindex="-1">'
        )
        assert len(summary) == 2, "one summary at the top, focusable, read out"
        assert (
            summary[1]
            .lstrip()
            .startswith("<p>このルールは 4 人用ですが、3 人分が入力されています。</p>")
        )
        form = html[html.index('id="game-form"') :]
        assert "autofocus" not in form  # the page focuses the summary, not the 東 name
        assert not Hanchan.objects.exists()

    def test_a_refused_field_is_marked_invalid_and_described_by_its_error(
        self, organizer_client, meet, club_rule
    ):
        """Issue 40: aria-invalid and aria-describedby on the refused field, the id it names
        on its error, and the summary at the top links to the field."""
        response = organizer_client.post(
            f"/meets/{meet.pk}/games/new/", game_post(club_rule, chombo_1="-1")
        )
        assert response.status_code == 400
        html = response.content.decode()
        field = re.search(r'<input[^>]*id="id_seat-1-chombo"[^>]*>', html)
        assert field is not None
        assert 'aria-invalid="true"' in field.group(0)
        assert 'aria-describedby="id_seat-1-chombo_error"' in field.group(0)
        assert '<div id="id_seat-1-chombo_error"><p class="field-error" role="alert">' in html
        assert 'data-first-refused="id_seat-1-chombo"' in html
        assert '<a href="#id_seat-1-chombo">' in html

    def test_an_ambiguous_prefix_lists_the_candidates(self, organizer_client, meet, club_rule):
        response = organizer_client.post(
            f"/meets/{meet.pk}/games/new/", game_post(club_rule, player_0="", score_0="")
        )
        assert response.status_code == 400
        meet.attendees.clear()
        # の matches nobody's start; に matches 西川 (にしかわ) only.
        response = organizer_client.post(
            f"/meets/{meet.pk}/games/new/", game_post(club_rule, player_2="に")
        )
        assert response.status_code == 302

    def test_a_table_that_does_not_add_up_is_refused_with_the_difference(
        self, organizer_client, meet, club_rule
    ):
        response = organizer_client.post(
            f"/meets/{meet.pk}/games/new/", game_post(club_rule, score_3="26200")
        )
        assert response.status_code == 400
        assert "120,000 点まであと 1,200 点不足しています" in response.content.decode()
        assert not Hanchan.objects.exists()

    def test_the_same_member_twice_is_refused(self, organizer_client, meet, club_rule):
        response = organizer_client.post(
            f"/meets/{meet.pk}/games/new/", game_post(club_rule, player_1="ひがし")
        )
        assert response.status_code == 400
        assert "東山 一郎 さんが二重に入力されています" in response.content.decode()

    def test_the_same_table_and_round_twice_is_refused(
        self, organizer_client, meet, recorded_game, club_rule
    ):
        response = organizer_client.post(
            f"/meets/{meet.pk}/games/new/", game_post(club_rule, table_no="1")
        )
        assert response.status_code == 400
        assert "この回戦・卓の半荘はすでに入力されています。" in response.content.decode()
        assert Hanchan.objects.count() == 1

    def test_editing_shows_the_stored_game_and_saves_a_new_version(
        self, organizer_client, meet, recorded_game, club_rule
    ):
        html = organizer_client.get(f"/games/{recorded_game.pk}/edit/").content.decode()
        assert 'value="東山 一郎"' in html and 'value="32600"' in html
        response = organizer_client.post(
            f"/games/{recorded_game.pk}/edit/", game_post(club_rule, table_no="1", version="1")
        )
        assert response.status_code == 302
        recorded_game.refresh_from_db()
        assert recorded_game.version == 2
        assert recorded_game.results.get(seat=0).total_points == D("22.6")

    def test_two_organizers_at_once_the_second_save_is_refused(
        self, alice, meet, recorded_game, club_rule
    ):
        first, second = Client(), Client()
        first.force_login(alice)
        second.force_login(alice)
        # Both open the form: it carries the version they started from.
        for c in (first, second):
            assert (
                'name="version" value="1"'
                in c.get(f"/games/{recorded_game.pk}/edit/").content.decode()
            )
        ok = first.post(
            f"/games/{recorded_game.pk}/edit/", game_post(club_rule, table_no="1", version="1")
        )
        assert ok.status_code == 302
        after_first = games_state()
        refused = second.post(
            f"/games/{recorded_game.pk}/edit/",
            game_post(club_rule, table_no="1", version="1", score_0="33600", score_1="29000"),
        )
        assert refused.status_code == 400
        html = refused.content.decode()
        assert "編集中に他の人がこの半荘を変更しました" in html
        assert 'name="version" value="2"' in html  # the newer data is shown
        assert games_state() == after_first

    def test_history_records_the_user_and_the_game_page_shows_it(
        self, organizer_client, meet, club_rule
    ):
        organizer_client.post(f"/meets/{meet.pk}/games/new/", game_post(club_rule))
        game = Hanchan.objects.get(table_no=2)
        organizer_client.post(
            f"/games/{game.pk}/edit/", game_post(club_rule, chombo_0="0", version="1")
        )
        assert {h.history_user.username for h in HanchanResult.history.all()} == {"alice"}
        assert {h.history_user.username for h in BigHand.history.all()} == {"alice"}
        html = organizer_client.get(f"/games/{game.pk}/").content.decode()
        assert "変更履歴" in html
        assert (
            "東 東山 一郎：32,600 点、錯和 1 回、満貫以上：満貫、役満(国士無双)、合計 +22.6 P"
            in html
        )  # as entered
        assert "東 錯和 1 回 → 0 回" in html  # the change
        assert html.split("変更履歴</h2>")[1].count('<td class="who">alice</td>') == 2

    def test_deleting_a_game_keeps_its_history(self, organizer_client, meet, recorded_game):
        response = organizer_client.post(f"/games/{recorded_game.pk}/delete/")
        assert response["Location"] == f"/meets/{meet.pk}/"
        assert not Hanchan.objects.exists() and not HanchanResult.objects.exists()
        assert (
            HanchanResult.history.filter(history_type="-", history_user__username="alice").count()
            == 4
        )


class TestOneTablePerRound:
    """One player, one table per round (issue 14)."""

    def test_the_form_refuses_a_player_seated_at_another_table(
        self, organizer_client, bare_meet, people, club_rule
    ):
        play(bare_meet, 1, 1, club_rule, people[:4], [40_000, 30_000, 30_000, 20_000])
        names = [people[0].name, people[4].name, people[5].name, people[6].name]
        response = organizer_client.post(
            f"/meets/{bare_meet.pk}/games/new/",
            game_post_for(club_rule, names, ["40000", "30000", "30000", "20000"]),
        )
        assert response.status_code == 400
        html = response.content.decode()
        assert "相川 愛 さんは 1 回戦の 1 卓ですでに打っています。" in html
        assert Hanchan.objects.count() == 1

    def test_an_edit_seating_a_player_of_another_table_keeps_what_was_typed(
        self, organizer_client, bare_meet, people, club_rule
    ):
        """The edit is refused beside the field; the form is not replaced by the stored game
        as when someone else changed it (the game at its own table is no conflict)."""
        game = play(bare_meet, 1, 1, club_rule, people[:4], [40_000, 30_000, 30_000, 20_000])
        play(bare_meet, 2, 1, club_rule, people[4:8], [40_000, 30_000, 30_000, 20_000])
        names = [p.name for p in people[:3]] + [people[4].name]
        data = game_post_for(club_rule, names, ["41000", "29000", "30000", "20000"], table=1)
        response = organizer_client.post(f"/games/{game.pk}/edit/", data | {"version": "1"})
        assert response.status_code == 400
        html = response.content.decode()
        assert f"{people[4].name} さんは 1 回戦の 2 卓ですでに打っています。" in html
        assert 'value="41000"' in html and "他の人がこの半荘を変更しました" not in html
        game.refresh_from_db()
        assert game.version == 1

    def test_a_player_missing_from_the_attendance_is_added_and_told(
        self, organizer_client, bare_meet, people, club_rule
    ):
        bare_meet.attendees.set(people[:3])
        names = [p.name for p in people[:4]]
        response = organizer_client.post(
            f"/meets/{bare_meet.pk}/games/new/",
            game_post_for(club_rule, names, ["40000", "30000", "30000", "20000"]),
            follow=True,
        )
        assert response.status_code == 200
        assert set(bare_meet.attendees.all()) == set(people[:4])
        assert "出席に追加しました：江藤 栄" in response.content.decode()


class TestFinalisedMeansFinal:
    """Finalised means final, by every path (issue 14)."""

    def test_a_finalised_games_delete_page_is_not_offered(self, organizer_client, final_game):
        """As its edit page: straight back to the game with the reason, no confirmation page
        for a deletion that would be refused (found trying a meet day)."""
        response = organizer_client.get(f"/games/{final_game.pk}/delete/", follow=True)
        assert response.redirect_chain == [(f"/games/{final_game.pk}/", 302)]
        assert "確定" in response.content.decode()

    def test_a_post_without_the_version_is_refused_as_stale(
        self, organizer_client, bare_meet, people, club_rule
    ):
        game = play(bare_meet, 1, 1, club_rule, people[:4], [40_000, 30_000, 30_000, 20_000])
        before = rows_now()
        data = game_post_for(
            club_rule, [p.name for p in people[:4]], ["41000", "29000", "30000", "20000"], table=1
        )
        response = organizer_client.post(f"/games/{game.pk}/edit/", data)
        assert response.status_code == 400
        assert "他の人がこの半荘を変更しました" in response.content.decode()
        assert rows_now() == before


NOTATIONS = ["▲3,200", "−3200", "ー3200", "-3,200", "－３２００", "▲３，２００"]


@pytest.mark.parametrize("notation", NOTATIONS)
def test_the_form_and_the_import_read_the_same_notations(
    notation, organizer_client, bare_meet, people, club_rule
):
    names = [p.name for p in people[:4]]
    scores = ["63200", "30000", "30000", notation]
    # A bust (箱割れ) typed with its minus sign is saved without 「このまま保存」 (issue 28, 7).
    data = game_post_for(club_rule, names, scores, table=1)
    response = organizer_client.post(f"/meets/{bare_meet.pk}/games/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Hanchan.objects.get().results.get(seat=3).score == -3_200
    rows = ["日付,例会,卓,回戦,席,氏名,持ち点"] + [
        f'2025-04-09,水曜会,2,2,{s},{p.name},"{v}"'
        for s, p, v in zip("東南西北", people[:4], scores, strict=True)
    ]
    import_results("\n".join(rows).encode())
    assert Hanchan.objects.get(table_no=2).results.get(seat=3).score == -3_200


def test_the_live_check_shows_a_triangle_score(organizer_client, bare_meet, people, club_rule):
    names = [p.name for p in people[:4]]
    data = game_post_for(
        club_rule, names, ["63200", "30000", "30000", "▲3,200"], table=1, preview="1"
    )
    html = organizer_client.post(
        f"/meets/{bare_meet.pk}/games/new/", data, headers={"HX-Request": "true"}
    ).content.decode()
    assert "−33.2" in html  # −3,200 → −33.2 before rank points: the row is settled
    assert "120,000" in html


class TestSentFromATablet:
    """A game a tablet kept while offline, sent with the id it gave it (``game_send``)."""

    ID = "0b6f3c1e-8d2a-4c51-9a7e-2f4d6b8c0a11"

    def send(self, client, meet, club_rule, sent_as=ID, **overrides):
        data = game_post(club_rule, **overrides) | {"sent_as": sent_as}
        return client.post(f"/meets/{meet.pk}/games/send/", data)

    def test_stored_once_however_often_it_is_sent(self, organizer_client, meet, club_rule):
        first = self.send(organizer_client, meet, club_rule)
        assert first.status_code == 200
        assert first.json()["status"] == "saved" and first.json()["again"] is False
        game = Hanchan.objects.get()
        assert str(game.sent_as) == self.ID
        assert first.json()["game"] == game.pk and first.json()["url"] == f"/games/{game.pk}/"
        # the worked table of DOMAIN.md, settled as online: 東 +32.6 less a chombo's 10 P
        totals = [r.total_points for r in game.results.order_by("seat")]
        assert totals == [D("22.6"), D("0.0"), D("0.0"), D("-32.6")]
        for _ in range(2):
            again = self.send(organizer_client, meet, club_rule)
            assert again.status_code == 200
            assert again.json() == first.json() | {"again": True}
        assert Hanchan.objects.count() == 1

    def test_a_second_tablet_with_the_same_queue_gets_the_same_game(
        self, organizer_client, alice, meet, club_rule
    ):
        other = Client()
        other.force_login(alice)
        one = self.send(organizer_client, meet, club_rule).json()
        two = self.send(other, meet, club_rule).json()
        assert one["game"] == two["game"] and Hanchan.objects.count() == 1

    def test_a_wrong_sum_is_refused_with_the_forms_message(self, organizer_client, meet, club_rule):
        wrong = {"seat-3-score": "20000"}  # 32,600 + 30,000 + 30,000 + 20,000 ≠ 100,000
        online = organizer_client.post(
            f"/meets/{meet.pk}/games/new/", game_post(club_rule, **wrong)
        )
        assert online.status_code == 400
        response = self.send(organizer_client, meet, club_rule, **wrong)
        assert response.status_code == 400
        answer = response.json()
        assert answer["status"] == "refused" and answer["messages"]
        page = online.content.decode()
        assert all(m.split(": ", 1)[-1] in page for m in answer["messages"])
        assert not Hanchan.objects.exists()

    def test_a_table_entered_meanwhile_is_a_conflict_with_both_versions(
        self, organizer_client, meet, club_rule
    ):
        organizer_client.post(f"/meets/{meet.pk}/games/new/", game_post(club_rule))
        stored = Hanchan.objects.get()
        theirs = {"seat-0-score": "40000", "seat-1-score": "22600"}  # 北 filled in
        response = self.send(organizer_client, meet, club_rule, **theirs)
        assert response.status_code == 409
        answer = response.json()
        assert answer["status"] == "conflict"
        assert answer["reason"] == "この回戦・卓の半荘はすでに入力されています。"
        assert answer["stored"]["game"] == stored.pk
        assert [line["score"] for line in answer["stored"]["lines"]] == [32600, 30000, 30000, 27400]
        assert Hanchan.objects.count() == 1 and Hanchan.objects.get().sent_as is None

    def test_the_devices_version_kept_over_the_stored_one_replaces_it_once(
        self, organizer_client, meet, club_rule
    ):
        """要確認, 「この端末の方を残す」: the queued game is sent again with the stored game it
        replaces and the version the device saw; a retry is the same game, a stale version
        (the stored game changed again meanwhile) is a conflict again, with the newer game."""
        organizer_client.post(f"/meets/{meet.pk}/games/new/", game_post(club_rule))
        stored = Hanchan.objects.get()
        theirs = {"seat-0-score": "40000", "seat-1-score": "22600"}
        conflict = self.send(organizer_client, meet, club_rule, **theirs).json()
        assert conflict["stored"]["version"] == stored.version
        keep = theirs | {"replace": str(stored.pk), "version": str(conflict["stored"]["version"])}
        first = self.send(organizer_client, meet, club_rule, **keep)
        assert first.status_code == 200 and first.json()["game"] == stored.pk
        stored.refresh_from_db()
        assert str(stored.sent_as) == self.ID and stored.version == 2
        scores = list(stored.results.order_by("seat").values_list("score", flat=True))
        assert scores == [40000, 22600, 30000, 27400]
        again = self.send(organizer_client, meet, club_rule, **keep)
        assert again.json() == first.json() | {"again": True}
        stale = self.send(
            organizer_client,
            meet,
            club_rule,
            sent_as="5a1d2e3f-4b5c-4d6e-8f70-8192a3b4c5d6",
            **keep,
        )
        assert stale.status_code == 409 and stale.json()["stored"]["version"] == 2
        assert Hanchan.objects.count() == 1

    def test_a_replacement_that_cannot_stand_at_its_own_table_is_refused(
        self, organizer_client, meet, club_rule
    ):
        """The device's version of a stored game seats a player who plays at another table
        in the round: refused with that reason, not a conflict with the game it replaces."""
        organizer_client.post(f"/meets/{meet.pk}/games/new/", game_post(club_rule))
        stored = Hanchan.objects.get()
        names = ["伊藤 一郎", "佐藤 二郎", "加藤 三郎", "後藤 四郎"]
        others = [Member.objects.create(name=n, furigana=f"かな{i}") for i, n in enumerate(names)]
        Hanchan(meet=meet, table_no=3, round_no=1, rule_set=club_rule).record(worked_table(others))
        keep = {"replace": str(stored.pk), "version": str(stored.version)}
        response = self.send(
            organizer_client, meet, club_rule, **keep, **{"seat-3-player": "伊藤 一郎"}
        )
        assert response.status_code == 400, response.json()
        assert response.json() == {
            "status": "refused",
            "messages": ["伊藤 一郎 さんは 1 回戦の 3 卓ですでに打っています。"],
        }

    def test_a_game_to_replace_must_be_of_this_meet(self, organizer_client, meet, club_rule):
        response = self.send(organizer_client, meet, club_rule, replace="999999", version="1")
        assert response.status_code == 400 and response.json()["status"] == "refused"
        assert not Hanchan.objects.exists()

    def test_a_finalised_meet_is_a_conflict_but_a_game_sent_before_stays_saved(
        self, organizer_client, meet, club_rule
    ):
        saved = self.send(organizer_client, meet, club_rule).json()
        meet.finalise()
        assert self.send(organizer_client, meet, club_rule).json() == saved | {"again": True}
        other = self.send(
            organizer_client,
            meet,
            club_rule,
            sent_as="5a1d2e3f-4b5c-4d6e-8f70-8192a3b4c5d6",
            table_no="3",
        )
        assert other.status_code == 409
        assert (
            other.json()["reason"] == "この例会は確定済みです。変更するには確定を解除してください。"
        )
        assert "stored" not in other.json()
        assert Hanchan.objects.count() == 1

    # The reason the tablet shows when its id names a stored game that holds something else.
    ID_HOLDS_ANOTHER = "この端末の ID で保存済みの半荘は、送られた内容と違います。"

    def test_an_id_stored_in_another_meet_is_no_game_of_this_one(
        self, organizer_client, meet, club_rule
    ):
        """A device's id belongs to its meet's queue: the id of a game of another meet (a
        colliding or forged id) answers nothing of that game, and the game sent is stored
        in this meet, once."""
        first = self.send(organizer_client, meet, club_rule).json()
        other = Meet.objects.create(date=date(2025, 4, 16), kind="wed", rule_set=club_rule)
        theirs = {"seat-0-score": "40000", "seat-1-score": "22600"}
        response = self.send(organizer_client, other, club_rule, **theirs)
        assert response.status_code == 200
        answer = response.json()
        assert answer["status"] == "saved" and answer["again"] is False
        stored = Hanchan.objects.get(meet=other)
        assert answer["game"] == stored.pk != first["game"]
        assert str(stored.sent_as) == self.ID
        assert scores(stored) == [40000, 22600, 30000, 27400]
        assert scores(Hanchan.objects.get(meet=meet)) == [32600, 30000, 30000, 27400]
        again = self.send(organizer_client, other, club_rule, **theirs)
        assert again.json() == answer | {"again": True}
        assert Hanchan.objects.count() == 2

    def test_an_id_of_another_meet_sent_to_a_finalised_meet_is_a_conflict(
        self, organizer_client, meet, club_rule
    ):
        self.send(organizer_client, meet, club_rule)
        other = Meet.objects.create(date=date(2025, 4, 16), kind="wed", rule_set=club_rule)
        other.finalise()
        response = self.send(organizer_client, other, club_rule)
        assert response.status_code == 409
        answer = response.json()
        assert answer["status"] == "conflict" and answer["meet"] == other.pk
        assert answer["reason"] == "この例会は確定済みです。変更するには確定を解除してください。"
        assert "stored" not in answer
        assert not other.hanchans.exists() and Hanchan.objects.count() == 1

    @pytest.mark.parametrize(
        "changed",
        [
            {"seat-0-score": "40000", "seat-1-score": "22600"},  # other scores
            {"table_no": "3"},  # another table, free
            {"round_no": "2"},  # another round, free
            {"seat-1-player": "きた", "seat-3-player": "みなみ"},  # 南 and 北 swapped
            {"seat-0-chombo": "0"},  # no chombo
            {"seat-3-score": "20000"},  # a game that cannot stand (the sum)
        ],
        ids=["scores", "table", "round", "players", "chombo", "cannot-stand"],
    )
    def test_the_id_of_a_stored_game_sent_with_another_game_is_a_conflict(
        self, organizer_client, meet, club_rule, changed
    ):
        """Only the game the id was stored with is that id's game: anything else sent with
        it is kept on the tablet as 要確認 beside the stored game, and nothing changes here."""
        first = self.send(organizer_client, meet, club_rule).json()
        response = self.send(organizer_client, meet, club_rule, **changed)
        assert response.status_code == 409
        answer = response.json()
        assert answer["status"] == "conflict" and answer["reason"] == self.ID_HOLDS_ANOTHER
        assert answer["stored"]["game"] == first["game"]
        assert [line["score"] for line in answer["stored"]["lines"]] == [32600, 30000, 30000, 27400]
        stored = Hanchan.objects.get()
        assert (stored.table_no, stored.round_no, stored.version) == (2, 1, 1)
        assert scores(stored) == [32600, 30000, 30000, 27400]

    def test_after_a_finalise_the_id_with_another_game_is_a_conflict(
        self, organizer_client, meet, club_rule
    ):
        first = self.send(organizer_client, meet, club_rule).json()
        meet.finalise()
        response = self.send(organizer_client, meet, club_rule, table_no="3")
        assert response.status_code == 409
        assert response.json()["reason"] == self.ID_HOLDS_ANOTHER
        assert response.json()["stored"]["game"] == first["game"]
        assert Hanchan.objects.count() == 1

    def test_a_game_stored_for_its_id_then_changed_here_is_a_conflict(
        self, organizer_client, meet, club_rule
    ):
        """The answer to the first send was lost, and the organizer changed the stored game
        online meanwhile: the tablet's game is no longer what is stored (要確認, both)."""
        first = self.send(organizer_client, meet, club_rule).json()
        edit = game_post(club_rule, **{"seat-0-score": "42600", "seat-1-score": "20000"})
        edited = organizer_client.post(f"/games/{first['game']}/edit/", edit | {"version": "1"})
        assert edited.status_code == 302
        response = self.send(organizer_client, meet, club_rule)
        assert response.status_code == 409
        assert response.json()["stored"]["version"] == 2
        assert response.json()["stored"]["lines"][0]["score"] == 42600

    def test_a_game_with_a_new_guest_sent_again_is_the_same_game(
        self, organizer_client, meet, club_rule
    ):
        """Sent again after the answer was lost: the guest the first send made is now a
        member of that name, and the game that holds them is this id's game."""
        guest = {"seat-3-player": "佐藤 ゲスト", "seat-3-guest": "on"}
        first = self.send(organizer_client, meet, club_rule, **guest)
        assert first.status_code == 200, first.json()
        again = self.send(organizer_client, meet, club_rule, **guest)
        assert again.json() == first.json() | {"again": True}
        assert Member.objects.filter(name="佐藤 ゲスト").count() == 1
        assert Hanchan.objects.count() == 1

    @pytest.mark.parametrize("same", [True, False], ids=["the-same-game", "another-game"])
    def test_an_id_stored_by_another_sender_meanwhile(
        self, organizer_client, meet, club_rule, monkeypatch, same
    ):
        """Two senders of one id: the other's game lands after this one looked for the id,
        and this one's save finds it under the meet's lock (``SentBefore``). The answer is
        as for a game found before: the same game is saved again, another is a conflict."""
        save = GameForm.save
        rival_scores = {} if same else {"seat-0-score": "40000", "seat-1-score": "22600"}

        def rival_first(form, *args, **kwargs):
            monkeypatch.setattr(GameForm, "save", save)
            rival = GameForm(game_post(club_rule, **rival_scores), meet=meet)
            assert rival.is_valid()
            rival.save(sent_as=uuid.UUID(self.ID))
            return save(form, *args, **kwargs)

        monkeypatch.setattr(GameForm, "save", rival_first)
        response = self.send(organizer_client, meet, club_rule)
        rival = Hanchan.objects.get()
        if same:
            assert response.status_code == 200
            assert response.json()["game"] == rival.pk and response.json()["again"] is True
        else:
            assert response.status_code == 409
            assert response.json()["reason"] == self.ID_HOLDS_ANOTHER
            assert response.json()["stored"]["game"] == rival.pk
        assert scores(rival)[0] == (32600 if same else 40000)

    def test_signed_out_or_a_member_stores_nothing(self, member_client, meet, club_rule):
        anonymous = self.send(Client(), meet, club_rule)
        assert anonymous.status_code == 401
        assert anonymous.json() == {"status": "signed_out", "login": "/login/"}
        member = self.send(member_client, meet, club_rule)
        assert member.status_code == 403 and member.json() == {"status": "not_organizer"}
        not_an_id = self.send(Client(), meet, club_rule, sent_as="x")
        assert not_an_id.status_code == 401
        assert not Hanchan.objects.exists()

    def test_an_id_that_is_not_one_is_refused(self, organizer_client, meet, club_rule):
        response = self.send(organizer_client, meet, club_rule, sent_as="not-a-uuid")
        assert response.status_code == 400 and response.json()["status"] == "refused"
        assert not Hanchan.objects.exists()


@pytest.mark.slow  # a race: ten rounds of four threads
@pytest.mark.django_db(transaction=True)
def test_four_tablets_sending_one_game_at_the_same_moment_store_it_once():
    """Ten times over, four clients send the same queued game (one id) at the same moment:
    one game is stored, and all four are answered with it."""
    put_back_migrated_data()
    club_rule = RuleSet.objects.default()
    organizer = User.objects.create_user("kiroku-race", password="x")
    grant(organizer, ORGANIZER)
    names = [
        ("東山 一郎", "ひがし"),
        ("南野 花子", "みなみ"),
        ("西川 次郎", "にし"),
        ("北村 三郎", "きた"),
    ]
    for name, kana in names:
        Member.objects.create(name=name, furigana=kana)
    meet = Meet.objects.create(date="2025-04-09", kind="wed", rule_set=club_rule)
    clients = []
    for _ in range(4):
        client = Client()
        client.force_login(organizer)
        clients.append(client)
    for attempt in range(10):
        data = game_post(club_rule, round_no=str(attempt + 1)) | {"sent_as": str(uuid.uuid4())}
        barrier = threading.Barrier(len(clients))
        answers: list[dict] = []

        def send(client=client, data=data, barrier=barrier, answers=answers) -> None:
            barrier.wait()
            try:
                answers.append(client.post(f"/meets/{meet.pk}/games/send/", data).json())
            finally:
                close_old_connections()

        threads = [threading.Thread(target=send, kwargs={"client": c}) for c in clients]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert answers and answers[0].get("status") == "saved", answers
        stored = Hanchan.objects.get(sent_as=data["sent_as"])
        assert [a["game"] for a in answers] == [stored.pk] * 4, (attempt, answers)
        assert sorted(a["again"] for a in answers) == [False, True, True, True]
    assert Hanchan.objects.count() == 10


def test_the_edit_form_offers_the_dice_and_shows_no_template_comment(
    organizer_client, recorded_game
):
    """A game's edit form has the dice's seats panel (for the seats the record sheet says),
    opening as seated; found trying a meet day: a comment of the template spread over lines
    (``{# … #}`` is one line only) was printed on the page above the panel."""
    text = organizer_client.get(f"/games/{recorded_game.pk}/edit/").content.decode()
    assert 'id="dice-seats"' in text and "data-seated" in text
    assert "{#" not in text and "#}" not in text
