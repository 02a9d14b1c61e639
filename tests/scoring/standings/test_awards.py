"""The season's awards over a small season, every figure worked out on paper.

Members A–E, and G a guest. Club rule (30,000 return, +30/+10/−10/−30).

M1 2025-04-09 round 1: A 50,000 (満貫)  B 30,000  C 25,000 (役満 国士無双)  D 15,000
   A +20+30 = +50   B 0+10 = +10   C −5−10 = −15   D −15−30 = −45
M1 round 2: A 15,000  B 50,000 (満貫)  C 30,000  D 25,000
   A −45   B +50   C +10   D −15
M2 2025-04-23 round 1: A 30,000  B 25,000 (跳満)  E 48,000  G 17,000 (役満 大三元)
   A +10   B −15   E +18+30 = +48   G −13−30 = −43

2025 上期: meets held 2.
   E +48.0 (1 game, place 1)   B +45.0 (3 games: 2,1,3 → 2.00)   A +15.0 (3 games: 1,4,2 → 2.33)
   C −5.0 (2 games)   D −60.0 (2 games)   G −43.0 (guest, 1 game)
最高P: E +48.0.   最多トップ: E, B, A, one each: a tie of three.
最高平均順位 (70 %: 2 meets × 2 × 0.70 = 2.8 → at least 3 games): B 2.00; E (1.00, one game)
   is cut, with C and D: three left out.
皆勤賞 (both meets): B and A.   役満賞: C (G too with guests shown).
最多満貫以上: B 2 (満貫, 跳満).   最高得点: A and B 50,000: a tie of two.

最高レーティング (R at the end of the period; Tenhou's formula, scoring/rating.py), games in
the order played (M1 table 1, M1 table 2, M2):
   M1 t1, all 1500, correction 1: A +30  B +10  C −10  D −30 → 1530, 1510, 1490, 1470.
   M1 t2, average 1500, correction 0.998: A (−30 − 30/40) × 0.998 = −30.69 → 1499.31;
      B (+30 − 10/40) × 0.998 = +29.69 → 1539.69; C (+10 + 10/40) × 0.998 = +10.23 → 1500.23;
      D (−10 + 30/40) × 0.998 = −9.23 → 1460.77.
   M2, average (1499.31 + 1539.69 + 1500 + 1500) / 4 = 1509.75:
      A (+10 + 10.44/40) × 0.996 = +10.22 → 1509.53;  B (−10 − 29.94/40) × 0.996 = −10.71
      → 1528.98;  E +30 + 9.75/40 = +30.24 → 1530.24;  G −30 + 9.75/40 = −29.76 → 1470.24.
   At 70 % (3 games): A and B compete; B R 1528.98 wins; E (1530.24, one game), C, D are cut.
"""

from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest

from members.models import Member
from scoring.models import DEFAULT_AWARDS, Award, Measure, Meet, StandingsGroup
from scoring.standings import (
    Filters,
    Period,
    Season,
    StandingRow,
    award_results,
    compute_awards,
    min_games_for,
    rule_text,
)
from tests.builders import play

H1 = Period.half(2025, 1)


def winners(results, measure):
    found = next(r for r in results if r.award.measure == measure)
    return [(w.name.split()[0], w.figure) for w in found.winners], found


@pytest.fixture
def results(award_season):
    return compute_awards(Filters(period=H1))


def test_every_group_has_the_default_awards(club_rule):
    defaults = [name for _m, name, _s, _g in DEFAULT_AWARDS]
    for group in StandingsGroup.objects.all():  # made by the migrations
        assert [a.name for a in Award.objects.of_group(group)] == defaults
    new = StandingsGroup.objects.create(name="新しいグループ")
    assert [a.name for a in Award.objects.of_group(new)] == defaults
    assert Measure.RATING in [a.measure for a in Award.objects.of_group(new)]
    average = Award.objects.of_group(new).get(measure=Measure.AVERAGE_PLACE)
    assert (average.min_share, average.games_per_meet) == (70, 2)  # the circles' 70 % of × 2


def test_highest_total_p(results):
    assert winners(results, Measure.TOTAL)[0] == [("E", "+48.0")]


def test_most_tops_names_every_tied_member(results):
    found, result = winners(results, Measure.WINS)
    assert found == [("E", "1 回"), ("B", "1 回"), ("A", "1 回")]
    assert result.tied


def test_best_average_place_needs_seventy_percent_of_the_games(results):
    found, result = winners(results, Measure.AVERAGE_PLACE)
    assert result.min_games == 3  # 2 meets × 2 × 0.70 = 2.8, rounded up
    assert found == [("B", "2.00")]  # E's 1.00 from one game is cut
    assert result.left_out == 3  # E, C, D


def test_every_meet_attended(results):
    found, result = winners(results, Measure.ATTENDANCE)
    assert found == [("B", "2 回"), ("A", "2 回")]
    assert not result.tied  # every holder wins: not a tie


