"""The workers' fair sharing between clubs (scoring/reports/parts.py, ``share_fairly``; issue
42): idle workers help finish a report being made before they begin the next one queued, but
not while a report of another club waits that no worker has begun. Read from the database
queue as a worker takes from it: ``DBTaskResult.objects.ready()`` in its own order (priority,
then when), the first it can lock."""

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from members.models import Club
from members.scopes import in_club
from scoring.clubs import fill_new_club
from scoring.models import Report, ReportPart, ReportStatus
from scoring.reports import making, parts
from scoring.reports.asking import Maker, ask
from scoring.reports.specs import Spec
from scoring.reports.taking_up import take_up
from scoring.standings import Filters, Period

pytestmark = pytest.mark.django_db


@pytest.fixture
def database_queue(settings):
    """Reports are queued in the database, and no worker runs: the test takes as one would."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture
def sakura(club_rule) -> Club:
    club = Club.objects.create(name="桜会", slug="sakura")
    fill_new_club(club)
    return club


def queued(period: str, by=None) -> Report:
    """A standings PDF of ``period`` asked for in the club in scope, queued for a worker."""
    spec = Spec.of("standings.pdf", Filters(period=Period.parse(period)))
    report = ask(spec, by=by, maker=Maker.WORKER)
    assert report.status == ReportStatus.QUEUED
    return report


def begun(report: Report) -> list[ReportPart]:
    """``report`` taken by a worker (its task claimed, its row being made), which shares its
    three parts with the idle workers, in the report's club, as ``parts.make_all`` does."""
    task = DBTaskResult.objects.get(pk=report.task_id)
    task.claim("maker")
    assert Report.claim(report.pk)
    pieces = [parts.Piece(f"<p>{report.pk} の {n}</p>") for n in range(3)]
    with in_club(report.club_id):
        made = parts.prepare(pieces)
        parts.queue(made)
    return made


def taken() -> tuple[str, list]:
    """What the next idle worker takes (and so claims): its task's name and arguments."""
    task = DBTaskResult.objects.ready().get_locked()
    assert task is not None, "nothing queued"
    task.claim("idle")
    return task.task_path.rsplit(".", 1)[1], task.args_kwargs["args"]


def test_a_report_of_another_club_is_begun_before_the_help_with_a_big_one(
    database_queue, sakura, club_rule
):
    """Our club's half-year report is being made, its parts queued for idle workers; a report
    of 桜会 asked for then is the next task an idle worker takes. Once a worker has begun it,
    the help with ours comes first again, before our own members' next report."""
    ours = queued("2025-H2")
    our_parts = begun(ours)
    with in_club(sakura):
        theirs = queued("2025-H2")
    later_ours = queued("2025-10")

    assert taken() == ("make_report", [theirs.pk])
    assert making.make(theirs.pk) == ReportStatus.READY  # begun (and made) by that worker
    # The help with ours, each part, last first; then our member's report.
    helped = [taken() for _ in our_parts]
    assert helped == [("make_report_part", [p.pk, Club.DEFAULT_PK]) for p in reversed(our_parts)]
    assert taken() == ("make_report", [later_ours.pk])
    assert DBTaskResult.objects.ready().get_locked() is None


def test_a_report_begun_while_another_clubs_waits_queues_its_help_behind_it(
    database_queue, sakura, club_rule
):
    """桜会's report is waiting when ours is begun: our parts are queued behind it."""
    with in_club(sakura):
        theirs = queued("2025-H2")
    # Ours is the organizer's, ahead of 桜会's member's: a worker begins it first.
    ours = queued("2025-H2")
    DBTaskResult.objects.filter(pk=theirs.task_id).update(priority=0)
    DBTaskResult.objects.filter(pk=ours.task_id).update(priority=5)
    assert str(DBTaskResult.objects.ready().first().pk) == ours.task_id
    our_parts = begun(ours)

    assert taken() == ("make_report", [theirs.pk])
    assert [taken()[0] for _ in our_parts] == ["make_report_part"] * len(our_parts)


