from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from members.models import Member


# django-simple-history ships no types, so its admin is Any to mypy.
@admin.register(Member)
class MemberAdmin(SimpleHistoryAdmin):  # type: ignore[misc]
    list_display = ["name", "furigana", "is_active", "is_guest", "joined_on", "user"]
    list_filter = ["is_active", "is_guest"]
    search_fields = ["name", "furigana"]
