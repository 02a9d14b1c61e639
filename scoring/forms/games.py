"""The game form: the four (or three) seats, the live check's messages and lines, the settlement
box, and what a device sends (``SentForm``)."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any
from uuid import UUID

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.forms.formsets import INITIAL_FORM_COUNT, TOTAL_FORM_COUNT, ManagementForm
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from members.models import NAME_LENGTH, NOTE_LENGTH, Member, name_key, no_control_characters
from scoring import rules
from scoring.forms.fields import ROW_ID, IdChoiceField
from scoring.models import (
    LAST_ROUND,
    LAST_TABLE,
    Hanchan,
    Meet,
    PlayerEntry,
    RuleSet,
)
from scoring.notation import (
    Seat,
    format_big_hands,
    parse_big_hands,
    parse_score,
    points,
    seat_label,
    sign_class,
    signed_p,
)


class SentForm(forms.Form):
    """The id a tablet gave a game it kept while offline (``views.games.game_send``)."""

    sent_as = forms.UUIDField(label=_("Device's id"))
    # 要確認, 「この端末の方を残す」: the stored game the device's version replaces.
    replace = forms.IntegerField(label=_("Game to replace"), min_value=1, required=False)


class ScoreUnit:
    POINTS = "points"
    HUNDREDS = "hundreds"
    CHOICES = [
        (POINTS, _("As points: 32600")),
        (HUNDREDS, _("In hundreds: 326 = 32,600")),
    ]


GAME_FORM_MESSAGES = {
    "several": _("Several members match %(text)s: %(names)s. Type more."),
    "unknown": _("No member is called %(text)s."),
    "guest_exists": _(
        "There is a member called %(name)s already: untick 「New guest」 to choose them."
    ),
    "who_sat_here": _("Who sat here?"),
    "score_beyond": _("%(score)s points is beyond ±%(score_limit)s; please check."),
    "score_not_hundreds": _(
        "%(score)s is not a multiple of %(score_unit)s points. Did you mean to type in hundreds?"
    ),
    "deposits_unit": _(
        "Deposits held: %(deposits)s points is not a multiple of %(deposit_unit)s points."
    ),
    "nothing_entered": _("Enter the players and their scores."),
    "guest_twice": _("This guest is entered twice."),
    "enter_score": _("Enter the score."),
    "doubtful": _("Check the scores, or tick 「Save anyway」 to keep them."),
    "doubt_under": _("%(seat)s: %(score)s points is under %(likely_low)s."),
    "doubt_over": _("%(seat)s: %(score)s points is over %(likely_high)s."),
    "doubt_far": _(
        "%(seat)s: %(score)s points (the blank, filled in) is more than %(filled_gap)s points "
        "away from the scores typed."
    ),
    "meet_ahead": _(
        "This meet is dated %(days)s days from today. Check the date, or tick "
        "「Enter results for a date ahead」 to enter its results."
    ),
}
"""What the game form says of a seat and of the table, each by the name the check on the
device knows it by (scoring/entry_check.py sends them there, translated)."""
SAID = GAME_FORM_MESSAGES

LIMITS = {
    "score_limit": f"{rules.SCORE_LIMIT:,}",
    "score_unit": f"{rules.SCORE_UNIT:,}",
    "deposit_unit": f"{rules.DEPOSIT_UNIT:,}",
    "likely_low": f"{rules.LIKELY_SCORES[0]:,}",
    "likely_high": f"{rules.LIKELY_SCORES[1]:,}",
    "filled_gap": f"{rules.FILLED_GAP:,}",
}
"""The rule constants the messages name, as the messages write numbers (32,600): every
message of the game form is formatted with them (and the device's too)."""

SETTLEMENT_MESSAGES = {
    "name_guest_taken": _("%(seat)s “%(text)s”: a member already; untick 「New guest」"),
    "name_several": _("%(seat)s “%(text)s”: which one? %(names)s"),
    "name_close": _("%(seat)s “%(text)s”: no such member (close: %(names)s)"),
    "name_nobody": _("%(seat)s “%(text)s”: no such member"),
    "guest_hint": _(
        "A guest new to the score book? Tick 「New guest」 for the seat in the section below "
        "the save button."
    ),
    "seat_message": _("%(seat)s: %(message)s"),
    "total_short": _("Total %(total)s points: %(short)s points short"),
    "total_over": _("Total %(total)s points: %(over)s points over"),
    "total_over_off_top": _("Total %(total)s points: %(over)s points over (taken off the top)"),
    "total_ok": _("Total %(total)s points ✓"),
    "total_ok_held": _("Total %(total)s points + deposits held %(held)s = %(expected)s ✓"),
    "so_far": _("%(n)s of %(players)s scores in: %(total)s points so far"),
    "filled": _("%(seat)s: %(score)s points, the rest of the table total (left blank)"),
    "placeholder": _("Places and points appear here as you type."),
    # the headings of the table of places and points (``settlement_rows``)
    "head_seat": _("Seat · name"),
    "head_place": _("Place"),
    "head_score_p": _("Score P"),
    "head_rank_p": _("Rank P"),
    "head_chombo": _("Chombo"),
    "head_total_p": _("Total P"),
}
"""The live check's own lines, by the name the device knows each by: the partial
``settlement`` of templates/scoring/game_form.html draws them from ``settlement_lines``, the
device from static/js/entry_check.js's ``settlementLines``."""


def settlement_lines(preview: dict[str, Any]) -> list[dict[str, Any]]:
    """The live check's lines above the doubtful scores, as data: each line's ``class``, the
    message it says (``say``, a key of SETTLEMENT_MESSAGES; empty for a message the form said
    already, in ``text`` alone), its parameters as shown, and its ``text``. The device makes
    the same lines of its own check (the table of cases holds the two to each other), and
    both are drawn as ``<p class="…">text</p>``."""
    lines: list[dict[str, Any]] = []

    def say(css: str, key: str, **params: str) -> None:
        text = str(SETTLEMENT_MESSAGES[key]) % params
        lines.append({"class": css, "say": key, "params": params, "text": text})

    for n in preview["names"]:
        if n["guest_taken"]:
            key = "name_guest_taken"
        elif n["several"]:
            key = "name_several"
        else:
            key = "name_close" if n["candidates"] else "name_nobody"
        say("check bad", key, seat=n["seat"], text=n["text"], names=n["candidates"])
    if preview["guest_hint"]:
        say("help", "guest_hint")
    for error in preview["deposits"]:
        lines.append({"class": "check bad", "say": "", "params": {}, "text": str(error)})
    for s in preview["scores"]:
        say("check bad", "seat_message", seat=s["seat"], message=str(s["message"]))
    total = points(preview["total"])
    if not preview["complete"]:
        n, players = str(preview["entered"]), str(preview["players"])
        say("check", "so_far", n=n, players=players, total=total)
    elif preview["short"]:
        say("check bad", "total_short", total=total, short=points(preview["short"]))
    elif preview["over"] and preview["excess_off_top"]:
        say("check warn", "total_over_off_top", total=total, over=points(preview["over"]))
    elif preview["over"]:
        say("check bad", "total_over", total=total, over=points(preview["over"]))
    elif preview["held"]:
        # 預かり: the table is short by exactly the deposits held, and says so.
        held, expected = points(preview["held"]), points(preview["total"] + preview["held"])
        say("check ok", "total_ok_held", total=total, held=held, expected=expected)
    else:
        say("check ok", "total_ok", total=total)
    if preview["filled_seat"]:
        seat, score = preview["filled_seat"], points(preview["filled_score"])
        say("filled", "filled", seat=seat, score=score)
    return lines


def settlement_rows(settlement: rules.Settlement, names: dict[int, str]) -> list[dict[str, str]]:
    """The live check's table of places and points, as data: a row a seat, each figure as
    shown (``signed_p``), and the total's sign as its class. The template's partial
    ``settlement`` draws these rows, and the device makes the same of its own settlement
    (static/js/entry_check.js's ``settle``; the table of cases holds the two to each other)."""
    return [
        {
            "seat": seat_label(r.seat),
            "name": names[r.seat],
            "place": str(r.place),
            "score_points": signed_p(r.score_points),
            "rank_points": signed_p(r.rank_points),
            "chombo_points": signed_p(r.chombo_points) if r.chombo else "",
            "total": signed_p(r.total),
            "total_class": sign_class(r.total),
        }
        for r in settlement.results
    ]


class SeatForm(forms.Form):
    """One seat's row: who sat there, the score as typed, chombo, mangan or better.

    A player is found by name or furigana, or the start of either when that is unique (the
    meet's attendees first); when nobody or several match, ``candidates`` says whom they
    might have meant.
    """

    player = forms.CharField(
        label=_("Player"),
        max_length=NAME_LENGTH,
        required=False,
        widget=forms.TextInput(
            attrs={"list": "member-names", "autocomplete": "off", "class": "player"}
        ),
    )
    score = forms.CharField(
        label=_("Score"),
        max_length=16,
        required=False,
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "class": "score"}
        ),
    )
    chombo = forms.IntegerField(
        label=_("Chombo"),
        min_value=0,
        max_value=rules.CHOMBO_LIMIT,
        required=False,
        widget=forms.NumberInput(attrs={"class": "chombo"}),
    )
    hands = forms.CharField(
        label=_("Mangan or better"),
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"class": "hands", "autocomplete": "off"}),
    )
    # The name is a guest's, new to the score book: added as ゲスト (no login) with the game.
    guest = forms.BooleanField(label=_("New guest"), required=False)

    def __init__(
        self,
        *args: Any,
        meet: Meet,
        seat: int,
        unit: str,
        known_guests: Collection[Member] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.meet = meet
        self.seat = seat
        self.unit = unit
        self.known_guests = known_guests
        self.label = seat_label(seat)
        self.candidates: list[Member] = []  # whom a name that found nobody or several may mean

    def clean_player(self) -> Member | None:
        text: str = self.cleaned_data["player"].strip()
        if not text:
            return None
        if self.data.get(self.add_prefix("guest")):  # cleaned after the player: read it raw
            return self._new_guest(text)
        everyone = Member.objects.all()  # read once: matching() reuses the fetched rows
        attendees = self.meet.attendees.all() if self.meet.pk else Member.objects.none()
        for pool in (attendees, everyone):
            found = pool.matching(text)
            if len(found) == 1:
                return found[0]
            if found:
                self.candidates = found[:5]
                raise ValidationError(
                    SAID["several"],
                    code="ambiguous",
                    params={"text": text, "names": "、".join(m.name for m in self.candidates)},
                )
        # Nobody: the members the longest matching start of the text finds, if any.
        for end in range(len(text) - 1, 0, -1):
            self.candidates = everyone.matching(text[:end])[:5]
            if self.candidates:
                break
        raise ValidationError(SAID["unknown"], code="unknown", params={"text": text})

    def _new_guest(self, text: str) -> Member:
        """A guest added at the table, not saved yet: ``GameForm.save`` saves
        it with the game, or not at all. A name like a member's (spaces and widths folded)
        is refused: that member is to be chosen instead, unless it is one of the
        ``known_guests`` (the guests a game stored for the device's id made: that game sent
        again names them so)."""
        name = re.sub(r"[ 　]+", " ", text)
        no_control_characters(name)
        guest = Member(name=name, furigana="", is_guest=True, note=gettext("Added at the table."))
        namesake = guest.namesake()
        if namesake is not None and namesake in self.known_guests:
            return namesake
        if namesake is not None:
            raise ValidationError(
                SAID["guest_exists"],
                code="guest_exists",
                params={"name": namesake.name},
            )
        return guest

    def clean_score(self) -> int | None:
        """The score in points, read in the game's unit (``ScoreUnit``)."""
        text: str = self.cleaned_data["score"].strip()
        if not text:
            return None
        value = parse_score(text) * (100 if self.unit == ScoreUnit.HUNDREDS else 1)
        if abs(value) > rules.SCORE_LIMIT:
            raise ValidationError(SAID["score_beyond"], params={"score": f"{value:,}", **LIMITS})
        if value % rules.SCORE_UNIT:
            raise ValidationError(
                SAID["score_not_hundreds"], params={"score": f"{value:,}", **LIMITS}
            )
        return value

    def clean_hands(self) -> list[tuple[str, str]]:
        return parse_big_hands(self.cleaned_data["hands"] or "")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        # A name of spaces only is no name (clean_player strips it): it was let through and
        # the game failed to settle with a server error.
        named = str(self["player"].value() or "").strip()
        if not named and self["score"].value() and "player" not in self.errors:
            self.add_error("player", SAID["who_sat_here"])
        return data

    def is_empty(self) -> bool:
        """Neither a name nor a score typed: the seat is not taken."""
        return not "".join(str(self[name].value() or "") for name in ("player", "score")).strip()

    def shown_name(self) -> str:
        """The name the 錯和 and 満貫以上 rows show: the member found, else what was typed."""
        found = self.cleaned_data.get("player") if hasattr(self, "cleaned_data") else None
        if isinstance(found, Member):
            return found.name
        return str(self["player"].value() or "").strip()

    def name_problem(self) -> dict[str, Any] | None:
        """What the live check says of a name that finds nobody or several members."""
        several = self.has_error("player", "ambiguous")
        taken = self.has_error("player", "guest_exists")  # ticked 新しいゲスト: a member's name
        if not (several or taken or self.has_error("player", "unknown")):
            return None
        names = "、".join(m.name for m in self.candidates)
        text = str(self["player"].value()).strip()
        return {
            "seat": self.label,
            "text": text,
            "several": several,
            "candidates": names,
            "guest_taken": taken,
        }


# BaseFormSet is generic in django-stubs only; it cannot be subscripted at run time.
class SeatRows(forms.BaseFormSet):  # type: ignore[type-arg]
    """The table's four seat rows, 東 南 西 北 (a 3-player game leaves 北 empty). The number
    of rows is the number of seats, so there is no management form to send or to trust."""

    def total_form_count(self) -> int:
        return len(Seat)

    def initial_form_count(self) -> int:
        return len(Seat)  # every row is checked, a prefilled one too

    @cached_property
    def management_form(self) -> ManagementForm:
        form = ManagementForm(
            {
                self.add_prefix(TOTAL_FORM_COUNT): len(Seat),
                self.add_prefix(INITIAL_FORM_COUNT): len(Seat),
            },
            prefix=self.prefix,
        )
        form.full_clean()
        return form

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        return {**self.form_kwargs, "seat": index}


SeatFormSet = forms.formset_factory(SeatForm, formset=SeatRows, extra=0)


class GameForm(forms.Form):
    """One game's entry: the table's fields here, a row per seat in ``seats`` (SeatRows).

    One score may be left blank: it is filled in from the table total. ``initial["players"]``
    (a drawn table's members, in order) fills the seat rows' names.
    """

    table_no = forms.IntegerField(label=_("Table"), min_value=1, max_value=LAST_TABLE)
    round_no = forms.IntegerField(label=_("Round"), min_value=1, max_value=LAST_ROUND)
    rule_set = IdChoiceField(label=_("Rule set"), queryset=lambda: RuleSet.objects.all())
    unit = forms.ChoiceField(
        label=_("Scores are typed"),
        choices=ScoreUnit.CHOICES,
        initial=ScoreUnit.POINTS,
        widget=forms.RadioSelect,
    )
    deposits_held = forms.IntegerField(
        label=_("Deposits held (預かり)"),
        min_value=0,
        initial=0,
        required=False,
        help_text=_("In the same unit as the scores: 10 in hundreds is 1,000 points."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    note = forms.CharField(
        label=_("Note"),
        max_length=NOTE_LENGTH,
        required=False,
        validators=[no_control_characters],
    )
    version = forms.IntegerField(
        label=_("Version of the game"), widget=forms.HiddenInput, required=False
    )
    confirm_scores = forms.BooleanField(label=_("Save anyway"), required=False)
    confirm_date = forms.BooleanField(label=_("Enter results for a date ahead"), required=False)

    def __init__(
        self,
        *args: Any,
        meet: Meet,
        game: Hanchan | None = None,
        known_guests: Collection[Member] = (),
        **kwargs: Any,
    ):
        """``game``: the stored game edited (None for a new one). ``known_guests``: guests a
        row ticked 新しいゲスト may name although they exist (``SeatForm._new_guest``)."""
        super().__init__(*args, **kwargs)
        self.meet = meet
        self.game = game
        self.stale = False  # saving was refused: someone else changed the game meanwhile
        self.stale_message = ""
        self.filled_seat: int | None = None
        self.filled_score: int | None = None
        self.scores: dict[int, int] = {}  # seat -> score, as read (with a filled-in blank)
        self.entries: list[PlayerEntry] = []
        self.doubts: list[rules.DoubtfulScore] = []  # asked about before saving
        self.added_to_attendance: list[Member] = []  # by save()
        players: list[Member] = self.initial.get("players") or []
        rows = self.initial.get("seats") or [{"player": m.name} for m in players]
        self.seats = SeatFormSet(
            self.data if self.is_bound else None,
            prefix="seat",
            initial=rows,
            form_kwargs={"meet": meet, "unit": self["unit"].value(), "known_guests": known_guests},
        )
        if game is None and not self.is_bound:  # a refused save focuses what was refused
            first = "score" if players else "player"
            self.seats.forms[0].fields[first].widget.attrs["autofocus"] = True

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        self.seats.is_valid()
        rows = [(r, r.cleaned_data.get("score")) for r in self.seats.forms if not r.is_empty()]
        rule_set: RuleSet | None = data.get("rule_set")
        if rule_set is not None and not self.has_errors():
            self._fill_the_blank_score(rows, rule_set.params(), data.get("deposits_held") or 0)
        self.scores = {row.seat: score for row, score in rows if score is not None}
        if self.has_errors():
            return data
        if not rows:
            raise ValidationError(SAID["nothing_entered"])
        new_guests: set[str] = set()
        for row, _score in rows:
            player = row.cleaned_data.get("player")
            if isinstance(player, Member) and player.pk is None:
                if name_key(player.name) in new_guests:
                    row.add_error("player", SAID["guest_twice"])
                new_guests.add(name_key(player.name))
        if self.has_errors():
            return data
        for row, score in rows:
            if score is None:
                row.add_error("score", SAID["enter_score"])
                continue
            player, chombo, hands = (row.cleaned_data[f] for f in ("player", "chombo", "hands"))
            self.entries.append(PlayerEntry(player, row.seat, score, chombo or 0, hands))
        self.doubts = rules.doubtful_scores(self.scores, self.filled_seat)
        if self.doubts and not data.get("confirm_scores"):
            self.add_error(
                "confirm_scores",
                ValidationError(SAID["doubtful"], code="doubtful"),
            )
        if self.days_ahead and not data.get("confirm_date"):
            # Results for a day to come were once taken and finalised without a word: ask.
            self.add_error(
                "confirm_date",
                ValidationError(
                    SAID["meet_ahead"],
                    code="meet_ahead",
                    params={"days": str(self.days_ahead)},
                ),
            )
        return data

    @cached_property
    def days_ahead(self) -> int:
        """How many days the meet's date lies after today (0 for today or a day past)."""
        return max(0, (self.meet.date - timezone.localdate()).days)

    def meet_ahead_message(self) -> str:
        """The question the form asks of a meet dated ahead, before the results are saved."""
        if not self.days_ahead:
            return ""
        return str(SAID["meet_ahead"]) % {"days": str(self.days_ahead)}

    def clean_deposits_held(self) -> int:
        """預かり in points, read in the scores' unit (``ScoreUnit``): 10 in hundreds is 1,000.
        A deposit that is not whole 1,000-point sticks is said of 預かり."""
        typed: int = self.cleaned_data.get("deposits_held") or 0
        unit = self.cleaned_data.get("unit")
        value = typed * (100 if unit == ScoreUnit.HUNDREDS else 1)
        if value % rules.DEPOSIT_UNIT:
            raise ValidationError(
                SAID["deposits_unit"],
                code="deposits_unit",
                params={"deposits": f"{value:,}", **LIMITS},
            )
        return value

    def doubt_messages(self) -> list[str]:
        """What the warning says of each doubtful score (``rules.doubtful_scores``)."""
        return [
            str(SAID[f"doubt_{d.doubt}"])
            % {"seat": seat_label(d.seat), "score": f"{d.score:,}", **LIMITS}
            for d in self.doubts
        ]

    @property
    def players(self) -> int:
        """How many players the chosen rule set seats (4 when none is chosen yet)."""
        chosen = self["rule_set"].value()
        if chosen and ROW_ID.fullmatch(str(chosen)):
            rule_set = RuleSet.objects.filter(pk=chosen).first()
            if rule_set is not None:
                return rule_set.players
        return len(Seat)

    def bound_to_initial(self) -> GameForm:
        """The same form bound to its starting values: the edit form's live check at load."""
        data = {self.add_prefix(name): self[name].value() for name in self.fields}
        for row in self.seats.forms:
            data |= {row.add_prefix(name): row[name].value() for name in row.fields}
        data = {name: value for name, value in data.items() if value not in (None, False)}
        return GameForm(data, meet=self.meet, game=self.game)

    def seats_have_errors(self) -> bool:
        return any(row.errors for row in self.seats.forms)

    def has_errors(self) -> bool:
        return bool(self.errors) or any(row.errors for row in self.seats.forms)

    def refused_fields(self) -> list[forms.BoundField]:
        """The fields a refused save names, in the order the page shows them: the summary at
        the top links to each, and the page puts the focus on the first."""
        seats = self.seats.forms
        order = [self["confirm_date"], self["round_no"], self["table_no"], self["rule_set"]]
        order += [self["unit"]] + [row[name] for row in seats for name in ("player", "score")]
        order += [self["confirm_scores"]]
        order += [row[name] for row in seats for name in ("chombo", "hands", "guest")]
        order += [self["deposits_held"], self["note"]]
        return [field for field in order if field.errors]

    def is_valid(self) -> bool:
        return super().is_valid() and not self.has_errors()

    def _fill_the_blank_score(
        self, rows: list[tuple[SeatForm, int | None]], params: rules.RuleParams, deposits: int
    ) -> None:
        """With every player named and exactly one score blank, that score is the rest."""
        blank = [i for i, (_row, score) in enumerate(rows) if score is None]
        if len(rows) != params.players or len(blank) != 1:
            return
        known = [score for _row, score in rows if score is not None]
        row = rows[blank[0]][0]
        self.filled_score = rules.remaining_score(params, known, deposits)
        rows[blank[0]] = (row, self.filled_score)
        self.filled_seat = row.seat

    def preview(self) -> dict[str, Any]:
        """What the live check shows while typing: names that find nobody or several, the
        table total and, when the game is complete and valid, each player's settlement.
        Nothing is saved."""
        self.is_valid()
        asked = {"confirm_scores", "confirm_date"}  # questions, not faults of the game
        valid = not self.seats_have_errors() and not (set(self.errors) - asked)
        rule_set: RuleSet | None = self.cleaned_data.get("rule_set")
        if rule_set is None:
            return {"ready": False}
        params = rule_set.params()
        deposits = self.cleaned_data.get("deposits_held") or 0
        complete = len(self.scores) == params.players
        balance = rules.table_balance(params, list(self.scores.values()), deposits)
        context: dict[str, Any] = {
            "ready": True,
            "complete": complete,
            "players": params.players,
            "entered": len(self.scores),
            "total": sum(self.scores.values()),
            "held": deposits,
            "short": max(0, -balance),
            "over": max(0, balance),
            "excess_off_top": params.total_policy is rules.TotalPolicy.EXCESS_OFF_TOP,
            "filled_seat": seat_label(self.filled_seat) if self.filled_seat is not None else "",
            "filled_score": self.filled_score,
            "names": (names := [p for row in self.seats.forms if (p := row.name_problem())]),
            # a name that finds nobody may be a guest's, new to the score book
            "guest_hint": any(not (n["several"] or n["guest_taken"]) for n in names),
            "scores": [  # a typed score that cannot stand (not in 100s, beyond the limit)
                {"seat": row.label, "message": message}
                for row in self.seats.forms
                for message in row.errors.get("score", [])
            ],
            "deposits": self.errors.get("deposits_held", []),
            "doubts": self.doubt_messages(),
            "seat_names": [row.shown_name() for row in self.seats.forms],
            "confirm": self["confirm_scores"],
            "rows": [],
            "problem": "",
        }
        context["lines"] = settlement_lines(context)
        if not (valid and complete):
            return context
        try:
            settlement = self.build_game().settle(self.entries)
        except ValidationError as error:
            context["problem"] = " ".join(error.messages)
            return context
        context["rows"] = settlement_rows(settlement, {e.seat: e.member.name for e in self.entries})
        return context

    def build_game(self) -> Hanchan:
        """The game these fields describe (not saved): the edited one, or a new one."""
        game = self.game or Hanchan(meet=self.meet)
        game.table_no = self.cleaned_data["table_no"]
        game.round_no = self.cleaned_data["round_no"]
        game.rule_set = self.cleaned_data["rule_set"]
        game.deposits_held = self.cleaned_data.get("deposits_held") or 0
        game.note = self.cleaned_data.get("note") or ""
        return game

    def save(self, sent_as: UUID | None = None) -> Hanchan:
        """Record the game (settled, all or nothing), with the new guests typed at the table
        (saved in the same transaction: if the game is refused, no guest is left behind).
        Errors land on the form.

        ``sent_as``: the device's id of a game kept offline (``Hanchan.record``; raises
        ``SentBefore`` when a game was stored for it already)."""
        game = self.build_game()
        new_guests = [e.member for e in self.entries if e.member.pk is None]  # _new_guest's
        try:
            with transaction.atomic():
                for guest in new_guests:
                    guest.full_clean(exclude=["furigana"])
                    guest.save()
                recorded = game.record(
                    self.entries,
                    expected_version=self.cleaned_data.get("version"),
                    sent_as=sent_as,
                )
        except Exception as error:
            for guest in new_guests:
                guest.pk = None  # rolled back with the game
            if isinstance(error, ValidationError):
                self._place_error(error)
            raise
        self.added_to_attendance = recorded.added_to_attendance
        return game

    def saved_already(self) -> Hanchan | None:
        """The stored game that is exactly this one already (the same form sent twice)."""
        data = self.cleaned_data
        same = Hanchan.objects.filter(
            meet=self.meet, round_no=data["round_no"], table_no=data["table_no"]
        )
        if self.game is not None:
            same = same.filter(pk=self.game.pk)
        stored = same.first()
        return stored if stored is not None and self.holds(stored) else None

    def holds(self, stored: Hanchan) -> bool:
        """Whether ``stored`` is what saving this (valid) form would store: the same meet,
        round, table, rule set, deposits and note, and the same players in the same seats
        with the same scores, chombo and big hands."""
        data = self.cleaned_data
        sent = (
            self.meet.pk,
            data["round_no"],
            data["table_no"],
            data["rule_set"].pk,
            data.get("deposits_held") or 0,
            data.get("note") or "",
        )
        kept = (
            stored.meet_id,
            stored.round_no,
            stored.table_no,
            stored.rule_set_id,
            stored.deposits_held,
            stored.note,
        )
        return sent == kept and stored.is_same_game(self.entries)

    def _place_error(self, error: ValidationError) -> None:
        """Put a seat's error next to that seat's score, the rest at the top."""
        if hasattr(error, "error_dict"):  # from full_clean(): a unique constraint
            items = [item for errors in error.error_dict.values() for item in errors]
        else:
            items = error.error_list
        for item in items:
            if item.code == "stale":
                self.stale = True
            seat = (item.params or {}).get("seat_no")
            if seat is not None and item.code in {"score_not_multiple", "score_out_of_range"}:
                self.seats.forms[seat].add_error("score", item)
            elif seat is not None and item.code in {"chombo_negative", "chombo_too_many"}:
                self.seats.forms[seat].add_error("chombo", item)
            else:
                self.add_error(None, item)


def initial_for_game(game: Hanchan) -> dict[str, Any]:
    """The form's starting values for editing a stored game."""
    initial: dict[str, Any] = {
        "table_no": game.table_no,
        "round_no": game.round_no,
        "rule_set": game.rule_set_id,
        "deposits_held": game.deposits_held,
        "note": game.note,
        "version": game.version,
        "unit": ScoreUnit.POINTS,
    }
    results = game.results.select_related("member").prefetch_related("big_hands")
    by_seat = {result.seat: result for result in results}
    initial["seats"] = [
        {
            "player": r.member.name,
            "score": str(r.score),
            "chombo": r.chombo or None,
            "hands": format_big_hands([(h.level, h.yakuman_name) for h in r.big_hands.all()]),
        }
        if (r := by_seat.get(seat))
        else {}
        for seat in range(len(Seat))
    ]
    return initial
