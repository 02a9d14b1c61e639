from __future__ import annotations

import re
from datetime import date
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from members.models import Member, no_control_characters
from scoring import rules
from scoring.models import (
    MEET_DATES,
    SEAT_NAMES,
    Hanchan,
    Meet,
    PlayerEntry,
    RuleSet,
    Seat,
    format_big_hands,
    parse_big_hands,
    parse_score,
)


class RuleSetCopyForm(forms.Form):
    name = forms.CharField(label=_("Name of the copy"), max_length=60)

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        if RuleSet.objects.filter(name=name).exists():
            raise forms.ValidationError(_("A rule set with this name exists already."))
        return name


ROW_ID = re.compile(r"[0-9]{1,18}")
"""What a row id in a form looks like. Anything else is refused before the database sees it:
SQLite cannot hold an integer past 2**63, and "²" passes ``isdigit`` but not ``int``."""


# The model fields are generic in django-stubs only; Django's classes cannot be subscripted
# at run time.
class IdChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def to_python(self, value: Any) -> Any:
        if value not in self.empty_values and not ROW_ID.fullmatch(str(value)):
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class IdMultipleChoiceField(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]
    def _check_values(self, value: Any) -> Any:
        for pk in value:
            if not ROW_ID.fullmatch(str(pk)):
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        # A private method of Django's that django-stubs does not declare.
        return super()._check_values(value)  # type: ignore[misc]


class MeetForm(forms.ModelForm):  # type: ignore[type-arg]  # not subscriptable at run time
    """A meet's date, kind, rule set, attendance and note.

    A 土曜会 dated on another day than a Saturday, or a 水曜会 not on a Wednesday, is most
    likely a slip of the date: the form comes back with a warning and 「このまま保存」, and
    saves only when that is ticked (a meet moved for a holiday is saved so). An edit that
    leaves the date and kind as they were is not asked again. A new meet starts on today's
    date with the kind held on today's weekday (その他 on the other days)."""

    MEET_WEEKDAYS = {"wed": 2, "sat": 5}
    """The day of the week (Monday 0) each kind of meet (MeetKind) is held on."""

    confirm_day = forms.BooleanField(label=_("Save anyway"), required=False)

    class Meta:
        model = Meet
        fields = ["date", "kind", "rule_set", "attendees", "note"]
        field_classes = {"rule_set": IdChoiceField, "attendees": IdMultipleChoiceField}
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "kind": forms.RadioSelect,
            "attendees": forms.CheckboxSelectMultiple,
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is None:
            today = timezone.localdate()
            self.initial.setdefault("date", today)
            # The kind held on today's weekday, so today's date never needs 「このまま保存」.
            kinds = {weekday: kind for kind, weekday in self.MEET_WEEKDAYS.items()}
            self.initial.setdefault("kind", kinds.get(today.weekday(), "other"))
            default = RuleSet.objects.filter(is_default=True).first()
            if default is not None:
                self.initial.setdefault("rule_set", default.pk)
        attendees = self.fields["attendees"]
        assert isinstance(attendees, forms.ModelMultipleChoiceField)
        attendees.queryset = Member.objects.filter(is_active=True) | Member.objects.filter(
            pk__in=self.instance.attendees.values("pk") if self.instance.pk else []
        )
        self.day_warning = ""

    def clean_date(self) -> date:
        """A meet is dated within MEET_DATES; said with Japanese dates (1990年1月1日), where
        the model's own validator would say 1990-01-01."""
        day: date = self.cleaned_data["date"]
        first, last = MEET_DATES
        if not first <= day <= last:
            raise ValidationError(
                _("A meet is dated from %(first)s to %(last)s.")
                % {"first": formats.date_format(first), "last": formats.date_format(last)},
                code="date_range",
            )
        return day

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        day, kind = cleaned.get("date"), str(cleaned.get("kind") or "")
        weekday = self.MEET_WEEKDAYS.get(kind)
        unchanged = self.instance.pk is not None and not {"date", "kind"} & set(self.changed_data)
        if day is None or weekday is None or day.weekday() == weekday or unchanged:
            return cleaned
        self.day_warning = _("%(meet)s: that day is not a %(weekday)s.") % {
            "meet": Meet(date=day, kind=kind),  # 2025年4月9日（水） 土曜会
            "weekday": _("Saturday") if weekday == 5 else _("Wednesday"),
        }
        if not cleaned.get("confirm_day"):
            self.add_error(
                "confirm_day",
                ValidationError(
                    _("Check the date, or tick 「Save anyway」 to keep it."), code="weekday"
                ),
            )
        return cleaned


class ReopenForm(forms.Form):
    reason = forms.CharField(label=_("Reason for reopening"), max_length=200)


