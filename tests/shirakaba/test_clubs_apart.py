"""Two clubs in one install, each apart (issue 42): the walk over every URL pattern of the
project with the other club's ids and report digest, for each role of the site's club (a
visitor, a member, an organizer), by GET and by POST, and every management command given the
wrong club. Nothing of club B is shown (its names, rule set, group, venue, award, 代表 and
report), nothing of club B is written (every row of its data compared before and after), and
no row of ours comes to point at one of B's (a meet under B's rule set, B's member in our
game or award)."""

import io
import re
from datetime import date, timedelta
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client, override_settings
from django.urls import get_resolver
from django.utils import timezone
from openpyxl import load_workbook

from members.models import Club, Invitation, Member
from members.roles import MEMBER, ORGANIZER, grant
from members.scopes import in_club, scopes_disabled
from scoring.models import (
    Answer,
    Award,
    BigHand,
    CalendarLink,
    ClubSettings,
    DrawnPlace,
    Hanchan,
    HandLevel,
    Meet,
    Report,
    ReportStatus,
    RuleSet,
    StandingsGroup,
)
from tests.builders import CLUBS_OWN, crossings, patterns, pdf_text, worked_table

pytestmark = pytest.mark.django_db

# What only club B's data says: a page, a file or an output with one of these shows B's data.
THEIR_NAMES = ["桜井 みどり", "桜田 はる", "桜木 あき", "桜庭 ふゆ"]
THEIR_WORDS = ["桜会ルール", "桜会の成績", "桜会館", "桜会優勝", "桜会代表", "桜会の例会"]
MARKERS = [*THEIR_NAMES, *[n.replace(" ", "\u3000") for n in THEIR_NAMES], *THEIR_WORDS]
THEIR_DAY = date(2025, 5, 14)  # a Wednesday of B's; the site's club has no meet then


@pytest.fixture
def theirs(club_rule, four_members) -> dict[str, Any]:
    """Club B (桜会) with one of everything a club owns, made in its scope."""
    club = Club.objects.create(name="桜会", slug="sakura")
    with in_club(club):
        group = StandingsGroup.objects.create(name="桜会の成績")
        values = {f: getattr(club_rule, f) for f in RuleSet.PARAMETER_FIELDS}
        rule = RuleSet.objects.create(name="桜会ルール", group=group, is_default=True, **values)
        people = [Member.objects.create(name=n, furigana="さくら") for n in THEIR_NAMES]
        their_organizer = User.objects.create_user("sakura-kiroku", is_staff=True)
        grant(their_organizer, ORGANIZER, club)
        people[0].user = their_organizer
        people[0].save()
        invitation = Invitation.objects.create(
            member=people[1], expires_at=timezone.now() + timedelta(days=14)
        )
        meet = Meet.objects.create(
            date=THEIR_DAY, kind="wed", rule_set=rule, place="桜会館", note="桜会の例会"
        )
        meet.attendees.set(people)
        game = Hanchan(meet=meet, table_no=1, round_no=1, rule_set=rule)
        game.record(worked_table(people, hands_east=[(HandLevel.MANGAN, "")]))
        DrawnPlace.objects.create(meet=meet, round_no=2, table_no=1, member=people[0])
        coming = Meet.objects.create(
            date=date.today().replace(year=date.today().year + 1),
            kind="sat",
            rule_set=rule,
            place="桜会館",
        )
        Answer.objects.create(meet=coming, member=people[1], answer="yes")
        link = CalendarLink.objects.create(member=people[0])
        award = Award.objects.create(
            group=group, name="桜会優勝", measure="total", winner=people[0]
        )
        ClubSettings.objects.create(representative="桜会代表", standings_public=True)
        report = Report.objects.create(
            digest="b" * 64,
            spec={"kind": "meet.pdf", "meet": meet.pk},
            spec_key="c" * 64,
            asked_at=timezone.now(),
            status=ReportStatus.READY,
            filename="桜会の例会.pdf",
            content_type="application/pdf",
        )
        objects = {
            "members.member": people[0].pk,
            "scoring.meet": meet.pk,
            "scoring.hanchan": game.pk,
            "scoring.hanchanresult": game.results.first().pk,
            "scoring.bighand": BigHand.objects.first().pk,
            "scoring.ruleset": rule.pk,
            "scoring.standingsgroup": group.pk,
            "scoring.award": award.pk,
            "scoring.drawnplace": DrawnPlace.objects.first().pk,
            "scoring.answer": Answer.objects.first().pk,
            "scoring.calendarlink": link.pk,
            "scoring.clubsettings": ClubSettings.objects.first().pk,
            "scoring.report": report.pk,
            "members.invitation": invitation.pk,
        }
    return {
        "club": club,
        "member": people[0],
        "meet": meet,
        "coming": coming,
        "game": game,
        "rule": rule,
        "group": group,
        "award": award,
        "report": report,
        "token": link.token,
        "objects": objects,
    }