def test_yakuman_leaves_the_guest_out_unless_shown(award_season, results):
    assert winners(results, Measure.YAKUMAN)[0] == [("C", "1 回")]
    shown = compute_awards(Filters(period=H1, guests=True))
    assert winners(shown, Measure.YAKUMAN)[0] == [("C", "1 回"), ("G", "1 回")]


def test_most_mangan_or_better(results):
    assert winners(results, Measure.BIG_HANDS)[0] == [("B", "2 回")]


def test_highest_score_in_one_game_is_a_tie(results):
    found, result = winners(results, Measure.HIGHEST_SCORE)
    assert found == [("B", "50,000 点"), ("A", "50,000 点")]
    assert result.tied


def test_the_share_and_games_per_meet_are_the_awards_settings(award_season):
    award = Award.objects.of_group(StandingsGroup.clubs_own()).get(measure=Measure.AVERAGE_PLACE)
    assert min_games_for(award, 12) == 17  # 12 × 2 × 0.70 = 16.8
    award.games_per_meet, award.min_share = 3, Decimal(50)
    award.save()
    assert min_games_for(award, 2) == 3  # 2 × 3 × 0.50
    found, _result = winners(compute_awards(Filters(period=H1)), Measure.AVERAGE_PLACE)
    assert found == [("B", "2.00")]
    award.min_share = Decimal(0)
    award.save()
    found, _result = winners(compute_awards(Filters(period=H1)), Measure.AVERAGE_PLACE)
    assert found == [("E", "1.00")]


def test_an_award_given_by_hand_is_listed_in_its_period(award_season):
    group = StandingsGroup.clubs_own()
    Award.objects.create(
        group=group,
        name="敢闘賞",
        measure=Measure.BY_HAND,
        winner=award_season["D"],
        period_key="2025-H1",
        reason="よく頑張りました",
        position=20,
    )
    found, _result = winners(compute_awards(Filters(period=H1)), Measure.BY_HAND)
    assert found == [("D", "よく頑張りました")]
    later = compute_awards(Filters(period=Period.half(2025, 2)))
    assert Measure.BY_HAND not in [r.award.measure for r in later]


def test_an_award_turned_off_is_not_given(award_season):
    group = StandingsGroup.clubs_own()
    Award.objects.of_group(group).filter(measure=Measure.WINS).update(is_shown=False)
    measures = [r.award.measure for r in compute_awards(Filters(period=H1))]
    assert Measure.WINS not in measures


def test_the_fiscal_year_counts_the_same_games(results, award_season):
    year = compute_awards(Filters(period=Period.fiscal_year(2025)))
    assert winners(year, Measure.TOTAL)[0] == [("E", "+48.0")]


def test_a_fixed_number_of_queries(award_season, club_rule, django_assert_num_queries):
    # the club's group and its rule sets, the standings (three), the meets held, the awards,
    # and the rating at the period's end (the results in order, the games' heads,
    # the names)
    with django_assert_num_queries(10):
        compute_awards(Filters(period=H1))
    # Eight more players, one of them a guest, and a meet more: the same number.
    more = [
        Member.objects.create(name=f"追加 {i}", furigana="つい", is_guest=i == 0) for i in range(8)
    ]
    meet = Meet.objects.create(date=date(2025, 5, 14), kind="wed", rule_set=club_rule)
    play(meet, 1, 1, club_rule, more[:4], [40000, 30000, 30000, 20000])
    play(meet, 2, 1, club_rule, more[4:], [40000, 30000, 30000, 20000])
    with django_assert_num_queries(10):
        results = compute_awards(Filters(period=H1))
    # 3 meets × 2 × 0.70 = 4.2 → 5 games: nobody has them (A and B 3, the others 1 or 2).
    found, result = winners(results, Measure.AVERAGE_PLACE)
    assert (found, result.min_games) == ([], 5)


def test_highest_rating_is_r_at_the_end_of_the_period(award_season, club_rule):
    results = compute_awards(Filters(period=H1))
    found, result = winners(results, Measure.RATING)
    assert found == [("B", "R 1528.98")]
    assert (result.min_games, result.left_out) == (3, 3)  # E's 1530.24 from one game is cut
    # A game in the next half-year moves B's rating, not the 上期 award.
    people = award_season
    later = Meet.objects.create(date=date(2025, 10, 1), kind="wed", rule_set=club_rule)
    players = [people[k] for k in "BACD"]
    play(later, 1, 1, club_rule, players, [5000, 45000, 35000, 35000])
    again, _result = winners(compute_awards(Filters(period=H1)), Measure.RATING)
    assert again == [("B", "R 1528.98")]


