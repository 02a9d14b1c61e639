"""A meet's table draw (卓組み), between the stored meet and the pure search (``draw.py``).

Data flows one way: the attendance, the stored draw of the rounds already started and what
was played at the previous meets go into ``draw.redraw_tables``; its draw is shown, or kept
with the meet by ``save_draw`` (one ``DrawnPlace`` row per player per round, with history).

- Players are members, by id; the attendance is listed by id, so the same attendance, history
  and seed give the same draw.
- A round has *started* once a game of it is entered; a started round is never drawn again.
  A redraw from round r keeps rounds 1..r−1 (the stored draw, or the games entered where the
  round was not drawn) and draws r.. for who is present now.
- Recency: the tables actually played at the previous 4 meets (their games), most recent
  first, weigh 4, 3, 2, 1 (``draw.history_from``); who attended a meet but played no game in a
  round sat out that round.
- Tables of three are played under the 3-player rule set of the meet's standings group (the
  club's 白樺会 三人打ち: 「ルールは4人マージャンと同じ」, sheet 000).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from members.models import Member
from scoring import draw
from scoring.models import DrawnPlace, Hanchan, HanchanResult, Meet, RuleSet
from scoring.standings import MeetSheet, SheetGame, meet_sheet

RECENT_MEETS = len(draw.RECENCY_WEIGHTS)


@dataclass(frozen=True)
class DrawnTable:
    round_no: int
    table_no: int
    players: tuple[Member, ...]  # in the draw's order (seats are decided at the table)

    @property
    def three_players(self) -> bool:
        return len(self.players) == 3


@dataclass(frozen=True)
class DrawnRound:
    round_no: int
    tables: tuple[DrawnTable, ...]
    sitting_out: tuple[Member, ...]


@dataclass(frozen=True)
class MeetDraw:
    """A meet's draw as members, round by round."""

    rounds: tuple[DrawnRound, ...]
    seeds: tuple[int, ...]  # the seeds of the stored rows (one, or more after a redraw)

    def table(self, round_no: int, table_no: int) -> DrawnTable | None:
        for rnd in self.rounds:
            if rnd.round_no == round_no:
                for table in rnd.tables:
                    if table.table_no == table_no:
                        return table
        return None

    @property
    def tables(self) -> int:
        return max((len(r.tables) for r in self.rounds), default=0)


def mode_of(meet: Meet) -> draw.Mode:
    return draw.Mode(meet.draw_mode)


def three_player_rule_set(meet: Meet) -> RuleSet | None:
    """The rule set of a table of three: the meet's own when it is a 3-player one, else the
    first 3-player rule set of the meet's standings group (the club's 白樺会 三人打ち)."""
    if meet.rule_set.players == 3:
        return meet.rule_set
    return RuleSet.objects.filter(group_id=meet.rule_set.group_id, players=3).order_by("pk").first()


def started_rounds(meet: Meet) -> set[int]:
    return set(Hanchan.objects.filter(meet=meet).values_list("round_no", flat=True))


def sheet_started_rounds(sheet: MeetSheet) -> set[int]:
    """``started_rounds`` read from a meet's sheet (no query): the rounds with a game."""
    return {r.round_no for r in sheet.rounds if r.games}


def first_round_not_started(started: Iterable[int]) -> int | None:
    """The round after the last one started (``started_rounds``): the first a redraw may draw
    again; None when every round of the club's (``Meet.ROUNDS``) has started."""
    after = max(started, default=0) + 1
    return after if after <= Meet.ROUNDS else None


def redraw_from(started: Iterable[int]) -> int:
    """The round a redraw starts from unless told: the first round not started, or the last
    round when every round has (``make_draw`` then refuses it as started)."""
    return first_round_not_started(started) or Meet.ROUNDS


def refuse_started(meet: Meet, first: int) -> None:
    """Refuse (ValidationError, code ``started``) when a round from ``first`` on has a game."""
    started = sorted(r for r in started_rounds(meet) if r >= first)
    if started:
        raise ValidationError(
            _("Round %(round)s has started: its tables can no longer be drawn again.")
            % {"round": started[0]},
            code="started",
        )


