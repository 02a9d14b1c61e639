"""What the project's middleware adds to every answer (shirakaba/middleware.py): what a
browser or a proxy may keep of a page with members' data."""

import pytest
from django.test import Client

from scoring.models import Report, RuleSet

pytestmark = pytest.mark.django_db
NOT_KEPT = "private, no-store"


def directives(response) -> set[str]:
    return {d.strip() for d in response.get("Cache-Control", "").split(",") if d.strip()}


class TestSignedInAnswersAreNotKept:
    """A club PC or tablet is shared: nothing shown to a signed-in person is kept by the
    browser or a proxy (`Cache-Control: private, no-store`)."""

    @pytest.mark.parametrize("path", ["/members/", "/standings/?period=all", "/meets/"])
    def test_a_page(self, member_client, recorded_game, path):
        response = member_client.get(path)
        assert response.status_code == 200
        assert response["Cache-Control"] == NOT_KEPT

    def test_a_download_and_the_report_file_it_is_kept_as(self, member_client, recorded_game):
        response = member_client.get("/reports/games.csv?period=all")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/csv")
        assert response["Cache-Control"] == NOT_KEPT
        report = Report.objects.get()
        again = member_client.get(f"/reports/{report.digest}/file")
        assert again.status_code == 200 and "attachment" in again["Content-Disposition"]
        assert again["Cache-Control"] == NOT_KEPT
        progress = member_client.get(f"/reports/{report.digest}/", HTTP_HX_REQUEST="true")
        assert progress["Cache-Control"] == NOT_KEPT

    def test_a_members_chart_is_not_kept_either(self, member_client, recorded_game, four_members):
        response = member_client.get(f"/members/{four_members[0].pk}/chart/places.svg")
        assert response.status_code == 200
        assert response["Cache-Control"] == NOT_KEPT

    def test_an_organizers_page_and_a_refusal(self, organizer_client, member_client):
        assert organizer_client.get("/members/new/")["Cache-Control"] == NOT_KEPT
        refused = member_client.get("/members/new/")
        assert refused.status_code == 403 and refused["Cache-Control"] == NOT_KEPT

    @pytest.mark.slow
    def test_a_pdf_made_in_the_request(self, member_client):
        rule = RuleSet.objects.default()
        response = member_client.get(f"/rules/{rule.pk}/score-table.pdf")
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        assert response["Cache-Control"] == NOT_KEPT


def test_public_pages_for_visitors_are_left_as_they_were(settings, recorded_game):
    """A visitor not signed in sees only what is open to anyone: no member's own data."""
    settings.STANDINGS_PUBLIC = True
    visitor = Client()
    response = visitor.get("/standings/?period=all")
    assert response.status_code == 200
    assert "no-store" not in directives(response)
