"""The rule sets' forms: a copy under a new name."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.models import (
    RuleSet,
)


class RuleSetCopyForm(forms.Form):
    name = forms.CharField(label=_("Name of the copy"), max_length=60)

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        if RuleSet.objects.filter(name=name).exists():
            raise forms.ValidationError(_("A rule set with this name exists already."))
        return name
