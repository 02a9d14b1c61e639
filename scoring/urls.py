from django.urls import path, register_converter

from scoring.views import (
    awards,
    downloads,
    draws,
    games,
    hands,
    imports,
    meets,
    news,
    rule_sets,
    schedule,
    standings,
    yaku,
)


class DigestConverter:
    """A report's digest as ``scoring.reports.registry`` writes it: SHA-256 in lowercase hex.
    Anything else is 404 before a query (PostgreSQL refuses a NUL in a text comparison)."""

    regex = "[0-9a-f]{64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(DigestConverter, "digest")

app_name = "scoring"
urlpatterns = [
    path("meets/", meets.meet_list, name="meet-list"),
    path("meets/new/", meets.meet_create, name="meet-create"),
    path("meets/<int:pk>/", meets.meet_detail, name="meet-detail"),
    path("meets/<int:pk>/edit/", meets.meet_edit, name="meet-edit"),
    path("meets/<int:pk>/finalise/", meets.meet_finalise, name="meet-finalise"),
    path("meets/<int:pk>/reopen/", meets.meet_reopen, name="meet-reopen"),
    path("meets/<int:pk>/draw/", draws.draw_board, name="draw-board"),
    path("meets/<int:pk>/draw/make/", draws.draw_make, name="draw-make"),
    path("meets/<int:pk>/draw.pdf", downloads.handout_view("draw.pdf"), name="draw-pdf"),
    path(
        "meets/<int:pk>/record-sheet.pdf",
        downloads.handout_view("record-sheet.pdf"),
        name="record-sheet-pdf",
    ),
    path("meets/<int:pk>/news/", news.news, name="meet-news"),
    path("meets/<int:pk>/news.png", downloads.handout_view("news.png"), name="meet-news-png"),
    path("meets/<int:meet_pk>/games/new/", games.game_create, name="game-create"),
    path("meets/<int:meet_pk>/games/send/", games.game_send, name="game-send"),
    path("games/<int:pk>/", games.game_detail, name="game-detail"),
    path("games/<int:pk>/edit/", games.game_edit, name="game-edit"),
    path("games/<int:pk>/delete/", games.game_delete, name="game-delete"),
    path("standings/", standings.standings, name="standings"),
    path(
        "standings/visibility/",
        standings.standings_visibility,
        name="standings-visibility",
    ),
    path("standings/rating/", standings.rating_table, name="rating"),
    path("members/<int:pk>/", standings.member_detail, name="member-detail"),
    path("standings/head-to-head/", standings.head_to_head_matrix, name="head-to-head"),
    path(
        "members/<int:pk>/chart/<slug:chart>.svg",
        standings.member_chart,
        name="member-chart",
    ),
    path("awards/", awards.awards, name="awards"),
    path("awards/edit/", awards.award_edit, name="award-edit"),
    path("awards/delete/", awards.award_delete, name="award-delete"),
    path(
        "awards/certificate.pdf",
        downloads.handout_view("certificate.pdf"),
        name="award-certificate",
    ),
    path("reports/standings.pdf", downloads.handout_view("standings.pdf"), name="standings-pdf"),
    path("reports/standings.xlsx", downloads.handout_view("standings.xlsx"), name="standings-xlsx"),
    path("reports/games.csv", downloads.handout_view("games.csv"), name="games-csv"),
    path("reports/<digest:digest>/", downloads.report, name="report"),
    path("reports/<digest:digest>/file", downloads.report_file, name="report-file"),
    path("reports/<digest:digest>/again", downloads.report_again, name="report-again"),
    path("members/<int:pk>/record.pdf", downloads.handout_view("member.pdf"), name="member-pdf"),
    path("meets/<int:pk>/sheet.pdf", downloads.handout_view("meet.pdf"), name="meet-pdf"),
    path("import/", imports.import_upload, name="import"),
    path("import/confirm/", imports.import_confirm, name="import-confirm"),
    path("rules/", rule_sets.rule_set_list, name="rule-set-list"),
    path("rules/<int:pk>/", rule_sets.rule_set_detail, name="rule-set-detail"),
    path("rules/<int:pk>/copy/", rule_sets.rule_set_copy, name="rule-set-copy"),
    path(
        "rules/<int:pk>/score-table.pdf",
        downloads.handout_view("score-table.pdf"),
        name="score-table-pdf",
    ),
    path("calculator/", hands.calculator, name="calculator"),
    path("hand/", yaku.hand_check, name="hand-check"),
    path("rules/<int:pk>/yaku/", yaku.yaku_list, name="yaku-list"),
    path("schedule/", schedule.schedule, name="schedule"),
    path("schedule/plan/", schedule.plan, name="schedule-plan"),
    path("schedule/visibility/", schedule.schedule_visibility, name="schedule-visibility"),
    path("schedule/calendar-link/", schedule.calendar_link, name="calendar-link"),
    path("schedule/notice.pdf", downloads.handout_view("notice.pdf"), name="schedule-notice"),
    path("schedule.ics", downloads.handout_view("schedule.ics"), name="schedule-public-feed"),
    path(
        "schedule/<slug:token>.ics",
        downloads.handout_view("member-schedule.ics"),
        name="schedule-feed",
    ),
    path("meets/<int:pk>/answer/", schedule.answer, name="schedule-answer"),
    path("meets/<int:pk>/answers/", schedule.answers, name="schedule-answers"),
    path(
        "meets/<int:pk>/attendance-from-answers/",
        schedule.attendance_from_answers,
        name="attendance-from-answers",
    ),
]
