"""The standings' filters read from the query string, and the one reader of a whole number in a
URL."""

from __future__ import annotations

import re

from django.db.models import Max
from django.http import Http404, HttpRequest
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import (
    HanchanResult,
    RuleSet,
    StandingsGroup,
)
from scoring.notation import (
    MeetKind,
)
from scoring.standings import Filters, Period, PeriodOutOfRange


def query_number(text: str | None) -> int | None:
    """A whole number of up to nine ASCII digits from the query string, or None: the one
    reader of numbers in a URL (``"²".isdigit()`` is true and int fails; int reads "１２" and
    " 12", which no link of ours writes)."""
    if text and re.fullmatch(r"[0-9]{1,9}", text):
        return int(text)
    return None


def filters_from(request: HttpRequest) -> Filters:
    """Read period, kind, standings group, rule set, the minimum of games and whether guests
    are shown (``guests=1``) from the query string.

    A period reaching outside the years a meet may have (FY9998) answers 404. Anything
    unreadable falls back to its default: the half-year of the latest game, every kind, the
    club's group, all its rule sets, no minimum. A rule set of another group than the one
    named is ignored.
    """
    params = request.GET
    try:
        period = Period.parse(params["period"])
    except PeriodOutOfRange:
        message = gettext("There is no such period: %(period)s") % {"period": params["period"]}
        raise Http404(message) from None
    except (KeyError, ValueError):
        # The latest game played (the index on the date answers): a meet planned ahead
        # (the schedule) has none yet and would open the standings on an empty period.
        latest = HanchanResult.objects.aggregate(day=Max("played_on"))["day"]
        period = Period.containing(latest or timezone.localdate())
    kind = params.get("kind", "")
    if kind not in MeetKind.values:
        kind = ""
    group = None
    if (group_pk := query_number(params.get("group"))) is not None:
        group = StandingsGroup.objects.filter(pk=group_pk).first()
    rule_set = None
    if (rule_pk := query_number(params.get("rule"))) is not None:
        rule_set = RuleSet.objects.select_related("group").filter(pk=rule_pk).first()
        if rule_set is not None and group is not None and rule_set.group_id != group.pk:
            rule_set = None
    min_games = min(query_number(params.get("min")) or 0, 999)
    guests = params.get("guests") == "1"
    return Filters(
        period=period,
        kind=kind,
        group=group,
        rule_set=rule_set,
        min_games=min_games,
        guests=guests,
    )
