"""The season's awards: the organizer's list, the periods they are given for, an award by hand
(敢闘賞)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from members.models import Member
from scoring.forms.fields import IdChoiceField
from scoring.models import (
    Award,
    Measure,
)
from scoring.standings import Period


class AwardForm(forms.ModelForm):  # type: ignore[type-arg]  # not subscriptable at run time
    """One award of the group's list as the organizer sets it: its name, place in the list,
    whether it is given, and its eligibility (規定半荘数: share × games per meet × meets)."""

    class Meta:
        model = Award
        fields = ["name", "position", "is_shown", "min_share", "games_per_meet"]
        widgets = {
            "position": forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 99}),
            "min_share": forms.NumberInput(attrs={"inputmode": "decimal", "step": "0.1"}),
            "games_per_meet": forms.NumberInput(attrs={"inputmode": "numeric"}),
        }


AwardFormSet = forms.modelformset_factory(Award, form=AwardForm, extra=0)


def award_periods(day: date) -> list[Period]:
    """The periods awards are given for around ``day``: its fiscal year and both halves."""
    year = Period.containing(day, "year")
    assert year.fiscal_year_no is not None
    return [year, Period.half(year.fiscal_year_no, 1), Period.half(year.fiscal_year_no, 2)]


class ByHandAwardForm(forms.ModelForm):  # type: ignore[type-arg]  # not subscriptable at run time
    """An award the organizer gives by hand (敢闘賞): its name, winner, period and reason."""

    class Meta:
        model = Award
        fields = ["name", "winner", "period_key", "reason"]
        field_classes = {"winner": IdChoiceField}

    def __init__(self, *args: Any, periods: list[Period], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        winner = self.fields["winner"]
        assert isinstance(winner, forms.ModelChoiceField)
        winner.required = True
        winner.queryset = Member.objects.active().order_by("furigana", "name")
        self.fields["period_key"] = forms.ChoiceField(
            label=_("period"), choices=[(p.key, p.label) for p in periods]
        )
        self.instance.measure = Measure.BY_HAND


class CertificateDayForm(forms.Form):
    """The day the certificates are dated, as the organizer gives it on the awards page
    (``?day=2026-03-31``); the end of the period when none is given."""

    day = forms.DateField(
        label=_("Date on the certificates"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )

    @classmethod
    def day_of(cls, data: Any) -> date | None:
        """The day given in ``data`` (a query), or None when none or not a day."""
        form = cls(data)
        day: date | None = form.cleaned_data["day"] if form.is_valid() else None
        return day
