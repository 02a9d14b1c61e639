"""Saving a game settles it; a bad game is refused and leaves the database as it was."""

import threading
import uuid
from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import IntegrityError, close_old_connections, transaction

from members.models import Member
from scoring import rules
from scoring.models import (
    SEAT_NAMES,
    BigHand,
    Hanchan,
    HanchanResult,
    HandLevel,
    Meet,
    PlayerEntry,
    RuleSet,
    Seat,
    SentBefore,
    StandingsGroup,
)
from tests.builders import (
    CLUB3,
    CLUB4,
    JKMA,
    KANTAN,
    PARLOR3,
    in_our_club,
    play,
    put_back_migrated_data,
    rows_now,
    rule,
    totals,
    worked_table,
)

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


def test_a_device_id_names_one_game_within_its_meet(meet, club_rule, four_members):
    """A device's id (``sent_as``) belongs to one meet's queue: within the meet it names one
    game (``record`` answers ``SentBefore`` with it, and the database refuses a second); a
    game of another meet may carry the same id."""
    sent_as = uuid.UUID("0b6f3c1e-8d2a-4c51-9a7e-2f4d6b8c0a11")
    first = Hanchan(meet=meet, table_no=1, round_no=1, rule_set=club_rule)
    first.record(worked_table(four_members), sent_as=sent_as)
    with pytest.raises(SentBefore) as before:
        Hanchan(meet=meet, table_no=2, round_no=1, rule_set=club_rule).record(
            worked_table(four_members), sent_as=sent_as
        )
    assert before.value.game == first
    other = Meet.objects.create(date=date(2025, 4, 16), kind="wed", rule_set=club_rule)
    second = Hanchan(meet=other, table_no=3, round_no=1, rule_set=club_rule)
    second.record(worked_table(four_members), sent_as=sent_as)
    assert Hanchan.objects.filter(sent_as=sent_as).count() == 2
    with pytest.raises(IntegrityError), transaction.atomic():
        Hanchan.objects.filter(pk=second.pk).update(meet=meet)


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


class TestShippedRuleSets:
    def test_parlor_no_settlement_below_zero(self, bare_meet, people):
        """Sheet 003 「箱下精算はありません」: 70,000 / 25,000 / −5,000 → +63.0 / −9.0 / −54.0."""
        game = play(bare_meet, 1, 1, rule(PARLOR3), people[:3], [70_000, 25_000, -5_000])
        assert totals(game) == [D("63.0"), D("-9.0"), D("-54.0")]
        assert [r.final_score for r in game.results.order_by("seat")] == [65_000, 25_000, 0]

    def test_parlor_chombo_costs_no_p(self, bare_meet, people):
        """Sheet 003 「チョンボは親・子関係なく5000点ALLの支払い」: paid at the table already."""
        game = play(
            bare_meet, 1, 1, rule(PARLOR3), people[:3], [50_000, 25_000, 15_000], chombo={0: 1}
        )
        assert totals(game) == [D(48), D(-9), D(-39)]
        assert rule(PARLOR3).chombo_penalty == 0

    def test_jkma_refuses_deposits_held(self, bare_meet, people):
        """Sheet 001 「（供託はトップ取り）」: the rule never holds deposits."""
        with pytest.raises(ValidationError) as exc:
            play(
                bare_meet,
                1,
                1,
                rule(JKMA),
                people[:4],
                [40_000, 30_000, 20_000, 10_000],
                deposits=1_000,
            )
        assert "供託はトップ取り" in exc.value.messages[0]
        assert not Hanchan.objects.exists()

    def test_the_club_rule_keeps_deposits_held(self, bare_meet, people):
        """Sheet 000 rule 13 「不明時は預かりとする」."""
        game = play(
            bare_meet,
            1,
            1,
            rule(CLUB4),
            people[:4],
            [40_000, 30_000, 20_000, 29_000],
            deposits=1_000,
        )
        assert sum(totals(game)) == D("-1.0")

    def test_kantan_short_table_stands_and_excess_is_refused(self, bare_meet, people):
        """Sheet 004 「西場から 供託ルール追加」: the pot can stay on the table."""
        game = play(bare_meet, 1, 1, rule(KANTAN), people[:4], [40_000, 30_000, 17_000, 10_000])
        assert [r.place for r in game.results.order_by("seat")] == [1, 2, 3, 4]
        with pytest.raises(ValidationError):
            play(bare_meet, 1, 2, rule(KANTAN), people[:4], [41_000, 30_000, 20_000, 10_000])

    def test_where_a_sheet_is_silent_the_description_says_what_the_app_does(self):
        assert "ルールは4人マージャンと同じ" in rule(CLUB3).description
        assert "−10P" in rule(CLUB3).description
        assert "25,000" in rule(KANTAN).description  # no start is given on sheet 004
        assert "箱下精算なし" in rule(PARLOR3).description

    def test_each_rule_set_has_its_group_and_the_club_rules_share_one(self):
        assert rule(CLUB4).group == rule(CLUB3).group == StandingsGroup.clubs_own()
        others = {rule(n).group.pk for n in (JKMA, PARLOR3, KANTAN)}
        assert len(others) == 3 and StandingsGroup.clubs_own().pk not in others


