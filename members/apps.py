from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class MembersConfig(AppConfig):
    name = "members"
    verbose_name = _("Members")

    def ready(self) -> None:
        # Imported here, as Django asks of an app's ready(): roles.py imports the auth models,
        # which are loaded only now (not to dodge a circle).
        from members.roles import ensure_groups_after_migrate

        # Every app's permissions are made by its own post_migrate signal, so the groups are
        # (re)filled after each one; the last signal leaves them complete. Idempotent.
        post_migrate.connect(ensure_groups_after_migrate, dispatch_uid="members.ensure_groups")

        from members.models import ensure_default_club_after_migrate

        post_migrate.connect(
            ensure_default_club_after_migrate, dispatch_uid="members.ensure_default_club"
        )

        from django.contrib.auth.signals import user_logged_in

        from members.context_processors import display_on_sign_in

        user_logged_in.connect(display_on_sign_in, dispatch_uid="members.display_on_sign_in")

        from django.db.models.signals import post_delete, post_save

        from members.models import ClubRole
        from members.roles import staff_follows_roles

        for signal in (post_save, post_delete):
            signal.connect(
                staff_follows_roles, sender=ClubRole, dispatch_uid=f"members.staff_{signal}"
            )
