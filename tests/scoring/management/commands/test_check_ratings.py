"""manage.py check_ratings: the quick path agrees with each change worked in full."""

from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command

from scoring.models import Meet, StandingsGroup
from scoring.standings import compute_rating, rating_cache_key
from tests.builders import CLUB3, play, rule

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def own_cache(settings, tmp_path) -> None:
    """A cache of this test's own. The suite's is a folder the parallel test processes share,
    and the rating's key names the group (the club's, key 1 in every test database): another
    process's rating of the club's group overwrote the drifted state before the command read
    it, once in CI (「DID NOT RAISE」)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": str(tmp_path),
        }
    }


def test_check_ratings_passes_on_a_record(club_rule, people):
    meet = Meet.objects.create(date="2025-04-09", kind="wed", rule_set=club_rule)
    play(meet, 1, 1, club_rule, people[:4], [35_000, 35_000, 30_000, 20_000])
    play(meet, 1, 2, club_rule, people[:4], [20_000, 25_000, 35_000, 40_000])
    play(meet, 2, 1, rule(CLUB3), people[4:7], [40_000, 25_000, 25_000])
    out = StringIO()
    call_command("check_ratings", stdout=out)
    assert "ratings agree" in out.getvalue()


def test_check_ratings_finds_a_kept_state_that_drifted(club_rule, people):
    """A state in the cache whose figures no longer follow from the record (its fingerprint
    still matching) is found."""
    meet = Meet.objects.create(date="2025-04-09", kind="wed", rule_set=club_rule)
    play(meet, 1, 1, club_rule, people[:4], [40_000, 30_000, 30_000, 20_000])
    group = StandingsGroup.clubs_own()
    compute_rating(group, 4)
    key = rating_cache_key(group, 4)
    state = cache.get(key)
    state.ratings[people[0].pk].r += 1  # 1530.00 → 1530.01
    cache.set(key, state)
    with pytest.raises(CommandError, match="1 members' ratings disagree"):
        call_command("check_ratings", stdout=StringIO())
