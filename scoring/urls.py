from django.urls import path

from scoring import views

app_name = "scoring"
urlpatterns = [
    path("rules/", views.rule_set_list, name="rule-set-list"),
    path("rules/<int:pk>/", views.rule_set_detail, name="rule-set-detail"),
    path("rules/<int:pk>/copy/", views.rule_set_copy, name="rule-set-copy"),
]
