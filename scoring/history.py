"""A game's history as people read it: one entry a save, each saying what changed seat by
seat (「東 伊藤 節子 → 鈴木 一郎」「南 31,000 → 32,000」), by whom (the member's name).

django-simple-history keeps a snapshot row for every save and delete of a game (Hanchan),
its results (HanchanResult) and their big hands (BigHand). A save of the game form writes the
game, then deletes and writes again every result (``Hanchan.record``), so the raw rows of one
change are a dozen 削除/追加 lines. Here those rows are replayed in order into the game's state
after each save, and two states in a row are compared seat by seat. Nothing is computed: the
figures shown are the ones settlement stored.
"""

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from scoring.models import BigHand, Hanchan, HanchanResult
from scoring.notation import points, seat_label, signed_p


@dataclass(frozen=True)
class SeatState:
    """One seat's line of the game after a save."""

    name: str
    score: int
    chombo: int
    total_points: Decimal
    hands: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameState:
    """The game after a save: its own fields and its seats, by seat number."""

    round_no: int
    table_no: int
    rule_set: str
    deposits_held: int
    note: str
    seats: dict[int, SeatState] = field(default_factory=dict)


@dataclass
class HistoryEntry:
    """One save (or the deletion) of the game, as read on the game's page."""

    when: datetime
    who: str
    action: str  # "created", "changed" or "deleted"
    reason: str
    lines: list[str]


def editor_name(user: AbstractBaseUser | None) -> str:
    """Who made a change: the member's name for a login linked to a member, else the name
    the login carries, else the login itself; "—" when nobody is known (a script)."""
    if user is None:
        return "—"
    linked = getattr(user, "members", None)  # its member in the club in scope (one a club)
    member = next(iter(linked.all()), None) if linked is not None else None
    if member is not None:
        return str(member.name)
    full_name = str(getattr(user, "get_full_name", lambda: "")())
    return full_name or str(user.get_username())


def _hands(hands: tuple[str, ...]) -> str:
    return "、".join(hands) if hands else _("none")


def _quoted(text: str) -> str:
    return f"「{text}」" if text else _("none")


def describe_seat(number: int, seat: SeatState) -> str:
    """A seat as entered, for a game's first save: 「東 伊藤 節子：32,600 点、錯和 1 回、合計 +22.6 P」."""
    text = _("%(seat)s %(name)s: %(score)s points") % {
        "seat": seat_label(number),
        "name": seat.name,
        "score": points(seat.score),
    }
    if seat.chombo:
        text += _(", chombo %(n)s") % {"n": seat.chombo}
    if seat.hands:
        text += _(", mangan or better: %(hands)s") % {"hands": _hands(seat.hands)}
    text += _(", total %(total)s P") % {"total": signed_p(seat.total_points)}
    return text


def compare(before: GameState, after: GameState) -> list[str]:
    """What changed from one state to the next, the game's fields first, then seat by seat.
    A chombo count and a P figure are never written side by side without their own label."""
    lines: list[str] = []
    game_fields: list[tuple[str, str, Callable[[Any], str]]] = [
        ("round_no", _("Round"), str),
        ("table_no", _("Table"), str),
        ("rule_set", _("Rule set"), str),
        ("deposits_held", _("Deposits held"), points),
        ("note", _("Note"), _quoted),
    ]
    for name, label, shown in game_fields:
        old, new = getattr(before, name), getattr(after, name)
        if old != new:
            lines.append(f"{label} {shown(old)} → {shown(new)}")
    for number in sorted(before.seats.keys() | after.seats.keys()):
        old_seat, new_seat = before.seats.get(number), after.seats.get(number)
        seat = seat_label(number)
        if old_seat is None and new_seat is not None:
            lines.append(describe_seat(number, new_seat))
            continue
        if new_seat is None and old_seat is not None:
            lines.append(_("%(seat)s %(name)s removed") % {"seat": seat, "name": old_seat.name})
            continue
        assert old_seat is not None and new_seat is not None
        if old_seat.name != new_seat.name:
            lines.append(f"{seat} {old_seat.name} → {new_seat.name}")
        if old_seat.score != new_seat.score:
            lines.append(f"{seat} {points(old_seat.score)} → {points(new_seat.score)}")
        if old_seat.chombo != new_seat.chombo:
            lines.append(
                _("%(seat)s chombo: %(old)s → %(new)s")
                % {"seat": seat, "old": old_seat.chombo, "new": new_seat.chombo}
            )
        if old_seat.hands != new_seat.hands:
            lines.append(
                _("%(seat)s mangan or better: %(old)s → %(new)s")
                % {"seat": seat, "old": _hands(old_seat.hands), "new": _hands(new_seat.hands)}
            )
        if old_seat.total_points != new_seat.total_points:
            lines.append(
                _("%(seat)s total %(old)s P → %(new)s P")
                % {
                    "seat": seat,
                    "old": signed_p(old_seat.total_points),
                    "new": signed_p(new_seat.total_points),
                }
            )
    return lines


