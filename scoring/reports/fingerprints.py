"""What a report of the standings shows, as a few small queries can tell (``fingerprint``):
the part of a report's digest that moves whenever what it shows moves, and nothing else, so
a kept file is served again until then. The kinds that show something else have their own
fingerprint, beside what lays them out (``registry.py`` names each kind's)."""

from __future__ import annotations

from django.db.models import Count, Exists, Max, OuterRef, Sum

from members.models import Member
from scoring.models import (
    Award,
    DrawnPlace,
    Hanchan,
    HanchanResult,
    Meet,
    RuleSet,
    StandingsGroup,
)
from scoring.reports import pdf
from scoring.reports.specs import Spec, sha
from scoring.standings import Period, results_for

GAMES_COUNTED = {
    "n": Count("pk"),
    "ids": Sum("pk"),
    "points": Sum("total_points"),
    "changed": Max("hanchan__updated_at"),
}
"""What ``fingerprint`` sums of the results a report counts."""


def fingerprint(spec: Spec) -> list[object]:
    """What changes whenever what a report shows changes, and (as far as a few small queries
    can tell) nothing else: a kept file is served again until then. Seven to nine queries,
    whatever the size of the club.

    Every report shows games: their number, the sum of their result ids, their points and
    the latest time any of them was recorded or changed (a game changed in place bumps its
    ``updated_at``, a game removed or added changes the count and the ids). A report of a
    period also shows the rating at its end (the member pages, the awards), which reads every
    game before it in the order of their days, so the group's games up to its end are counted
    the same way. Then what it shows of the meets (``_meets_shown``, ``_meet_shown``) and of
    the members (``_members_shown``), read from the rows themselves; and the latest change of
    the rule sets and the groups (their names, players, ladders; edited seldom), and of the
    awards in the reports that carry them. Nothing else: a member's 出欠, the attendance of
    a meet (but on its own sheet), a planned meet, a meet's venue or start are on none of
    the reports, so asking again after them finds the kept file."""
    labels = [_latest_change(model) for model in (RuleSet, StandingsGroup)]
    if spec.kind == "meet.pdf":
        assert spec.meet is not None
        counted = HanchanResult.objects.filter(meet_id=spec.meet).aggregate(**GAMES_COUNTED)
        return [counted, _meet_shown(spec.meet), _members_shown(), labels]
    filters = spec.filters()
    counted = results_for(filters).aggregate(**GAMES_COUNTED)
    before_the_end = HanchanResult.objects.all()
    if filters.rule_sets:
        before_the_end = before_the_end.filter(rule_set__in=filters.rule_sets)
    if filters.period.end is not None:
        before_the_end = before_the_end.filter(played_on__lte=filters.period.end)
    earlier = before_the_end.aggregate(
        n=Count("pk"), ids=Sum("pk"), changed=Max("hanchan__updated_at")
    )
    if spec.kind == "standings.pdf" and pdf.has_awards(filters.period):
        labels.append(_latest_change(Award))
    return [counted, earlier, _meets_shown(filters.period), _members_shown(), labels]


def _latest_change(model: type[Award] | type[RuleSet] | type[StandingsGroup]) -> object:
    """When any row of ``model`` last changed (its history): one query."""
    return model.history.aggregate(latest=Max("history_date"))["latest"]


def _meets_shown(period: Period) -> str:
    """What a report of ``period`` shows of the meets (one query): the day and kind of each
    meet with games in it (the daily sheets, the 満貫以上 list), and the day of each meet with
    games before it (the order of the games the rating at its end reads; the results carry
    the day, but moving a meet does not change its games' ``updated_at``). A planned meet,
    without games, is on no report; nor is any meet's attendance, venue, start or note."""
    played = Exists(Hanchan.objects.filter(meet=OuterRef("pk")))
    meets = Meet.objects.filter(played)
    if period.end is not None:
        meets = meets.filter(date__lte=period.end)
    start = period.start
    return sha(
        [
            (pk, day, kind) if start is None or day >= start else (pk, day)
            for pk, day, kind in meets.order_by("pk").values_list("pk", "date", "kind")
        ]
    )


def _meet_shown(meet_id: int) -> list[object]:
    """What a meet's sheet shows of its meet (three queries): its day, kind, rule set and
    note, its attendance (「12 attending」) and its table draw (who played instead of whom)."""
    meet = Meet.objects.filter(pk=meet_id).values_list("date", "kind", "rule_set", "note")
    attending = Meet.attendees.through.objects.filter(meet_id=meet_id)
    drawn = DrawnPlace.objects.filter(meet_id=meet_id)
    return [
        list(meet),
        list(attending.order_by("member_id").values_list("member_id", flat=True)),
        sha(list(drawn.order_by("pk").values_list("pk", "round_no", "table_no", "member_id"))),
    ]


def _members_shown() -> str:
    """What the reports show of the members (one query): name, furigana (the order within a
    rank) and whether a guest (the mark, and left out unless asked for). Of every member, in
    short rows: cheaper than finding who is on the report, and a club has a few hundred."""
    members = Member.objects.order_by("pk").values_list("pk", "name", "furigana", "is_guest")
    return sha(list(members))
