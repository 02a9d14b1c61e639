"""Making reports (scoring/reports/making.py, asking.py, pruning.py, registry.py): pruning, digests, what a finalise queues, and
the limits (issue 26): how many one person may have waiting, a report replaced by a
newer one of the same request not made, the kept files bounded in size; a reports directory
the server cannot write gives every kind of report the same clear page, and nothing
half-written."""

import errno
import itertools
import resource
import signal
from datetime import date, time, timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.tasks import default_task_backend
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from members.models import Club, Member
from members.scopes import in_club
from scoring.clubs import fill_new_club
from scoring.models import (
    Award,
    Hanchan,
    Meet,
    Report,
    ReportPart,
    ReportStatus,
    StandingsGroup,
)
from scoring.reports import (
    asking,
    fingerprints,
    keep,
    kept_files,
    making,
    news,
    parts,
    pdf,
    registry,
)
from scoring.reports.asking import ask
from scoring.reports.kept import kept_name
from scoring.reports.pruning import prune
from scoring.reports.specs import Spec
from scoring.standings import Filters, Period
from tests.builders import in_our_club, making_entry, reports_kept_in

pytestmark = pytest.mark.django_db


DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
FULL = "作成待ちの帳票が 2 件あります"


def half_year_to(day: int) -> str:
    """A standings PDF of its own for each ``day``: April to September ``day``."""
    return f"/reports/standings.pdf?period=2025-04-01..2025-09-{day:02d}"


@pytest.fixture
def queue_only(settings):
    """Reports are queued and not made (no worker), at most two a person."""
    settings.TASKS = DUMMY
    settings.REPORTS_PER_PERSON = 2
    default_task_backend.clear()


