"""Sign-up by an invitation code (``SHIRAKABA_SIGNUP``): a club's organizer gives one member a
code; with it the member makes their own login, linked to their record and holding the
invitation's role in the club, or adds that role to the login they already have. The code is
used once, and only until it expires; it is found in whatever club made it (a visitor does not
say a club), and everything after is done in that club's scope, all or nothing."""

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from members.models import Invitation, Member
from members.roles import grant
from members.scopes import in_club, scopes_disabled

NOT_USABLE = gettext_lazy(
    "This invitation code cannot be used: it is not one we gave, it has been used, or its "
    "time is over. Ask the club's organizer for a new one."
)


def usable_invitation(code: str) -> Invitation:
    """The invitation of ``code``, locked until the transaction ends, or ``ValidationError``."""
    with scopes_disabled():
        found = (
            Invitation.objects.select_for_update()
            .select_related("club", "member")
            .filter(code=code)
            .first()
        )
    if found is None or not found.usable(timezone.now()):
        raise ValidationError(NOT_USABLE, code="invitation")
    return found


def take_up(invitation: Invitation, user: User) -> None:
    """Give ``user`` the invitation's role and its member's record in the invitation's club,
    and mark it used. Inside the caller's transaction, with the invitation locked."""
    with in_club(invitation.club):
        member = Member.objects.select_for_update().get(pk=invitation.member_id)
        if member.user_id is not None and member.user_id != user.pk:
            raise ValidationError(
                _("%(name)s has a login already; ask the club's organizer.")
                % {"name": member.name},
                code="member_has_login",
            )
        elsewhere = Member.objects.filter(user=user).exclude(pk=member.pk).first()
        if elsewhere is not None:
            raise ValidationError(
                _("Your login is %(name)s's in this club already.") % {"name": elsewhere.name},
                code="login_has_member",
            )
        member.user = user
        member.save(update_fields=["user"])
        grant(user, invitation.role, invitation.club)  # 記録係 with staff status
        invitation.used_by = user
        invitation.used_at = timezone.now()
        invitation.save(update_fields=["used_by", "used_at"])


def sign_up(code: str, username: str, password: str) -> tuple[User, Invitation]:
    """A new login from an invitation code; nothing is saved if anything is refused."""
    with transaction.atomic():
        invitation = usable_invitation(code)
        user = User.objects.create_user(username, password=password)
        take_up(invitation, user)
    return user, invitation


def accept(code: str, user: User) -> Invitation:
    """The invitation's role for a login that has one already; all or nothing."""
    with transaction.atomic():
        invitation = usable_invitation(code)
        take_up(invitation, user)
    return invitation
