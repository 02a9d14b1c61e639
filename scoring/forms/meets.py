"""The meets' forms: a meet, the half-year's plan (the club's repeating days), 出欠, reopening a
finalised meet, the table draw."""

from __future__ import annotations

from datetime import date, time
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from members.models import NOTE_LENGTH, Member, no_control_characters
from scoring.forms.fields import IdChoiceField, IdMultipleChoiceField
from scoring.models import (
    AnswerChoice,
    DrawMode,
    Meet,
    RuleSet,
)
from scoring.notation import (
    CLUB_WEEKS,
    MEET_DATES,
    MEET_WEEKDAYS,
    MeetKind,
)
from scoring.planning import usual_times
from scoring.schedule import WEEKS_OF_MONTH, Repeat, planned_days
from scoring.standings import Period, PeriodKind


class MeetForm(forms.ModelForm):  # type: ignore[type-arg]  # not subscriptable at run time
    """A meet's date, kind, rule set, attendance and note.

    A 土曜会 dated on another day than a Saturday, or a 水曜会 not on a Wednesday, is most
    likely a slip of the date: the form comes back with a warning and 「このまま保存」, and
    saves only when that is ticked (a meet moved for a holiday is saved so). An edit that
    leaves the date and kind as they were is not asked again. A new meet starts on today's
    date with the kind held on today's weekday (その他 on the other days).

    The date sets the kind of a new meet until the organizer chooses one by hand: the form's
    script (static/js/meet_form.js) sets it as the date is chosen and says ``kind_by_hand``
    when a kind was clicked; here, a new meet left on その他 (as offered, not chosen by hand)
    dated on a Wednesday or a Saturday becomes a 水曜会 or a 土曜会 (``kind_from_date``)."""

    confirm_day = forms.BooleanField(label=_("Save anyway"), required=False)
    kind_by_hand = forms.BooleanField(required=False, widget=forms.HiddenInput)

    class Meta:
        model = Meet
        fields = ["date", "kind", "rule_set", "attendees", "note", "start_time", "place"]
        field_classes = {"rule_set": IdChoiceField, "attendees": IdMultipleChoiceField}
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "start_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "kind": forms.RadioSelect,
            "attendees": forms.CheckboxSelectMultiple,
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.usual_times: dict[str, dict[str, str]] = {}
        if self.instance.pk is None:
            today = timezone.localdate()
            self.initial.setdefault("date", today)
            # The kind held on today's weekday, so today's date never needs 「このまま保存」.
            kinds = {weekday: kind for kind, weekday in MEET_WEEKDAYS.items()}
            self.initial.setdefault("kind", kinds.get(today.weekday(), MeetKind.OTHER))
            default = RuleSet.objects.default_or_none()
            if default is not None:
                self.initial.setdefault("rule_set", default.pk)
            # The club's usual start and place for the kind offered, as the planned meets
            # hold them; the form's script follows the kind the date sets (meet_form.js).
            self.usual_times = usual_times()
            usual = self.usual_times.get(str(self.initial["kind"]), {})
            for name in ("start_time", "place"):
                if name in usual:
                    self.initial.setdefault(name, usual[name])
        attendees = self.fields["attendees"]
        assert isinstance(attendees, forms.ModelMultipleChoiceField)
        attendees.queryset = Member.objects.filter(is_active=True) | Member.objects.filter(
            pk__in=self.instance.attendees.values("pk") if self.instance.pk else []
        )
        self.day_warning = ""
        self.kind_from_date = False

    def clean_date(self) -> date:
        """A meet is dated within MEET_DATES; said with Japanese dates (1990年1月1日), where
        the model's own validator would say 1990-01-01."""
        day: date = self.cleaned_data["date"]
        first, last = MEET_DATES
        if not first <= day <= last:
            raise ValidationError(
                _("A meet is dated from %(first)s to %(last)s.")
                % {"first": formats.date_format(first), "last": formats.date_format(last)},
                code="date_range",
            )
        return day

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        day, kind = cleaned.get("date"), str(cleaned.get("kind") or "")
        if (
            self.instance.pk is None
            and day is not None
            and kind == MeetKind.OTHER
            and "kind" not in self.changed_data
            and not cleaned.get("kind_by_hand")
        ):
            kinds = {weekday: held for held, weekday in MEET_WEEKDAYS.items()}
            if day.weekday() in kinds:
                kind = cleaned["kind"] = kinds[day.weekday()]
                self.kind_from_date = True
        weekday = MEET_WEEKDAYS.get(kind)
        unchanged = self.instance.pk is not None and not {"date", "kind"} & set(self.changed_data)
        if day is None or weekday is None or day.weekday() == weekday or unchanged:
            return cleaned
        self.day_warning = _("%(meet)s: that day is not a %(weekday)s.") % {
            "meet": Meet(date=day, kind=kind),  # 2025年4月9日（水） 土曜会
            "weekday": _("Saturday") if weekday == 5 else _("Wednesday"),
        }
        if not cleaned.get("confirm_day"):
            self.add_error(
                "confirm_day",
                ValidationError(
                    _("Check the date, or tick 「Save anyway」 to keep it."), code="weekday"
                ),
            )
        return cleaned


