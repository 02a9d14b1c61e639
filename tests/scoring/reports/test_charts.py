"""The member's charts (scoring/reports/charts.py): the cumulative chart's x-axis names each
meet once, by its date; a chart is drawn once for the same figures. (The phone's narrower
chart on the member's page: views/test_standings.py.)"""

from decimal import Decimal

import pytest

from scoring.reports.charts import meet_boundaries, meet_ticks

pytestmark = pytest.mark.django_db


def test_each_meet_is_named_once_at_the_middle_of_its_games():
    labels = ["10/8", "10/8", "10/8", "10/22", "10/22", "11/1"]
    assert meet_ticks(labels) == [(2.0, "10/8"), (4.5, "10/22"), (6.0, "11/1")]
    assert meet_boundaries(labels) == [3.5, 5.5]


def test_many_meets_are_named_every_few():
    labels = [f"4/{day}" for day in range(1, 21) for _game in range(3)]  # 20 meets, 3 games each
    ticks = meet_ticks(labels, most=8)
    assert [label for _x, label in ticks] == ["4/1", "4/4", "4/7", "4/10", "4/13", "4/16", "4/19"]
    assert ticks[0] == (2.0, "4/1")


def test_no_games_no_ticks():
    assert meet_ticks([]) == [] and meet_boundaries([]) == []


def test_a_chart_is_drawn_once_for_the_same_figures_and_anew_when_they_change(monkeypatch):
    from django.core.cache import cache

    from scoring.reports import charts

    cache.clear()
    drawn = []
    real_figure = charts.Figure

    def counting_figure(*args, **kwargs):
        drawn.append(1)
        return real_figure(*args, **kwargs)

    monkeypatch.setattr(charts, "Figure", counting_figure)
    labels = ["4/2", "4/5"]
    first = charts.cumulative_chart(labels, [Decimal("2.6"), Decimal("-30.6")], "累積P", "P")
    again = charts.cumulative_chart(labels, [Decimal("2.6"), Decimal("-30.6")], "累積P", "P")
    changed = charts.cumulative_chart(labels, [Decimal("2.6"), Decimal("-30.5")], "累積P", "P")
    assert first == again and changed != first
    assert len(drawn) == 2