def test_a_person_may_have_only_so_many_reports_waiting(
    member_client, organizer_client, bob, recorded_game, queue_only
):
    for day in (1, 2):
        assert member_client.get(half_year_to(day)).status_code == 302  # to its page
    refused = member_client.get(half_year_to(3))
    assert refused.status_code == 429
    page = refused.content.decode()
    assert FULL in page
    waiting = Report.objects.filter(asked_by=bob).order_by("pk")
    assert [r.status for r in waiting] == ["queued", "queued"]
    for report in waiting:  # the way to the ones waiting
        assert f'href="/reports/{report.digest}/"' in page
    assert len(default_task_backend.results) == 2
    # From a page with htmx: the same message, where the progress would be (htmx swaps a 200).
    fragment = member_client.get(half_year_to(3), headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and FULL in fragment.content.decode()
    # One already waiting, asked for again, is no new report: not refused.
    assert member_client.get(half_year_to(1)).status_code == 302
    # Another person is not held back by bob's.
    assert organizer_client.get(half_year_to(3)).status_code == 302
    # Once one of bob's is made, bob may ask for another.
    assert member_client.get(half_year_to(4)).status_code == 429
    making.make(waiting[0].pk)
    assert member_client.get(half_year_to(4)).status_code == 302
    assert Report.objects.count() == 4


def test_each_club_has_its_own_reports_and_its_own_limit_of_waiting_ones(
    bob, club_rule, queue_only
):
    """One spec asked for in two clubs is two reports, each found in its own club only, even
    when the two clubs' data are alike (here: neither has played); a person with as many
    waiting in one club as they may have may still ask in another."""
    other = Club.objects.create(name="桜会", slug="sakura")
    fill_new_club(other)
    WORKER = asking.Maker.WORKER

    def standings(period: str) -> Spec:
        return Spec.of("standings.pdf", Filters(period=Period.parse(period)))

    with in_club(other):
        # Queued for a worker (their club has no games: made at once, they would not wait).
        theirs = [ask(standings(p), by=bob, maker=WORKER) for p in ("2025-H1", "2025-04")]
        with pytest.raises(asking.TooManyReports):
            ask(standings("2025-05"), by=bob, maker=WORKER)
    ours = ask(standings("2025-H1"), by=bob, maker=WORKER)  # not refused: theirs are B's
    assert ours.status == ReportStatus.QUEUED and ours.club_id == Club.DEFAULT_PK
    assert ours.digest != theirs[0].digest and ours.spec == theirs[0].spec
    assert not Report.objects.filter(pk__in=[r.pk for r in theirs]).exists()
    with in_club(other):
        assert {r.club_id for r in theirs} == {other.pk}
        assert Report.objects.filter(asked_by=bob).count() == 2


def test_trying_a_failed_report_again_counts_as_asking(
    member_client, bob, recorded_game, queue_only
):
    failed = ask(Spec.of("standings.pdf", Filters(period=Period.parse("2025-H1"))), by=bob)
    Report.objects.filter(pk=failed.pk).update(status=ReportStatus.FAILED)
    for day in (1, 2):
        member_client.get(half_year_to(day))
    again = member_client.post(f"/reports/{failed.digest}/again")
    assert again.status_code == 302  # the same report, not a new one: not refused
    # Its data changed since (here: its row no longer has the digest the data gives now), so
    # trying again asks for a new report, one too many.
    Report.objects.filter(pk=failed.pk).update(status=ReportStatus.FAILED, digest="f" * 64)
    refused = member_client.post(f"/reports/{'f' * 64}/again")
    assert refused.status_code == 429 and FULL in refused.content.decode()


@pytest.mark.slow  # a race: requests in threads at once
@pytest.mark.django_db(transaction=True)
def test_a_flood_of_requests_at_once_is_held_to_the_limit(bob, recorded_game, queue_only):
    """Eight asks of bob's at the same moment, each for a report of its own: two queued."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    def ask_for(day: int) -> str:
        try:
            period = Period.parse(f"2025-04-01..2025-09-{day:02d}")
            ask(Spec.of("standings.pdf", Filters(period=period)), by=bob)
            return "queued"
        except asking.TooManyReports:
            return "refused"
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = sorted(pool.map(in_our_club(ask_for), range(1, 9)))
    assert answers == ["queued"] * 2 + ["refused"] * 6
    assert Report.objects.filter(asked_by=bob).count() == 2


def test_the_reports_queued_by_a_finalise_are_not_limited(
    recorded_game, queue_only, settings, django_capture_on_commit_callbacks
):
    settings.REPORTS_PER_PERSON = 1
    with django_capture_on_commit_callbacks(execute=True):
        Meet.objects.get(pk=recorded_game.meet.pk).finalise()
    assert Report.objects.filter(asked_by=None, status=ReportStatus.QUEUED).count() == 4


def test_an_organizers_report_is_made_before_the_members_waiting(
    member_client, organizer_client, recorded_game, queue_only
):
    member_client.get(half_year_to(1))
    organizer_client.get(half_year_to(2))
    member, organizer = default_task_backend.results
    assert organizer.task.priority > member.task.priority
    assert organizer.task.priority < parts.HELPING  # parts of a report begun come first


@pytest.fixture
def data_version(monkeypatch):
    """The data's fingerprint, as a number the test turns: each turn is a save."""
    version = {"now": 1}
    monkeypatch.setattr(fingerprints, "fingerprint", lambda spec: version["now"])
    return version


class Counting:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, filters, **kwargs):
        self.calls += 1
        return ("half.pdf", "application/pdf", b"%%PDF %d" % self.calls)


def test_a_report_a_newer_one_of_the_same_request_replaced_is_not_made(
    member_client, recorded_game, settings, data_version, monkeypatch
):
    settings.TASKS = DUMMY
    renderer = Counting()
    monkeypatch.setattr(pdf, "render_standings_pdf", renderer)
    spec = Spec.of("standings.pdf", Filters(period=Period.parse("2025-H1")))
    older = ask(spec)
    data_version["now"] = 2  # a game saved
    newer = ask(spec)
    assert newer.digest != older.digest and newer.spec_key == older.spec_key
    # A worker picks the older one up: it is not made.
    assert making.make(older.pk) == "replaced"
    older.refresh_from_db()
    assert older.status == ReportStatus.REPLACED and renderer.calls == 0
    # Whoever still holds its page is sent to the newer one; polling, they get its progress.
    page = member_client.get(f"/reports/{older.digest}/")
    assert page.status_code == 302 and page["Location"] == f"/reports/{newer.digest}/"
    polled = member_client.get(f"/reports/{older.digest}/", headers={"HX-Request": "true"})
    assert f'hx-get="/reports/{newer.digest}/"' in polled.content.decode()
    file = member_client.get(f"/reports/{older.digest}/file", follow=True)
    assert file.redirect_chain[-1][0] == f"/reports/{newer.digest}/"
    # The newer one is made.
    assert making.make(newer.pk) == "ready" and renderer.calls == 1
    # Asked for again when the data is back as it was (a save undone): made after all.
    data_version["now"] = 1
    again = ask(spec)
    assert again.pk == older.pk and again.status == ReportStatus.QUEUED
    assert making.make(older.pk) == "ready" and renderer.calls == 2


