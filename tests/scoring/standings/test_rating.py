"""The rating read from the record (scoring/standings/rating.py): the games of
tests/scoring/test_rating.py, worked by hand there, entered as games."""

from datetime import date

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError

from scoring.models import Meet, PlayerEntry, StandingsGroup
from scoring.standings import (
    compute_rating,
    rating_cache_key,
    rating_players,
    rating_rows,
    sort_rating,
)
from scoring.standings.rating import RatingState, promotions, record_fingerprint
from tests.builders import CLUB3, play, rule


@pytest.fixture
def rated(club_rule, people):
    """Game 1 (4/9): A 1st, B 2nd, C 3rd, D 4th. Game 2 (4/16, entered first): A and B tie for
    1st, C 3rd, E 4th. A 3-player game (4/16): A 1st, D and E tie for 2nd."""
    a, b, c, d, e = people[:5]
    first = Meet.objects.create(date="2025-04-09", kind="wed", rule_set=club_rule)
    second = Meet.objects.create(date="2025-04-16", kind="wed", rule_set=club_rule)
    play(second, 1, 1, club_rule, [a, b, c, e], [35_000, 35_000, 30_000, 20_000])
    game1 = play(first, 2, 3, club_rule, [a, b, c, d], [40_000, 35_000, 25_000, 20_000])
    play(second, 1, 2, rule(CLUB3), [a, d, e], [40_000, 25_000, 25_000])
    e.is_guest = True
    e.save()
    return {"game1": game1, "people": people}


def r_of(rating):
    return {row.name: row.r for row in rating.rows}


def test_four_player_rating_worked_by_hand(rated):
    a, b, c, d, e = rated["people"][:5]
    group = StandingsGroup.clubs_own()
    rating = compute_rating(group, 4, member_id=a.pk)
    assert r_of(rating) == {
        a.name: 154_940,
        b.name: 152_990,
        e.name: 147_019,
        c.name: 148_046,
        d.name: 147_000,
    }
    assert [row.name for row in rating.rows] == [a.name, b.name, c.name, e.name, d.name]
    assert [row.position for row in rating.rows] == [1, 2, 3, 4, 5]
    assert rating.as_of == date(2025, 4, 16)
    # Since the last meet (4/16): A's game 2; D was not there.
    assert rating.row_for(a.pk).since_last_meet == 1940
    assert rating.row_for(d.pk).since_last_meet == 0
    assert rating.row_for(e.pk).is_guest
    assert [g.change.arithmetic() for g in rating.history] == [
        "(+30 + (1500.00 − 1500.00) ÷ 40) × 1.000 = +30.00",
        "(+20 + (1507.50 − 1530.00) ÷ 40) × 0.998 = +19.40",
    ]
    assert [g.day for g in rating.history] == [date(2025, 4, 9), date(2025, 4, 16)]


def test_three_player_games_are_rated_apart(rated):
    a, _b, _c, d, e = rated["people"][:5]
    group = StandingsGroup.clubs_own()
    assert rating_players(group) == [4, 3]
    rating = compute_rating(group, 3)
    assert r_of(rating) == {a.name: 153_000, d.name: 148_500, e.name: 148_500}
    assert [row.position for row in rating.rows] == [1, 2, 2]


def test_an_old_game_edited_rerates_what_follows(rated):
    """Game 1 turned round (see tests/scoring/test_rating.py for the figures)."""
    a, b, c, d, e = rated["people"][:5]
    game1 = rated["game1"]
    entries = [(a, 20_000), (b, 25_000), (c, 35_000), (d, 40_000)]
    play_again(game1, entries)
    rating = compute_rating(StandingsGroup.clubs_own(), 4)
    assert r_of(rating) == {
        a.name: 149_052,
        b.name: 151_002,
        c.name: 149_958,
        d.name: 153_000,
        e.name: 146_981,
    }
    game1.remove()
    rating = compute_rating(StandingsGroup.clubs_own(), 4)
    # Only game 2 is left, all new: +20 +20 −10 −30.
    assert r_of(rating) == {a.name: 152_000, b.name: 152_000, c.name: 149_000, e.name: 147_000}


def play_again(game, entries):
    game.record(
        [PlayerEntry(m, seat, score) for seat, (m, score) in enumerate(entries)],
        expected_version=game.version,
    )


