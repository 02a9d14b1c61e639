"""The fields the forms share: a model chosen by its id, where anything but a row id is the
choice's own error before the database sees it."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

ROW_ID = re.compile(r"[0-9]{1,18}")
"""What a row id in a form looks like. Anything else is refused before the database sees it:
SQLite cannot hold an integer past 2**63, and "²" passes ``isdigit`` but not ``int``."""


# The model fields are generic in django-stubs only; Django's classes cannot be subscripted
# at run time.
class IdChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def to_python(self, value: Any) -> Any:
        if value not in self.empty_values and not ROW_ID.fullmatch(str(value)):
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class IdMultipleChoiceField(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]
    def _check_values(self, value: Any) -> Any:
        for pk in value:
            if not ROW_ID.fullmatch(str(pk)):
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        # A private method of Django's that django-stubs does not declare.
        return super()._check_values(value)  # type: ignore[misc]
