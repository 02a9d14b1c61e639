"""Head-to-head (相性) and by-seat figures (scoring/standings/pairs.py), worked out by hand on
``guest_season`` (tests/scoring/conftest.py):

R1 相川 1 井上 2 上田 3 江藤 4;  R2 井上 1 上田 2 相川 3 大野 4;
R3 大野 1 井上 2 上田 3 相川 4;  R4 江藤 1 相川 2 井上 3 上田 4.

井上 and 上田 sat together 4 times and 井上 was above every time (lead 4). 井上 and 相川: 4
games, each above twice. 井上 and 江藤: R1 井上 above, R4 below. 井上 and 大野 (a guest): R2
above, R3 below.
"""

from decimal import Decimal

import pytest

from scoring.models import Meet
from scoring.standings import Filters, by_seat, head_to_head
from tests.builders import H1, play

pytestmark = pytest.mark.django_db
D = Decimal


def pairs_of(pairs):
    return [(p.other_name, p.met, p.above, p.below) for p in pairs]


def test_head_to_head_counts_worked_by_hand(guest_season):
    b = guest_season["B"]
    pairs = head_to_head(Filters(), b.pk)
    assert pairs_of(pairs) == [
        ("上田 卯", 4, 4, 0),  # the widest lead first
        ("相川 愛", 4, 2, 2),  # then the most games together
        ("江藤 栄", 2, 1, 1),
    ]  # 大野 is a guest: left out
    assert pairs[0].sentence == "上田 卯さんと同卓 4 回・上位 4 回"
    c = head_to_head(Filters(), guest_season["C"].pk)
    assert pairs_of(c)[0] == ("井上 一", 4, 0, 4)  # behind by 4: as telling


def test_head_to_head_keeps_to_tablemates_met_often_enough(guest_season):
    b = guest_season["B"]
    assert [p.other_name for p in head_to_head(Filters(), b.pk, least=3)] == ["上田 卯", "相川 愛"]
    assert head_to_head(Filters(), b.pk, least=5) == []


def test_head_to_head_with_guests_switched_in(guest_season):
    b, g = guest_season["B"], guest_season["G"]
    pairs = pairs_of(head_to_head(Filters(guests=True), b.pk))
    assert pairs[-1] == ("大野 音", 2, 1, 1)  # えとう before おおの, both 2 games, lead 0
    # R2 大野 4th, R3 1st: once above and once below each of 相川, 井上, 上田 (by furigana).
    assert pairs_of(head_to_head(Filters(guests=True), g.pk)) == [
        ("相川 愛", 2, 1, 1),
        ("井上 一", 2, 1, 1),
        ("上田 卯", 2, 1, 1),
    ]
    assert head_to_head(Filters(), g.pk) == []  # a guest's own pairs need the switch too


def test_the_whole_club_matrix_has_each_pair_both_ways(guest_season, django_assert_num_queries):
    filters = Filters()
    assert filters.rule_sets  # the group's rule sets, read once before counting
    with django_assert_num_queries(2):
        pairs = head_to_head(filters)
    found = {(p.member_id, p.other_id): (p.met, p.above, p.below) for p in pairs}
    a, b, c, d = (guest_season[k] for k in "ABCD")
    assert len(found) == 12  # 4 members, each with 3 tablemates
    assert found[(b.pk, c.pk)] == (4, 4, 0) and found[(c.pk, b.pk)] == (4, 0, 4)
    assert found[(a.pk, d.pk)] == (2, 1, 1) and found[(d.pk, a.pk)] == (2, 1, 1)


def test_places_by_seat_worked_by_hand(guest_season, django_assert_num_queries):
    """井上: 東 once (R2, 1st), 南 twice (R1 and R3, 2nd each), 西 once (R4, 3rd), 北 never."""
    filters = Filters()
    assert filters.rule_sets
    with django_assert_num_queries(1):
        seats = by_seat(filters, guest_season["B"].pk)
    assert [(s.label, s.games, s.average_place, s.top_rate) for s in seats.four] == [
        ("東", 1, D("1.00"), D("1.000")),
        ("南", 2, D("2.00"), D("0.000")),
        ("西", 1, D("3.00"), D("0.000")),
        ("北", 0, None, None),
    ]
    assert seats.three == []  # no 3-player games


def test_three_player_games_count_by_their_own_three_seats(three_systems):
    """相川 in the club's group in 2025-H1: 東 at the 4-player table (1st), 西 at the
    3-player one (3rd, last): 東 南 西 of 3-player games apart from the 4-player ones."""
    seats = by_seat(Filters(period=H1), three_systems.pk)
    assert [(s.label, s.games, s.average_place) for s in seats.four] == [
        ("東", 1, D("1.00")),
        ("南", 0, None),
        ("西", 0, None),
        ("北", 0, None),
    ]
    assert [(s.label, s.games, s.average_place) for s in seats.three] == [
        ("東", 0, None),
        ("南", 0, None),
        ("西", 1, D("3.00")),
    ]


def test_a_tie_counts_for_neither(club_rule, four_members):
    """Two games of the same four: 東山 40,000, 南野 and 西川 30,000 each (tied: both 2nd),
    北村 20,000; then 南野 40,000, 東山 and 西川 30,000 (both 2nd), 北村 20,000. 南野 and
    西川 met twice: tied once (neither above), 南野 above once: met 2, above 1, below 0. 東山
    and 西川 tied in the second game: met 2, 東山 above 1, below 0."""
    meet = Meet.objects.create(date="2025-04-09", kind="wed", rule_set=club_rule)
    east, south = four_members[:2]
    play(meet, 1, 1, club_rule, four_members, [40_000, 30_000, 30_000, 20_000])
    play(meet, 1, 2, club_rule, four_members, [30_000, 40_000, 30_000, 20_000])
    south_pairs = {
        p.other_name: (p.met, p.above, p.below) for p in head_to_head(Filters(), south.pk)
    }
    assert south_pairs["西川 次郎"] == (2, 1, 0)
    east_pairs = {p.other_name: (p.met, p.above, p.below) for p in head_to_head(Filters(), east.pk)}
    assert east_pairs["西川 次郎"] == (2, 1, 0)
    assert east_pairs["南野 花子"] == (2, 1, 1)
