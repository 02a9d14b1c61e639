"""``manage.py draw_tables DATE [--kind wed|sat] [--seed N] [--from-round R] [--save]``: print a
meet's table draw (卓組み), so an organizer can prepare it at home and a script can check it.

Output (UTF-8, tab-separated after a ``#`` heading line): one line per table, ``round``,
``table`` and its players; sit-outs (抜け番) as table ``out``. Without ``--seed`` and
``--save`` the draw kept with the meet is printed when there is one; otherwise the meet is
drawn for its attendance (seed 0 unless given) from the first round not started.
``--save`` keeps the draw with the meet (refused on a finalised meet).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError

from members.scopes import ClubCommand
from scoring.meet_draw import (
    MeetDraw,
    make_draw,
    redraw_from,
    save_draw,
    started_rounds,
    stored_draw,
)
from scoring.models import Meet
from scoring.notation import MeetKind


class Command(ClubCommand):
    help = "Print a meet's table draw (round, table, players); --save keeps it with the meet."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("date", type=date.fromisoformat, help="the meet's date (YYYY-MM-DD)")
        parser.add_argument("--kind", choices=MeetKind.values)
        parser.add_argument("--seed", type=int, help="the draw's seed (default 0)")
        parser.add_argument(
            "--from-round", type=int, help="redraw from this round (default: the first not started)"
        )
        parser.add_argument("--save", action="store_true", help="keep the draw with the meet")

    def handle(self, *args: Any, **options: Any) -> None:
        meets = Meet.objects.filter(date=options["date"]).select_related("rule_set")
        if options["kind"]:
            meets = meets.filter(kind=options["kind"])
        if len(meets) != 1:
            raise CommandError(
                f"{len(meets)} meets on {options['date']:%Y-%m-%d}"
                + ("; name one with --kind." if len(meets) > 1 else ".")
            )
        meet = meets[0]
        if options["save"] and meet.is_final:
            raise CommandError(
                f"The meet of {meet.date:%Y-%m-%d} ({meet.kind}) is finalised; "
                "reopen it before changing its draw. Nothing was saved."
            )
        stored = stored_draw(meet)
        drawn: MeetDraw | None
        fresh = options["save"] or options["seed"] is not None or stored is None
        seed = options["seed"] if options["seed"] is not None else 0
        if fresh:
            from_round = options["from_round"] or redraw_from(started_rounds(meet))
            try:
                drawn = make_draw(meet, seed=seed, from_round=from_round)
                if options["save"]:
                    save_draw(meet, drawn, seed=seed)
            except ValidationError as error:
                raise CommandError(" ".join(error.messages)) from error
            if options["save"] or from_round > 1:
                drawn = stored_draw(meet) if options["save"] else _with_kept(meet, drawn)
            state = "saved" if options["save"] else "not saved"
        else:
            drawn = stored
            state = "kept with the meet"
        assert drawn is not None
        seeds = ", ".join(str(s) for s in drawn.seeds)
        self.stdout.write(
            f"# {meet.date:%Y-%m-%d} {meet.kind}: {meet.attendees.count()} attending, "
            f"{meet.draw_mode}, seed {seeds} ({state})"
        )
        self.stdout.write("round\ttable\tplayers")
        for rnd in drawn.rounds:
            for table in rnd.tables:
                names = "\t".join(m.name for m in table.players)
                self.stdout.write(f"{rnd.round_no}\t{table.table_no}\t{names}")
            if rnd.sitting_out:
                names = "\t".join(m.name for m in rnd.sitting_out)
                self.stdout.write(f"{rnd.round_no}\tout\t{names}")


def _with_kept(meet: Meet, drawn: MeetDraw) -> MeetDraw:
    """A redraw of later rounds, shown after the stored earlier rounds it kept."""
    stored = stored_draw(meet)
    first = min(r.round_no for r in drawn.rounds)
    earlier = tuple(r for r in stored.rounds if r.round_no < first) if stored else ()
    return MeetDraw(earlier + drawn.rounds, drawn.seeds)
