"""The awards' small season (tests/scoring/standings/test_awards.py tells its figures)."""

from datetime import date

import pytest

from members.models import Member
from scoring.models import HandLevel, Meet
from tests.builders import play


@pytest.fixture
def award_season(club_rule):
    """Two meets of 2025 上期, four games; G is a guest. Returns the members by letter."""
    people = {
        letter: Member.objects.create(name=f"{letter} 会員", furigana=f"{letter.lower()}")
        for letter in "ABCDE"
    }
    people["G"] = Member.objects.create(name="G ゲスト", furigana="g", is_guest=True)
    a, b, c, d, e, g = (people[k] for k in "ABCDEG")
    first = Meet.objects.create(date=date(2025, 4, 9), kind="wed", rule_set=club_rule)
    second = Meet.objects.create(date=date(2025, 4, 23), kind="wed", rule_set=club_rule)
    mangan = [(HandLevel.MANGAN, "")]
    yakuman = [(HandLevel.YAKUMAN, "国士無双")]
    play(
        first,
        1,
        1,
        club_rule,
        [a, b, c, d],
        [50000, 30000, 25000, 15000],
        hands={0: mangan, 2: yakuman},
    )
    play(first, 1, 2, club_rule, [a, b, c, d], [15000, 50000, 30000, 25000], hands={1: mangan})
    play(
        second,
        1,
        1,
        club_rule,
        [a, b, e, g],
        [30000, 25000, 48000, 17000],
        hands={1: [(HandLevel.HANEMAN, "")], 3: [(HandLevel.YAKUMAN, "大三元")]},
    )
    return people
