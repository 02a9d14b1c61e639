"""The coming meets as the schedule shows them: the meets from a day on, and each one's
出欠 (the signed-in member's own answer, and for the organizer the names under each answer);
and the club's usual start and place, as the planned meets hold them, for a meet made by hand.
A planned meet is a ``Meet`` without games yet."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.db.models import QuerySet
from django.utils import timezone

from members.models import Member
from scoring.models import Answer, AnswerChoice, Meet
from scoring.notation import MeetKind


def coming_meets(today: date | None = None) -> QuerySet[Meet]:
    """The meets from today on, in order of the day."""
    return Meet.objects.filter(date__gte=today or timezone.localdate()).order_by("date", "kind")


@dataclass
class Planned:
    """One coming meet as the schedule shows it: the signed-in member's answer, and (for the
    organizer) the names under each answer."""

    meet: Meet
    mine: str = ""
    names: dict[str, list[Member]] = field(default_factory=dict)

    @property
    def counts(self) -> list[tuple[str, str, list[Member]]]:
        return [
            (value, str(label), self.names.get(value, [])) for value, label in AnswerChoice.choices
        ]


def planned(meets: list[Meet], me: Member | None, with_names: bool) -> list[Planned]:
    rows = {m.pk: Planned(m) for m in meets}
    answers = Answer.objects.filter(meet__in=meets).select_related("member")
    if not with_names:
        answers = answers.filter(member=me) if me else answers.none()
    for answer in answers.order_by("member__furigana", "member__name"):
        row = rows[answer.meet_id]
        if me is not None and answer.member_id == me.pk:
            row.mine = answer.answer
        row.names.setdefault(answer.answer, []).append(answer.member)
    return list(rows.values())


def usual_times() -> dict[str, dict[str, str]]:
    """The club's usual start time and place for each kind of meet: those of the latest meet
    of that kind that has a start time (the planned meets, as the schedule's plan made them);
    for その他, the latest meet of any kind. A kind without one is left out. 「13:00」 and
    「白樺会館」, as 例会を作る fills them in."""
    usual: dict[str, dict[str, str]] = {}
    dated = Meet.objects.exclude(start_time=None).order_by("-date")
    for kind in MeetKind:
        meets = dated if kind == MeetKind.OTHER else dated.filter(kind=kind)
        latest = meets.only("start_time", "place").first()
        if latest is not None and latest.start_time is not None:
            usual[kind.value] = {
                "start_time": latest.start_time.strftime("%H:%M"),
                "place": latest.place,
            }
    return usual
