"""A meet's table draw (卓組み) with the database: kept with the meet and its history, redraws
that keep the started rounds, the pages (draw, board, PDF, grid, game form from the draw),
substitutes, finalised meets, and ``manage.py draw_tables``."""

from datetime import date
from io import BytesIO, StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from pypdf import PdfReader

from members.models import Member
from scoring import draw
from scoring.meet_draw import (
    make_draw,
    recent_history,
    save_draw,
    stored_draw,
    three_player_rule_set,
)
from scoring.models import DrawMode, DrawnPlace, Hanchan, Meet, PlayerEntry, RuleSet

pytestmark = pytest.mark.django_db

SCORES4 = [40_000, 30_000, 30_000, 20_000]
SCORES3 = [40_000, 30_000, 20_000]


@pytest.fixture
def people(db) -> list[Member]:
    return [
        Member.objects.create(name=f"会員 {i:02d}", furigana=f"かいいん {i:02d}") for i in range(16)
    ]


@pytest.fixture
def meet13(club_rule, people) -> Meet:
    meet = Meet.objects.create(date=date(2025, 5, 14), kind="wed", rule_set=club_rule)
    meet.attendees.set(people[:13])
    return meet


def drawn(meet: Meet, seed: int = 1, from_round: int = 1) -> None:
    save_draw(meet, make_draw(meet, seed=seed, from_round=from_round), seed=seed)


def layout(meet: Meet) -> list[tuple[int, int | None, int, int]]:
    return list(
        DrawnPlace.objects.filter(meet=meet)
        .order_by("round_no", "table_no", "order")
        .values_list("round_no", "table_no", "order", "member_id")
    )


def play(meet: Meet, round_no: int, table_no: int, players: list[Member]) -> Hanchan:
    rule = meet.rule_set if len(players) == 4 else three_player_rule_set(meet)
    assert rule is not None
    game = Hanchan(meet=meet, round_no=round_no, table_no=table_no, rule_set=rule)
    scores = SCORES4 if len(players) == 4 else SCORES3
    game.record(
        [PlayerEntry(m, seat, s) for seat, (m, s) in enumerate(zip(players, scores, strict=True))]
    )
    return game


# --- model and service ---------------------------------------------------------------------


def test_a_draw_is_kept_with_the_meet_and_its_history(meet13, people):
    drawn(meet13, seed=7)
    kept = stored_draw(meet13)
    assert kept is not None
    assert [len(r.tables) for r in kept.rounds] == [4, 4, 4]  # 13 → 4+3+3+3
    for rnd in kept.rounds:
        assert sorted(len(t.players) for t in rnd.tables) == [3, 3, 3, 4]
        assert {m.pk for t in rnd.tables for m in t.players} == {m.pk for m in people[:13]}
    assert kept.seeds == (7,)
    assert DrawnPlace.objects.filter(meet=meet13).count() == 39
    assert DrawnPlace.history.filter(meet=meet13, history_type="+").count() == 39
    assert meet13.draw_mode == DrawMode.THREE_PLAYER_TABLES  # the default


def test_the_same_seed_gives_the_same_draw(meet13):
    drawn(meet13, seed=3)
    first = layout(meet13)
    drawn(meet13, seed=3)
    assert layout(meet13) == first
    drawn(meet13, seed=4)
    assert layout(meet13) != first


def test_zero_repeats_at_thirteen(meet13):
    drawn(meet13, seed=2)
    kept = stored_draw(meet13)
    assert kept is not None
    rounds = [
        draw.Round(tuple(tuple(m.pk for m in t.players) for t in r.tables)) for r in kept.rounds
    ]
    assert draw.meet_score(rounds).repeats == 0


