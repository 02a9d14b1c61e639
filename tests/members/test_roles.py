"""The roles' guards (members/roles.py): who reaches a view."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.test import RequestFactory

from members.roles import open_to_visitors_when

pytestmark = pytest.mark.django_db


def page(request):
    return HttpResponse("the page")


@pytest.mark.parametrize("is_open", [True, False])
def test_a_visitor_reads_an_open_page_and_is_sent_to_sign_in_while_it_is_closed(is_open):
    guarded = open_to_visitors_when(lambda: is_open)(page)
    request = RequestFactory().get("/standings/?period=2025-H2")
    request.user = AnonymousUser()
    response = guarded(request)
    if is_open:
        assert response.content == b"the page"
    else:
        assert response.status_code == 302
        assert response["Location"] == "/login/?next=/standings/%3Fperiod%3D2025-H2"


def test_a_member_reads_the_page_while_it_is_closed(bob):
    guarded = open_to_visitors_when(lambda: False)(page)
    request = RequestFactory().get("/standings/")
    request.user = bob
    assert guarded(request).content == b"the page"


def test_the_guarded_view_needs_no_sign_in_of_the_middleware():
    """LoginRequiredMiddleware leaves it to the guard; ClubRoleRequiredMiddleware still turns
    away a login without a club role."""
    guarded = open_to_visitors_when(lambda: False)(page)
    assert guarded.login_required is False
    assert guarded.__name__ == "page"
