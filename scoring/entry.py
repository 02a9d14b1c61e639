"""Entering a game: what became of a game as sent, decided once, below the views.

A game comes from the game form's page (online, ``save_game``) or from a device's queue of
games kept offline (``send_game``, with the id the device gave it). Either way the answer is
one of three values, and nothing is raised that a view must interpret:

- ``Saved``: stored now, or stored before (``again``: the same game sent twice);
- ``Refused``: the game cannot stand as sent; the form's messages, as the page shows them;
- ``Conflict``: another game stands where this one would go (the table and round entered
  meanwhile, a newer version of the game edited, another game stored for the device's id),
  or the meet is finalised: ``stored`` is the game to show beside it, if any.

The page draws the form (its errors placed by ``GameForm.save``) or goes to the meet; the
queue's endpoint answers the same in JSON, which the device keeps as sent or as 要確認.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from members.models import Member
from scoring.forms import GameForm, SentForm
from scoring.models import Hanchan, Meet, SentBefore, finalised_error


@dataclass(frozen=True)
class Saved:
    """The game is stored: now, or before (``again``), by this or another sender."""

    game: Hanchan
    again: bool = False
    added_to_attendance: tuple[Member, ...] = ()  # players the save put in the attendance


@dataclass(frozen=True)
class Refused:
    """The game cannot stand as sent; nothing was stored."""

    messages: tuple[str, ...]


@dataclass(frozen=True)
class Conflict:
    """Something else stands where the game would go; nothing was stored. ``stored``: the
    game in its way, to show beside it (None when the meet is finalised)."""

    reason: str
    stored: Hanchan | None = None


type Outcome = Saved | Refused | Conflict


def save_game(form: GameForm, *, sent_as: UUID | None = None) -> Outcome:
    """Save the game the bound ``form`` holds (its meet, the game it edits or replaces, and
    the version that game was shown at) and say what became of it.

    ``sent_as``: the id a device gave a game it kept offline. When the meet stored a game
    for it meanwhile (another sender was first), that game is this one saved again if it
    holds what was sent, else a conflict. Without an id, a form whose very game is stored
    already is that game saved again (the same form sent twice: Enter pressed twice).
    """
    if not form.is_valid():
        return Refused(form_messages(form))
    try:
        game = form.save(sent_as=sent_as)
    except SentBefore as before:
        return _sent_before(form.meet, form.data, before.game)
    except ValidationError as error:
        return _why_not_saved(form, error, sent_as)
    return Saved(game, added_to_attendance=tuple(form.added_to_attendance))


def send_game(meet: Meet, data: Mapping[str, Any]) -> Outcome:
    """A game a device kept while offline, sent to ``meet`` with the game form's fields and
    ``sent_as``, the id the device gave it; with ``replace`` (a game of this meet) and
    ``version`` (the version of it the device was shown), the device's game replaces that
    one (要確認, 「この端末の方を残す」).

    A meet stores a game for an id at most once: the meet's game for the id is this one
    saved again, even after a finalise, when it holds what was sent, and a conflict when it
    holds something else. Otherwise a finalised meet is a conflict, and the game is saved as
    the form's page would save it (``save_game``)."""
    sent = SentForm(data)
    if not sent.is_valid():
        return Refused(form_messages(sent))
    sent_as: UUID = sent.cleaned_data["sent_as"]
    stored = Hanchan.objects.filter(meet=meet, sent_as=sent_as).first()
    if stored is not None:
        return _sent_before(meet, data, stored)
    if meet.is_final:
        return Conflict(_finalised())
    replaced = None
    if sent.cleaned_data["replace"] is not None:
        replaced = Hanchan.objects.filter(meet=meet, pk=sent.cleaned_data["replace"]).first()
        if replaced is None:
            return Refused((_("The game to replace is not in this meet any more."),))
    return save_game(GameForm(data, meet=meet, game=replaced), sent_as=sent_as)


def form_messages(form: GameForm | SentForm) -> tuple[str, ...]:
    """What a refused form says: its own errors, then each field's and each seat's, named
    by their labels (南: …), as the page shows them beside the fields."""
    found = [str(m) for m in form.non_field_errors()]
    found += [
        f"{form[name].label}: {m}"
        for name, errors in form.errors.items()
        if name != "__all__"
        for m in errors
    ]
    if isinstance(form, GameForm):
        found += [
            f"{row.label}: {m}"
            for row in form.seats.forms
            for errors in row.errors.values()
            for m in errors
        ]
    return tuple(found)


def _sent_before(meet: Meet, data: Mapping[str, Any], stored: Hanchan) -> Outcome:
    """The meet stored ``stored`` for the id sent: saved again when it holds what was sent
    (a guest it added named as a new guest again is that guest), else a conflict."""
    guests = [r.member for r in stored.results.select_related("member") if r.member.is_guest]
    form = GameForm(data, meet=meet, known_guests=guests)
    if form.is_valid() and form.holds(stored):
        return Saved(stored, again=True)
    reason = _("The game stored for this device's id holds something else than what was sent.")
    return Conflict(reason, stored)


def _why_not_saved(form: GameForm, error: ValidationError, sent_as: UUID | None) -> Outcome:
    """``GameForm.save`` refused the game (its errors are on the form): the same game stored
    already, a finalised meet, a newer version of the game edited, or a game at the table
    and round are what stands in its way; anything else is the game's own fault."""
    reason = error.messages[0]
    if sent_as is None and (repeated := form.saved_already()) is not None:
        return Saved(repeated, again=True)
    if "finalised" in _codes(error):
        return Conflict(reason)
    if form.stale and form.game is not None:
        return Conflict(reason, Hanchan.objects.get(pk=form.game.pk))
    taken = Hanchan.objects.filter(
        meet=form.meet,
        round_no=form.cleaned_data["round_no"],
        table_no=form.cleaned_data["table_no"],
    )
    if form.game is not None:
        taken = taken.exclude(pk=form.game.pk)  # its own table is no conflict
    stored = taken.first()
    if stored is not None:
        return Conflict(reason, stored)
    return Refused(form_messages(form))


def _codes(error: ValidationError) -> set[str | None]:
    if hasattr(error, "error_dict"):
        return {item.code for items in error.error_dict.values() for item in items}
    return {item.code for item in error.error_list}


def _finalised() -> str:
    return str(finalised_error().messages[0])
