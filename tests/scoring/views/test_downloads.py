"""Reports as tasks (scoring/reports/making.py and views/downloads.py): queued once, their
progress shown, made once and kept, asked for again unchanged served from what was kept, made
again after a change, pruned when old; a finalised meet queues its month and half-year.

The renderers are replaced by a fake that counts its calls and tells its progress, so these
tests make no PDF; the real renderers are read back in test_reports.py, and a real worker
runs in test_report_worker.py."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.tasks import default_task_backend
from django.utils import timezone

from scoring.models import Hanchan, Meet, Report, ReportStatus
from scoring.reports import making, pdf, xlsx
from scoring.reports.making import Spec, ask, kept_path, prune
from scoring.standings import Filters, Period

pytestmark = pytest.mark.django_db
DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
HALF = "/reports/standings.pdf?period=2025-H1"


class FakeRenderer:
    """Counts its calls; tells progress through two of three members, as the real one does;
    returns the number of the call in the file, and what the row said meanwhile."""

    def __init__(self) -> None:
        self.calls = 0
        self.rows_seen: list[tuple[str, int, int]] = []

    def __call__(self, filters, *, progress, **kwargs):
        self.calls += 1
        progress("Member pages", 2, 3)
        row = Report.objects.get(status=ReportStatus.MAKING)
        self.rows_seen.append((row.step, row.done, row.total))
        progress("Member pages", 3, 3)
        return (f"{filters.period.key}.pdf", "application/pdf", b"%%PDF call %d" % self.calls)


@pytest.fixture
def fake(monkeypatch) -> FakeRenderer:
    renderer = FakeRenderer()
    monkeypatch.setattr(pdf, "render_standings_pdf", renderer)
    monkeypatch.setattr(xlsx, "render_standings_xlsx", renderer)
    return renderer


def test_a_report_asked_for_is_made_by_its_task_and_served(member_client, recorded_game, fake):
    response = member_client.get(HALF)
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"%PDF call 1"
    assert response["Content-Disposition"] == 'attachment; filename="2025-H1.pdf"'
    report = Report.objects.get()
    assert report.status == ReportStatus.READY and kept_path(report).exists()
    # The task wrote its progress into the row while it ran.
    assert fake.rows_seen == [("Member pages", 2, 3)]


def test_asked_for_again_unchanged_it_comes_from_what_was_kept(member_client, recorded_game, fake):
    first = b"".join(member_client.get(HALF).streaming_content)
    again = b"".join(member_client.get(HALF).streaming_content)
    assert first == again == b"%PDF call 1"
    assert fake.calls == 1
    assert Report.objects.count() == 1


def test_after_a_change_to_a_game_the_report_is_made_again(
    member_client, recorded_game, four_members, fake
):
    member_client.get(HALF)
    entries = [
        making_entry(member, seat, score)
        for seat, (member, score) in enumerate(
            zip(four_members, (40_000, 30_000, 30_000, 20_000), strict=True)
        )
    ]
    recorded_game.record(entries, expected_version=recorded_game.version)
    again = b"".join(member_client.get(HALF).streaming_content)
    assert again == b"%PDF call 2"
    assert Report.objects.count() == 2


def making_entry(member, seat, score):
    from scoring.models import PlayerEntry

    return PlayerEntry(member, seat, score, 0, [])


def test_the_same_report_asked_for_while_queued_is_queued_once(
    member_client, recorded_game, settings, fake
):
    settings.TASKS = DUMMY
    default_task_backend.clear()
    for _ in range(3):
        response = member_client.get(HALF)
        assert response.status_code == 302  # to the report's page: not ready yet
    report = Report.objects.get()
    assert response["Location"] == f"/reports/{report.digest}/"
    assert len(default_task_backend.results) == 1
    assert default_task_backend.results[0].args == [report.pk]
    assert fake.calls == 0


def test_the_page_polls_the_progress_then_offers_the_file(
    member_client, recorded_game, settings, fake
):
    settings.TASKS = DUMMY
    html = member_client.get(HALF, headers={"HX-Request": "true"}).content.decode()
    report = Report.objects.get()
    assert f'hx-get="/reports/{report.digest}/"' in html and 'hx-trigger="every 1s"' in html
    assert "作成の順番を待っています" in html
    Report.objects.filter(pk=report.pk).update(
        status=ReportStatus.MAKING, step="会員ページ", done=12, total=50
    )
    polled = member_client.get(f"/reports/{report.digest}/", headers={"HX-Request": "true"})
    html = polled.content.decode()
    assert "会員ページ" in html and "12 / 50" in html
    assert '<progress max="50" value="12">' in html
    Report.objects.filter(pk=report.pk).update(status=ReportStatus.QUEUED)
    making.make(report.pk)  # what the worker does
    html = member_client.get(
        f"/reports/{report.digest}/", headers={"HX-Request": "true"}
    ).content.decode()
    assert "hx-trigger" not in html  # polling stops
    assert f'href="/reports/{report.digest}/file" download data-autodownload' in html
    file = member_client.get(f"/reports/{report.digest}/file")
    assert b"".join(file.streaming_content) == b"%PDF call 1"


def test_the_report_page_without_htmx_is_a_whole_page(member_client, recorded_game, settings):
    settings.TASKS = DUMMY
    report = ask(Spec.of("standings.pdf", Filters(period=Period.parse("2025-H1"))))
    page = member_client.get(f"/reports/{report.digest}/")
    assert page.status_code == 200
    assert "<html" in page.content.decode() and "report-progress" in page.content.decode()
    # Without JavaScript (no htmx polling) the page reloads itself until the file is there.
    assert '<noscript><meta http-equiv="refresh" content="3"></noscript>' in page.content.decode()
    # Its file is not there yet: back to the page.
    assert member_client.get(f"/reports/{report.digest}/file").status_code == 302
    Report.objects.filter(pk=report.pk).update(status=ReportStatus.FAILED)
    failed = member_client.get(f"/reports/{report.digest}/").content.decode()
    assert 'http-equiv="refresh"' not in failed  # a failed report is not asked again and again


def test_a_small_report_is_made_in_the_request_even_without_a_worker(
    member_client, recorded_game, settings
):
    settings.TASKS = DUMMY
    default_task_backend.clear()
    response = member_client.get(f"/meets/{recorded_game.meet.pk}/sheet.pdf")
    assert response.status_code == 200
    assert b"".join(response.streaming_content).startswith(b"%PDF-")
    assert default_task_backend.results == []


def test_a_failed_report_says_so_and_is_made_again_when_asked(
    member_client, recorded_game, monkeypatch
):
    def failing(filters, **kwargs):
        raise RuntimeError("layout failed")

    monkeypatch.setattr(pdf, "render_standings_pdf", failing)
    html = member_client.get(HALF, headers={"HX-Request": "true"}).content.decode()
    assert "作成できませんでした" in html
    report = Report.objects.get()
    assert report.status == ReportStatus.FAILED and "layout failed" in report.error
    monkeypatch.setattr(pdf, "render_standings_pdf", FakeRenderer())
    response = member_client.get(HALF)
    assert b"".join(response.streaming_content) == b"%PDF call 1"


def test_the_report_urls_need_a_club_role(outsider_client, client, recorded_game, fake):
    report = ask(Spec.of("standings.pdf", Filters(period=Period.parse("2025-H1"))))
    for url in (f"/reports/{report.digest}/", f"/reports/{report.digest}/file"):
        assert outsider_client.get(url).status_code == 403
        assert client.get(url).status_code == 302  # to sign in
    assert client.post(f"/reports/{report.digest}/").status_code in (302, 403)


def test_a_kept_report_not_asked_for_in_a_month_and_a_replaced_one_are_pruned(recorded_game, fake):
    filters = Filters(period=Period.parse("2025-H1"))
    old = ask(Spec.of("standings.pdf", filters))
    Report.objects.filter(pk=old.pk).update(finished_at=timezone.now() - timedelta(hours=2))
    newer = Report.objects.create(
        digest="b" * 64,
        spec=old.spec,
        spec_key=old.spec_key,
        status=ReportStatus.READY,
        asked_at=timezone.now(),
        finished_at=timezone.now() - timedelta(minutes=90),
    )
    kept_path(newer).write_bytes(b"newer")
    forgotten = Report.objects.create(
        digest="c" * 64,
        spec={},
        spec_key="x",
        status=ReportStatus.READY,
        asked_at=timezone.now() - timedelta(days=31),
        finished_at=timezone.now() - timedelta(days=31),
    )
    kept_path(forgotten).write_bytes(b"old")
    path = kept_path(old)
    assert path.exists()
    assert prune() == 2
    assert not path.exists() and not kept_path(forgotten).exists()
    assert list(Report.objects.values_list("digest", flat=True)) == ["b" * 64]


def test_a_change_to_the_templates_makes_a_new_digest(recorded_game, monkeypatch):
    spec = Spec.of("standings.pdf", Filters(period=Period.parse("2025-H1")))
    before = making.digest_of(spec)
    assert making.digest_of(spec) == before
    monkeypatch.setattr(making, "template_version", lambda: "another")
    assert making.digest_of(spec) != before


def test_finalising_a_meet_queues_its_month_and_half_year(
    recorded_game, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DUMMY
    default_task_backend.clear()
    meet = Meet.objects.get(pk=recorded_game.meet.pk)
    with django_capture_on_commit_callbacks(execute=True):
        meet.finalise()
    queued = sorted((r.spec["kind"], r.spec["period"], r.status) for r in Report.objects.all())
    month = f"{meet.date:%Y-%m}"
    half = Period.containing(meet.date).key
    assert queued == [
        ("standings.pdf", month, "queued"),
        ("standings.pdf", half, "queued"),
        ("standings.xlsx", month, "queued"),
        ("standings.xlsx", half, "queued"),
    ]
    assert len(default_task_backend.results) == 4


def test_export_report_makes_it_here_with_a_progress_bar_and_keeps_it(
    recorded_game, fake, tmp_path, capsys
):
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    call_command("export_report", "--period", "2025-H1", "--output", str(first))
    err = capsys.readouterr().err
    assert "Member pages [####################..........] 2/3" in err
    assert "Member pages [##############################] 3/3" in err
    call_command("export_report", "--period", "2025-H1", "--output", str(second))
    assert first.read_bytes() == second.read_bytes() == b"%PDF call 1"
    assert fake.calls == 1


def test_a_game_entered_after_the_report_is_in_the_next_one(recorded_game, four_members, fake):
    spec = Spec.of("standings.pdf", Filters(period=Period.parse("2025-H1")))
    first = ask(spec)
    game = Hanchan(meet=recorded_game.meet, table_no=1, round_no=2, rule_set=recorded_game.rule_set)
    game.record(
        [making_entry(m, s, 30_000 - 1000 * s) for s, m in enumerate(four_members[:3])]
        + [making_entry(four_members[3], 3, 33_000)]
    )
    second = ask(spec)
    assert second.digest != first.digest and fake.calls == 2
