from django.urls import path

from scoring import views, views_import, views_reports, views_standings

app_name = "scoring"
urlpatterns = [
    path("meets/", views.meet_list, name="meet-list"),
    path("meets/new/", views.meet_create, name="meet-create"),
    path("meets/<int:pk>/", views.meet_detail, name="meet-detail"),
    path("meets/<int:pk>/edit/", views.meet_edit, name="meet-edit"),
    path("meets/<int:pk>/finalise/", views.meet_finalise, name="meet-finalise"),
    path("meets/<int:pk>/reopen/", views.meet_reopen, name="meet-reopen"),
    path("meets/<int:meet_pk>/games/new/", views.game_create, name="game-create"),
    path("games/<int:pk>/", views.game_detail, name="game-detail"),
    path("games/<int:pk>/edit/", views.game_edit, name="game-edit"),
    path("games/<int:pk>/delete/", views.game_delete, name="game-delete"),
    path("standings/", views_standings.standings, name="standings"),
    path(
        "standings/visibility/",
        views_standings.standings_visibility,
        name="standings-visibility",
    ),
    path("members/<int:pk>/", views_standings.member_detail, name="member-detail"),
    path(
        "members/<int:pk>/chart/<slug:chart>.svg",
        views_standings.member_chart,
        name="member-chart",
    ),
    path("reports/standings.pdf", views_reports.standings_pdf, name="standings-pdf"),
    path("reports/standings.xlsx", views_reports.standings_xlsx, name="standings-xlsx"),
    path("reports/games.csv", views_reports.games_csv, name="games-csv"),
    path("members/<int:pk>/record.pdf", views_reports.member_pdf, name="member-pdf"),
    path("meets/<int:pk>/sheet.pdf", views_reports.meet_pdf, name="meet-pdf"),
    path("import/", views_import.import_upload, name="import"),
    path("import/confirm/", views_import.import_confirm, name="import-confirm"),
    path("rules/", views.rule_set_list, name="rule-set-list"),
    path("rules/<int:pk>/", views.rule_set_detail, name="rule-set-detail"),
    path("rules/<int:pk>/copy/", views.rule_set_copy, name="rule-set-copy"),
]
