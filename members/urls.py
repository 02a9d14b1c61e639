from django.urls import path

from members import views

app_name = "members"
urlpatterns = [
    path("", views.member_list, name="list"),
    path("new/", views.member_create, name="create"),
    path("<int:pk>/edit/", views.member_edit, name="edit"),
    path("locks/", views.lock_list, name="locks"),
    path("locks/<int:pk>/release/", views.lock_release, name="lock-release"),
    path("session/extend/", views.session_extend, name="session-extend"),
    path("club/", views.choose_club, name="choose-club"),
    path("roles/", views.role_list, name="roles"),
    path("invitations/", views.invitation_list, name="invitations"),
    path("invitations/<int:pk>/revoke/", views.invitation_revoke, name="invitation-revoke"),
]
