"""The admin (scoring/admin.py): what it refuses on a finalised meet, and a rule set moved to
another group."""

from decimal import Decimal

import pytest
from django.forms.models import model_to_dict

from scoring.models import BigHand, Hanchan, Meet, PlayerEntry, StandingsGroup
from scoring.standings import Filters, Period, compute_standings
from tests.builders import JKMA, play, row_of, rows_now, rule

pytestmark = pytest.mark.django_db
D = Decimal


class TestFinalisedMeansFinal:
    """Finalised means final, by every path (issue 14)."""

    def test_the_admin_changes_no_game_and_no_finalised_flag(self, organizer_client, final_game):
        before = rows_now()
        game, meet = final_game, final_game.meet
        assert (
            organizer_client.post(
                f"/admin/scoring/hanchan/{game.pk}/change/", {"note": "x"}
            ).status_code
            == 403
        )
        assert (
            organizer_client.post(
                f"/admin/scoring/hanchan/{game.pk}/delete/", {"post": "yes"}
            ).status_code
            == 403
        )
        hand = BigHand.objects.first()
        assert (
            hand is None
            or organizer_client.post(
                f"/admin/scoring/bighand/{hand.pk}/change/", {"level": "yakuman"}
            ).status_code
            == 403
        )
        response = organizer_client.post(
            f"/admin/scoring/meet/{meet.pk}/change/",
            {
                "date": "2025-04-09",
                "kind": "wed",
                "rule_set": meet.rule_set_id,
                "note": "",
                "is_final": "",
            },
        )
        assert response.status_code == 403
        response = organizer_client.post(
            "/admin/scoring/meet/",
            {"action": "delete_selected", "_selected_action": [meet.pk], "post": "yes"},
        )
        assert rows_now() == before
        assert Meet.objects.get(pk=meet.pk).is_final

    def test_the_admin_offers_no_revert_and_refuses_one(
        self, organizer_client, bare_meet, people, club_rule
    ):
        game = play(bare_meet, 1, 1, club_rule, people[:4], [40_000, 30_000, 30_000, 20_000])
        first = game.history.earliest()
        game.rule_set = rule(JKMA)
        game.record(
            [PlayerEntry(r.member, r.seat, r.score) for r in game.results.order_by("seat")],
            expected_version=game.version,
        )
        before = rows_now()
        url = f"/admin/scoring/hanchan/{game.pk}/history/{first.history_id}/"
        page = organizer_client.get(url)
        assert page.status_code == 200 and "元に戻す" not in page.content.decode()
        assert organizer_client.post(url, {"note": ""}).status_code == 403
        assert rows_now() == before
        assert Hanchan.objects.all().disagreeing() == []


def test_the_organizer_moves_a_rule_set_in_use_to_another_group(
    organizer_client, bare_meet, people
):
    """A rule set's group is not one of its frozen parameters: the organizer changes it in the
    admin even after games were played under it, and the standings follow."""

    jkma = rule(JKMA)
    play(bare_meet, 1, 1, jkma, people[:4], [40_000, 30_000, 20_000, 10_000])
    data = {k: ("" if v is None else v) for k, v in model_to_dict(jkma).items()}
    data = {k: v for k, v in data.items() if k not in ("id", "is_default")}
    data["group"] = StandingsGroup.clubs_own().pk
    response = organizer_client.post(f"/admin/scoring/ruleset/{jkma.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert rule(JKMA).group == StandingsGroup.clubs_own()
    rows = compute_standings(Filters(period=Period.parse("2025-04")))
    assert row_of(rows, people[0]).total == D(27)
