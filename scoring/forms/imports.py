"""Record sheets uploaded in the browser."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext_lazy as _

from scoring.forms.fields import IdChoiceField
from scoring.models import (
    RuleSet,
)
from scoring.spreadsheets import MAX_BYTES, too_large


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("Record sheet (CSV or Excel)"),
        help_text=_(
            "CSV in UTF-8 or Shift_JIS, Excel's Unicode text (tab-separated), or an XLSX file "
            "(its first sheet)."
        ),
    )
    create_members = forms.BooleanField(
        label=_("Add members for names not in the club yet"), required=False
    )
    rule_set = IdChoiceField(
        label=_("Rule set of new meets"),
        queryset=lambda: RuleSet.objects.all(),
        required=False,
        empty_label=None,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rule_set"].initial = RuleSet.objects.default_or_none()

    def clean_file(self) -> UploadedFile[bytes]:
        upload: UploadedFile[bytes] = self.cleaned_data["file"]
        if upload.size is not None and upload.size > MAX_BYTES:  # refused before it is read
            raise ValidationError(too_large(upload.size))
        return upload
