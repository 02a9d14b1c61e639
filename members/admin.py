from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from members.models import Club, ClubRole, Member


# django-simple-history ships no types, so its admin is Any to mypy.
@admin.register(Member)
class MemberAdmin(SimpleHistoryAdmin):  # type: ignore[misc]
    list_display = ["name", "furigana", "is_active", "is_guest", "joined_on", "user"]
    list_filter = ["is_active", "is_guest"]
    search_fields = ["name", "furigana"]

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        """A member's login is one of the club's: a login that holds a role in the club in
        scope (the site's superuser may link any)."""
        if db_field.name == "user" and not request.user.is_superuser:
            kwargs["queryset"] = User.objects.filter(pk__in=ClubRole.objects.values("user_id"))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ClubRoleForm(forms.ModelForm):  # type: ignore[type-arg]
    """A role on a login's admin page: the club is chosen here (a role's club is never on the
    club's own forms); with one club in the install, that club without asking."""

    club = forms.ModelChoiceField(Club.objects.all(), label=_("club"), required=False)

    class Meta:
        model = ClubRole
        fields = ["role"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields["club"].initial = self.instance.club_id
        if Club.objects.exclude(pk=Club.DEFAULT_PK).exists():
            self.fields["club"].required = True  # blank would mean the site's one club silently
        else:
            self.fields["club"].widget = forms.HiddenInput()

    def clean_club(self) -> Club:
        chosen: Club | None = self.cleaned_data.get("club")
        return chosen if chosen is not None else Club.objects.get(pk=Club.DEFAULT_PK)

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        if cleaned and "club" in cleaned:  # set before the model's checks, with the club
            self.instance.club = cleaned["club"]
        return cleaned


class ClubRolesFormSet(forms.BaseInlineFormSet):  # type: ignore[type-arg]
    """A login's roles: the same role in the same club once (the club is the form's own
    field, so Django's check of the rows' uniqueness does not see it)."""

    def clean(self) -> None:
        super().clean()
        seen = set()
        for form in self.forms:
            cleaned = getattr(form, "cleaned_data", None)
            if not cleaned or cleaned.get("DELETE") or "club" not in cleaned:
                continue
            key = (cleaned["club"].pk, cleaned.get("role"))
            if key in seen:
                raise forms.ValidationError(
                    _("%(club)s: %(role)s is given twice; give it once.")
                    % {"club": cleaned["club"], "role": cleaned.get("role")},
                    code="twice",
                )
            seen.add(key)


class RolesOfALogin(admin.TabularInline):  # type: ignore[type-arg]
    """The login's roles, club by club: 記録係 or 会員 (``members.models.ClubRole``)."""

    model = ClubRole
    form = ClubRoleForm
    formset = ClubRolesFormSet
    fields = ["club", "role"]
    extra = 1

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        # The model's own fields only: the club is the form's (a club field is never editable).
        return super().get_formset(request, obj, **{**kwargs, "fields": ["role"]})


class LoginAdmin(UserAdmin):  # type: ignore[type-arg]
    """Django's page of a login, with its roles in the clubs below (the groups 記録係 and 会員
    only say what each role may do: a login is not put in them). A login given 記録係 here
    gets the staff status an organizer uses the admin with (``roles.staff_follows_roles``)."""

    inlines = [RolesOfALogin]


admin.site.unregister(User)
admin.site.register(User, LoginAdmin)
