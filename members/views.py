from datetime import timedelta
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST, require_safe

from members import invitations, locks
from members.forms import (
    AcceptInvitationForm,
    CountedPasswordChangeForm,
    InvitationForm,
    MemberForm,
    RoleChangeForm,
    SignInForm,
    SignUpForm,
)
from members.models import Club, ClubRole, DisplaySettings, Invitation, Member
from members.roles import ORGANIZER, organizer_required, roles_in_clubs
from members.scopes import CHOSEN_CLUB


@require_safe
def member_list(request: HttpRequest) -> HttpResponse:
    members = Member.objects.all()
    context = {"members": members, "signup_on": settings.SIGNUP_BY_INVITATION}
    return render(request, "members/member_list.html", context)


@organizer_required
def member_create(request: HttpRequest) -> HttpResponse:
    return _member_form(request, Member())


@organizer_required
def member_edit(request: HttpRequest, pk: int) -> HttpResponse:
    return _member_form(request, get_object_or_404(Member, pk=pk))


def _member_form(request: HttpRequest, member: Member) -> HttpResponse:
    form = MemberForm(request.POST or None, instance=member)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Saved %(name)s.") % {"name": member.name})
        return redirect("members:list")
    status = 400 if request.method == "POST" else 200
    return render(
        request, "members/member_form.html", {"form": form, "member": member}, status=status
    )


class SignInView(auth_views.LoginView):
    """Django's sign-in page; after a failed try it says how many tries are left."""

    redirect_authenticated_user = True
    authentication_form = SignInForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "signup_on": settings.SIGNUP_BY_INVITATION}

    def form_invalid(self, form: Form) -> HttpResponse:
        context = self.get_context_data(form=form)
        # Set when the name and password were tried (not when a field was left empty).
        address = getattr(self.request, "axes_ip_address", None)
        if address is not None:
            username = form.cleaned_data.get("username")
            context["tries_left"] = locks.tries_left(username, address)
            context["lock_minutes"] = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
        return self.render_to_response(context)


class PasswordChangeView(auth_views.PasswordChangeView):
    """A member's own password; a wrong old password counts towards the sign-in lock."""

    form_class = CountedPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}


@organizer_required
@require_safe
def lock_list(request: HttpRequest) -> HttpResponse:
    """Sign-in locks (django-axes): who failed to sign in, and a button to lift each lock."""
    failures = locks.recent_failures()
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    seen = locks.seen_by(request.user)
    attempts = seen.filter(attempt_time__gte=since).order_by("-attempt_time")
    rows = [
        {
            "attempt": a,
            # The name at that address, or the whole address, is locked (members/locks.py).
            "locked": locks.tries_left_in(failures, a.username, a.ip_address) == 0,
            "until": a.attempt_time + settings.AXES_COOLOFF_TIME,
        }
        for a in attempts
    ]
    context = {
        "rows": rows,
        "limit": settings.AXES_FAILURE_LIMIT,
        "address_limit": settings.SIGNIN_ADDRESS_LIMIT,
    }
    return render(request, "members/lock_list.html", context)


@organizer_required
@require_POST
def lock_release(request: HttpRequest, pk: int) -> HttpResponse:
    """Lift a lock: forget the failures of that login name at that address (all of the
    address's failures when the address itself is locked), of those the organizer may see
    (``locks.seen_by``); another club's login's lock is not found."""
    seen = locks.seen_by(request.user)
    attempt = get_object_or_404(seen, pk=pk)
    locks.release(attempt.username, attempt.ip_address, among=seen)
    messages.success(
        request,
        _("Released the lock on %(who)s.")
        % {"who": f"{attempt.username or '—'} ({attempt.ip_address or '—'})"},
    )
    return redirect("members:locks")


@require_POST
def session_extend(request: HttpRequest) -> JsonResponse:
    """「延長する」 of the warning before a session ends: any request made while signed in
    starts the idle time again (``SESSION_SAVE_EVERY_REQUEST``); this one says how long."""
    request.session.modified = True
    return JsonResponse({"seconds": settings.SESSION_COOKIE_AGE})


@login_not_required
@require_POST
def display_settings(request: HttpRequest) -> HttpResponse:
    """Keep the chosen text size, contrast or ruby (the 「文字」 menu, and the footer's ruby
    switch): with the login when signed in (its other devices show the same), in the session
    in both cases, where every page reads it. An unknown value is refused and nothing kept.
    Answers a script's request with 204, a form's with the page it came from."""
    fields: dict[str, str | bool] = {}
    for name, choices in (
        ("text_size", DisplaySettings.TextSize.values),
        ("contrast", DisplaySettings.Contrast.values),
        ("show_ruby", DisplaySettings.Ruby.values),
    ):
        value = request.POST.get(name)
        if value is None:
            continue
        if value not in choices:
            return HttpResponseBadRequest(_("Unknown display setting."))
        fields[name] = value == DisplaySettings.Ruby.ON if name == "show_ruby" else value
    kept = {**request.session.get("display", {}), **fields}
    if request.user.is_authenticated:
        saved, _created = DisplaySettings.objects.update_or_create(
            user=request.user, defaults=fields
        )
        kept = {
            "text_size": saved.text_size,
            "contrast": saved.contrast,
            "show_ruby": saved.show_ruby,
            "saved": True,
        }
    request.session["display"] = kept
    if request.headers.get("X-Requested-With") == "fetch":
        return HttpResponse(status=204)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = "/"
    return redirect(back)


