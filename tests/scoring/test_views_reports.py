"""Reports in the request path: at most a few made at once per process, the same report asked
for twice at once made once, and a clear 503 when every turn stays taken.

The renderers are replaced by slow fakes, and the views are called in threads with a request
factory: nothing here needs the database (the period is given, so filters_from reads none)."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.test import RequestFactory
from django.utils import translation

from scoring.views import downloads as views_reports
from scoring.views.downloads import ReportTurns


class SlowRenderer:
    """A renderer that takes ``seconds`` (or until ``release`` is set), counting its calls
    and how many run at the same moment."""

    def __init__(self, seconds: float = 0.4, release: threading.Event | None = None) -> None:
        self.seconds, self.release = seconds, release
        self.calls = self.running = self.most_at_once = 0
        self.lock = threading.Lock()

    def __call__(self, filters, *args):
        with self.lock:
            self.calls += 1
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
            call = self.calls
        if self.release is not None:
            self.release.wait(10)
        else:
            time.sleep(self.seconds)
        with self.lock:
            self.running -= 1
        return (f"{filters.period.key}.pdf", "application/pdf", b"%%PDF report %d" % call)


@pytest.fixture
def turns(monkeypatch):
    """Fresh turns for each test: two at once, a short wait."""
    fresh = ReportTurns(at_once=2, wait=5)
    monkeypatch.setattr(views_reports, "REPORTS", fresh)
    return fresh


def get_all(urls, view=views_reports.standings_pdf):
    factory = RequestFactory()
    with ThreadPoolExecutor(max_workers=len(urls)) as pool:
        return list(pool.map(lambda url: view(factory.get(url)), urls))


def test_the_same_report_asked_for_at_once_is_made_once(turns, monkeypatch):
    renderer = SlowRenderer(0.5)
    monkeypatch.setattr(views_reports, "render_standings_pdf", renderer)
    responses = get_all(["/reports/standings.pdf?period=all"] * 5)
    assert renderer.calls == 1
    assert [r.status_code for r in responses] == [200] * 5
    assert {r.content for r in responses} == {b"%PDF report 1"}
    assert responses[0]["Content-Disposition"] == 'attachment; filename="all.pdf"'


def test_different_reports_are_made_at_most_two_at_once(turns, monkeypatch):
    renderer = SlowRenderer(0.3)
    monkeypatch.setattr(views_reports, "render_standings_pdf", renderer)
    periods = ["all", "FY2024", "FY2025", "2025-H1", "2025-H2", "2025-04"]
    responses = get_all([f"/reports/standings.pdf?period={p}" for p in periods])
    assert [r.status_code for r in responses] == [200] * 6
    assert renderer.calls == 6
    assert renderer.most_at_once == 2


def test_a_report_that_finds_every_turn_taken_for_the_whole_wait_gets_a_503(turns, monkeypatch):
    turns.wait = 0.2
    release = threading.Event()
    renderer = SlowRenderer(release=release)
    monkeypatch.setattr(views_reports, "render_standings_pdf", renderer)
    factory = RequestFactory()
    with ThreadPoolExecutor(max_workers=2) as pool:
        first = [
            pool.submit(views_reports.standings_pdf, factory.get(f"/r?period={p}"))
            for p in ("FY2024", "FY2025")
        ]
        while renderer.running < 2:
            time.sleep(0.01)
        with translation.override("ja"):  # no middleware here to choose it
            busy = views_reports.standings_pdf(factory.get("/r?period=all&dl=abc123"))
        release.set()
        assert [f.result().status_code for f in first] == [200, 200]
    assert busy.status_code == 503
    assert busy["Retry-After"] == "30"
    assert "ただいま他の帳票を作成中です" in busy.content.decode()
    assert busy.cookies["dl_abc123"].value == "1"  # the page's spinner stops
    # A turn is free again: the same request now succeeds.
    assert views_reports.standings_pdf(factory.get("/r?period=all")).status_code == 200


def test_the_kinds_of_report_are_told_apart(turns, monkeypatch):
    """The same filters as PDF, Excel and CSV are three reports, not one."""
    for name in ("render_standings_pdf", "render_standings_xlsx", "render_games_csv"):
        monkeypatch.setattr(views_reports, name, SlowRenderer(0.2))
    factory = RequestFactory()
    with ThreadPoolExecutor(max_workers=3) as pool:
        responses = list(
            pool.map(
                lambda view: view(factory.get("/r?period=all")),
                [
                    views_reports.standings_pdf,
                    views_reports.standings_xlsx,
                    views_reports.games_csv,
                ],
            )
        )
    assert [r.status_code for r in responses] == [200] * 3
    for name in ("render_standings_pdf", "render_standings_xlsx", "render_games_csv"):
        assert getattr(views_reports, name).calls == 1


def test_a_failure_reaches_every_request_waiting_for_that_report(turns):
    started = threading.Event()

    def failing():
        started.set()
        time.sleep(0.3)
        raise RuntimeError("layout failed")

    with ThreadPoolExecutor(max_workers=2) as pool:
        first = pool.submit(turns.make, "key", failing)
        started.wait(5)
        second = pool.submit(turns.make, "key", failing)
        for future in (first, second):
            with pytest.raises(RuntimeError, match="layout failed"):
                future.result()
    assert turns.make("key", lambda: ("a", "b", b"c")) == ("a", "b", b"c")  # not stuck