def their_rows(club: Club) -> dict[str, list[dict[str, Any]]]:
    """Every row of club B's data, every field."""
    with in_club(club):
        return {m.__name__: list(m.objects.order_by("pk").values()) for m in CLUBS_OWN}


def shown(response: Any) -> list[str]:
    """The markers of club B in an answer (a page, JSON, CSV, a calendar, a PDF's text, an
    Excel's cells)."""
    kind = response.get("Content-Type", "")
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if "pdf" in kind:
        text = pdf_text(body)
    elif "spreadsheet" in kind:
        book = load_workbook(io.BytesIO(body), read_only=True)
        text = " ".join(str(c) for s in book for row in s.iter_rows(values_only=True) for c in row)
    elif kind.startswith("image/png"):
        text = ""
    else:
        text = body.decode("utf-8", errors="replace")
    return [m for m in MARKERS if m in text]


def their_path(route: str, theirs: dict[str, Any], ours: dict[str, Any]) -> str | None:
    """A route with club B's ids in its parameters; None for a route with none."""
    if "<" not in route and "(?P<" not in route and "([^/]+)" not in route:
        return None
    if route.startswith("admin/"):
        model = re.match(r"admin/(\w+)/(\w+)/", route)
        if model is None:
            return None  # the app index, the catch-all: no object
        label = f"{model[1]}.{model[2]}"
        pk = theirs["objects"].get(label)
        if pk is None:
            return None  # the site's own (logins, sign-in locks, tasks)
        if "^([^/]+)/history/([^/]+)/$" in route:
            model_class = apps.get_model(label)
            history = model_class.history.filter(**{model_class._meta.pk.name: pk})
            with scopes_disabled():
                version = history.order_by("history_id").first()
            if version is None:
                return None
            return "/" + route.replace(
                "^([^/]+)/history/([^/]+)/$", f"{pk}/history/{version.history_id}/"
            )
        return "/" + route.replace("<path:object_id>", str(pk))
    ids = {
        "meets/<int:pk>/answer": theirs["coming"].pk,
        "meets/<int:pk>/": theirs["meet"].pk,
        "meets/<int:meet_pk>/": theirs["meet"].pk,
        "games/<int:pk>/": theirs["game"].pk,
        "members/<int:pk>/": theirs["member"].pk,
        "rules/<int:pk>/": theirs["rule"].pk,
        "members/invitations/<int:pk>/": theirs["objects"]["members.invitation"],
    }
    path = route
    for start, pk in ids.items():
        if path.startswith(start):
            path = re.sub(r"<int:\w+>", str(pk), path, count=1)
            break
    if path.startswith("members/locks/"):
        return None  # a sign-in lock is the site's
    path = path.replace("<slug:chart>", "cumulative")
    # A calendar address is a secret, not an id: the one who holds it reads that member's
    # club's meets (a phone's calendar app, signed in to nothing). The walk asks one nobody
    # holds; the secret's own club is test_a_calendar_address_reads_its_members_club.
    path = path.replace("<slug:token>", "x" * 43)
    path = path.replace("<digest:digest>", theirs["report"].digest)
    assert "<" not in path, route
    return "/" + path


