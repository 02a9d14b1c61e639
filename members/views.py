from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from members.forms import MemberForm
from members.models import Member
from members.roles import organizer_required


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