def test_within_one_club_the_help_with_a_report_begun_comes_first(database_queue, club_rule):
    """One club alone, as before: a member's report asked for while the half-year report is
    being made waits until its parts are taken."""
    our_parts = begun(queued("2025-H2"))
    later = queued("2025-10")
    assert [taken()[0] for _ in our_parts] == ["make_report_part"] * len(our_parts)
    assert taken() == ("make_report", [later.pk])


def test_a_part_helped_without_a_club_as_queued_before_clubs_is_still_made(
    database_queue, club_rule, sakura
):
    """A part task queued by the code before clubs (its part alone) is made as before, and
    moved behind a report of a club that waits like any other club's help."""
    (part,) = parts.prepare([parts.Piece("<p>前から</p>")])
    parts.make_report_part.using(priority=parts.HELPING).enqueue(part.pk)
    with in_club(sakura):
        theirs = queued("2025-H2")
    assert taken() == ("make_report", [theirs.pk])
    assert taken() == ("make_report_part", [part.pk])
    assert parts.make_part(part.pk)


def test_a_report_of_another_club_left_queued_by_a_request_that_died_takes_no_help_away(
    database_queue, sakura, club_rule
):
    """A report made at once in a request (no task) whose request died before making it stays
    queued for its page to take up; it is no report a worker could begin, so the help with
    ours is queued ahead as before."""
    with in_club(sakura):
        spec = Spec.of("games.csv", Filters(period=Period.parse("2025-H2")))
        Report.objects.create(
            digest="died", spec=spec.as_json(), spec_key=spec.key, asked_at=timezone.now()
        )
    our_parts = begun(queued("2025-H2"))
    later = queued("2025-10")
    assert [taken()[0] for _ in our_parts] == ["make_report_part"] * len(our_parts)
    assert taken() == ("make_report", [later.pk])


def test_our_own_report_waiting_does_not_put_our_help_behind(database_queue, club_rule):
    """A report of our own club waiting when ours is begun: our parts still come first."""
    ours = queued("2025-H2")
    later = queued("2025-10")
    DBTaskResult.objects.filter(pk=ours.task_id).update(priority=5)
    our_parts = begun(ours)
    assert [taken()[0] for _ in our_parts] == ["make_report_part"] * len(our_parts)
    assert taken() == ("make_report", [later.pk])


def test_a_report_of_another_club_already_begun_takes_no_help_away(
    database_queue, sakura, club_rule
):
    """桜会's report is being made already (a worker took it): it waits for no worker, so the
    help with ours is queued ahead of the reports waiting."""
    with in_club(sakura):
        theirs = queued("2025-H2")
    assert taken() == ("make_report", [theirs.pk])
    assert Report.claim(theirs.pk)
    our_parts = begun(queued("2025-H2"))
    assert [taken()[0] for _ in our_parts] == ["make_report_part"] * len(our_parts)


def test_a_report_of_another_club_queued_again_after_its_worker_died_is_begun_first(
    database_queue, sakura, club_rule
):
    """桜会's worker died making its report: its page takes it up, its own task queued again,
    and that task comes before the help with ours."""
    with in_club(sakura):
        theirs = queued("2025-H2")
        assert taken() == ("make_report", [theirs.pk])
        assert Report.claim(theirs.pk)
    our_parts = begun(queued("2025-H2"))
    long_ago = timezone.now() - timedelta(hours=1)
    with in_club(sakura):
        Report.objects.filter(pk=theirs.pk).update(beat_at=long_ago, started_at=long_ago)
        theirs.refresh_from_db()
        assert take_up(theirs).status == ReportStatus.QUEUED
    assert taken() == ("make_report", [theirs.pk])
    assert [taken()[0] for _ in our_parts] == ["make_report_part"] * len(our_parts)
