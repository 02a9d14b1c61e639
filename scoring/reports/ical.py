"""The coming meets as an iCalendar feed (RFC 5545, written by ``icalendar``), for a member's
phone calendar to subscribe to. It names the days, times and places only, never who comes."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from members.models import club_name_in_scope
from scoring.models import Meet

CONTENT_TYPE = "text/calendar; charset=utf-8"
MEET_LENGTH = timedelta(hours=4)
"""How long a meet's event lasts: sheet 002, 「何れも一半荘70分の三回戦体制」 (three hanchan of
70 minutes: 3 h 30 min), with the draw and the seating before it."""
REFRESH = timedelta(hours=12)


def meet_event(meet: Meet, stamp: datetime) -> Event:
    """One meet: at its start time in the club's time zone, or all day when it has none."""
    club = club_name_in_scope()
    start: date | datetime
    end: date | datetime
    if meet.start_time is not None:
        start = datetime.combine(meet.date, meet.start_time, tzinfo=ZoneInfo(settings.TIME_ZONE))
        end = start + MEET_LENGTH
    else:
        start, end = meet.date, meet.date + timedelta(days=1)
    return Event.new(
        uid=f"meet-{meet.pk}@shirakaba",
        summary=f"{club} {meet.get_kind_display()}",
        start=start,
        end=end,
        location=meet.place or None,
        description=meet.note or None,
        stamp=stamp,
    )


def schedule_calendar(meets: Iterable[Meet]) -> bytes:
    """The feed: one event a meet, with the time zone the events' times are in."""
    calendar = Calendar.new(
        prodid="-//Shirakaba Mahjong Circle//Score book//JA",
        name=_("%(club)s: meets") % {"club": club_name_in_scope()},
        refresh_interval=REFRESH,
    )
    stamp = timezone.now()
    for meet in meets:
        calendar.add_component(meet_event(meet, stamp))
    calendar.add_missing_timezones()
    feed: bytes = calendar.to_ical()
    return feed