@require_POST
def choose_club(request: HttpRequest) -> HttpResponse:
    """The menu's choice of club, for a login with roles in several: its pages are that
    club's from now on (kept in the session, ``members.scopes.club_of_request``). A club the
    login holds no role in is refused (403), and a superuser may choose any club."""
    try:
        key = int(request.POST.get("club", ""))
    except ValueError:
        return HttpResponseBadRequest(_("Choose a club."))
    if not request.user.is_superuser and key not in roles_in_clubs(request.user):
        raise PermissionDenied
    club = get_object_or_404(Club, pk=key)
    request.session[CHOSEN_CLUB] = club.pk
    messages.success(request, _("Now showing %(club)s.") % {"club": club.shown_name})
    return redirect("home")


def _signup_on() -> None:
    if not settings.SIGNUP_BY_INVITATION:
        raise Http404


@organizer_required
def invitation_list(request: HttpRequest) -> HttpResponse:
    """The club's invitation codes, and a new one for a member (the organizer's page)."""
    _signup_on()
    form = InvitationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        invitation = form.save(commit=False)
        invitation.made_by = request.user
        invitation.expires_at = timezone.now() + timedelta(days=form.cleaned_data["days"])
        invitation.save()
        messages.success(
            request,
            _("The invitation code for %(name)s is %(code)s.")
            % {"name": invitation.member.name, "code": invitation.shown_code},
        )
        return redirect("members:invitations")
    invitations = Invitation.objects.select_related("member", "used_by")
    context = {"form": form, "invitations": invitations, "now": timezone.now()}
    status = 400 if form.errors else 200
    return render(request, "members/invitation_list.html", context, status=status)


@organizer_required
@require_POST
def invitation_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back a code not used yet (a used one stays, as the record of who used it)."""
    _signup_on()
    invitation = get_object_or_404(Invitation, pk=pk, used_at__isnull=True)
    invitation.delete()
    messages.success(request, _("The invitation code was taken back."))
    return redirect("members:invitations")


@login_not_required
@sensitive_post_parameters("password1", "password2")
def sign_up(request: HttpRequest) -> HttpResponse:
    """A member's own login from the invitation code the organizer gave them; a login signed
    in already takes the invitation's role in that club instead."""
    _signup_on()
    signed_in = request.user.is_authenticated
    form: AcceptInvitationForm | SignUpForm = (
        AcceptInvitationForm(request.POST or None)
        if signed_in
        else SignUpForm(request.POST or None)
    )
    if request.method == "POST" and form.is_valid():
        try:
            if signed_in:
                user = cast(User, request.user)  # signed in: the stubs type it wider
                invitation = invitations.accept(form.cleaned_data["code"], user)
            else:
                user, invitation = invitations.sign_up(
                    form.cleaned_data["code"],
                    form.cleaned_data["username"],
                    form.cleaned_data["password1"],
                )
                login(request, user, backend="members.backends.ClubRoleBackend")
        except ValidationError as error:
            form.add_error("code", error)
        else:
            request.session[CHOSEN_CLUB] = invitation.club_id
            messages.success(
                request,
                _("Welcome. You are %(name)s of %(club)s.")
                % {"name": invitation.member.name, "club": invitation.club.shown_name},
            )
            return redirect("home")
    status = 400 if request.method == "POST" else 200
    return render(
        request, "members/sign_up.html", {"form": form, "signed_in": signed_in}, status=status
    )


@organizer_required
def role_list(request: HttpRequest) -> HttpResponse:
    """Who holds which role in the club (the organizer's page): a role made 記録係 or 会員, or
    taken away (someone who left), which is asked first: it cannot be undone here. The club
    keeps one organizer at least: the last one's role is not taken away or lowered here."""
    if request.method == "POST":
        change = RoleChangeForm(request.POST)
        if not change.is_valid():
            return HttpResponseBadRequest(_("Choose a login and what to do."))
        role = get_object_or_404(ClubRole, pk=change.cleaned_data["role_id"])
        action = change.cleaned_data["action"]
        organizers = ClubRole.objects.filter(role=ORGANIZER)
        last = role.role == ORGANIZER and organizers.count() == 1
        if last and action != ORGANIZER:
            messages.error(
                request, _("The club keeps one organizer at least: make another one first.")
            )
            return redirect("members:roles")
        name = role.user.get_username()
        if action == RoleChangeForm.REMOVE and not change.cleaned_data["confirmed"]:
            member = Member.objects.filter(user_id=role.user_id).first()
            context = {
                "role": role,
                "member_name": member.name if member else "",
                "signup": settings.SIGNUP_BY_INVITATION,
            }
            return render(request, "members/role_remove_confirm.html", context)
        if action == RoleChangeForm.REMOVE:
            role.delete()
            messages.success(request, _("%(login)s holds no role here now.") % {"login": name})
        elif action != role.role:
            ClubRole.objects.filter(user_id=role.user_id, role=action).delete()
            role.role = action
            role.save(update_fields=["role"])  # staff status follows (staff_follows_roles)
            messages.success(
                request,
                _("%(login)s is %(role)s now.") % {"login": name, "role": role.get_role_display()},
            )
        return redirect("members:roles")
    roles = list(ClubRole.objects.select_related("user").order_by("user__username", "role"))
    members = {m.user_id: m.name for m in Member.objects.filter(user__isnull=False)}
    rows = [(r, members.get(r.user_id, "")) for r in roles]
    return render(request, "members/role_list.html", {"rows": rows})
