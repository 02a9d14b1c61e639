"""Admin for the organizer. Game results are read-only here: a game's points are only ever
written by ``Hanchan.record`` (settlement), never typed in by hand."""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from scoring.models import BigHand, Hanchan, HanchanResult, Meet, RuleSet


@admin.register(RuleSet)
class RuleSetAdmin(SimpleHistoryAdmin):
    list_display = ["name", "players", "start_points", "return_points", "tie_break", "is_default"]
    actions = ["copy_rule_sets"]

    @admin.action(description=_("Copy the selected rule sets"))
    def copy_rule_sets(self, request: HttpRequest, queryset: QuerySet[RuleSet]) -> None:
        for rule_set in queryset:
            copy = rule_set.copy(name=_("%(name)s (copy)") % {"name": rule_set.name})
            messages.success(request, _("Made %(name)s.") % {"name": copy.name})


class HanchanInline(admin.TabularInline):
    model = Hanchan
    fields = ["round_no", "table_no", "rule_set", "deposits_held", "note"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Meet)
class MeetAdmin(SimpleHistoryAdmin):
    list_display = ["date", "kind", "rule_set", "is_final"]
    list_filter = ["kind", "is_final"]
    date_hierarchy = "date"
    filter_horizontal = ["attendees"]
    inlines = [HanchanInline]


class ResultInline(admin.TabularInline):
    model = HanchanResult
    fields = ["seat", "member", "score", "chombo", "place", "total_points"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Hanchan)
class HanchanAdmin(SimpleHistoryAdmin):
    list_display = ["meet", "round_no", "table_no", "rule_set"]
    list_filter = ["meet__kind", "rule_set"]
    readonly_fields = ["meet", "table_no", "round_no", "rule_set", "deposits_held", "version"]
    inlines = [ResultInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(BigHand)
class BigHandAdmin(SimpleHistoryAdmin):
    list_display = ["result", "level", "yakuman_name"]
    list_filter = ["level"]
    readonly_fields = ["result"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
