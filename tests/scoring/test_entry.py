"""What became of a game as sent (scoring/entry.py): saved (now, or before), refused with the
form's messages, or a conflict with the game that stands in its way. The views only say it."""

import uuid
from datetime import date

import pytest

from members.models import Member
from scoring.entry import Conflict, Refused, Saved, save_game, send_game
from scoring.forms import GameForm, initial_for_game
from scoring.models import Hanchan, Meet
from tests.builders import game_post, worked_table

pytestmark = pytest.mark.django_db

ID = "0b6f3c1e-8d2a-4c51-9a7e-2f4d6b8c0a11"
THEIRS = {"seat-0-score": "40000", "seat-1-score": "22600"}  # 北 filled in: 27,400
TAKEN = "この回戦・卓の半荘はすでに入力されています。"
FINALISED = "この例会は確定済みです。変更するには確定を解除してください。"
ID_HOLDS_ANOTHER = "この端末の ID で保存済みの半荘は、送られた内容と違います。"


def scores(game):
    return list(game.results.order_by("seat").values_list("score", flat=True))


def form(meet, club_rule, game=None, **overrides):
    return GameForm(game_post(club_rule, **overrides), meet=meet, game=game)


def sent(club_rule, sent_as=ID, **overrides):
    return game_post(club_rule, **overrides) | {"sent_as": sent_as}


class TestSaveGame:
    def test_a_game_that_stands_is_saved_settled_with_who_joined_the_attendance(
        self, meet, club_rule, four_members
    ):
        meet.attendees.remove(four_members[3])
        outcome = save_game(form(meet, club_rule))
        assert isinstance(outcome, Saved) and outcome.again is False
        assert outcome.game == Hanchan.objects.get() and outcome.game.sent_as is None
        assert scores(outcome.game) == [32600, 30000, 30000, 27400]
        assert outcome.added_to_attendance == (four_members[3],)

    def test_a_form_that_does_not_read_is_refused_with_its_messages_seat_by_seat(
        self, meet, club_rule
    ):
        outcome = save_game(form(meet, club_rule, **{"seat-1-player": "だれも"}))
        assert outcome == Refused(("南: 「だれも」という会員はいません。",))
        assert not Hanchan.objects.exists()

    def test_a_game_that_cannot_be_settled_is_refused(self, meet, club_rule):
        outcome = save_game(form(meet, club_rule, **{"seat-3-score": "20000"}))
        assert isinstance(outcome, Refused) and len(outcome.messages) == 1
        assert "合計" in outcome.messages[0]
        assert not Hanchan.objects.exists()

    def test_the_same_form_sent_twice_is_the_game_saved_again(self, meet, club_rule):
        first = save_game(form(meet, club_rule))
        assert isinstance(first, Saved)
        assert save_game(form(meet, club_rule)) == Saved(first.game, again=True)
        assert Hanchan.objects.count() == 1

    def test_a_table_entered_meanwhile_is_a_conflict_naming_that_game(self, meet, club_rule):
        stored = save_game(form(meet, club_rule))
        assert isinstance(stored, Saved)
        assert save_game(form(meet, club_rule, **THEIRS)) == Conflict(TAKEN, stored.game)
        assert scores(Hanchan.objects.get()) == [32600, 30000, 30000, 27400]

    def test_an_edit_of_a_game_changed_meanwhile_is_a_conflict_with_the_newer_game(
        self, meet, club_rule, recorded_game
    ):
        shown = initial_for_game(recorded_game)["version"]
        other = form(meet, club_rule, recorded_game, table_no="1", version=str(shown))
        assert isinstance(save_game(other), Saved)
        mine = form(meet, club_rule, recorded_game, table_no="1", version=str(shown), **THEIRS)
        outcome = save_game(mine)
        assert isinstance(outcome, Conflict) and outcome.reason.startswith("編集中に他の人")
        assert outcome.stored == recorded_game and outcome.stored.version == 2
        assert scores(Hanchan.objects.get()) == [32600, 30000, 30000, 27400]

    def test_an_edit_refused_at_its_own_table_is_refused_not_a_conflict_with_itself(
        self, meet, club_rule, recorded_game, four_members
    ):
        """The game being edited stands at its own table: a refusal of the edit (a player
        who sits at another table in the round) is no conflict with that game."""
        names = ["伊藤 一郎", "佐藤 二郎", "加藤 三郎", "後藤 四郎"]
        others = [Member.objects.create(name=n, furigana=f"かな{i}") for i, n in enumerate(names)]
        Hanchan(meet=meet, table_no=3, round_no=1, rule_set=club_rule).record(worked_table(others))
        edit = form(
            meet,
            club_rule,
            recorded_game,
            table_no="1",
            version=str(recorded_game.version),
            **{"seat-3-player": "伊藤 一郎"},
        )
        outcome = save_game(edit)
        assert outcome == Refused(("伊藤 一郎 さんは 1 回戦の 3 卓ですでに打っています。",))

    def test_a_finalised_meet_is_a_conflict_with_no_game_to_show(self, meet, club_rule):
        meet.finalise()
        assert save_game(form(meet, club_rule)) == Conflict(FINALISED)
        assert not Hanchan.objects.exists()

    def test_a_game_stored_for_the_id_meanwhile_is_the_same_game_or_a_conflict(
        self, meet, club_rule
    ):
        """A second sender's game lands first (found under the meet's lock): the game sent
        is that game saved again, or a conflict when it holds something else."""
        rival = save_game(form(meet, club_rule), sent_as=uuid.UUID(ID))
        assert isinstance(rival, Saved)
        same = save_game(form(meet, club_rule), sent_as=uuid.UUID(ID))
        assert same == Saved(rival.game, again=True)
        other = save_game(form(meet, club_rule, **THEIRS), sent_as=uuid.UUID(ID))
        assert other == Conflict(ID_HOLDS_ANOTHER, rival.game)
        assert Hanchan.objects.count() == 1