def stored_draw(meet: Meet) -> MeetDraw | None:
    """The draw kept with the meet, or None."""
    places = list(
        DrawnPlace.objects.filter(meet=meet)
        .select_related("member")
        .order_by("round_no", "table_no", "order")
    )
    if not places:
        return None
    tables: dict[int, dict[int, list[Member]]] = defaultdict(lambda: defaultdict(list))
    out: dict[int, list[Member]] = defaultdict(list)
    for place in places:
        if place.table_no is None:
            out[place.round_no].append(place.member)
        else:
            tables[place.round_no][place.table_no].append(place.member)
    rounds = tuple(
        DrawnRound(
            r,
            tuple(DrawnTable(r, t, tuple(ps)) for t, ps in sorted(tables[r].items())),
            tuple(out[r]),
        )
        for r in sorted(set(tables) | set(out))
    )
    return MeetDraw(rounds, tuple(sorted({p.seed for p in places})))


def drawn_table(meet: Meet, round_no: int, table_no: int) -> DrawnTable | None:
    """The stored draw's table (for the game form); None when not drawn."""
    places = (
        DrawnPlace.objects.filter(meet=meet, round_no=round_no, table_no=table_no)
        .select_related("member")
        .order_by("order")
    )
    players = tuple(p.member for p in places)
    return DrawnTable(round_no, table_no, players) if players else None


