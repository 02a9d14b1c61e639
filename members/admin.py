from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from members.models import Member


@admin.register(Member)
class MemberAdmin(SimpleHistoryAdmin):
    list_display = ["name", "furigana", "is_active", "is_guest", "joined_on", "user"]
    list_filter = ["is_active", "is_guest"]
    search_fields = ["name", "furigana"]