def test_a_report_asked_for_again_after_a_newer_one_is_made(
    recorded_game, settings, data_version, monkeypatch
):
    """Newer means asked for later: the one asked for last is the one made."""
    settings.TASKS = DUMMY
    monkeypatch.setattr(pdf, "render_standings_pdf", Counting())
    spec = Spec.of("standings.pdf", Filters(period=Period.parse("2025-H1")))
    first = ask(spec)
    data_version["now"] = 2
    second = ask(spec)
    data_version["now"] = 1
    assert ask(spec).pk == first.pk  # the data as it was: the first is the newest asked
    assert making.make(second.pk) == "replaced"
    assert making.make(first.pk) == "ready"


def kept_report(digest: str, size: int, used: timedelta) -> Report:
    when = timezone.now() - used
    report = Report.objects.create(
        digest=digest * 64,
        spec={},
        spec_key=digest * 64,
        status=ReportStatus.READY,
        size=size,
        asked_at=when,
        finished_at=when,
    )
    keep(kept_name(report), b"r" * size)
    return report


def kept_part(digest: str, size: int, used: timedelta) -> ReportPart:
    when = timezone.now() - used
    part = ReportPart.objects.create(
        digest=digest * 64,
        status=ReportStatus.READY,
        size=size,
        used_at=when,
        finished_at=when,
    )
    keep(parts.part_name(part.digest), b"p" * size)
    return part


def test_the_kept_files_are_bounded_in_size_the_least_recently_used_going_first(settings, db):
    settings.REPORTS_MAX_BYTES = 1000
    kept_report("a", 400, timedelta(days=5))
    kept_part("b", 300, timedelta(days=4))
    kept_report("c", 300, timedelta(days=3))
    kept_part("d", 200, timedelta(days=2))
    kept_report("e", 250, timedelta(days=1))  # 1,450 bytes in all
    assert prune() == 2  # a and b: 750 bytes left
    assert sorted(Report.objects.values_list("digest", flat=True)) == ["c" * 64, "e" * 64]
    assert list(ReportPart.objects.values_list("digest", flat=True)) == ["d" * 64]
    files = [p for p in Path(settings.REPORTS_DIR).rglob("*") if p.is_file()]
    assert sorted(p.stat().st_size for p in files) == [200, 250, 300]


def test_the_kept_news_picture_and_notice_count_toward_the_bound(
    settings, recorded_game, monkeypatch
):
    """The picture and the 回覧板 are kept files like the reports: their sizes count, and the
    least recently used goes first when the kept files are over the bound."""
    monkeypatch.setattr(news, "news_png", lambda found, card=0: b"p" * 600)
    notice = ("shirakaba-notice-2025-04.pdf", "application/pdf", b"n" * 300)
    monkeypatch.setattr(pdf, "render_notice_pdf", lambda month, meets: notice)
    picture = ask(Spec.of("news.png", meet=recorded_game.meet_id, link="https://example.org/"))
    sheet = ask(Spec.of("notice.pdf", Filters(period=Period.parse("2025-04"))))
    assert (picture.status, picture.size, sheet.status, sheet.size) == ("ready", 600, "ready", 300)
    assert picture.content_type == "image/png"
    for report, days in ((picture, 2), (sheet, 1)):
        used = timezone.now() - timedelta(days=days)
        Report.objects.filter(pk=report.pk).update(asked_at=used, finished_at=used)
    settings.REPORTS_MAX_BYTES = 500
    assert prune() == 1  # the picture: 300 bytes left
    assert list(Report.objects.values_list("pk", flat=True)) == [sheet.pk]
    assert not kept_files().exists(kept_name(picture)) and kept_files().exists(kept_name(sheet))


def test_files_in_use_are_not_pruned_for_size(settings, db):
    """Just made, or asked for a moment ago: a page is about to fetch it."""
    settings.REPORTS_MAX_BYTES = 100
    kept_report("a", 400, timedelta(days=1))
    kept_report("b", 300, timedelta(seconds=5))
    kept_part("c", 300, timedelta(seconds=5))
    assert prune() == 1
    assert list(Report.objects.values_list("digest", flat=True)) == ["b" * 64]
    assert ReportPart.objects.count() == 1


def test_a_made_part_knows_its_size(db):
    part = parts.prepare([parts.Piece(html="<p>one</p>")])[0]
    parts.make_part(part.pk)
    part.refresh_from_db()
    assert part.size == kept_files().size(parts.part_name(part.digest)) > 0