def test_redraw_keeps_the_started_rounds_with_a_late_arrival(meet13, people):
    drawn(meet13, seed=1)
    before = layout(meet13)
    first = stored_draw(meet13)
    assert first is not None
    table = first.rounds[0].tables[0]
    play(meet13, 1, table.table_no, list(table.players))  # round 1 has started
    meet13.attendees.add(people[13])  # 14 present from round 2: 4+4+3+3
    with pytest.raises(ValidationError):
        drawn(meet13, seed=5, from_round=1)  # round 1 has started
    drawn(meet13, seed=5, from_round=2)
    after = stored_draw(meet13)
    assert after is not None
    assert [p for p in layout(meet13) if p[0] == 1] == [p for p in before if p[0] == 1]
    for rnd in after.rounds[1:]:
        assert sorted(len(t.players) for t in rnd.tables) == [3, 3, 4, 4]
        assert people[13] in [m for t in rnd.tables for m in t.players]
    assert after.seeds == (1, 5)
    rounds = [
        draw.Round(tuple(tuple(m.pk for m in t.players) for t in r.tables)) for r in after.rounds
    ]
    assert draw.meet_score(rounds).repeats == 0  # nobody meets a round-1 tablemate again


def test_a_redraw_counts_who_played_not_who_was_drawn(meet13, people):
    """Found trying a meet day: a substitute sat in round 1, then the later rounds were drawn
    again; they put the substitute with his round-1 tablemates again, because the kept round
    was the draw, not the game. The kept round is what was played."""
    drawn(meet13, seed=1)
    first = stored_draw(meet13)
    assert first is not None
    for table in first.rounds[0].tables:
        players = list(table.players)
        if table.table_no == 1:
            players[0] = people[13]  # a substitute for the drawn player (not attending before)
        play(meet13, 1, table.table_no, players)
    gone = first.rounds[0].tables[0].players[0]
    meet13.attendees.remove(gone)  # the drawn player went home; the substitute stays
    assert people[13] in meet13.attendees.all()  # record() added him to the attendance
    for seed in range(1, 6):
        drawn(meet13, seed=seed, from_round=2)
        after = stored_draw(meet13)
        assert after is not None
        played = Hanchan.objects.filter(meet=meet13, round_no=1)
        rounds = [
            draw.Round(tuple(tuple(r.member_id for r in g.results.all()) for g in played)),
            *(
                draw.Round(tuple(tuple(m.pk for m in t.players) for t in r.tables))
                for r in after.rounds[1:]
            ),
        ]
        assert draw.meet_score(rounds).repeats == 0, seed
        assert gone not in [m for r in after.rounds[1:] for t in r.tables for m in t.players]


def test_sit_out_in_turn(meet13):
    meet13.draw_mode = DrawMode.SIT_OUT
    meet13.save()
    drawn(meet13, seed=1)
    kept = stored_draw(meet13)
    assert kept is not None
    out = [m.pk for r in kept.rounds for m in r.sitting_out]
    assert len(out) == 3
    assert len(set(out)) == 3  # one a round, never the same player twice
    assert all(len(t.players) == 4 for r in kept.rounds for t in r.tables)


def test_too_few_attending_is_refused(meet, four_members):
    meet.attendees.set(four_members[:2])
    with pytest.raises(ValidationError) as refused:
        make_draw(meet, seed=1)
    assert refused.value.code == "too_few"


def test_a_finalised_meet_keeps_its_draw(meet13):
    drawn(meet13, seed=1)
    before = layout(meet13)
    meet13.finalise()
    with pytest.raises(ValidationError):
        drawn(meet13, seed=2)
    with pytest.raises(ValidationError):
        DrawnPlace.objects.filter(meet=meet13).first().delete()  # any path: admin, shell
    with pytest.raises(ValidationError):
        meet13.draw_mode = DrawMode.SIT_OUT
        meet13.save()
    assert layout(meet13) == before


def test_history_is_what_the_previous_meets_played(club_rule, people):
    old = Meet.objects.create(date=date(2025, 5, 7), kind="wed", rule_set=club_rule)
    old.attendees.set(people[:5])
    play(old, 1, 1, people[:4])  # people[4] attended and sat out round 1
    now = Meet.objects.create(date=date(2025, 5, 14), kind="wed", rule_set=club_rule)
    history = recent_history(now)
    assert history.pairs[frozenset((people[0].pk, people[1].pk))] == 4  # the last meet
    assert history.short == {people[4].pk: 4}
    assert recent_history(old) == draw.History({}, {})


