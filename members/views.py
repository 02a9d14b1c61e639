from collections import Counter

from axes.models import AccessAttempt
from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from members.forms import MemberForm
from members.models import Member
from members.roles import organizer_required


@require_safe
def member_list(request: HttpRequest) -> HttpResponse:
    members = Member.objects.all()
    return render(request, "members/member_list.html", {"members": members})


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


@organizer_required
@require_safe
def lock_list(request: HttpRequest) -> HttpResponse:
    """Sign-in locks (django-axes): who failed to sign in, and a button to lift each lock."""
    limit = settings.AXES_FAILURE_LIMIT
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    attempts = list(AccessAttempt.objects.filter(attempt_time__gte=since))
    by_name: Counter[str | None] = Counter()
    by_address: Counter[str | None] = Counter()
    for a in attempts:
        by_name[a.username] += a.failures_since_start
        by_address[a.ip_address] += a.failures_since_start
    rows = [
        {
            "attempt": a,
            # Either the login name or the address has reached the limit (settings.py).
            "locked": by_name[a.username] >= limit or by_address[a.ip_address] >= limit,
            "until": a.attempt_time + settings.AXES_COOLOFF_TIME,
        }
        for a in sorted(attempts, key=lambda a: a.attempt_time, reverse=True)
    ]
    return render(request, "members/lock_list.html", {"rows": rows, "limit": limit})


@organizer_required
@require_POST
def lock_release(request: HttpRequest, pk: int) -> HttpResponse:
    """Lift a lock: forget the failures of that login name and of that address."""
    attempt = get_object_or_404(AccessAttempt, pk=pk)
    axes_reset(username=attempt.username, ip=attempt.ip_address, ip_or_username=True)
    messages.success(
        request,
        _("Released the lock on %(who)s.")
        % {"who": f"{attempt.username or '—'} ({attempt.ip_address or '—'})"},
    )
    return redirect("members:locks")
