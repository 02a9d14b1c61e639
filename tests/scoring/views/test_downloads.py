"""Reports through their pages (views/downloads.py): queued once, their progress shown, made
once and kept, asked for again unchanged served from what was kept, made again after a
change. The files a page shows in place, the news picture and the 回覧板, the same: made in
the request, kept, drawn once however many ask at once, and bounded by what one person may
have waiting. (Pruning, digests and what a finalise queues: tests/scoring/reports/test_making.py.)

The renderers are replaced by a fake that counts its calls and tells its progress, so these
tests make no PDF; the real renderers are read back in tests/scoring/reports/, and real
workers run in tests/scoring/management/commands/test_db_worker.py."""

import threading
import time
from datetime import date, timedelta

import pytest
from django.db import connection
from django.tasks import default_task_backend
from django.test import Client
from django.utils import timezone

from scoring.models import Hanchan, Meet, Report, ReportStatus
from scoring.reports import kept_files, making, news, pdf
from scoring.reports.asking import ask
from scoring.reports.kept import kept_name
from scoring.reports.specs import Spec
from scoring.standings import Filters, Period
from tests.builders import JKMA, FakeRenderer, making_entry, rule

pytestmark = pytest.mark.django_db


H2 = Filters(period=Period.parse("2025-H2"))

DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
HALF = "/reports/standings.pdf?period=2025-H1"


def test_a_report_asked_for_is_made_by_its_task_and_served(member_client, recorded_game, fake):
    response = member_client.get(HALF)
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"%PDF call 1"
    assert response["Content-Disposition"] == 'attachment; filename="2025-H1.pdf"'
    report = Report.objects.get()
    assert report.status == ReportStatus.READY and kept_files().exists(kept_name(report))
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


@pytest.mark.slow
def test_download_buttons_and_endpoints(member_client, client, club):
    html = member_client.get("/standings/?period=2025-H2").content.decode()
    assert 'href="/reports/standings.pdf?period=2025-H2"' in html
    assert 'href="/reports/standings.xlsx?period=2025-H2"' in html
    # With htmx, a button fetches the report's progress into the box beside the buttons.
    assert 'hx-get="/reports/standings.pdf?period=2025-H2"' in html
    assert 'hx-target="next .report-status"' in html and 'class="report-status"' in html
    response = member_client.get("/reports/standings.xlsx?period=2025-H2")
    assert (
        response["Content-Disposition"] == 'attachment; filename="shirakaba-standings-2025-H2.xlsx"'
    )
    csv = member_client.get("/reports/games.csv?period=2025-H2")
    assert csv["Content-Type"].startswith("text/csv")
    meet = Meet.objects.first()
    sheet = member_client.get(f"/meets/{meet.pk}/sheet.pdf")
    assert b"".join(sheet.streaming_content).startswith(b"%PDF")
    record = member_client.get(f"/members/{club[0].pk}/record.pdf?period=2025-H2")
    assert b"".join(record.streaming_content).startswith(b"%PDF")
    for url in ("/reports/standings.pdf", "/reports/games.csv", f"/meets/{meet.pk}/sheet.pdf"):
        assert client.get(url).status_code == 302  # visitors sign in first


def test_the_csv_download_holds_every_game_whatever_the_group(every_rule, member_client):
    response = member_client.get(f"/reports/games.csv?period=2025-06&group={rule(JKMA).group.pk}")
    lines = (
        b"".join(response.streaming_content if response.streaming else [response.content])
        .decode("utf-8-sig")
        .splitlines()
    )
    assert len(lines) == 1 + 18


# --- the news picture and the 回覧板: shown in place, kept -------------------------------------


class CountingPicture:
    """Stands for the drawing of the news picture: counts its calls, each a picture of its
    own, and may take its time (as the real one does, about a second)."""

    def __init__(self, takes: float = 0.0) -> None:
        self.calls = 0
        self.takes = takes

    def __call__(self, found: news.News, card: int = 0) -> bytes:
        self.calls += 1
        time.sleep(self.takes)
        return b"\x89PNG news %d" % self.calls


@pytest.fixture
def drawn(monkeypatch) -> CountingPicture:
    picture = CountingPicture()
    monkeypatch.setattr(news, "news_png", picture)
    return picture