def test_the_three_player_rule_set_is_the_clubs(club_rule, meet13):
    three = three_player_rule_set(meet13)
    assert three is not None
    assert three.players == 3
    assert three.group_id == club_rule.group_id
    assert three == RuleSet.objects.get(name="白樺会 三人打ち")


# --- pages ---------------------------------------------------------------------------------


def test_the_organizer_draws_every_round_in_one_step(organizer_client, meet13):
    response = organizer_client.post(
        f"/meets/{meet13.pk}/draw/make/",
        {"from_round": 1, "draw_mode": "three_player_tables", "seed": 11},
    )
    assert response.status_code == 302
    assert len(layout(meet13)) == 39
    page = organizer_client.get(f"/meets/{meet13.pk}/").content.decode()
    kept = stored_draw(meet13)
    assert kept is not None
    for rnd in kept.rounds:  # every drawn player is in the grid, with a link to enter
        for table in rnd.tables:
            for m in table.players:
                assert m.name in page
            assert f"?table={table.table_no}&amp;round={rnd.round_no}" in page


def test_a_member_may_not_draw(member_client, meet13):
    response = member_client.post(
        f"/meets/{meet13.pk}/draw/make/", {"from_round": 1, "draw_mode": "sit_out"}
    )
    assert response.status_code == 403
    assert not DrawnPlace.objects.exists()


def test_the_page_changes_the_mode(organizer_client, meet13):
    organizer_client.post(
        f"/meets/{meet13.pk}/draw/make/", {"from_round": 1, "draw_mode": "sit_out", "seed": 1}
    )
    meet13.refresh_from_db()
    assert meet13.draw_mode == DrawMode.SIT_OUT
    assert DrawnPlace.objects.filter(meet=meet13, table_no=None).count() == 3


def test_a_refused_draw_keeps_the_mode(organizer_client, meet, four_members):
    meet.attendees.set(four_members[:2])
    organizer_client.post(f"/meets/{meet.pk}/draw/make/", {"from_round": 1, "draw_mode": "sit_out"})
    meet.refresh_from_db()
    assert meet.draw_mode == DrawMode.THREE_PLAYER_TABLES
    assert not DrawnPlace.objects.exists()


def test_no_draw_on_a_finalised_meet_page(organizer_client, meet13):
    meet13.finalise()
    response = organizer_client.post(
        f"/meets/{meet13.pk}/draw/make/", {"from_round": 1, "draw_mode": "sit_out"}, follow=True
    )
    assert "finalised" in response.content.decode() or "確定" in response.content.decode()
    assert not DrawnPlace.objects.exists()
    meet13.refresh_from_db()
    assert meet13.draw_mode == DrawMode.THREE_PLAYER_TABLES


def test_a_started_round_is_not_redrawn_by_the_page(organizer_client, meet13):
    drawn(meet13, seed=1)
    kept = stored_draw(meet13)
    assert kept is not None
    table = kept.rounds[0].tables[0]
    play(meet13, 1, table.table_no, list(table.players))
    before = layout(meet13)
    organizer_client.post(
        f"/meets/{meet13.pk}/draw/make/", {"from_round": 1, "draw_mode": "three_player_tables"}
    )
    assert layout(meet13) == before
    organizer_client.post(
        f"/meets/{meet13.pk}/draw/make/",
        {"from_round": 2, "draw_mode": "three_player_tables", "seed": 9},
    )
    after = layout(meet13)
    assert [p for p in after if p[0] == 1] == [p for p in before if p[0] == 1]
    assert after != before


def test_members_read_the_board(member_client, meet13):
    drawn(meet13, seed=1)
    kept = stored_draw(meet13)
    assert kept is not None
    page = member_client.get(f"/meets/{meet13.pk}/draw/").content.decode()
    for rnd in kept.rounds:
        for table in rnd.tables:
            assert all(m.name in page for m in table.players)
    assert "白樺会 三人打ち" in page  # the tables of three name their rule set
    one = member_client.get(f"/meets/{meet13.pk}/draw/?round=2").content.decode()
    assert 'id="board-round-2"' in one
    assert 'id="board-round-1"' not in one
    assert member_client.get(f"/meets/{meet13.pk}/draw/?round=x").status_code == 200


