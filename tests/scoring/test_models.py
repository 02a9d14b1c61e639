"""Saving a game settles it; a bad game is refused and leaves the database as it was."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from scoring import rules
from scoring.models import (
    SEAT_NAMES,
    BigHand,
    Hanchan,
    HanchanResult,
    HandLevel,
    PlayerEntry,
    RuleSet,
    Seat,
)
from tests.builders import worked_table

D = Decimal
pytestmark = pytest.mark.django_db


def snapshot():
    return (
        list(Hanchan.objects.values_list("id", "version")),
        list(HanchanResult.objects.values_list("id", "score", "total_points")),
        list(BigHand.objects.values_list("id", "level")),
    )


def test_five_rule_sets_exist_after_migrate():
    names = set(RuleSet.objects.values_list("name", flat=True))
    assert names == {
        "白樺会 四人打ち",
        "白樺会 三人打ち",
        "日本健康麻将協会",
        "三人打ち 30000持ち34000返し",
        "カンターン麻雀 (1-0-0-0)",
    }
    assert RuleSet.objects.default().name == "白樺会 四人打ち"
    assert RuleSet.objects.default().params() == rules.RuleParams()


def test_recording_a_game_stores_the_settled_points(meet, club_rule, four_members):
    game = Hanchan(meet=meet, table_no=1, round_no=1, rule_set=club_rule)
    entries = worked_table(four_members, chombo_east=1)
    entries[0].big_hands = [(HandLevel.MANGAN, ""), (HandLevel.YAKUMAN, "国士無双")]
    game.record(entries)

    rows = list(game.results.order_by("seat"))
    assert [r.total_points for r in rows] == [D("22.6"), D("0.0"), D("0.0"), D("-32.6")]
    assert [r.place for r in rows] == [1, 2, 2, 4]
    assert [r.chombo_points for r in rows] == [D(-10), D(0), D(0), D(0)]
    assert rows[0].rank_points == D(30) and rows[0].score_points == D("2.6")
    assert sorted(str(b) for b in BigHand.objects.filter(result=rows[0])) == [
        "役満(国士無双)",
        "満貫",
    ]


def test_stored_points_are_what_rules_gives_for_the_stored_scores(meet, club_rule, four_members):
    game = Hanchan(meet=meet, table_no=1, round_no=1, rule_set=club_rule)
    game.record(worked_table(four_members, chombo_east=1))
    stored = list(game.results.order_by("seat"))
    again = rules.settle(
        club_rule.params(), [rules.SeatScore(r.seat, r.score, r.chombo) for r in stored]
    )
    assert [r.total_points for r in stored] == [r.total for r in again.results]


def test_editing_a_game_resettles_it(meet, club_rule, four_members):
    game = Hanchan(meet=meet, table_no=1, round_no=1, rule_set=club_rule)
    game.record(worked_table(four_members, chombo_east=1))
    game.record(worked_table(four_members, chombo_east=0), expected_version=game.version)
    assert game.version == 2
    assert game.results.count() == 4
    assert game.results.get(seat=0).total_points == D("32.6")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda e, m: e.__setitem__(0, PlayerEntry(m[0], 0, 32_650)), "100"),
        (lambda e, m: e.__setitem__(3, PlayerEntry(m[3], 3, 26_200)), "1,200"),
        (lambda e, m: e.__setitem__(1, PlayerEntry(m[0], 1, 30_000)), "東山 一郎"),
        (lambda e, m: e.__setitem__(1, PlayerEntry(m[1], 0, 30_000)), "東"),
        (lambda e, m: e.__setitem__(0, PlayerEntry(m[0], 0, 32_600, -1)), "錯和"),
        (lambda e, m: e.__setitem__(0, PlayerEntry(m[0], 0, 2_000_000)), "1,000,000"),
    ],
    ids=["not-multiple", "short", "member-twice", "seat-twice", "negative-chombo", "absurd"],
)
def test_a_bad_game_is_refused_in_japanese_and_nothing_changes(
    meet, club_rule, four_members, recorded_game, change, message
):
    first = recorded_game
    before = snapshot()

    entries = worked_table(four_members, chombo_east=1)
    change(entries, four_members)
    bad = Hanchan(meet=meet, table_no=1, round_no=2, rule_set=club_rule)
    with pytest.raises(ValidationError) as exc:
        bad.record(entries)
    assert message in " ".join(exc.value.messages)
    assert snapshot() == before

    # An edit of the existing game that goes wrong leaves it as it was, too.
    with pytest.raises(ValidationError) as exc:
        first.record(entries, expected_version=first.version)
    assert message in " ".join(exc.value.messages)
    assert snapshot() == before


def test_a_short_table_says_by_how_much_in_japanese(meet, club_rule, four_members):
    entries = worked_table(four_members, chombo_east=1)
    entries[3] = PlayerEntry(four_members[3], 3, 26_200)
    with pytest.raises(ValidationError) as exc:
        Hanchan(meet=meet, table_no=1, round_no=1, rule_set=club_rule).record(entries)
    assert exc.value.messages == [
        "卓の合計は 118,800 点です。120,000 点まであと 1,200 点不足しています。"
    ]


def test_four_players_under_a_three_player_rule_is_refused(meet, four_members):
    three = RuleSet.objects.get(name="白樺会 三人打ち")
    with pytest.raises(ValidationError) as exc:
        Hanchan(meet=meet, table_no=1, round_no=1, rule_set=three).record(
            worked_table(four_members, chombo_east=1)
        )
    assert exc.value.messages == ["このルールは 3 人用ですが、4 人分が入力されています。"]
    assert not Hanchan.objects.exists()


def test_the_same_table_and_round_twice_is_refused(meet, club_rule, four_members, recorded_game):
    with pytest.raises(ValidationError):
        Hanchan(meet=meet, table_no=1, round_no=1, rule_set=club_rule).record(
            worked_table(four_members, chombo_east=1)
        )
    assert Hanchan.objects.count() == 1


def test_the_database_refuses_a_seat_twice(recorded_game):
    row = recorded_game.results.get(seat=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        HanchanResult.objects.filter(pk=row.pk).update(seat=0)


def test_a_finalised_meet_refuses_changes(meet, club_rule, four_members):
    meet.is_final = True
    meet.save()
    with pytest.raises(ValidationError) as exc:
        Hanchan(meet=meet, table_no=1, round_no=1, rule_set=club_rule).record(
            worked_table(four_members, chombo_east=1)
        )
    assert "確定" in exc.value.messages[0]


def test_jkma_excess_is_stored_off_the_top(meet, four_members):
    jkma = RuleSet.objects.get(name="日本健康麻将協会")
    game = Hanchan(meet=meet, table_no=1, round_no=1, rule_set=jkma)
    scores = [36_000, 30_000, 20_000, 15_000]
    game.record(
        [PlayerEntry(m, i, s) for i, (m, s) in enumerate(zip(four_members, scores, strict=True))]
    )
    top = game.results.get(seat=0)
    assert (top.score, top.final_score, top.total_points) == (36_000, 35_000, D(22))


class TestRuleSetLock:
    def test_an_unused_rule_set_can_be_changed(self, club_rule):
        club_rule.rank_point_1 = D(40)
        club_rule.rank_point_4 = D(-40)
        club_rule.save()
        club_rule.refresh_from_db()
        assert club_rule.rank_point_1 == D(40)

    def test_a_used_rule_set_cannot_be_changed(self, club_rule, recorded_game):
        club_rule.rank_point_1 = D(40)
        with pytest.raises(ValidationError) as exc:
            club_rule.full_clean()
        assert "コピー" in exc.value.messages[0]
        with pytest.raises(ValidationError):
            club_rule.save()
        club_rule.refresh_from_db()
        assert club_rule.rank_point_1 == D(30)

    def test_a_used_rule_set_can_still_be_renamed_and_copied(self, club_rule, recorded_game):
        club_rule.description = "説明を書き直した"
        club_rule.save()
        copy = club_rule.copy("白樺会 四人打ち 2026")
        copy.rank_point_1, copy.rank_point_4 = D(40), D(-40)
        copy.full_clean()
        copy.save()
        assert not copy.is_default
        assert copy.params().rank_points == (D(40), D(10), D(-10), D(-40))

    def test_bad_parameters_are_refused_in_japanese(self, club_rule):
        club_rule.points_per_p = 300
        with pytest.raises(ValidationError) as exc:
            club_rule.full_clean()
        assert "1,000" in exc.value.messages[0]


def test_history_records_each_result_row(meet, club_rule, four_members):
    game = Hanchan(meet=meet, table_no=1, round_no=1, rule_set=club_rule)
    game.record(worked_table(four_members, chombo_east=1))
    game.record(worked_table(four_members, chombo_east=0), expected_version=game.version)
    assert game.history.count() == 2
    assert HanchanResult.history.filter(history_type="-").count() == 4
    assert HanchanResult.history.filter(history_type="+").count() == 8


def test_the_seat_names_are_the_seat_labels():
    labels = tuple(Seat(n).label for n in range(len(Seat)))
    assert labels == SEAT_NAMES == ("東", "南", "西", "北")
