from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.views.decorators.debug import sensitive_variables

from members.models import (
    INVITATION_LENGTH,
    ClubRole,
    Invitation,
    Member,
    invitation_code_key,
)


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


class InvitationForm(forms.ModelForm):  # type: ignore[type-arg]
    """The organizer's invitation for one member of the club: whose, which role, how long."""

    # Its choices are made for each form, in the request's club's scope (below).
    member: forms.ModelChoiceField[Member] = forms.ModelChoiceField(
        queryset=None, label=_("Member")
    )
    days = forms.IntegerField(
        label=_("Valid for (days)"),
        min_value=1,
        max_value=90,
        initial=settings.INVITATION_DAYS,
    )

    class Meta:
        model = Invitation
        fields = ["member", "role"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        member = self.fields["member"]
        assert isinstance(member, forms.ModelChoiceField)
        # Made for each form, in the request's club's scope: the club's active members.
        member.queryset = Member.objects.active().order_by("furigana", "name")


CODE_AS_TYPED = 3 * INVITATION_LENGTH  # with room for spaces and hyphens between the letters


class InvitationCodeField(forms.CharField):
    """An invitation code as typed: small letters, spaces and hyphens do not matter."""

    def to_python(self, value: Any) -> str:
        return invitation_code_key(super().to_python(value) or "")


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    """A new login from an invitation code: the code, a login name and a password twice
    (Django's checks of a password)."""

    code = InvitationCodeField(label=_("Invitation code"), max_length=CODE_AS_TYPED)

    class Meta(UserCreationForm.Meta):
        fields = ("code", "username")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _("Login name")
        self.fields["username"].help_text = _(
            "Letters, digits and @ . + - _ only, as you will type it to sign in."
        )
        self.fields.pop("usable_password", None)


class AcceptInvitationForm(forms.Form):
    """The code alone, for a login that is signed in already (a member of another club)."""

    code = InvitationCodeField(label=_("Invitation code"), max_length=CODE_AS_TYPED)


class RoleChangeForm(forms.Form):
    """A change on the organizer's page of logins and roles: which role, and what becomes of
    it (記録係, 会員, or taken away)."""

    REMOVE = "remove"

    role_id = forms.IntegerField(min_value=1)
    action = forms.ChoiceField(
        choices=[(REMOVE, _("Take the role away")), *ClubRole.ROLES],
    )
    confirmed = forms.BooleanField(required=False)  # taking a role away is asked first