class CountingNotice:
    """Stands for the 回覧板's layout: counts its calls and keeps the meets each one showed."""

    def __init__(self) -> None:
        self.calls = 0
        self.shown: list[list[str]] = []

    def __call__(self, month: date, meets: list[Meet]) -> tuple[str, str, bytes]:
        self.calls += 1
        self.shown.append([f"{m.date} {m.place}" for m in meets])
        return f"shirakaba-notice-{month:%Y-%m}.pdf", "application/pdf", b"%%PDF %d" % self.calls


@pytest.fixture
def noticed(monkeypatch) -> CountingNotice:
    notice = CountingNotice()
    monkeypatch.setattr(pdf, "render_notice_pdf", notice)
    return notice


def news_url(game: Hanchan) -> str:
    return f"/meets/{game.meet_id}/news.png"


NOTICE = "/schedule/notice.pdf?month=2025-04"


def test_the_news_picture_asked_twice_is_kept_and_drawn_once(member_client, recorded_game, drawn):
    first = member_client.get(news_url(recorded_game))
    assert first.status_code == 200 and first["Content-Type"] == "image/png"
    assert first["Content-Disposition"] == 'inline; filename="shirakaba-news-2025-04-09-wed.png"'
    again = member_client.get(news_url(recorded_game))
    assert first.getvalue() == again.getvalue() == b"\x89PNG news 1"
    assert drawn.calls == 1
    kept = Report.objects.get()
    assert kept.spec["kind"] == "news.png" and kept.size == len(b"\x89PNG news 1")


def test_a_card_number_not_in_ascii_digits_asks_for_the_first_card(
    member_client, recorded_game, drawn
):
    """The every-URL walk found ``?card=²`` a server error ("²".isdigit() is true, int fails):
    a card's number is read as every number in an address is, and anything else is card 0."""
    assert member_client.get(news_url(recorded_game), {"card": "1"}).status_code == 200
    for odd in ("²", "１", " 1", "-1", "1e3", "100"):
        response = member_client.get(news_url(recorded_game), {"card": odd})
        assert response.status_code == 200, odd
    assert sorted(r.spec["card"] for r in Report.objects.all()) == [0, 1]


def test_a_game_of_the_meet_changed_draws_the_news_anew(
    member_client, recorded_game, four_members, drawn
):
    member_client.get(news_url(recorded_game))
    entries = [
        making_entry(member, seat, score)
        for seat, (member, score) in enumerate(
            zip(four_members, (40_000, 30_000, 30_000, 20_000), strict=True)
        )
    ]
    recorded_game.record(entries, expected_version=recorded_game.version)
    assert member_client.get(news_url(recorded_game)).getvalue() == b"\x89PNG news 2"
    assert member_client.get(news_url(recorded_game)).getvalue() == b"\x89PNG news 2"


def test_what_the_news_does_not_show_leaves_it_kept(
    member_client, recorded_game, four_members, club_rule, bob, drawn
):
    """A later meet's game (the news's standings are up to its day) and a member's 出欠 for
    another meet are not in the picture."""
    member_client.get(news_url(recorded_game))
    later = Meet.objects.create(date=date(2025, 4, 23), kind="wed", rule_set=club_rule)
    later.answer(four_members[0], "coming", bob, today=date(2025, 4, 20))
    game = Hanchan(meet=later, table_no=1, round_no=1, rule_set=club_rule)
    game.record(
        [
            making_entry(m, s, (45_000, 35_000, 25_000, 15_000)[s])
            for s, m in enumerate(four_members)
        ]
    )
    assert member_client.get(news_url(recorded_game)).getvalue() == b"\x89PNG news 1"
    assert drawn.calls == 1


def test_the_news_picture_needs_a_club_role(outsider_client, client, recorded_game, drawn):
    assert outsider_client.get(news_url(recorded_game)).status_code == 403
    assert client.get(news_url(recorded_game)).status_code == 302
    assert drawn.calls == 0


