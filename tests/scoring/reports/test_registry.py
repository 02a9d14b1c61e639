"""The registry of every file the app hands out (scoring/reports/registry.py): docs/reports.md
lists every kind as the registry declares it (who may ask, made at once or queued, kept or
not), and each kind's guard answers as its ``Who`` says. That every URL answering a file goes
through the registry: tests/shirakaba/test_every_url.py."""

import re
from pathlib import Path

import pytest

from members.models import Member
from scoring.models import CalendarLink
from scoring.reports import registry
from scoring.reports.registry import HANDOUTS, Kept, Who

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[3] / "docs" / "reports.md"
KEPT_WORDS = {Kept.AS_REPORT: "report:", Kept.IN_CACHE: "cache:", Kept.NOT: "not kept"}


def documented() -> dict[str, list[str]]:
    """The rows of the kinds' table in docs/reports.md, by key: what, who, made, kept by."""
    rows = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        found = re.fullmatch(r"\| `([\w.-]+)` \|(.*)\|", line)
        if found:
            rows[found[1]] = [cell.strip() for cell in found[2].split("|")]
    return rows


def test_the_docs_list_every_kind_as_the_registry_declares_it():
    rows = documented()
    assert list(rows) == list(HANDOUTS)
    for key, kind in HANDOUTS.items():
        what, who, made, kept_by = rows[key]
        assert (what, who, made) == (kind.what, kind.who.value, kind.made.value), key
        assert kept_by.startswith(KEPT_WORDS[kind.kept]), key


def test_a_kind_kept_has_what_it_is_kept_by_and_a_guarded_kind_its_guard():
    for key, kind in HANDOUTS.items():
        assert kind.kept is not Kept.IN_CACHE or kind.fingerprint is not None, key
        assert kind.kept is Kept.AS_REPORT or kind.shown, key  # answered inline
        assert (kind.open_when is not None) == (kind.who is Who.VISITOR_WHEN_OPEN), key
        assert (kind.token_holds is not None) == (kind.who is Who.TOKEN), key


def test_who_may_ask_for_each_kind(
    client, member_client, organizer_client, sample_paths, monkeypatch, settings
):
    """A visitor is sent to sign in (the schedule closed; a secret address no member has),
    a member is refused the organizer's kinds and given the others, and nobody may POST."""
    monkeypatch.setattr(
        registry, "render", lambda spec, progress, share=False: ("f", "x/y", b"made")
    )
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    for key, path in sample_paths.items():
        kind = HANDOUTS[key]
        visitor = client.get(path)
        assert visitor.status_code == 302 and "/login/?next=" in visitor["Location"], key
        if kind.who is Who.TOKEN:  # a member's own address answers anyone, signed in or not
            link = CalendarLink.objects.create(member=sample_paths.member)
            assert client.get(f"/schedule/{link.token}.ics").status_code == 200
            assert organizer_client.post(path).status_code == 405
            continue
        answer = member_client.get(path).status_code
        assert answer == (403 if kind.who is Who.ORGANIZER else 200), key
        assert organizer_client.post(path).status_code == 405, key


class Paths(dict[str, str]):
    member: Member


@pytest.fixture
def sample_paths(recorded_game, club_rule, four_members) -> Paths:
    """A path for each kind (a secret calendar address no member has)."""
    meet = recorded_game.meet.pk
    paths = Paths(
        {
            "standings.pdf": "/reports/standings.pdf",
            "standings.xlsx": "/reports/standings.xlsx",
            "games.csv": "/reports/games.csv",
            "member.pdf": f"/members/{four_members[0].pk}/record.pdf",
            "meet.pdf": f"/meets/{meet}/sheet.pdf",
            "news.png": f"/meets/{meet}/news.png",
            "notice.pdf": "/schedule/notice.pdf",
            "score-table.pdf": f"/rules/{club_rule.pk}/score-table.pdf",
            "draw.pdf": f"/meets/{meet}/draw.pdf",
            "record-sheet.pdf": f"/meets/{meet}/record-sheet.pdf",
            "certificate.pdf": "/awards/certificate.pdf",
            "schedule.ics": "/schedule.ics",
            "member-schedule.ics": "/schedule/" + "x" * 43 + ".ics",
        }
    )
    paths.member = four_members[0]
    return paths