class ScoreUnit:
    POINTS = "points"
    HUNDREDS = "hundreds"
    CHOICES = [
        (POINTS, _("As points: 32600")),
        (HUNDREDS, _("In hundreds: 326 = 32,600")),
    ]


class GameForm(forms.Form):
    """One game's entry: up to four players (東 南 西 北), their scores, chombo, big hands.

    A player is found by name or furigana, or the start of either when that is unique (the
    meet's attendees first). One score may be left blank: it is filled in from the table total.
    """

    SEATS = range(len(Seat))  # the seats a table may have; a 3-player game leaves 北 empty

    table_no = forms.IntegerField(label=_("Table"), min_value=1, max_value=50)
    round_no = forms.IntegerField(label=_("Round"), min_value=1, max_value=20)
    rule_set = IdChoiceField(label=_("Rule set"), queryset=RuleSet.objects.all())
    unit = forms.ChoiceField(
        label=_("Scores are typed"),
        choices=ScoreUnit.CHOICES,
        initial=ScoreUnit.POINTS,
        widget=forms.RadioSelect,
    )
    deposits_held = forms.IntegerField(
        label=_("Deposits held (預かり)"), min_value=0, initial=0, required=False
    )
    note = forms.CharField(
        label=_("Note"), max_length=200, required=False, validators=[no_control_characters]
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, meet: Meet, game: Hanchan | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.meet = meet
        self.game = game
        self.stale = False  # saving was refused: someone else changed the game meanwhile
        self.stale_message = ""
        self.filled_seat: int | None = None
        self.filled_score: int | None = None
        self.scores: dict[int, int] = {}  # seat -> score, as read (with a filled-in blank)
        self.entries: list[PlayerEntry] = []
        self.added_to_attendance: list[Member] = []  # by save()
        for seat in self.SEATS:
            name = SEAT_NAMES[seat]
            self.fields[f"player_{seat}"] = forms.CharField(
                label=_("%(seat)s player") % {"seat": name},
                max_length=40,
                required=False,
                widget=forms.TextInput(
                    attrs={"list": "member-names", "autocomplete": "off", "class": "player"}
                ),
            )
            self.fields[f"score_{seat}"] = forms.CharField(
                label=_("%(seat)s score") % {"seat": name},
                max_length=16,
                required=False,
                widget=forms.TextInput(
                    attrs={"inputmode": "numeric", "autocomplete": "off", "class": "score"}
                ),
            )
            self.fields[f"chombo_{seat}"] = forms.IntegerField(
                label=_("%(seat)s chombo") % {"seat": name},
                min_value=0,
                max_value=rules.CHOMBO_LIMIT,
                required=False,
                widget=forms.NumberInput(attrs={"class": "chombo"}),
            )
            self.fields[f"hands_{seat}"] = forms.CharField(
                label=_("%(seat)s mangan or better") % {"seat": name},
                max_length=200,
                required=False,
                widget=forms.TextInput(attrs={"class": "hands", "autocomplete": "off"}),
            )

        if game is None:
            self.fields["player_0"].widget.attrs["autofocus"] = True

    def seat_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": SEAT_NAMES[seat],
                "player": self[f"player_{seat}"],
                "score": self[f"score_{seat}"],
                "chombo": self[f"chombo_{seat}"],
                "hands": self[f"hands_{seat}"],
            }
            for seat in self.SEATS
        ]

    def _find_member(self, text: str) -> Member:
        attendees = self.meet.attendees.all() if self.meet.pk else Member.objects.none()
        for pool in (attendees, Member.objects.all()):
            found = pool.matching(text)
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                names = "、".join(m.name for m in found[:5])
                raise ValidationError(
                    _("Several members match %(text)s: %(names)s. Type more."),
                    params={"text": text, "names": names},
                )
        raise ValidationError(_("No member is called %(text)s."), params={"text": text})

    def _read_score(self, text: str, unit: str) -> int:
        value = parse_score(text)
        if unit == ScoreUnit.HUNDREDS:
            value *= 100
        if abs(value) > rules.SCORE_LIMIT:
            raise ValidationError(
                _("%(score)s points is beyond ±1,000,000; please check."),
                params={"score": f"{value:,}"},
            )
        if value % rules.SCORE_UNIT:
            raise ValidationError(
                _("%(score)s is not a multiple of 100 points. Did you mean to type in hundreds?"),
                params={"score": f"{value:,}"},
            )
        return value

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        unit = data.get("unit") or ScoreUnit.POINTS
        rows: list[tuple[int, Member | None, int | None]] = []
        for seat in self.SEATS:
            player_text = (data.get(f"player_{seat}") or "").strip()
            score_text = (data.get(f"score_{seat}") or "").strip()
            if not player_text and not score_text:
                continue
            member = score = None
            if not player_text:
                self.add_error(f"player_{seat}", _("Who sat here?"))
            else:
                try:
                    member = self._find_member(player_text)
                except ValidationError as error:
                    self.add_error(f"player_{seat}", error)
            if score_text:
                try:
                    score = self._read_score(score_text, unit)
                except ValidationError as error:
                    self.add_error(f"score_{seat}", error)
            rows.append((seat, member, score))
        rule_set: RuleSet | None = data.get("rule_set")
        if rule_set is not None and not self.errors:
            self._fill_the_blank_score(rows, rule_set.params(), data.get("deposits_held") or 0)
        self.scores = {seat: score for seat, _member, score in rows if score is not None}
        if self.errors:
            return data
        if not rows:
            raise ValidationError(_("Enter the players and their scores."))
        for seat, member, score in rows:
            if score is None:
                self.add_error(f"score_{seat}", _("Enter the score."))
                continue
            assert member is not None
            try:
                hands = parse_big_hands(data.get(f"hands_{seat}") or "")
            except ValidationError as error:
                self.add_error(f"hands_{seat}", error)
                continue
            chombo = data.get(f"chombo_{seat}") or 0
            self.entries.append(PlayerEntry(member, seat, score, chombo, hands))
        return data

    def _fill_the_blank_score(
        self,
        rows: list[tuple[int, Member | None, int | None]],
        params: rules.RuleParams,
        deposits_held: int,
    ) -> None:
        """With every player named and exactly one score blank, that score is the rest."""
        blank = [i for i, (_seat, _member, score) in enumerate(rows) if score is None]
        if len(rows) != params.players or len(blank) != 1:
            return
        known = [score for _seat, _member, score in rows if score is not None]
        seat, member, _ = rows[blank[0]]
        self.filled_score = rules.remaining_score(params, known, deposits_held)
        rows[blank[0]] = (seat, member, self.filled_score)
        self.filled_seat = seat

    def preview(self) -> dict[str, Any]:
        """What the live check shows while typing: the table total and, when the game is
        complete and valid, each player's settlement. Nothing is saved."""
        valid = self.is_valid()
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
            "expected": params.table_total - deposits,
            "total": sum(self.scores.values()),
            "short": max(0, -balance),
            "over": max(0, balance),
            "excess_off_top": params.total_policy is rules.TotalPolicy.EXCESS_OFF_TOP,
            "filled_seat": SEAT_NAMES[self.filled_seat] if self.filled_seat is not None else "",
            "filled_score": self.filled_score,
            "rows": [],
            "problem": "",
        }
        if not (valid and complete):
            return context
        try:
            settlement = self.build_game().settle(self.entries)
        except ValidationError as error:
            context["problem"] = " ".join(error.messages)
            return context
        by_seat = {e.seat: e for e in self.entries}
        context["rows"] = [
            {"seat": SEAT_NAMES[r.seat], "name": by_seat[r.seat].member.name, "result": r}
            for r in settlement.results
        ]
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

    def save(self) -> Hanchan:
        """Record the game (settled, all or nothing). Errors land on the form."""
        game = self.build_game()
        try:
            recorded = game.record(self.entries, expected_version=self.cleaned_data.get("version"))
        except ValidationError as error:
            self._place_error(error)
            raise
        self.added_to_attendance = recorded.added_to_attendance
        return game

    def _place_error(self, error: ValidationError) -> None:
        """Put a seat's error next to that seat's score, the rest at the top."""
        if hasattr(error, "error_dict"):  # from full_clean(): a unique constraint
            items = [item for errors in error.error_dict.values() for item in errors]
        else:
            items = error.error_list
        for item in items:
            if item.code == "stale":
                self.stale = True
            seat = (item.params or {}).get("seat")
            if seat in SEAT_NAMES and item.code in {"score_not_multiple", "score_out_of_range"}:
                self.add_error(f"score_{SEAT_NAMES.index(seat)}", item)
            elif seat in SEAT_NAMES and item.code in {"chombo_negative", "chombo_too_many"}:
                self.add_error(f"chombo_{SEAT_NAMES.index(seat)}", item)
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
    for result in game.results.select_related("member").prefetch_related("big_hands"):
        seat = result.seat
        initial[f"player_{seat}"] = result.member.name
        initial[f"score_{seat}"] = str(result.score)
        initial[f"chombo_{seat}"] = result.chombo or None
        initial[f"hands_{seat}"] = format_big_hands(
            [(h.level, h.yakuman_name) for h in result.big_hands.all()]
        )
    return initial