def test_the_meet_page_offers_the_draw_only_where_it_can_be_used(
    organizer_client, member_client, meet13
):
    assert 'id="draw"' in organizer_client.get(f"/meets/{meet13.pk}/").content.decode()
    assert 'id="draw"' not in member_client.get(f"/meets/{meet13.pk}/").content.decode()
    meet13.finalise()
    assert 'id="draw"' not in organizer_client.get(f"/meets/{meet13.pk}/").content.decode()
    meet13.reopen("draw")
    drawn(meet13)
    meet13.finalise()
    page = member_client.get(f"/meets/{meet13.pk}/").content.decode()
    assert 'id="draw"' in page  # the board and the PDF stay
    assert "draw/make/" not in page


def test_the_board_before_a_draw(member_client, meet13):
    assert member_client.get(f"/meets/{meet13.pk}/draw/").status_code == 200


@pytest.mark.slow
def test_forty_players_draw_on_one_a4_page(member_client, club_rule, people):
    more = [Member.objects.create(name=f"長谷川 美代子{i}", furigana="はせがわ") for i in range(24)]
    meet = Meet.objects.create(date=date(2025, 5, 21), kind="wed", rule_set=club_rule)
    meet.attendees.set(people + more)
    drawn(meet, seed=1)
    response = member_client.get(f"/meets/{meet.pk}/draw.pdf")
    assert len(PdfReader(BytesIO(response.content)).pages) == 1


