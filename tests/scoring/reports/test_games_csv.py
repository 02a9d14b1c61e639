"""The games CSV: what a game holds, and read back by the import."""

import pytest
from django.core.management import call_command

from members.models import Member
from scoring.imports import import_results
from scoring.models import Hanchan, Meet
from scoring.reports.games_csv import render_games_csv
from scoring.standings import Filters, Period
from tests.builders import KANTAN, PARLOR3, games_under_every_rule, wipe_the_score_book

pytestmark = pytest.mark.django_db


def test_the_csv_reimports_to_the_same_games(club):
    _, _, first = render_games_csv(Filters())
    before = sorted(Hanchan.objects.values_list("meet__date", "round_no", "table_no"))
    Meet.objects.all().delete()
    Member.objects.all().delete()
    import_results(first, create_members=True)
    assert sorted(Hanchan.objects.values_list("meet__date", "round_no", "table_no")) == before
    assert render_games_csv(Filters())[2] == first


def test_the_games_csv_carries_all_that_a_game_holds_and_every_group(every_rule):
    text = render_games_csv(Filters(period=Period.parse("2025-06"), every_group=True))[2].decode(
        "utf-8-sig"
    )
    lines = text.splitlines()
    assert lines[0] == "日付,例会,卓,回戦,席,氏名,持ち点,錯和,満貫以上,ルール,供託,備考"
    assert (
        "2025-06-04,水曜会,1,1,東,相川 愛,40000,,満貫;役満(国士無双),白樺会 四人打ち,1000," in lines
    )
    assert "2025-06-04,水曜会,1,1,南,井上 一,30000,1,,白樺会 四人打ち,1000," in lines
    assert any(KANTAN in line for line in lines) and any(PARLOR3 in line for line in lines)
    assert "'=1+1 三人打ち" in text  # a formula is never written as one
    assert len(lines) == 1 + 4 + 3 + 4 + 3 + 4


def test_export_import_export_is_identical_byte_for_byte(club_rule):
    """Over the demo club plus games under every rule set with deposits held."""
    call_command("load_demo")
    games_under_every_rule(list(Member.objects.order_by("pk")[:8]), club_rule)
    every = Filters(period=Period.all_time(), every_group=True)
    first = render_games_csv(every)[2]
    games = Hanchan.objects.count()
    wipe_the_score_book()
    import_results(first, create_members=True)
    assert Hanchan.objects.count() == games
    assert render_games_csv(every)[2] == first
    assert Hanchan.objects.all().disagreeing() == []