def their_ids_as_values(theirs: dict[str, Any]) -> dict[str, Any]:
    """A form's fields and a page's query parameters, every one naming one of B's rows."""
    member, rule = theirs["member"].pk, theirs["rule"].pk
    return {
        "member": member,
        "winner": member,
        "members": [member],
        "attendees": [member],
        "rule": rule,
        "rule_set": rule,
        "group": theirs["group"].pk,
        "meet": theirs["meet"].pk,
        "game": theirs["game"].pk,
        "award": theirs["award"].pk,
        "period": "2025-H1",
        "name": "x",
        "reason": "x",
        "date": "2025-06-11",
        "kind": "wed",
        "answer": "yes",
        "table_no": 2,
        "round_no": 1,
        **{f"seat_{s}-member": member for s in ("east", "south", "west", "north")},
    }


ROLES = ["visitor", "member", "organizer", "member here, organizer there"]


@pytest.mark.slow  # about 900 requests a role
@override_settings(SIGNUP_BY_INVITATION=True)  # its pages walked too
@pytest.mark.parametrize("role", ROLES)
def test_no_role_of_our_club_sees_or_writes_the_other_clubs_data(
    role, theirs, alice, bob, recorded_game, four_members
):
    client = Client()
    who = {"visitor": None, "member": bob, "organizer": alice}.get(role, bob)
    if role == "member here, organizer there":  # one login, a role in each club
        grant(bob, ORGANIZER, theirs["club"])
    before = their_rows(theirs["club"])
    values = their_ids_as_values(theirs)
    query = "?" + "&".join(f"{k}={v}" for k, v in values.items() if not isinstance(v, list))
    walked, seen = 0, []
    for route in patterns(get_resolver()):
        path = their_path(route, theirs, {})
        if path is None:
            if "<" in route or "(?P<" in route or "([^/]+)" in route:
                continue
            path = "/" + route
            asks = [("get", path + query), ("post", path)]
        else:
            asks = [("get", path), ("post", path)]
        for method, url in asks:
            if who is not None:
                client.force_login(who)
            response = getattr(client, method)(url, values if method == "post" else None)
            walked += 1
            assert response.status_code < 500, (role, method, url, response.status_code)
            if response.status_code == 200 and (found := shown(response)):
                seen.append((method, url, found))
    assert seen == []
    assert walked > 250  # every pattern: the walk found them all
    assert their_rows(theirs["club"]) == before
    assert crossings() == []


def test_their_ids_are_not_found_in_our_scope(theirs, meet, organizer_client):
    """The walk's premise, checked plainly: B's meet, game, member, rule set and report are
    not found (404) from our club, where our own are."""
    for path in (
        f"/meets/{theirs['meet'].pk}/",
        f"/games/{theirs['game'].pk}/",
        f"/members/{theirs['member'].pk}/",
        f"/rules/{theirs['rule'].pk}/",
        f"/reports/{theirs['report'].digest}/",
        f"/admin/scoring/meet/{theirs['meet'].pk}/history/",
    ):
        assert organizer_client.get(path).status_code == 404, path
    ours = meet
    assert organizer_client.get(f"/meets/{ours.pk}/").status_code == 200
    assert organizer_client.get(f"/admin/scoring/meet/{ours.pk}/history/").status_code == 200


