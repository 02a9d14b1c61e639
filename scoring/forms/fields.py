"""The fields the forms share: a model chosen by its id, where anything but a row id is the
choice's own error before the database sees it, from the rows of the club in scope."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django import forms
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.db.models import QuerySet
from django_scopes.manager import DisabledQuerySet

from members.models import is_a_clubs
from members.scopes import scopes_disabled

ROW_ID = re.compile(r"[0-9]{1,18}")
"""What a row id in a form looks like. Anything else is refused before the database sees it:
SQLite cannot hold an integer past 2**63, and "²" passes ``isdigit`` but not ``int``."""


class InScope:
    """A choice among the rows of the club in scope, found again for each form.

    A form's fields are made once, when its module is imported, in no club's scope (or, in a
    request that imports it first, in that request's club's). So a field of a club's rows is
    given a callable (``queryset=lambda: Member.objects.active()``), called for each form as
    Django copies the field into it, in the scope of the request or command that makes the
    form. A model form's own field of a club's model (the queryset Django gives it is the
    model's default manager's, unfiltered) takes that manager's rows the same way. A queryset
    with filters of its own, made once, would keep the club it was made in: it is refused."""

    make_queryset: Callable[[], QuerySet[Any]] | None = None

    def __init__(self, queryset: Any, **kwargs: Any) -> None:
        if callable(queryset) and not isinstance(queryset, QuerySet):
            self.make_queryset = queryset
            with scopes_disabled():
                queryset = queryset().none()
        elif isinstance(queryset, QuerySet) and is_a_clubs(queryset.model):
            model = queryset.model
            if not isinstance(queryset, DisabledQuerySet):  # made in a scope, which is this one
                plain = model._default_manager.using(queryset.db).all()
                if str(queryset.query) != str(plain.query):
                    raise ImproperlyConfigured(
                        f"{type(self).__name__} of {model.__name__}: give a callable that "
                        "makes the queryset, in the club's scope of each form."
                    )
            self.make_queryset = model._default_manager.all
            queryset = queryset.none()
        super().__init__(queryset, **kwargs)  # type: ignore[call-arg]

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        copied = super().__deepcopy__(memo)  # type: ignore[misc]
        if self.make_queryset is not None:
            copied.queryset = self.make_queryset()
        return copied


# The model fields are generic in django-stubs only; Django's classes cannot be subscripted
# at run time.
class IdChoiceField(InScope, forms.ModelChoiceField):  # type: ignore[type-arg]
    def to_python(self, value: Any) -> Any:
        if value not in self.empty_values and not ROW_ID.fullmatch(str(value)):
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class IdMultipleChoiceField(InScope, forms.ModelMultipleChoiceField):  # type: ignore[type-arg]
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
