from typing import Any

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.views.decorators.debug import sensitive_variables

from members.models import Member


# ModelForm is generic in django-stubs only; Django's class cannot be subscripted at run time.
class MemberForm(forms.ModelForm):  # type: ignore[type-arg]
    """A member's name, furigana, and whether they are active or a guest.

    The furigana is asked of every new member, but a member made by an import without it
    (scoring/imports.py writes the sheet's name alone) is saved as they are, until someone
    writes it: the organizer may be there only to mark them active or a guest."""

    class Meta:
        model = Member
        fields = ["name", "furigana", "is_active", "is_guest", "joined_on", "note"]
        widgets = {"joined_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk and not self.instance.furigana:
            self.fields["furigana"].required = False


class SignInForm(AuthenticationForm):
    """Django's sign-in form in the club's words: ログイン名, not ユーザー名 or フィールド."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _(
            "The login name or the password is not right. Both tell capital and small letters "
            "apart."
        ),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _("Login name")


class CountedPasswordChangeForm(PasswordChangeForm):
    """The old password is checked by signing in with it, so a wrong one counts towards the
    sign-in lock (django-axes) like a wrong password on the sign-in page."""

    def __init__(self, user: Any, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    @sensitive_variables("old_password")
    def clean_old_password(self) -> str:
        old_password: str = self.cleaned_data["old_password"]
        username = self.user.get_username()
        if authenticate(self.request, username=username, password=old_password) != self.user:
            raise ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password
