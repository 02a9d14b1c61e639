"""Reading the standings' filters from the query string (``filters_from``)."""

import pytest
from django.test import RequestFactory

from scoring.forms import filters_from

pytestmark = pytest.mark.django_db


def read(query: str):
    return filters_from(RequestFactory().get(f"/standings/?{query}"))


def test_guests_are_left_out_unless_asked_for():
    assert read("").guests is False
    assert read("guests=1").guests is True
    assert read("guests=yes").guests is False


def test_the_minimum_of_games_is_a_whole_number_up_to_999():
    assert read("min=12").min_games == 12
    assert read("min=１２").min_games == 0  # full-width digits are not read as a number
    assert read("min=²").min_games == 0
    assert read("min=123456").min_games == 999


def test_the_default_period_is_the_latest_played_not_a_meet_planned_ahead(recorded_game):
    """A meet planned for the next half-year (the schedule) has no games yet: the standings
    open on the half-year of the latest game, 2025 上期 here, not on an empty one."""
    from datetime import date

    from scoring.models import Meet

    Meet.objects.create(date=date(2025, 10, 1), kind="wed", rule_set=recorded_game.rule_set)
    assert read("").period.key == "2025-H1"