def test_the_migration_measures_the_parts_kept_already(db):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("scoring.migrations.0016_report_limits")
    kept = kept_part("a", 300, timedelta(days=1))
    gone = kept_part("b", 200, timedelta(days=1))
    kept_files().delete(parts.part_name(gone.digest))
    ReportPart.objects.update(size=0)  # as they were before the migration
    migration.measure_kept_parts(apps, None)
    sizes = dict(ReportPart.objects.values_list("digest", "size"))
    assert sizes == {kept.digest: 300, gone.digest: 0}


# Files a page shows in place (a picture, the browser's PDF viewer): no htmx asks for them.
SHOWN_IN_PLACE = ("/meets/{meet}/news.png", "/schedule/notice.pdf")
EVERY_KIND = (
    "/reports/games.csv?period=2025-H1",
    "/reports/standings.pdf?period=2025-04",  # a month's: made in the request
    "/reports/standings.pdf?period=2025-H1",  # the half-year's: made of parts by a worker
    "/reports/standings.xlsx?period=2025-H1",
    "/members/{member}/record.pdf?period=2025-H1",
    "/meets/{meet}/sheet.pdf",
    *SHOWN_IN_PLACE,
)
UNWRITABLE = "サーバーがファイルを書き込めません"
COULD_NOT = "作成できませんでした"


@pytest.fixture
def unwritable(settings, tmp_path):
    """A reports directory under a regular file: no one, not even root, can make it."""
    (tmp_path / "file").write_text("not a directory")
    reports_kept_in(settings, tmp_path / "file" / "reports")


