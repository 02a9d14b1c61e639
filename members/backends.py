"""Permissions by a login's roles in the club of the request (``members.roles``).

Django's ``ModelBackend`` gives a login the permissions of its groups, the same in every
club. This one gives the permissions of the roles the login holds in the club in scope: an
organizer of one club who is a member of another may change the first club's games and only
view the second's. A permission given to the login itself, or by a group of another name (the
site's own, in every club), still counts, as Django's. The role groups' members are not read:
nobody is in them since ``members 0008``, and a backup that puts someone there is turned into
roles when it is restored."""

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AnonymousUser, Group, Permission, User

from members.models import default_club
from members.roles import MEMBER, ORGANIZER, club_roles, rights_of_roles

_APP = "content_type__app_label"


class ClubRoleBackend(ModelBackend):
    def get_group_permissions(self, user_obj: User | AnonymousUser, obj: Any = None) -> set[str]:
        if not user_obj.is_active or user_obj.is_anonymous or obj is not None:
            return set()
        key = default_club()  # the club in scope, else the site's one club
        cache: dict[int, set[str]] = user_obj.__dict__.setdefault("_perms_in_clubs", {})
        if key not in cache:
            roles = club_roles(user_obj)
            rights = rights_of_roles() if roles else {}
            groups = Group.objects.filter(user=user_obj).exclude(name__in=[ORGANIZER, MEMBER])
            others = Permission.objects.filter(group__in=groups)
            cache[key] = set().union(
                *(rights.get(role, frozenset()) for role in roles),
                (f"{app}.{code}" for app, code in others.values_list(_APP, "codename")),
            )
        return set(cache[key])

    def get_all_permissions(self, user_obj: User | AnonymousUser, obj: Any = None) -> set[str]:
        """Django's, without its cache of the whole set on the login: the set depends on the
        club in scope, and one login object may be read in two clubs' scopes."""
        if not user_obj.is_active or user_obj.is_anonymous or obj is not None:
            return set()
        if getattr(user_obj, "is_superuser", False):
            return super().get_all_permissions(user_obj, obj)
        return {*self.get_user_permissions(user_obj, obj), *self.get_group_permissions(user_obj)}
