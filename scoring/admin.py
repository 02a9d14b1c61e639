"""Admin for the organizer. Games, their results and big hands are read-only here: a game's
points are only ever written by ``Hanchan.record`` (settlement), never typed in by hand, and
a finalised meet changes only after it is reopened with a reason in the app. No history
"revert" is offered: restoring an old row would bypass settlement (and the models refuse it)."""

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from members.models import Club, ClubRole
from scoring.clubs import fill_new_club
from scoring.models import (
    BigHand,
    ClubSettings,
    DrawnPlace,
    Hanchan,
    HanchanResult,
    Meet,
    RuleSet,
    StandingsGroup,
)


# django-simple-history ships no types, so its admin is Any to mypy.
class HistoryAdmin(SimpleHistoryAdmin):  # type: ignore[misc]
    """History to read, never to revert."""

    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        return True

    def history_form_view(
        self,
        request: HttpRequest,
        object_id: str,
        version_id: str,
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        if request.method == "POST":
            raise PermissionDenied
        response: HttpResponse = super().history_form_view(
            request, object_id, version_id, extra_context
        )
        return response


class ReadOnlyAdmin(HistoryAdmin):
    """Shown, never changed, added or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(StandingsGroup)
class StandingsGroupAdmin(HistoryAdmin):
    list_display = ["name", "description"]


@admin.register(RuleSet)
class RuleSetAdmin(HistoryAdmin):
    list_display = [
        "name",
        "group",
        "players",
        "start_points",
        "return_points",
        "tie_break",
        "is_default",
    ]
    list_filter = ["group"]
    actions = ["copy_rule_sets"]

    @admin.action(description=_("Copy the selected rule sets"), permissions=["add"])
    def copy_rule_sets(self, request: HttpRequest, queryset: QuerySet[RuleSet]) -> None:
        for rule_set in queryset:
            copy = rule_set.copy(name=_("%(name)s (copy)") % {"name": rule_set.name})
            messages.success(request, _("Made %(name)s.") % {"name": copy.name})


# TabularInline is generic in django-stubs only; Django's class cannot be subscripted at run time.
class HanchanInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Hanchan
    # A tuple: a list[str] is no list of fieldsets-or-names to mypy (lists are invariant).
    readonly_fields = ("round_no", "table_no", "rule_set", "deposits_held", "note")
    fields = readonly_fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class MeetAdminForm(forms.ModelForm):  # type: ignore[type-arg]
    """A meet's attendees are its club's members: outside every scope (the site's admin)
    every club's are offered, and another club's is refused (a link to many rows, which the
    model's own check of single links does not see)."""

    def clean_attendees(self) -> Any:
        attendees = self.cleaned_data.get("attendees")
        club = self.instance.club_id
        if attendees is not None and any(m.club_id != club for m in attendees):
            raise forms.ValidationError(
                _("This is another club's; choose one of this club's."), code="another_club"
            )
        return attendees


@admin.register(Meet)
class MeetAdmin(HistoryAdmin):
    """Meets may be corrected here while open; ``is_final`` changes only through 確定 and
    確定解除 in the app, and a finalised meet is shown read-only."""

    form = MeetAdminForm
    list_display = ["date", "kind", "rule_set", "is_final"]
    list_filter = ["kind", "is_final"]
    date_hierarchy = "date"
    filter_horizontal = ["attendees"]
    readonly_fields = ["is_final"]
    inlines = [HanchanInline]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.is_final:
            return False
        allowed: bool = super().has_change_permission(request, obj)
        return allowed

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.is_final:
            return False
        allowed: bool = super().has_delete_permission(request, obj)
        return allowed

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Meet]) -> None:
        """The bulk delete action, one meet at a time: a finalised one is kept."""
        for meet in queryset:
            if meet.is_final:
                messages.error(
                    request, _("%(meet)s is finalised and was not deleted.") % {"meet": meet}
                )
            else:
                meet.delete()


class ResultInline(admin.TabularInline):  # type: ignore[type-arg]  # as HanchanInline
    model = HanchanResult
    readonly_fields = ("seat", "member", "score", "chombo", "place", "total_points")
    fields = readonly_fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Hanchan)
class HanchanAdmin(ReadOnlyAdmin):
    list_display = ["meet", "round_no", "table_no", "rule_set"]
    list_filter = ["meet__kind", "rule_set"]
    inlines = [ResultInline]


@admin.register(BigHand)
class BigHandAdmin(ReadOnlyAdmin):
    list_display = ["result", "level", "yakuman_name"]
    list_filter = ["level"]


@admin.register(DrawnPlace)
class DrawnPlaceAdmin(ReadOnlyAdmin):
    """The table draw, with its history; it is made and changed on the meet page only."""

    list_display = ["meet", "round_no", "table_no", "order", "member", "seed"]
    list_filter = ["meet"]


@admin.register(ClubSettings)
class ClubSettingsAdmin(HistoryAdmin):
    """The club's one row of settings; the handouts' minus sign and the 代表 who signs the
    certificates are set here (the others have their own buttons on the pages)."""

    fields = ("negative_sign", "representative")

    def has_add_permission(self, request: HttpRequest) -> bool:
        allowed: bool = super().has_add_permission(request)
        return allowed and not ClubSettings.objects.exists()

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ClubRoleInline(admin.TabularInline):  # type: ignore[type-arg]
    """Who holds which role in the club: its first organizer is given here, with the club."""

    model = ClubRole
    fields = ["user", "role"]
    raw_id_fields = ["user"]
    extra = 1


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """The install's clubs, for the site's superuser only (a club's organizer manages their
    club in the app): a club made here starts with the rule sets of the club's sheets
    (``scoring.clubs``); a club removed here goes with everything it owns. The site's one
    club (the default) is not removed."""

    list_display = ["slug", "name", "made_at"]
    fields = ["slug", "name"]
    inlines = [ClubRoleInline]

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        default = obj is not None and obj.pk == Club.DEFAULT_PK
        return bool(request.user.is_superuser) and not default

    def save_model(self, request: HttpRequest, obj: Club, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change:
            fill_new_club(obj)