class TestSendGame:
    def test_a_game_from_a_devices_queue_is_stored_with_its_id_once(self, meet, club_rule):
        first = send_game(meet, sent(club_rule))
        assert isinstance(first, Saved) and first.again is False
        assert str(first.game.sent_as) == ID
        assert send_game(meet, sent(club_rule)) == Saved(first.game, again=True)
        assert Hanchan.objects.count() == 1

    def test_another_game_under_a_stored_id_is_a_conflict_naming_the_stored_one(
        self, meet, club_rule
    ):
        first = send_game(meet, sent(club_rule))
        assert isinstance(first, Saved)
        assert send_game(meet, sent(club_rule, **THEIRS)) == Conflict(ID_HOLDS_ANOTHER, first.game)
        meet.finalise()
        assert send_game(meet, sent(club_rule)) == Saved(first.game, again=True)
        assert send_game(meet, sent(club_rule, table_no="3")) == Conflict(
            ID_HOLDS_ANOTHER, first.game
        )

    def test_the_id_of_another_meets_game_is_a_game_of_this_meet(self, meet, club_rule):
        first = send_game(meet, sent(club_rule))
        other = Meet.objects.create(date=date(2025, 4, 16), kind="wed", rule_set=club_rule)
        there = send_game(other, sent(club_rule))
        assert isinstance(first, Saved) and isinstance(there, Saved)
        assert there.again is False and there.game.meet == other != first.game.meet

    def test_a_finalised_meet_is_a_conflict(self, meet, club_rule):
        meet.finalise()
        assert send_game(meet, sent(club_rule)) == Conflict(FINALISED)
        assert not Hanchan.objects.exists()

    def test_the_devices_version_replaces_the_stored_game_at_the_version_it_saw(
        self, meet, club_rule, recorded_game
    ):
        keep = {"table_no": "1", "replace": str(recorded_game.pk), "version": "1"}
        outcome = send_game(meet, sent(club_rule, **THEIRS, **keep))
        assert outcome == Saved(recorded_game, again=False)
        recorded_game.refresh_from_db()
        assert recorded_game.version == 2 and str(recorded_game.sent_as) == ID
        stale = send_game(meet, sent(club_rule, sent_as=str(uuid.uuid4()), **keep))
        assert isinstance(stale, Conflict) and stale.stored == recorded_game
        assert stale.stored.version == 2

    def test_what_the_device_sends_beside_the_game_is_refused_when_it_cannot_stand(
        self, meet, club_rule
    ):
        gone = send_game(meet, sent(club_rule, replace="999999", version="1"))
        assert gone == Refused(("置き換える対局はもうこの例会にありません。",))
        not_an_id = send_game(meet, sent(club_rule, sent_as="not-a-uuid"))
        assert isinstance(not_an_id, Refused) and not_an_id.messages[0].startswith("端末の ID: ")
        assert not Hanchan.objects.exists()