class TestFinalisedMeansFinal:
    """Finalised means final, by every path (issue 14)."""

    def test_the_models_refuse_a_finalised_meet_by_any_path(self, final_game, people):
        meet = Meet.objects.get(pk=final_game.meet.pk)
        before = rows_now()
        meet.date = "2025-04-10"
        with pytest.raises(ValidationError):
            meet.save()
        meet = Meet.objects.get(pk=meet.pk)
        meet.is_final = False  # un-finalising without a reason
        with pytest.raises(ValidationError):
            meet.save()
        with pytest.raises(ValidationError), transaction.atomic():
            Meet.objects.get(pk=meet.pk).attendees.add(people[7])
        with pytest.raises(ValidationError):
            Meet.objects.get(pk=meet.pk).delete()
        assert rows_now() == before

    def test_an_edit_that_lands_after_finalise_is_refused(
        self, organizer_client, bare_meet, people, club_rule
    ):
        """The form was opened (and its bare_meet read) before 確定; the save comes after."""
        game = play(bare_meet, 1, 1, club_rule, people[:4], [40_000, 30_000, 30_000, 20_000])
        stale_meet = Meet.objects.get(pk=bare_meet.pk)  # read while open
        Meet.objects.get(pk=bare_meet.pk).finalise()
        game = Hanchan.objects.get(pk=game.pk)
        game.meet = stale_meet
        before = rows_now()
        with pytest.raises(ValidationError) as exc:
            game.record(
                [
                    PlayerEntry(p, i, s)
                    for i, (p, s) in enumerate(
                        zip(people[:4], [41_000, 29_000, 30_000, 20_000], strict=True)
                    )
                ],
                expected_version=game.version,
            )
        assert "確定" in exc.value.messages[0]
        new = Hanchan(meet=stale_meet, table_no=2, round_no=1, rule_set=club_rule)
        with pytest.raises(ValidationError):
            new.record([PlayerEntry(p, i, 30_000) for i, p in enumerate(people[4:8])])
        assert rows_now() == before

    def test_results_are_written_by_settlement_only(self, bare_meet, people, club_rule):
        game = play(bare_meet, 1, 1, club_rule, people[:4], [40_000, 30_000, 30_000, 20_000])
        row = game.results.get(seat=0)
        row.total_points = D(99)
        with pytest.raises(ValidationError):
            row.save()
        with pytest.raises(ValidationError):
            Hanchan.objects.get(pk=game.pk).delete()
        assert Hanchan.objects.all().disagreeing() == []


def test_check_results_finds_a_result_that_disagrees_with_its_rule_set(
    bare_meet, people, club_rule
):
    game = play(bare_meet, 1, 1, club_rule, people[:4], [40_000, 30_000, 30_000, 20_000])
    call_command("check_results")
    HanchanResult.objects.filter(hanchan=game, seat=0).update(total_points=D("12.3"))
    assert [what for _g, what in Hanchan.objects.all().disagreeing()] == ["seat 0: total_points"]
    with pytest.raises(CommandError):
        call_command("check_results")


@pytest.mark.slow  # a race: fifteen rounds of two threads
@pytest.mark.django_db(transaction=True)
def test_an_edit_racing_a_finalise_never_lands_after_it():
    """Fifteen times over, an edit and 確定 start at the same moment in two threads. Either
    the edit lands first (and the meet is final after it) or it is refused: a game never
    changes after its meet was finalised. (Before, 7 of 15 edits landed after.)"""

    put_back_migrated_data()
    club_rule = RuleSet.objects.default()
    people = [Member.objects.create(name=f"会員{i}", furigana="かな") for i in range(4)]
    meet = Meet.objects.create(date="2025-04-09", kind="wed", rule_set=club_rule)
    game = play(meet, 1, 1, club_rule, people, [40_000, 30_000, 30_000, 20_000])
    for attempt in range(15):
        barrier = threading.Barrier(2)
        editor_game = Hanchan.objects.select_related("meet", "rule_set").get(pk=game.pk)
        scores = [40_000 + 100 * (attempt + 1), 30_000, 30_000, 20_000 - 100 * (attempt + 1)]

        def edit(g=editor_game, scores=scores, barrier=barrier) -> None:
            barrier.wait()
            try:
                g.record(
                    [
                        PlayerEntry(p, i, s)
                        for i, (p, s) in enumerate(zip(people, scores, strict=True))
                    ],
                    expected_version=g.version,
                )
            except ValidationError:
                pass
            finally:
                close_old_connections()

        def finalise(barrier=barrier) -> None:
            barrier.wait()
            try:
                Meet.objects.get(pk=meet.pk).finalise()
            finally:
                close_old_connections()

        threads = [
            threading.Thread(target=in_our_club(edit)),
            threading.Thread(target=in_our_club(finalise)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        finalised_at = Meet.history.filter(id=meet.pk, is_final=True).latest().history_date
        last_edit = Hanchan.history.filter(id=game.pk).latest().history_date
        assert last_edit <= finalised_at, attempt
        Meet.objects.get(pk=meet.pk).reopen("次の試行")
    assert Hanchan.objects.all().disagreeing() == []


def test_the_default_rule_set_is_asked_for_one_way():
    default = RuleSet.objects.get(is_default=True)
    assert RuleSet.objects.default() == default
    assert RuleSet.objects.default_or_none() == default
    RuleSet.objects.filter(pk=default.pk).update(is_default=False)
    assert RuleSet.objects.default_or_none() is None
    with pytest.raises(RuleSet.DoesNotExist):
        RuleSet.objects.default()