def test_minimum_games_and_sorting(rated):
    a, b, c, d, e = rated["people"][:5]
    rating = compute_rating(StandingsGroup.clubs_own(), 4)
    rows = rating_rows(rating, min_games=2, guests=True)
    assert [(row.name, row.position) for row in rows] == [
        (a.name, 1),
        (b.name, 2),
        (c.name, 3),
        (e.name, 0),
        (d.name, 0),
    ]
    # Guests left out by default: the others ranked among themselves.
    assert [(row.name, row.position) for row in rating_rows(rating)] == [
        (a.name, 1),
        (b.name, 2),
        (c.name, 3),
        (d.name, 4),
    ]
    by_games = sort_rating(rows, "games")
    assert [row.name for row in by_games][:3] == [a.name, b.name, c.name]


def figures(rating):
    return {row.member_id: (row.r, row.games, row.since_last_meet) for row in rating.rows}


def test_the_kept_state_never_outlives_a_change(rated, club_rule):
    """The table starts from the cache's state while the record up to its day is unchanged,
    and rates afresh after any change before it: each time the same as every game worked."""
    a, b, c, d = rated["people"][:4]
    group = StandingsGroup.clubs_own()

    def agrees():
        kept = compute_rating(group, 4)
        assert figures(kept) == figures(compute_rating(group, 4, worked=True))
        return kept

    agrees()
    state = cache.get(rating_cache_key(group, 4))
    assert isinstance(state, RatingState) and state.day == date(2025, 4, 16)
    # One more meet: rated on from the state.
    later = Meet.objects.create(date="2025-04-23", kind="wed", rule_set=club_rule)
    play(later, 1, 1, club_rule, [a, b, c, d], [20_000, 25_000, 35_000, 40_000])
    assert agrees().as_of == date(2025, 4, 23)
    # The fingerprint added up over the two spans is the one taken over both at once.
    state = cache.get(rating_cache_key(group, 4))
    rated_sets = [r.pk for r in group.rule_sets.all() if r.players == 4]
    assert state.day == date(2025, 4, 23)
    assert state.fingerprint == record_fingerprint(rated_sets, state.day)
    # An old meet moved after the next one (its games and their ids unchanged), then an old
    # game edited: rated afresh.
    first = Meet.objects.get(date="2025-04-09")
    first.date = date(2025, 4, 17)
    first.save()
    assert agrees().as_of == date(2025, 4, 23)
    play_again(rated["game1"], [(a, 20_000), (b, 25_000), (c, 35_000), (d, 40_000)])
    agrees()
    rated["game1"].remove()
    agrees()


def test_promotions_of_the_ladder_on_the_awards_season(award_season):
    """R over the awards' season (worked in tests/scoring/standings/test_awards.py): after
    4/9 table 1 A 1530.00, B 1510.00; after 4/9 table 2 B 1539.69; after 4/23 E 1530.24.
    With 初段 at 1510 and 二段 at 1530, A reaches both on 4/9, B 初段 on 4/9 at its first game
    and 二段 at its second, E both on 4/23; the guest G (1470.24) none."""
    group = StandingsGroup.clubs_own()
    group.dan_ladder = "初段 1510、二段 1530"
    group.save()
    got = [
        (p.name.split()[0], p.rank, p.day.day, p.r_text)
        for p in promotions(group, date(2025, 4, 1), date(2025, 9, 30))
    ]
    assert got == [
        ("A", "初段", 9, "1530.00"),
        ("A", "二段", 9, "1530.00"),
        ("B", "初段", 9, "1510.00"),
        ("B", "二段", 9, "1539.69"),
        ("E", "初段", 23, "1530.24"),
        ("E", "二段", 23, "1530.24"),
    ]
    # From 4/10 on, only E's: A and B held their ranks before.
    later = promotions(group, date(2025, 4, 10), date(2025, 9, 30))
    assert [(p.name.split()[0], p.rank) for p in later] == [("E", "初段"), ("E", "二段")]
    group.dan_ladder = ""
    group.save()
    assert promotions(group, None, None) == []


def test_a_ladder_that_does_not_read_is_refused(club_rule):
    group = StandingsGroup.clubs_own()
    group.dan_ladder = "初段 1600、二段 1500"
    with pytest.raises(ValidationError) as refused:
        group.full_clean()
    assert "「二段 1500」" in str(refused.value) or "二段 1500" in str(refused.value)
