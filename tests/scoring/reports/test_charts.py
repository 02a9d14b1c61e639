"""The member's charts (scoring/reports/charts.py): the cumulative chart's x-axis names each
meet once, by its date; a phone gets a narrower chart whose labels keep their size."""

import re

from scoring.reports.charts import meet_boundaries, meet_ticks


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


def test_the_member_page_gives_a_phone_the_compact_chart(member_client, recorded_game):
    member = recorded_game.results.first().member
    html = member_client.get(f"/members/{member.pk}/?period=2025-H1").content.decode()
    source = re.search(r'<source media="\(max-width: 40rem\)" srcset="([^"]+)"', html)
    assert source is not None and "size=compact" in source.group(1)
    wide = member_client.get(f"/members/{member.pk}/chart/cumulative.svg?period=2025-H1")
    compact = member_client.get(source.group(1).replace("&amp;", "&"))
    width = re.compile(rb'<svg[^>]* width="([0-9.]+)pt"')
    wide_pt = float(width.search(wide.content).group(1))
    compact_pt = float(width.search(compact.content).group(1))
    assert compact_pt < 300 < wide_pt  # drawn for a phone: shown near its own size there