@pytest.mark.slow
def test_the_pdf_has_every_round(member_client, meet13):
    drawn(meet13, seed=1)
    response = member_client.get(f"/meets/{meet13.pk}/draw.pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(BytesIO(response.content))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    kept = stored_draw(meet13)
    assert kept is not None
    assert all(
        m.name.replace(" ", "") in text.replace(" ", "") for m in kept.rounds[2].tables[0].players
    )


def test_the_game_form_opens_with_the_drawn_players(organizer_client, meet13):
    drawn(meet13, seed=1)
    kept = stored_draw(meet13)
    assert kept is not None
    four = next(t for t in kept.rounds[1].tables if len(t.players) == 4)
    three = next(t for t in kept.rounds[1].tables if len(t.players) == 3)
    response = organizer_client.get(f"/meets/{meet13.pk}/games/new/?round=2&table={four.table_no}")
    form = response.context["form"]
    assert [form.seats.forms[s]["player"].value() for s in range(4)] == [
        m.name for m in four.players
    ]
    assert form["rule_set"].value() == meet13.rule_set_id
    response = organizer_client.get(f"/meets/{meet13.pk}/games/new/?round=2&table={three.table_no}")
    form = response.context["form"]
    assert [form.seats.forms[s]["player"].value() for s in range(3)] == [
        m.name for m in three.players
    ]
    assert not form.seats.forms[3]["player"].value()
    assert form["rule_set"].value() == three_player_rule_set(meet13).pk


def test_a_table_number_that_is_not_one_opens_table_1_of_round_1(organizer_client, meet13):
    drawn(meet13, seed=1)
    kept = stored_draw(meet13)
    assert kept is not None
    first = kept.rounds[0].tables[0]
    for query in ("round=１&table=１", "round=x&table=%C2%B2", "round=&table=1234567890"):
        response = organizer_client.get(f"/meets/{meet13.pk}/games/new/?{query}")
        assert response.status_code == 200
        form = response.context["form"]
        assert (form["round_no"].value(), form["table_no"].value()) == (1, 1)
        assert form.seats.forms[0]["player"].value() == first.players[0].name


def test_a_substitute_is_allowed_and_shown(organizer_client, meet13, people):
    drawn(meet13, seed=1)
    kept = stored_draw(meet13)
    assert kept is not None
    table = next(t for t in kept.rounds[0].tables if len(t.players) == 4)
    players = list(table.players)
    gone = players[2]
    players[2] = people[15]  # not even attending: added to the attendance
    game = play(meet13, 1, table.table_no, players)
    shown = f"代打 {gone.name} → {people[15].name}"
    english = f"Substitute {gone.name} → {people[15].name}"
    for url in (f"/meets/{meet13.pk}/", f"/games/{game.pk}/"):
        page = organizer_client.get(url).content.decode()
        assert shown in page or english in page, url
    other = next(t for t in kept.rounds[0].tables if t.table_no != table.table_no)
    page = organizer_client.get(f"/meets/{meet13.pk}/").content.decode()
    assert page.count(" → ") == 1  # only the table that had a substitute
    assert not any(f"{m.name} →" in page for m in other.players)


# --- manage.py draw_tables -----------------------------------------------------------------


def run(*args: str) -> str:
    out = StringIO()
    call_command("draw_tables", *args, stdout=out)
    return out.getvalue()


def parse(output: str) -> dict[tuple[int, str], list[str]]:
    lines = output.strip().split("\n")
    assert lines[0].startswith("# ")
    assert lines[1] == "round\ttable\tplayers"
    found = {}
    for line in lines[2:]:
        r, t, *names = line.split("\t")
        found[(int(r), t)] = names
    return found


def test_the_command_prints_a_reproducible_draw(meet13, people):
    printed = parse(run("2025-05-14", "--seed", "4"))
    assert len(printed) == 12  # 3 rounds × 4 tables
    for r in (1, 2, 3):
        names = [n for (rr, _t), ns in printed.items() if rr == r for n in ns]
        assert sorted(names) == sorted(m.name for m in people[:13])
    assert parse(run("2025-05-14", "--seed", "4", "--kind", "wed")) == printed
    assert not DrawnPlace.objects.exists()  # not saved without --save


def test_the_command_saves_and_prints_what_is_kept(meet13):
    saved = run("2025-05-14", "--seed", "6", "--save")
    assert "(saved)" in saved
    assert len(layout(meet13)) == 39
    kept = run("2025-05-14")
    assert "kept with the meet" in kept
    assert parse(kept) == parse(saved)
    assert parse(saved) == parse(run("2025-05-14", "--seed", "6"))


def test_the_command_prints_sit_outs(meet13):
    meet13.draw_mode = DrawMode.SIT_OUT
    meet13.save()
    printed = parse(run("2025-05-14", "--seed", "1"))
    assert [k for k in printed if k[1] == "out"] == [(1, "out"), (2, "out"), (3, "out")]


def test_the_command_refuses_to_save_on_a_finalised_meet(meet13):
    meet13.finalise()
    with pytest.raises(CommandError, match="finalised"):
        run("2025-05-14", "--save")
    assert not DrawnPlace.objects.exists()
    assert parse(run("2025-05-14", "--seed", "1"))  # printing is still allowed


def test_the_command_names_a_missing_meet(meet13):
    with pytest.raises(CommandError, match="0 meets"):
        run("2025-05-15")


def test_the_meet_page_says_when_the_draw_no_longer_matches_the_attendance(
    organizer_client, meet13, people
):
    """Found trying a meet day: after someone left, the later rounds still listed them, with
    no word, until the organizer thought of drawing again."""
    drawn(meet13, seed=1)
    page = organizer_client.get(f"/meets/{meet13.pk}/").content.decode()
    assert "卓組みが出席と合っていません" not in page
    kept = stored_draw(meet13)
    assert kept is not None
    for table in kept.rounds[0].tables:
        play(meet13, 1, table.table_no, list(table.players))  # round 1 played as drawn
    leaving = kept.rounds[1].tables[0].players[0]
    meet13.attendees.remove(leaving)
    meet13.attendees.add(people[14])  # and one arrives late
    page = organizer_client.get(f"/meets/{meet13.pk}/").content.decode()
    stale = page.split('class="draw-stale"')[1].split("</div>")[0]
    assert "卓組みが出席と合っていません" in stale
    assert leaving.name in stale and people[14].name in stale
    drawn(meet13, seed=2, from_round=2)
    page = organizer_client.get(f"/meets/{meet13.pk}/").content.decode()
    assert "draw-stale" not in page