@pytest.mark.slow
@pytest.mark.parametrize("url", EVERY_KIND)
@pytest.mark.parametrize("who", ["member", "organizer"])
def test_an_unwritable_reports_directory_gives_every_report_the_same_clear_page(
    url, who, member_client, organizer_client, recorded_game, four_members, unwritable
):
    client = member_client if who == "member" else organizer_client
    address = url.format(member=four_members[0].pk, meet=recorded_game.meet.pk)
    response = client.get(address, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert COULD_NOT in page
    # The organizer, who can do something about it, is told why; a member is not.
    assert (UNWRITABLE in page) == (who == "organizer")
    report = Report.objects.get()
    assert report.status == ReportStatus.FAILED
    if url in SHOWN_IN_PLACE:
        return
    # From a page with htmx: the same message in the fragment.
    fragment = client.get(address, headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and COULD_NOT in fragment.content.decode()


@pytest.mark.slow
@pytest.mark.parametrize("url", EVERY_KIND)
def test_a_full_disk_gives_the_organizer_the_same_page_and_leaves_no_half_file(
    url, organizer_client, recorded_game, four_members, settings, monkeypatch
):
    """Each write into the reports directory gets half its bytes onto the disk, then fails
    as a full disk does (writes elsewhere, such as WeasyPrint's fonts, go through)."""
    write = Path.write_bytes
    reports = Path(settings.REPORTS_DIR)

    def half_then_full(self: Path, data: bytes) -> int:
        if not self.is_relative_to(reports):
            return write(self, data)
        write(self, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", half_then_full)
    url = url.format(member=four_members[0].pk, meet=recorded_game.meet.pk)
    page = organizer_client.get(url, follow=True).content.decode()
    assert COULD_NOT in page and UNWRITABLE in page
    assert [p for p in Path(settings.REPORTS_DIR).rglob("*") if p.is_file()] == []


def test_a_file_the_disk_could_not_hold_is_not_left_half_written(tmp_path):
    """A real short write: the process may write no more than 1,000 bytes a file, as on a
    disk that fills up in the middle of a report."""
    limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    before = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1000, limits[1]))
    try:
        with pytest.raises(OSError) as raised:
            keep("digest", b"x" * 5000)  # into tmp_path / "reports" (conftest)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)
        signal.signal(signal.SIGXFSZ, before)
    assert raised.value.errno == errno.EFBIG
    assert list((tmp_path / "reports").iterdir()) == []


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
    keep(kept_name(newer), b"newer")
    forgotten = Report.objects.create(
        digest="c" * 64,
        spec={},
        spec_key="x",
        status=ReportStatus.READY,
        asked_at=timezone.now() - timedelta(days=31),
        finished_at=timezone.now() - timedelta(days=31),
    )
    keep(kept_name(forgotten), b"old")
    kept = kept_files()
    assert kept.exists(kept_name(old))
    assert prune() == 2
    assert not kept.exists(kept_name(old)) and not kept.exists(kept_name(forgotten))
    assert list(Report.objects.values_list("digest", flat=True)) == ["b" * 64]


def test_a_change_to_the_templates_makes_a_new_digest(recorded_game, monkeypatch):
    spec = Spec.of("standings.pdf", Filters(period=Period.parse("2025-H1")))
    before = registry.digest_of(spec)
    assert registry.digest_of(spec) == before
    monkeypatch.setattr(registry, "template_version", lambda: "another")
    assert registry.digest_of(spec) != before


def test_an_award_edited_or_an_earlier_game_changed_makes_a_new_digest(recorded_game):
    """The half-year report carries the awards: renaming one, or a game of an earlier
    half-year (the rating at the period's end reads every game before it) changes what it
    shows, so the kept file is not served again."""
    spec = Spec.of("standings.pdf", Filters(period=Period.parse("2025-H2")))
    before = registry.digest_of(spec)
    award = Award.objects.of_group(StandingsGroup.clubs_own()).first()
    award.name = "最優秀賞"
    award.save()
    renamed = registry.digest_of(spec)
    assert renamed != before
    game = Hanchan.objects.get(pk=recorded_game.pk)  # 2025-04-09: the half-year before
    entries = [
        making_entry(r.member, r.seat, score)
        for r, score in zip(
            game.results.order_by("seat"), [40_000, 30_000, 20_000, 30_000], strict=True
        )
    ]
    game.record(entries, expected_version=game.version)
    assert registry.digest_of(spec) != renamed


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


def test_every_kind_of_report_has_its_renderer():
    assert all(callable(kind.render) for kind in registry.HANDOUTS.values())
    assert registry.HANDOUTS["standings.pdf"].key == "standings.pdf"


# What a report shows, and what it does not: a kept file is served again until what it shows
# changes. The recorded game is of 2025-04-09 (FY2025, 2025-H1); today, for the answers, is
# 2026-11-27, and the planned meet of 2026-12-02 is outside every period below.
TODAY = date(2026, 11, 27)


def period_specs(member: Member) -> list[Spec]:
    """A report of each kind that covers a period, all of them covering 2025-04-09."""
    year = Filters(period=Period.parse("FY2025"))
    return [
        Spec.of("standings.pdf", year),
        Spec.of("standings.xlsx", Filters(period=Period.parse("2025-H1"))),
        Spec.of("games.csv", Filters(period=Period.parse("2025-04"))),
        Spec.of("member.pdf", year, member=member.pk),
    ]


def digests(specs: list[Spec]) -> list[str]:
    return [registry.digest_of(spec) for spec in specs]


@pytest.fixture
def december(club_rule) -> Meet:
    """A planned meet after FY2025: no games yet."""
    return Meet.objects.create(date=date(2026, 12, 2), kind="wed", rule_set=club_rule)


def test_a_members_answer_for_a_meet_of_another_period_leaves_every_digest(
    recorded_game, four_members, december, bob
):
    """参加 for December puts the member in December's attendance, 欠席 takes them out again:
    neither is on any report of FY2025, nor on the sheet of the meet of 2025-04-09."""
    specs = [*period_specs(four_members[0]), Spec.of("meet.pdf", meet=recorded_game.meet.pk)]
    before = digests(specs)
    december.answer(four_members[0], "coming", bob, today=TODAY)
    assert list(december.attendees.all()) == [four_members[0]]
    assert digests(specs) == before
    december.answer(four_members[0], "not_coming", bob, today=TODAY)
    assert not december.attendees.exists()
    assert digests(specs) == before


def test_what_the_standings_do_not_show_leaves_their_digest(recorded_game, four_members, december):
    """The organizer plans a meet, changes the attendance of the year's meet (the standings
    count the meets a member played, not the attendance) and its venue, start and note:
    none of it is on the standings, the Excel, the games or a member's report."""
    specs = period_specs(four_members[0])
    before = digests(specs)
    Meet.objects.create(date=date(2026, 12, 5), kind="sat", rule_set=recorded_game.rule_set)
    december.attendees.set(four_members)
    meet = Meet.objects.get(pk=recorded_game.meet.pk)
    meet.attendees.remove(four_members[3])
    meet.place, meet.start_time, meet.note = "白樺会館 2階", time(13, 0), "雨天決行"
    meet.save()
    assert digests(specs) == before


def test_a_meets_sheet_moves_with_its_own_attendance_and_note_only(
    recorded_game, four_members, december
):
    """The sheet shows its meet's attendance (「4 attending」) and note; another meet's
    attendance is not on it."""
    spec = Spec.of("meet.pdf", meet=recorded_game.meet.pk)
    before = registry.digest_of(spec)
    december.attendees.set(four_members)
    assert registry.digest_of(spec) == before
    meet = Meet.objects.get(pk=recorded_game.meet.pk)
    meet.attendees.add(Member.objects.create(name="中山 五郎", furigana="なかやま ごろう"))
    more = registry.digest_of(spec)
    assert more != before
    meet.note = "雨天決行"
    meet.save()
    assert registry.digest_of(spec) != more


def test_what_the_reports_show_still_moves_their_digest(recorded_game, four_members):
    """A member renamed or made a guest, the meet's kind or day changed: each is on the
    reports, so each makes a new digest."""
    specs = [*period_specs(four_members[0]), Spec.of("meet.pdf", meet=recorded_game.meet.pk)]
    seen = [digests(specs)]
    member = Member.objects.get(pk=four_members[1].pk)
    member.name = "南野 華子"
    member.save()
    seen.append(digests(specs))
    member.is_guest = True
    member.save()
    seen.append(digests(specs))
    meet = Meet.objects.get(pk=recorded_game.meet.pk)
    meet.kind = "other"
    meet.save()
    seen.append(digests(specs))
    meet.date = date(2025, 4, 10)
    meet.save()
    seen.append(digests(specs))
    for earlier, later in itertools.pairwise(seen):
        assert [a != b for a, b in zip(earlier, later, strict=True)] == [True] * len(specs)


def test_an_earlier_meet_moved_moves_a_later_periods_digest(recorded_game):
    """The rating at the period's end reads the games before it in the order of their days:
    a meet of the half-year before moved to another day makes a new digest."""
    spec = Spec.of("standings.pdf", Filters(period=Period.parse("2025-H2")))
    before = registry.digest_of(spec)
    meet = Meet.objects.get(pk=recorded_game.meet.pk)
    meet.date = date(2025, 4, 16)
    meet.save()
    assert registry.digest_of(spec) != before


def test_a_digest_takes_a_few_queries_whatever_the_size_of_the_club(
    recorded_game, four_members, club_rule
):
    """Asking runs the fingerprint every time: at most nine queries, and one more for the club's
    minus sign on a printed handout; as many for a club of four as for one with forty more
    members and another meet played."""
    specs = [*period_specs(four_members[0]), Spec.of("meet.pdf", meet=recorded_game.meet.pk)]

    def queries() -> list[int]:
        counts = []
        for spec in specs:
            with CaptureQueriesContext(connection) as captured:
                registry.digest_of(spec)
            counts.append(len(captured))
        return counts

    small = queries()
    assert max(small) <= 10, small
    more = [Member.objects.create(name=f"会員 {n}", furigana=f"かいいん {n}") for n in range(40)]
    later = Meet.objects.create(date=date(2025, 5, 14), kind="wed", rule_set=club_rule)
    game = Hanchan(meet=later, table_no=1, round_no=1, rule_set=club_rule)
    game.record([making_entry(m, s, 30_000) for s, m in enumerate(more[:4])])
    later.attendees.set(more)
    assert queries() == small


def test_the_clubs_minus_sign_makes_new_digests_of_what_it_prints(recorded_game, four_members):
    """The printed handouts write a negative P with the club's sign (− or ▲): changing it is a
    change to what a kept PDF or news card shows, and to nothing the Excel or CSV shows."""
    from scoring.models import ClubSettings

    year = Filters(period=Period.parse("FY2025"))
    printed = [
        Spec.of("standings.pdf", year),
        Spec.of("member.pdf", year, member=four_members[0].pk),
        Spec.of("meet.pdf", meet=recorded_game.meet.pk),
        Spec.of("news.png", meet=recorded_game.meet.pk),
    ]
    data = [
        Spec.of("standings.xlsx", Filters(period=Period.parse("2025-H1"))),
        Spec.of("games.csv", Filters(period=Period.parse("2025-04"))),
    ]
    before, unprinted = digests(printed), digests(data)
    club = ClubSettings.load()
    club.negative_sign = "▲"
    club.save()
    assert all(a != b for a, b in zip(before, digests(printed), strict=True))
    assert digests(data) == unprinted