def test_a_calendar_address_reads_its_members_club(theirs, meet, four_members):
    """B's member's secret address gives B's meets to whoever holds it (their phone's
    calendar, signed in to nothing, or signed in to our club), and nothing of ours; our
    member's gives ours and nothing of B's."""
    with in_club(meet.club_id):
        ours = CalendarLink.objects.create(member=four_members[0])
        Meet.objects.create(
            date=date.today() + timedelta(days=20),
            kind="sat",
            rule_set=meet.rule_set,
            place="白樺会館",
        )
    for client in (Client(), signed_in_to_ours := Client()):
        if client is signed_in_to_ours:
            member_of_ours = User.objects.create_user("ours-only")
            grant(member_of_ours, MEMBER)
            client.force_login(member_of_ours)
        theirs_feed = client.get(f"/schedule/{theirs['token']}.ics")
        assert theirs_feed.status_code == 200 and "calendar" in theirs_feed["Content-Type"]
        text = theirs_feed.content.decode()
        assert "桜会館" in text and "白樺会館" not in text
        our_feed = client.get(f"/schedule/{ours.token}.ics").content.decode()
        assert "白樺会館" in our_feed and "桜会館" not in our_feed


def test_every_command_given_the_wrong_club_neither_shows_nor_writes_the_other(
    theirs, recorded_game, tmp_path
):
    before = their_rows(theirs["club"])
    out = io.StringIO()

    def run(*args: str, **options: Any) -> str:
        out.seek(0)
        out.truncate()
        try:
            call_command(*args, stdout=out, stderr=out, **options)
        except CommandError as error:
            out.write(str(error))
        return out.getvalue()

    said = [
        run("check_ratings"),
        run("check_results"),
        run("draw_tables", THEIR_DAY.isoformat(), "--kind", "wed", "--save"),
        run(
            "export_report",
            "--meet",
            THEIR_DAY.isoformat(),
            "--format",
            "pdf",
            "--output",
            str(tmp_path / "m.pdf"),
            "--no-progress",
        ),
        run(
            "export_report",
            "--period",
            "2025-H1",
            "--group",
            str(theirs["group"].pk),
            "--format",
            "csv",
            "--output",
            str(tmp_path / "n.csv"),
            "--no-progress",
        ),
        run(
            "export_report",
            "--period",
            "2025-H1",
            "--format",
            "csv",
            "--output",
            str(tmp_path / "ours.csv"),
            "--no-progress",
        ),
        run("load_demo", "--if-empty"),
    ]
    written = "".join(p.read_text(encoding="utf-8-sig") for p in tmp_path.glob("*.csv"))
    assert not (tmp_path / "m.pdf").exists()  # no meet of ours that day
    assert [m for m in MARKERS if m in "".join(said) + written] == []
    # Given B's names (which the answer may repeat): B's group and rule set are not found,
    # and games of B's members' names do not reach B's members.
    assert (
        "no"
        in run(
            "export_report",
            "--period",
            "2025-H1",
            "--group",
            "桜会の成績",
            "--format",
            "csv",
            "--output",
            str(tmp_path / "g.csv"),
            "--no-progress",
        ).lower()
        or not (tmp_path / "g.csv").exists()
    )
    games = tmp_path / "games.txt"
    games.write_text(
        "日付,卓,回戦,名前,点数\n"
        + "".join(
            f"2025-06-11,1,1,{n},{s}\n"
            for n, s in zip(THEIR_NAMES, (40000, 30000, 20000, 10000), strict=True)
        )
    )
    run("import_results", str(games), "--rule-set", "桜会ルール")
    run("import_results", str(games))
    assert their_rows(theirs["club"]) == before
    assert crossings() == []
    # Asked of their club, the same command reaches their meet: the wrong club was the reason.
    said = run(
        "export_report",
        "--club",
        "sakura",
        "--meet",
        THEIR_DAY.isoformat(),
        "--format",
        "pdf",
        "--output",
        str(tmp_path / "theirs.pdf"),
        "--no-progress",
    )
    assert (tmp_path / "theirs.pdf").exists(), said
    assert "桜井" in pdf_text((tmp_path / "theirs.pdf").read_bytes())


def test_a_command_refuses_a_club_there_is_not(db):
    with pytest.raises(CommandError, match="nosuch"):
        call_command("check_results", "--club", "nosuch", stdout=io.StringIO())
