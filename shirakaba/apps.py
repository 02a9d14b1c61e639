from django.contrib.admin.apps import AdminConfig


class ClubAdminConfig(AdminConfig):
    """Django's admin app, with the site of shirakaba/admin.py as ``admin.site``."""

    default_site = "shirakaba.admin.ClubAdminSite"