def _seated(results: QuerySet[HanchanResult]) -> dict[tuple[int, int], dict[int, list[int]]]:
    """Who sat at each entered game: per (meet, round), per table, the members in seat
    order (one game per meet, round and table)."""
    seated: dict[tuple[int, int], dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for meet_id, round_no, table_no, member_id in results.order_by(
        "hanchan__round_no", "hanchan__table_no", "seat"
    ).values_list("hanchan__meet_id", "hanchan__round_no", "hanchan__table_no", "member_id"):
        seated[(meet_id, round_no)][table_no].append(member_id)
    return seated


def _played_rounds(meets: list[Meet]) -> dict[int, dict[int, draw.Round[int]]]:
    """Per meet, the rounds as played: the games' tables, and who attended but played no
    game in the round as sitting out."""
    seated = _seated(HanchanResult.objects.filter(hanchan__meet__in=meets))
    attendance: dict[int, set[int]] = defaultdict(set)
    for meet_id, member_id in Meet.attendees.through.objects.filter(meet__in=meets).values_list(
        "meet_id", "member_id"
    ):
        attendance[meet_id].add(member_id)
    played: dict[int, dict[int, draw.Round[int]]] = {m.pk: {} for m in meets}
    for (meet_id, round_no), games in sorted(seated.items()):
        at_tables = {p for ps in games.values() for p in ps}
        played[meet_id][round_no] = draw.Round(
            tuple(tuple(ps) for ps in games.values()),
            tuple(sorted(attendance[meet_id] - at_tables)),
        )
    return played


def recent_history(meet: Meet) -> draw.History[int]:
    """What the previous 4 meets with games (before this one's date) played, weighted by
    recency (``draw.history_from``)."""
    before = list(
        Meet.objects.filter(date__lt=meet.date, hanchans__isnull=False)
        .distinct()
        .order_by("-date", "kind")[:RECENT_MEETS]
    )
    played = _played_rounds(before)
    return draw.history_from([list(played[m.pk].values()) for m in before])


def _kept_rounds(meet: Meet, from_round: int) -> list[draw.Round[int]]:
    """Rounds 1..from_round−1 as they stand: a table whose game is entered as played (a
    substitute counts where they sat, not the drawn player), a drawn table not yet entered as
    drawn (less anyone who played at another table that round), and a round not drawn as its
    games."""
    stored = stored_draw(meet)
    games = _seated(
        HanchanResult.objects.filter(hanchan__meet=meet, hanchan__round_no__lt=from_round)
    )
    attending = set(meet.attendees.values_list("pk", flat=True))
    kept: list[draw.Round[int]] = []
    for round_no in range(1, from_round):
        played = games.get((meet.pk, round_no), {})
        drawn = next((r for r in stored.rounds if r.round_no == round_no), None) if stored else None
        at_games = {p for ps in played.values() for p in ps}
        tables = [tuple(ps) for ps in played.values()]
        if drawn is not None:
            for table in drawn.tables:
                if table.table_no not in played:
                    rest = tuple(m.pk for m in table.players if m.pk not in at_games)
                    if rest:
                        tables.append(rest)
        seated = {p for t in tables for p in t}
        if drawn is not None:  # who was drawn to sit out and did not play
            out = {m.pk for m in drawn.sitting_out} - seated
        else:  # who attends and played no game that round
            out = attending - seated
        kept.append(draw.Round(tuple(tables), tuple(sorted(out))))
    return kept


def make_draw(meet: Meet, *, seed: int, from_round: int = 1) -> MeetDraw:
    """Draw rounds ``from_round``..3 for the attendance now (nothing saved).

    Refused (ValidationError) when a round from ``from_round`` on has started, or when too
    few attend for a table."""
    rounds = max(Meet.ROUNDS, from_round)
    refuse_started(meet, from_round)
    attending = list(meet.attendees.order_by("pk"))
    try:
        found = draw.redraw_tables(
            [m.pk for m in attending],
            _kept_rounds(meet, from_round),
            rounds=rounds,
            seed=seed,
            history=recent_history(meet),
            mode=mode_of(meet),
        )
    except ValueError:
        raise ValidationError(
            _("%(n)s attending is too few to draw tables.") % {"n": len(attending)},
            code="too_few",
        ) from None
    members = {m.pk: m for m in Member.objects.filter(pk__in=_ids(found.rounds))}
    return MeetDraw(
        tuple(
            DrawnRound(
                r,
                tuple(
                    DrawnTable(r, t, tuple(members[p] for p in table))
                    for t, table in enumerate(rnd.tables, start=1)
                ),
                tuple(members[p] for p in rnd.sitting_out),
            )
            for r, rnd in enumerate(found.rounds, start=1)
            if r >= from_round
        ),
        (seed,),
    )


def _ids(rounds: tuple[draw.Round[int], ...]) -> set[int]:
    return {p for rnd in rounds for t in rnd.tables for p in t} | {
        p for rnd in rounds for p in rnd.sitting_out
    }


def save_draw(meet: Meet, drawn: MeetDraw, *, seed: int) -> None:
    """Keep ``drawn`` (rounds from its first on) with the meet, replacing those rounds of
    the stored draw. The meet's row is locked first (``Meet.lock_open``): refused on a
    finalised meet, and for a round that has started meanwhile."""
    first = min((r.round_no for r in drawn.rounds), default=1)
    with transaction.atomic():
        meet.lock_open()
        refuse_started(meet, first)
        for place in DrawnPlace.objects.filter(meet=meet, round_no__gte=first):
            place.delete()
        for rnd in drawn.rounds:
            for table in rnd.tables:
                for order, member in enumerate(table.players):
                    DrawnPlace(
                        meet=meet,
                        round_no=rnd.round_no,
                        table_no=table.table_no,
                        order=order,
                        member=member,
                        seed=seed,
                    ).save()
            for order, member in enumerate(rnd.sitting_out):
                DrawnPlace(
                    meet=meet, round_no=rnd.round_no, order=order, member=member, seed=seed
                ).save()


def substitutes(
    drawn: Sequence[tuple[int, str]], played: Sequence[tuple[int, str]]
) -> list[tuple[str, str]]:
    """(drawn player, who played instead) by (id, name), in the draw's order: a game at a
    drawn table whose players differ from the draw had a substitute (代打)."""
    played_ids = {pk for pk, _name in played}
    drawn_ids = {pk for pk, _name in drawn}
    gone = [name for pk, name in drawn if pk not in played_ids]
    came = [name for pk, name in played if pk not in drawn_ids]
    return list(zip(gone, came, strict=False))


def sheet_game_substitutes(table: DrawnTable | None, game: SheetGame) -> list[tuple[str, str]]:
    """``substitutes`` of a game of the meet's sheet played at the drawn ``table`` (none when
    the table was not drawn): the meet page's grid and the meet sheet PDF name them alike."""
    if table is None:
        return []
    return substitutes(
        [(m.pk, m.name) for m in table.players],
        [(line.member_id, line.name) for line in game.lines],
    )


@dataclass(frozen=True)
class DrawnGridCell:
    """A cell of the meet page's grid: a cell of the sheet's grid (``SheetGridCell``: the game
    entered there) with the draw in it: the drawn table, and who played instead of a drawn
    player (代打)."""

    table_no: int
    game: SheetGame | None
    drawn: DrawnTable | None
    substitutes: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class DrawnGridRow:
    """A round of the meet page's grid: its cells with the draw, and who the draw sits out."""

    round_no: int
    cells: tuple[DrawnGridCell, ...]
    sitting_out: tuple[str, ...]


def grid_with_draw(sheet: MeetSheet, drawn: MeetDraw | None) -> list[DrawnGridRow]:
    """The meet's grid (rounds × tables) with the drawn tables in it: every drawn table has a
    cell, and a game at a drawn table names its substitutes."""
    tables = max(sheet.tables, drawn.tables if drawn else 0)
    games = {(g.round_no, g.table_no): g for r in sheet.rounds for g in r.games}
    rows = []
    for row in sheet.grid:
        cells = []
        for table_no in range(1, tables + 1):
            game = games.get((row.round_no, table_no))
            table = drawn.table(row.round_no, table_no) if drawn else None
            subs = tuple(sheet_game_substitutes(table, game)) if game is not None else ()
            cells.append(DrawnGridCell(table_no, game, table, subs))
        out = next(
            (r.sitting_out for r in (drawn.rounds if drawn else ()) if r.round_no == row.round_no),
            (),
        )
        rows.append(
            DrawnGridRow(
                row.round_no,
                tuple(cells),
                tuple(m.name for m in out),
            )
        )
    return rows


@dataclass(frozen=True)
class OutOfDate:
    """Who the draw's rounds not yet started seat but no longer attend, and who attends but
    has no place in them (the attendance changed after the draw)."""

    gone: tuple[Member, ...]
    missing: tuple[Member, ...]


def draw_out_of_date(meet: Meet, drawn: MeetDraw | None, started: set[int]) -> OutOfDate | None:
    waiting = [r for r in drawn.rounds if r.round_no not in started] if drawn else []
    if not waiting:
        return None
    attending = set(meet.attendees.all())
    placed = {m for r in waiting for t in r.tables for m in t.players} | {
        m for r in waiting for m in r.sitting_out
    }
    gone, missing = placed - attending, attending - placed
    if not gone and not missing:
        return None
    return OutOfDate(
        tuple(sorted(gone, key=lambda m: m.furigana)),
        tuple(sorted(missing, key=lambda m: m.furigana)),
    )


# 確定する names what is missing before it finalises.


def missing_tables(meet: Meet) -> list[tuple[int, int]]:
    """The tables (round, table) a meet is missing a game at, for 確定する to name.

    A drawn round must have a game at each of its drawn tables (a substitute's game counts;
    a sit-out is no table). A round not drawn, up to the club's ``Meet.ROUNDS``, must fill its
    row of the grid: the tables of the attendance, and any table entered in another round. An
    extra round (4回戦 on) is played by whoever wants to: nothing is missing there."""
    drawn = stored_draw(meet)
    drawn_rounds = {r.round_no for r in drawn.rounds} if drawn else set()
    missing = []
    for row in grid_with_draw(meet_sheet(meet, day_standings=False), drawn):
        for cell in row.cells:
            if row.round_no in drawn_rounds:
                expected = cell.drawn is not None
            else:
                expected = row.round_no <= Meet.ROUNDS
            if expected and cell.game is None:
                missing.append((row.round_no, cell.table_no))
    return missing


def missing_key(missing: list[tuple[int, int]]) -> str:
    """The missing tables as the confirmation form carries them: ``3-2,3-4``."""
    return ",".join(f"{r}-{t}" for r, t in missing)


def parse_missing_key(text: str) -> set[tuple[int, int]]:
    """What ``missing_key`` wrote; anything else is taken as nothing confirmed."""
    found = set()
    for part in text.split(",") if text else ():
        r, sep, t = part.partition("-")
        if not (sep and r.isascii() and r.isdigit() and t.isascii() and t.isdigit()):
            return set()
        if len(r) > 3 or len(t) > 3:
            return set()
        found.add((int(r), int(t)))
    return found


def missing_text(missing: list[tuple[int, int]]) -> str:
    """「1回戦 2卓、3回戦 2卓 が未入力です。」"""
    tables = pgettext("list separator", ", ").join(
        _("Round %(round)s table %(table)s") % {"round": r, "table": t} for r, t in missing
    )
    return _("%(tables)s not entered yet.") % {"tables": tables}
