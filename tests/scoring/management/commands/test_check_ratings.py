"""manage.py check_ratings: the quick path agrees with each change worked in full."""

from io import StringIO

import pytest
from django.core.management import call_command

from scoring.models import Meet
from tests.builders import CLUB3, play, rule

pytestmark = pytest.mark.django_db


def test_check_ratings_passes_on_a_record(club_rule, people):
    meet = Meet.objects.create(date="2025-04-09", kind="wed", rule_set=club_rule)
    play(meet, 1, 1, club_rule, people[:4], [35_000, 35_000, 30_000, 20_000])
    play(meet, 1, 2, club_rule, people[:4], [20_000, 25_000, 35_000, 40_000])
    play(meet, 2, 1, rule(CLUB3), people[4:7], [40_000, 25_000, 25_000])
    out = StringIO()
    call_command("check_ratings", stdout=out)
    assert "ratings agree" in out.getvalue()
