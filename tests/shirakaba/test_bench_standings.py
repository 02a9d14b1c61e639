"""The standings benchmark measures against a fair floor: its hand-written SQL gives the same
figures as ``compute_standings`` (3-player places apart, big hands by level, the same order)."""

from datetime import date

from scoring.models import Hanchan, HandLevel, Meet, PlayerEntry, RuleSet
from scoring.standings import Filters, Period, compute_standings
from shirakaba.devtools.management.commands.bench_standings import Command, floor_standings


def test_the_floor_computes_what_compute_standings_computes(db):
    Command().build(member_count=12, game_count=60, first_day=date(2025, 4, 2))
    three = RuleSet.objects.get(name="白樺会 三人打ち")
    members = list(Meet.objects.first().hanchans.first().results.order_by("seat"))
    meet = Meet.objects.create(date=date(2025, 5, 7), kind="wed", rule_set=three)
    for round_no, scores in enumerate(([40_000, 30_000, 20_000], [30_000, 30_000, 30_000]), 1):
        Hanchan(meet=meet, table_no=1, round_no=round_no, rule_set=three).record(
            [
                PlayerEntry(
                    r.member,
                    seat,
                    score,
                    1 if seat == 2 else 0,
                    [(HandLevel.HANEMAN, "")] if seat == 0 else [],
                )
                for seat, (r, score) in enumerate(zip(members, scores, strict=False))
            ]
        )
    for period in (Period.parse("2025-H1"), Period.all_time()):
        filters = Filters(period=period)
        ours = compute_standings(filters)
        floor = floor_standings(filters)
        assert any(sum(row.places3) for row in ours)  # the 3-player games are counted
        assert len(floor) == len(ours) > 0
        for row, (position, total, best, furigana, name, figures, hands) in zip(
            ours, floor, strict=True
        ):
            assert (row.position, row.total, row.furigana, row.name) == (
                position,
                total,
                furigana,
                name,
            )
            assert (
                row.member_id,
                row.games,
                *row.places,
                *row.places3,
                row.lasts,
                row.place_sum,
                row.place_sum3,
                row.highest_score,
                row.below_zero,
                row.chombo,
                row.meets,
            ) == (*figures[:2], *figures[3:13], *figures[14:])
            assert row.best_game == best
            assert row.big_hands == hands
