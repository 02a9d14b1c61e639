from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.urls import include, path
from django.views.i18n import set_language

from members import views as member_views
from scoring.views import meets as scoring_meets
from shirakaba.health import health
from shirakaba.views import offline, service_worker, web_manifest

urlpatterns = [
    path("", scoring_meets.home, name="home"),
    path("login/", member_views.SignInView.as_view(), name="login"),
    path("signup/", member_views.sign_up, name="signup"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", member_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("manifest.webmanifest", web_manifest, name="web-manifest"),
    path("sw.js", service_worker, name="service-worker"),
    path("offline/", offline, name="offline"),
    path("health/", health, name="health"),
    path("display/", member_views.display_settings, name="display"),
    path("i18n/setlang/", login_not_required(set_language), name="set_language"),
    path("members/", include("members.urls")),
    path("", include("scoring.urls")),
    path("admin/", admin.site.urls),
]
