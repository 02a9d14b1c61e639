"""The games CSV: what a game holds, and read back by the import."""

import pytest

from members.models import Member
from scoring.imports import import_results
from scoring.models import Hanchan, Meet
from scoring.reports.games_csv import render_games_csv
from scoring.standings import Filters

pytestmark = pytest.mark.django_db


def test_the_csv_reimports_to_the_same_games(club):
    _, _, first = render_games_csv(Filters())
    before = sorted(Hanchan.objects.values_list("meet__date", "round_no", "table_no"))
    Meet.objects.all().delete()
    Member.objects.all().delete()
    import_results(first, create_members=True)
    assert sorted(Hanchan.objects.values_list("meet__date", "round_no", "table_no")) == before
    assert render_games_csv(Filters())[2] == first