WEEK_CHOICES = [(str(n), _("week %(n)d") % {"n": n}) for n in WEEKS_OF_MONTH]


class PlanForm(forms.Form):
    """The schedule in one step: the meets of the days a repeating rule names between two
    days (as the club holds them, the 1st and 3rd Wednesday and the 2nd and 4th Saturday of
    each month), with a start time for each kind, and one place and note. Starts on the next
    half-year."""

    first = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    last = forms.DateField(label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))
    wednesdays = forms.MultipleChoiceField(
        label=_("Wednesday meet: which Wednesdays of the month"),
        choices=WEEK_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    saturdays = forms.MultipleChoiceField(
        label=_("Saturday meet: which Saturdays of the month"),
        choices=WEEK_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    wednesday_start = forms.TimeField(
        label=_("Wednesday meet: start time"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}),
    )
    saturday_start = forms.TimeField(
        label=_("Saturday meet: start time"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}),
    )
    place = forms.CharField(
        label=_("venue"), max_length=NOTE_LENGTH, required=False, validators=[no_control_characters]
    )
    note = forms.CharField(
        label=_("note"), max_length=NOTE_LENGTH, required=False, validators=[no_control_characters]
    )

    LONGEST = 400
    """The most days one step covers (a fiscal year and a bit)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        half = Period.containing(timezone.localdate(), PeriodKind.HALF).next()
        if half is not None:
            self.initial.setdefault("first", half.start)
            self.initial.setdefault("last", half.end)
        self.initial.setdefault("wednesdays", [str(n) for n in CLUB_WEEKS[MeetKind.WEDNESDAY]])
        self.initial.setdefault("saturdays", [str(n) for n in CLUB_WEEKS[MeetKind.SATURDAY]])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        first, last = cleaned.get("first"), cleaned.get("last")
        if first is None or last is None:
            return cleaned
        low, high = MEET_DATES
        if not (low <= first <= last <= high):
            raise ValidationError(_("Give a first day before the last, within the meets' dates."))
        if (last - first).days > self.LONGEST:
            raise ValidationError(
                _("Plan at most %(days)d days at a time.") % {"days": self.LONGEST}
            )
        if not cleaned.get("wednesdays") and not cleaned.get("saturdays"):
            raise ValidationError(_("Choose at least one Wednesday or Saturday of the month."))
        return cleaned

    def days(self) -> list[tuple[date, str]]:
        """The days the rule names, each with the kind of its meet."""
        data = self.cleaned_data
        repeats = [
            Repeat(
                MEET_WEEKDAYS[MeetKind.WEDNESDAY], _weeks(data["wednesdays"]), MeetKind.WEDNESDAY
            ),
            Repeat(MEET_WEEKDAYS[MeetKind.SATURDAY], _weeks(data["saturdays"]), MeetKind.SATURDAY),
        ]
        return planned_days(data["first"], data["last"], repeats)

    def start_of(self, kind: str) -> time | None:
        """The start time the form gives a meet of this kind."""
        field = "saturday_start" if kind == MeetKind.SATURDAY else "wednesday_start"
        start: time | None = self.cleaned_data[field]
        return start

    def save(self, rule_set: RuleSet) -> tuple[int, int]:
        """A meet under ``rule_set`` for each day the rule names, but where a meet of that
        kind is on that day already: how many were made, and how many were there."""
        data = self.cleaned_data
        made = kept = 0
        with transaction.atomic():
            for day, kind in self.days():
                _meet, created = Meet.objects.get_or_create(
                    date=day,
                    kind=kind,
                    defaults={
                        "rule_set": rule_set,
                        "start_time": self.start_of(kind),
                        "place": data["place"],
                        "note": data["note"],
                    },
                )
                made, kept = (made + 1, kept) if created else (made, kept + 1)
        return made, kept


def _weeks(values: list[str]) -> tuple[int, ...]:
    return tuple(sorted(int(v) for v in values))


class AnswerForm(forms.Form):
    """One 出欠: the answer, and (the organizer's, for a member who phoned in) whose."""

    answer = forms.ChoiceField(choices=AnswerChoice.choices)
    member = IdChoiceField(queryset=lambda: Member.objects.filter(is_active=True), required=False)


class ReopenForm(forms.Form):
    reason = forms.CharField(label=_("Reason for reopening"), max_length=Meet.REOPEN_REASON_LENGTH)


SEED_LIMIT = 10**9


class DrawForm(forms.Form):
    """Draw the rounds from ``from_round`` on; the seed is chosen at random when not given."""

    draw_mode = forms.ChoiceField(
        label=_("When the attendance is not a multiple of 4"),
        choices=DrawMode.choices,
    )
    from_round = forms.IntegerField(
        label=_("From round"), min_value=1, max_value=Meet.ROUNDS, initial=1
    )
    seed = forms.IntegerField(label=_("Seed"), min_value=0, max_value=SEED_LIMIT, required=False)