def test_the_average_place_is_judged_for_each_kind_of_game_apart(mixed_season):
    """Sheet 002 gives the 4-player places (一位 二位 三位 四位) and sheet 000 the 3-player
    game's own; a 3-player place is never a 4-player one, so 最高平均順位賞 is judged for
    each kind of game apart, its minimum counted in games of that kind (``mixed_season``).

    4-player places: A 1,4,1,3 → 9/4 = 2.25   B 2,3,2,1 → 8/4 = 2.00   C 3,2,3,4 → 12/4 =
    3.00   D 4,3,4,2 → 13/4 = 3.25   E 2,4 → 3.00   F 1 → 1.00   G 1 → 1.00.
    3-player places: A 2   B 3   C 2   D 3   E 2 (one game each)   F 1,1 → 1.00   G 3,1 → 2.00.
    Games: A B C D 5 each, E F G 3 each.

    The minimum: meets held 2 × 2 a meet × 70 %, each meet weighted by its share of seats of
    that kind (the games of that kind a member there could expect to play):
      M1: 3 rounds × (4 + 3) = 21 seats, 12 at 4-player tables, 9 at 3-player ones;
      M2: 8 seats, all at 4-player tables.
      4-player: 2 × 12/21 + 2 × 8/8 = 8/7 + 2 = 22/7; × 0.70 = 2.2 → at least 3 games.
      3-player: 2 × 9/21 + 0 = 6/7; × 0.70 = 0.6 → at least 1 game.
    4-player: A B C D have 4 such games each; E (2), F (1), G (1) are below it: B 2.00 wins.
    3-player: everyone has one: F 1.00 wins.
    Before, the minimum was 2 × 2 × 0.70 = 2.8 → 3 games of any kind: all seven had them,
    and F and G shared the award at 1.00, each from a single 4-player game.
    """
    results = compute_awards(Filters(period=H1))
    four, three = [r for r in results if r.award.measure == Measure.AVERAGE_PLACE]
    assert (four.players, four.min_games, four.left_out) == (4, 3, 3)
    assert [(w.name, w.figure) for w in four.winners] == [("B 会員", "四人打ち 2.00")]
    assert (three.players, three.min_games, three.left_out) == (3, 1, 0)
    assert [(w.name, w.figure) for w in three.winners] == [("F 会員", "三人打ち 1.00")]
    assert not four.tied and not three.tied
    assert rule_text(four) == "四人打ち 規定半荘数 3（例会数 × 2 × 70 % × 四人打ちの席の割合）"
    assert rule_text(three) == "三人打ち 規定半荘数 1（例会数 × 2 × 70 % × 三人打ちの席の割合）"


def test_the_rating_award_counts_the_games_of_its_own_kind(mixed_season):
    """最高レーティング賞 is R in the group's 4-player rating (docs/rating.md), so its minimum
    counts 4-player games as 最高平均順位賞's does: at least 3 (22/7 × 0.70 = 2.2, above),
    which E, F and G do not have; before, their 3 games of either kind were enough."""
    results = compute_awards(Filters(period=H1))
    rating = next(r for r in results if r.award.measure == Measure.RATING)
    assert (rating.players, rating.min_games, rating.left_out) == (4, 3, 3)
    assert {w.name[0] for w in rating.winners} <= set("ABCD")


def test_the_minimum_of_a_kind_is_rounded_up_exactly(club_rule):
    """22/7 meets' worth of 4-player games × 2 a meet × 70 % = 4.4 → 5; seven meets' worth
    at 50 % of 3 a meet = 10.5 → 11; 10 meets × 2 × 70 % = 14 exactly, not rounded up."""
    award = Award.objects.of_group(StandingsGroup.clubs_own()).get(measure=Measure.AVERAGE_PLACE)
    assert min_games_for(award, Fraction(22, 7)) == 5
    assert min_games_for(award, 10) == 14
    award.games_per_meet, award.min_share = 3, Decimal(50)
    assert min_games_for(award, 7) == 11


def standing(member_id, name, places):
    """A standings row of 4-player games at the places given (nothing else counted)."""
    counts = tuple(places.count(n) for n in (1, 2, 3, 4))
    return StandingRow(
        member_id=member_id,
        name=name,
        furigana=name,
        games=len(places),
        total=Decimal(0),
        places=counts,
        lasts=counts[3],
        place_sum=sum(places),
        best_game=Decimal(0),
        highest_score=30_000,
        below_zero=0,
        chombo=0,
        meets=1,
    )


def test_exact_averages_are_compared_not_the_rounded_ones():
    """X: 8 games at 1,1,2,2,3,3,3,4 → 19/8 = 2.375, written 2.38 (halves up).
    Y: 13 games, 1st ×3, 2nd ×4, 3rd ×4, 4th ×2 → 3 + 8 + 12 + 8 = 31/13 = 2.3846…, also
    written 2.38. X's is better by 31/13 − 19/8 = 1/104 = 0.0096: X wins alone (rounded
    first, the two were tied)."""
    x = standing(1, "X", [1, 1, 2, 2, 3, 3, 3, 4])
    y = standing(2, "Y", [1] * 3 + [2] * 4 + [3] * 4 + [4] * 2)
    assert x.average_place == y.average_place == Decimal("2.38")
    award = Award(measure=Measure.AVERAGE_PLACE, min_share=Decimal(0), games_per_meet=2)
    season = Season(Filters(period=H1), [y, x], meets_held=1, kind_meets={4: Fraction(1)})
    [result] = award_results(award, season)
    assert [(w.name, w.figure) for w in result.winners] == [("X", "2.38")]
    assert not result.tied