def _events(game: Hanchan) -> list[tuple[datetime, int, int, Any]]:
    """Every snapshot row of the game, its results and big hands, oldest first (within one
    instant: the game before its results before their hands)."""
    events: list[tuple[datetime, int, int, Any]] = []
    for h in game.history.select_related("history_user", "rule_set").prefetch_related(
        "history_user__members"
    ):
        events.append((h.history_date, 0, h.history_id, h))
    results = (
        HanchanResult.history.filter(hanchan_id=game.pk)
        .select_related("history_user", "member")
        .prefetch_related("history_user__members")
    )
    result_ids: set[int] = set()
    for r in results:
        result_ids.add(r.id)
        events.append((r.history_date, 1, r.history_id, r))
    for b in (
        BigHand.history.filter(result_id__in=result_ids)
        .select_related("history_user")
        .prefetch_related("history_user__members")
    ):
        events.append((b.history_date, 2, b.history_id, b))
    events.sort(key=lambda event: event[:3])
    return events


def game_history(game: Hanchan) -> list[HistoryEntry]:
    """The game's saves, newest first, each with what it changed seat by seat.

    A save begins at a snapshot of the game itself (every save of the game form writes the
    game first); rows of its results and hands that follow belong to it. A row by another
    user, or with another reason, begins an entry of its own (an edit made outside the form).
    """
    state: GameState | None = None
    results: dict[int, tuple[int, SeatState]] = {}  # result id -> (seat, line)
    hands: dict[int, tuple[int, str]] = {}  # big hand id -> (result id, label)
    groups: list[tuple[Any, list[Any]]] = []
    for _date, kind, _id, h in _events(game):
        reason = h.history_change_reason or ""
        current = groups[-1] if groups else None
        if (
            current is None
            or kind == 0
            or current[0].history_user_id != h.history_user_id
            or (current[0].history_change_reason or "") != reason
        ):
            groups.append((h, [h]))
        else:
            current[1].append(h)
    entries: list[HistoryEntry] = []
    for first, rows in groups:
        before = state
        deleted = False
        for h in rows:
            if isinstance(h, game.history.model):
                if h.history_type == "-":
                    deleted = True
                state = GameState(
                    round_no=h.round_no,
                    table_no=h.table_no,
                    rule_set=str(h.rule_set.name) if h.rule_set else "—",
                    deposits_held=h.deposits_held,
                    note=h.note,
                    seats=state.seats if state is not None else {},
                )
            elif isinstance(h, HanchanResult.history.model):
                if h.history_type == "-":
                    results.pop(h.id, None)
                else:
                    results[h.id] = (
                        h.seat,
                        SeatState(
                            name=str(h.member.name) if h.member else "—",
                            score=h.score,
                            chombo=h.chombo,
                            total_points=h.total_points,
                        ),
                    )
            elif h.history_type == "-":
                hands.pop(h.id, None)
            else:
                label = BigHand(level=h.level, yakuman_name=h.yakuman_name)
                hands[h.id] = (h.result_id, str(label))
        if state is None:
            continue
        seats: dict[int, SeatState] = {}
        for result_id, (number, line) in results.items():
            own = tuple(label for rid, label in hands.values() if rid == result_id)
            seats[number] = replace(line, hands=own)
        state = replace(state, seats=seats)
        if deleted:
            action, lines = "deleted", []
        elif before is None:
            action = "created"
            lines = [describe_seat(number, seat) for number, seat in sorted(seats.items())]
        else:
            action = "changed"
            lines = compare(before, state) or [_("Saved with no change.")]
        entries.append(
            HistoryEntry(
                when=first.history_date,
                who=editor_name(first.history_user),
                action=action,
                reason=first.history_change_reason or "",
                lines=lines,
            )
        )
    entries.reverse()
    return entries
