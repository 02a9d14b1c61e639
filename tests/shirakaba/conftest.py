"""Fixtures of the site-wide tests: one of everything the site shows."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.apps import apps
from django.utils import timezone
from django_tasks_db.models import DBTaskResult, get_date_max

from members.models import Invitation
from scoring.models import ClubSettings, DrawnPlace, Report


@pytest.fixture
def sample(meet, recorded_game, club_rule, four_members, alice, bob, settings):
    """One of everything, so that every pattern with an id has a real object to point at (the
    recorded game brings its meet, results and a big hand), with sign-up by invitation
    switched on so that its pages are there to walk."""
    settings.SIGNUP_BY_INVITATION = True
    invitation = Invitation.objects.create(
        member=four_members[1], expires_at=timezone.now() + timedelta(days=14)
    )
    DrawnPlace.objects.create(meet=meet, round_no=2, table_no=1, member=four_members[0])
    attempt = AccessAttempt.objects.create(
        username="carol", ip_address="10.0.0.1", user_agent="x", failures_since_start=1
    )
    AccessLog.objects.create(username="bob", ip_address="10.0.0.1", user_agent="x")
    AccessFailureLog.objects.create(username="carol", ip_address="10.0.0.1", user_agent="x")
    ClubSettings.load().save()  # the club's one row of settings, as the organizer saves it
    for model in apps.get_models():
        if hasattr(model._meta, "simple_history_manager_attribute") and not model.history.exists():
            # Rows made by a data migration, before history was kept.
            model.history.bulk_history_create(list(model.objects.all()))
    report = Report.objects.create(
        digest="d" * 64, spec={"kind": "meet.pdf", "meet": meet.pk}, asked_at=timezone.now()
    )
    DBTaskResult.objects.create(  # a report's task, queued and never run
        args_kwargs={"args": [report.pk], "kwargs": {}},
        task_path="scoring.reports.making.make_report",
        backend_name="default",
        run_after=get_date_max(),
    )
    return {
        "report": report,
        "meet": meet,
        "game": recorded_game,
        "member": four_members[0],
        "rule": club_rule,
        "attempt": attempt,
        "user": bob,
        "invitation": invitation,
    }