def test_the_notice_asked_twice_is_kept_and_made_once(member_client, club_rule, noticed):
    Meet.objects.create(date=date(2025, 4, 9), kind="wed", rule_set=club_rule, place="白樺会館")
    first = member_client.get(NOTICE)
    assert first.status_code == 200 and first["Content-Type"] == "application/pdf"
    assert first["Content-Disposition"] == 'inline; filename="shirakaba-notice-2025-04.pdf"'
    assert member_client.get(NOTICE).getvalue() == first.getvalue() == b"%PDF 1"
    assert noticed.calls == 1 and noticed.shown == [["2025-04-09 白樺会館"]]


def test_the_notice_is_made_anew_when_a_meet_of_its_month_changes(
    member_client, club_rule, noticed, monkeypatch
):
    meet = Meet.objects.create(date=date(2025, 4, 9), kind="wed", rule_set=club_rule)
    member_client.get(NOTICE)
    Meet.objects.create(date=date(2025, 5, 14), kind="wed", rule_set=club_rule)  # May's
    assert member_client.get(NOTICE).getvalue() == b"%PDF 1"
    meet.place = "公民館"
    meet.save()
    assert member_client.get(NOTICE).getvalue() == b"%PDF 2"
    assert noticed.shown[-1] == ["2025-04-09 公民館"]
    # It says the day it was made (「… 現在」): the next day it is made again.
    tomorrow = timezone.localdate() + timedelta(days=1)
    monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: tomorrow)
    assert member_client.get(NOTICE).getvalue() == b"%PDF 3"


def test_what_one_member_can_make_others_wait_for_is_bounded(
    member_client, organizer_client, recorded_game, settings, drawn, noticed
):
    """The pictures and the 回覧板 count with the reports one person has waiting: a member
    with as many as they may have is refused a new one, as for any report."""
    settings.TASKS = DUMMY
    settings.REPORTS_PER_PERSON = 1
    default_task_backend.clear()
    assert member_client.get(HALF).status_code == 302  # queued: bob has one waiting
    for url in (news_url(recorded_game), NOTICE):
        refused = member_client.get(url)
        assert refused.status_code == 429
        assert "作成待ちの帳票が 1 件あります" in refused.content.decode()
    assert drawn.calls == noticed.calls == 0
    # Another person is not held back; once kept, the picture is nothing new for bob either.
    assert organizer_client.get(news_url(recorded_game)).status_code == 200
    assert member_client.get(news_url(recorded_game)).getvalue() == b"\x89PNG news 1"
    assert drawn.calls == 1


@pytest.mark.slow  # a race: requests in threads at once
@pytest.mark.django_db(transaction=True)
def test_twelve_asks_at_once_draw_the_picture_once(bob, recorded_game, monkeypatch):
    """As a member's phone and eleven reloads: one request draws it, the others wait for it
    and are given the same picture."""
    picture = CountingPicture(takes=0.5)
    monkeypatch.setattr(news, "news_png", picture)
    answers: list[tuple[int, bytes]] = []

    def ask_for_it() -> None:
        client = Client()
        client.force_login(bob)
        try:
            response = client.get(news_url(recorded_game))
            answers.append((response.status_code, response.getvalue()))
        finally:
            connection.close()

    threads = [threading.Thread(target=ask_for_it) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [(200, b"\x89PNG news 1")] * 12
    assert picture.calls == 1


def test_a_members_tap_on_the_schedule_leaves_the_kept_year_report(
    organizer_client, member_client, bob, four_members, recorded_game, fake
):
    """The organizer's FY2025 PDF, then a member's 参加 and 欠席 for a meet next week (after
    FY2025, and on none of its pages): asked again, the kept file comes, made once."""
    four_members[0].user = bob
    four_members[0].save()
    coming = Meet.objects.create(
        date=timezone.localdate() + timedelta(days=7), kind="wed", rule_set=recorded_game.rule_set
    )
    year = "/reports/standings.pdf?period=FY2025"
    first = b"".join(organizer_client.get(year).streaming_content)
    for said in ("coming", "not_coming", "coming"):
        tapped = member_client.post(
            f"/meets/{coming.pk}/answer/", {"answer": said}, HTTP_HX_REQUEST="true"
        )
        assert tapped.status_code == 200
    assert list(coming.attendees.all()) == [four_members[0]]
    again = b"".join(organizer_client.get(year).streaming_content)
    assert first == again == b"%PDF call 1"
    assert fake.calls == 1 and Report.objects.count() == 1
